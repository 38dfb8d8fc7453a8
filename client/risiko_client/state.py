"""What the client reads of a game: its state as a seat (or a spectator) sees it, its
events, the answer to a move, a seat taken, a board, the odds of an attack."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from risiko_client.transport import Json

ActionInput = dict[str, Any]  # exactly one member: {"attackUntil": {...}}, {"endTurn": True}, …


@dataclass(frozen=True)
class Seat:
    """A seat taken with join_game; the token is shown once, keep it (a seat taken with an
    account's credential: that credential, which acts for it). `client_seed`: the seat's
    contribution to the game's randomness, when the server recorded it (check it in the
    game's `randomness` once it has started)."""

    game_id: str
    seat: int
    token: str
    client_seed: str | None = None


@dataclass(frozen=True)
class UserError:
    """Why an action was refused (nothing changed)."""

    code: str
    message: str
    field: list[str] | None = None


@dataclass(frozen=True)
class GameEvent:
    """An event of a game's history, as the viewer may see it."""

    seq: int
    version: int
    type: str
    private: bool
    data: Json


@dataclass(frozen=True)
class GameState:
    """A game as the client's seat (or a spectator) sees it. Players, territories, the hand,
    the objective, the outcome and the legal action families are the API's raw dicts;
    each family has its `__typename`, its range fields and a ready `input`.

    S.P.Q.RisiKo!: territories are provinces and sea areas; a province held by neutral
    legionaries has `owner` None and `neutral` its colour (one of `neutral_colours`), a sea
    area lists its `triremes` by seat; players have `victoryPoints` and `triremes`."""

    id: str
    variant: str
    version: int
    status: str  # LOBBY, ACTIVE, FINISHED
    phase: str | None  # SETUP, REINFORCE, (NAVAL_… and SEA_ATTACK,) ATTACK, DEFEND, OCCUPY, OVER
    round: int
    current_player: int | None
    seat_to_act: int | None
    viewer_seat: int | None
    armies_to_place: int
    players: list[Json]
    territories: list[Json]
    hand: list[Json] | None
    objective: Json | None
    legal_actions: list[Json]
    outcome: Json | None
    neutral_colours: list[str] = field(default_factory=list)
    pending_triremes: int = 0  # won with a set, still to place (S.P.Q.RisiKo!)
    pending_power_centres: int = 0

    @classmethod
    def from_data(cls, data: Json) -> GameState:
        return cls(
            id=data["id"],
            variant=data["variant"],
            version=data["version"],
            status=data["status"],
            phase=data["phase"],
            round=data["round"],
            current_player=data["currentPlayer"],
            seat_to_act=data["seatToAct"],
            viewer_seat=data["viewerSeat"],
            armies_to_place=data["armiesToPlace"],
            players=data["players"],
            territories=data["territories"],
            hand=data["hand"],
            objective=data["objective"],
            legal_actions=data["legalActions"],
            outcome=data["outcome"],
            neutral_colours=data["neutralColours"],
            pending_triremes=data["pendingTriremes"],
            pending_power_centres=data["pendingPowerCentres"],
        )

    @property
    def my_turn(self) -> bool:
        """The game waits for the viewer's seat."""
        return self.viewer_seat is not None and self.seat_to_act == self.viewer_seat

    @property
    def finished(self) -> bool:
        return self.status == "FINISHED"

    def owners(self) -> dict[str, int | None]:
        return {t["id"]: t["owner"] for t in self.territories}

    def armies(self) -> dict[str, int]:
        return {t["id"]: t["armies"] for t in self.territories}

    def triremes(self) -> dict[str, dict[int, int]]:
        """S.P.Q.RisiKo!: each sea area's triremes by seat (seas without any are left out)."""
        return {
            t["id"]: {f["seat"]: f["count"] for f in t["triremes"]}
            for t in self.territories
            if t["triremes"]
        }

    def families(self, typename: str) -> list[Json]:
        """The legal families of one kind, e.g. families("LegalAttackUntil")."""
        return [f for f in self.legal_actions if f["__typename"] == typename]


@dataclass(frozen=True)
class Submitted:
    """The answer to submit: the new version and the caller's events, or the user errors
    (`STALE_VERSION`, `NOT_YOUR_TURN`, …) of a refused action; `state` is the game after it."""

    version: int | None
    events: list[GameEvent]
    user_errors: list[UserError]
    state: GameState | None = None

    @property
    def ok(self) -> bool:
        return not self.user_errors


@dataclass(frozen=True)
class Odds:
    """Exact odds of attacking until conquest or exhaustion (see battle_odds)."""

    attackers: int
    defenders: int
    conquest_probability: float
    attacker_survivors: list[float]
    defender_survivors: list[float]
    expected_attacker_losses: float
    expected_defender_losses: float


# Edge kinds that join two land spaces (armies cross them); `coast` joins a province and a
# sea area, `sea` two sea areas (S.P.Q.RisiKo!).
LAND_EDGES = frozenset({"land", "sea_line", "black_line"})


@dataclass(frozen=True)
class Board:
    """A variant's board: territories (id → region), regions (id → bonus, territories) and
    borders: `neighbours` across every edge kind, `land_neighbours` across the edges armies
    cross (in classic, every edge). S.P.Q.RisiKo!: the sea areas are in `seas`; `coasts`
    gives a province its sea areas and a sea area its shore provinces; `sea_neighbours`
    joins sea areas (where fleets move)."""

    id: str
    name: str
    regions: dict[str, Json]
    region_of: dict[str, str | None]
    neighbours: dict[str, frozenset[str]] = field(repr=False)
    seas: frozenset[str] = frozenset()
    land_neighbours: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    coasts: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    sea_neighbours: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_data(cls, data: Json) -> Board:
        ids = [t["id"] for t in data["territories"]]
        kinds = ("all", "land", "coast", "sea")
        joined: dict[str, dict[str, set[str]]] = {k: {t: set() for t in ids} for k in kinds}
        for edge in data["edges"]:
            kind = "land" if edge["kind"] in LAND_EDGES else edge["kind"]
            for found in (joined["all"], joined.get(kind)):
                if found is not None:
                    found[edge["a"]].add(edge["b"])
                    found[edge["b"]].add(edge["a"])

        def frozen(kind: str) -> dict[str, frozenset[str]]:
            return {t: frozenset(n) for t, n in joined[kind].items()}

        return cls(
            id=data["id"],
            name=data["name"],
            regions={r["id"]: r for r in data["regions"]},
            region_of={t["id"]: t["region"] for t in data["territories"]},
            neighbours=frozen("all"),
            seas=frozenset(t["id"] for t in data["territories"] if t["kind"] == "SEA"),
            land_neighbours=frozen("land"),
            coasts=frozen("coast"),
            sea_neighbours=frozen("sea"),
        )


def game_event(data: Json) -> GameEvent:
    return GameEvent(data["seq"], data["version"], data["type"], data["private"], data["data"])
