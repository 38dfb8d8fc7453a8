"""The parts a `Game` shows (api/graphql/game.py): its players, its spaces and what stands on
them, the viewer's own hand, objective and secrets, the prompts owed, and how it ended."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from api.anonymous import shown_name
from api.graphql.generated import member, ready_input
from api.graphql.seat_types import SeatAccount, seat_account
from api.stores.base import GameRecord
from bots.seated import BotPolicy as DomainBotPolicy
from domain.kernel import Kernel
from domain.observation import Observation
from domain.views import ARMY, SCORES, SpaceView, declared


@strawberry.type(description="A player's public facts.")
class Player:
    seat: int = strawberry.field(description="Seat number, from 0, in joining order.")
    name: str = strawberry.field(description="The name given at joinGame.")
    colour: str = strawberry.field(description="Colour id.")
    territories: int = strawberry.field(description="Territories held.")
    armies: int = strawberry.field(description="Armies on the board.")
    cards: int = strawberry.field(description="Cards in hand (how many, never which).")
    eliminated: bool = strawberry.field(description="Lost every territory.")
    resigned: bool = strawberry.field(description="Left the game; their armies stay.")
    victory_points: int = strawberry.field(
        description="S.P.Q.RisiKo!: victory points won so far (claimed at the start of each of "
        "the player's turns); 0 in classic games."
    )
    triremes: int = strawberry.field(
        description="S.P.Q.RisiKo!: triremes on every sea area; 0 in classic games."
    )
    bot: DomainBotPolicy | None = strawberry.field(
        default=None, description="How the server plays this seat, if a bot does (addBot)."
    )
    absences: int = strawberry.field(
        default=0, description="Timeouts in a row, in a timed game (resignAfter resigns)."
    )
    account: SeatAccount | None = strawberry.field(
        default=None,
        description="The account the seat is bound to (its `bot` marks a bot account); null "
        "for a guest, a bot the server plays, and an account deleted since (its name shows as "
        "'anonymous').",
    )


@strawberry.type(description="A seat's triremes on a sea area.")
class FleetCount:
    seat: int = strawberry.field(description="The seat the triremes belong to.")
    count: int = strawberry.field(description="How many (never 0 here).")


@strawberry.type(description="Units of one kind and one owner on a space.")
class UnitStack:
    kind: str = strawberry.field(description="One of Variant.unitKinds: army, trireme, …")
    count: int = strawberry.field(description="How many (never 0 here).")
    seat: int | None = strawberry.field(description="The owner's seat; null for neutral units.")
    neutral: str | None = strawberry.field(
        description="The neutral colour id of neutral units (Game.neutralColours); null for a "
        "seat's."
    )


@strawberry.type(description="Pieces of one kind: to place, or left in the box.")
class PieceCount:
    kind: str = strawberry.field(description="A unit kind or a marker kind of the variant.")
    count: int = strawberry.field(description="How many.")


@strawberry.type(description="Who holds a territory (or a sea area) and with what.")
class TerritoryState:
    """Built for every space of every game state asked for: only id, owner and armies are
    computed up front; the rest is read from the space's view when a client selects it."""

    id: str = strawberry.field(description="The territory's id.")
    owner: int | None = strawberry.field(
        description="Seat of the owner; null before the deal, on a province that is free or "
        "held by neutral armies, and on a sea area."
    )
    armies: int = strawberry.field(description="Armies (legionaries) on it; 0 on a sea area.")
    view: strawberry.Private[SpaceView | None] = None

    @strawberry.field(
        description="S.P.Q.RisiKo!: the neutral colour id whose legionaries hold the province "
        "(see Game.neutralColours); null otherwise.",
        deprecation_reason="Use units: a stack of neutral units names its colour in `neutral`.",
    )
    def neutral(self) -> str | None:
        stacks = () if self.view is None else self.view.units
        return next((stack.neutral for stack in stacks if stack.neutral), None)

    @strawberry.field(
        description="S.P.Q.RisiKo!, sea areas only: each seat's triremes there (seats with none "
        "are left out); empty elsewhere.",
        deprecation_reason="Use units: the stacks of kind trireme.",
    )
    def triremes(self) -> list[FleetCount]:
        stacks = () if self.view is None else self.view.units
        return [
            FleetCount(seat=stack.seat, count=stack.count)
            for stack in stacks
            if stack.kind == "trireme" and stack.seat is not None
        ]

    @strawberry.field(
        description="S.P.Q.RisiKo!, sea areas only: the seat with strictly more triremes there "
        "than every other player (it may cross it in its strategic move); null if none.",
    )
    def controlled_by(self) -> int | None:
        return None if self.view is None else self.view.controlled_by

    @strawberry.field(
        description="S.P.Q.RisiKo!: a power centre stands on the province.",
        deprecation_reason="Use markers: power_centre.",
    )
    def power_centre(self) -> bool:
        return self.view is not None and "power_centre" in self.view.markers

    @strawberry.field(
        description="Every stack of units on the space, by owner and kind (Variant.unitKinds): "
        "what any client draws, in every game.",
    )
    def units(self) -> list[UnitStack]:
        stacks = () if self.view is None else self.view.units
        return [
            UnitStack(kind=stack.kind, count=stack.count, seat=stack.seat, neutral=stack.neutral)
            for stack in stacks
        ]

    @strawberry.field(
        description="Markers on the space (Variant.markerKinds), such as power_centre.",
    )
    def markers(self) -> list[str]:
        return [] if self.view is None else list(self.view.markers)


def territory_state(view: SpaceView) -> TerritoryState:
    armies = 0
    for stack in view.units:
        if stack.kind == ARMY:
            armies += stack.count
    return TerritoryState(id=view.id, owner=view.owner, armies=armies, view=view)


@strawberry.type(description="A card in the viewer's own hand, as its game's cards show it.")
class Card:
    id: str = strawberry.field(
        description="Card id: a territory id, or jolly_1 / jolly_2 (S.P.Q.RisiKo!: symbol_NN, "
        "RisiKo! Più: kind_NN, FutuRisiKo!: type_NN)."
    )
    symbol: str = strawberry.field(
        description="Classic: fante, cavallo, cannone or jolly. S.P.Q.RisiKo!: legionario, "
        "vessillo (+2 legionaries in a set), trireme (+1 trireme) or arena (+1 power centre). "
        "RisiKo! Più: rinforzi, spia, generale, ammiraglio, maresciallo or diplomatico. "
        "FutuRisiKo!: its type, arma_segreta, missili_balistici, siluro_killer, "
        "scudo_spaziale, super_produzione, tregua or tradimento."
    )
    territory: str | None = strawberry.field(
        description="The territory shown, if any (none on S.P.Q.RisiKo!, RisiKo! Più and "
        "FutuRisiKo! cards)."
    )
    colours: list[str] = strawberry.field(
        description="FutuRisiKo!: the two colour ids in its top corners (the order of play is "
        "drawn by them); empty in the other games."
    )


@strawberry.type(description="A secret of the viewer's own, by name.")
class Secret:
    name: str = strawberry.field(description="What it is (RisiKo! Più: hidden_territory, …).")
    value: str = strawberry.field(description="Its value, as text.")


@strawberry.type(description="The viewer's own secret objective.")
class Objective:
    id: str = strawberry.field(description="Objective id (what it counts as now).")
    card: str = strawberry.field(description="The card dealt (differs after a fallback).")
    text: str = strawberry.field(description="The objective as printed.")
    territories: list[str] | None = strawberry.field(
        description="For a tournament objective: the territories to hold."
    )


@strawberry.type(description="One place in the final ranking.")
class RankingEntry:
    rank: int = strawberry.field(description="1 for the best; ties share a rank.")
    seat: int = strawberry.field(description="The player's seat.")
    points: int = strawberry.field(
        description="Tournament points, or territories held with standard objectives; "
        "S.P.Q.RisiKo!: victory points."
    )


@strawberry.type(description="How a game ended.")
class Outcome:
    winner: int | None = strawberry.field(description="The winning seat, if any.")
    reason: str = strawberry.field(
        description="objective, victory_points (S.P.Q.RisiKo!), last_player, time_limit, "
        "round_limit, or not_started (abandoned in the lobby)."
    )
    ranking: list[RankingEntry] = strawberry.field(description="Best first; ties share a rank.")


@strawberry.type(description="A decision owed by a seat other than the one in turn.")
class Prompt:
    seat: int = strawberry.field(description="The seat that owes it.")
    kind: str = strawberry.field(description="The ActionInput member that answers it (defend).")
    default_input: JSON = strawberry.field(
        description="The answer given for the seat if it never comes, as a ready ActionInput."
    )


def _triremes_by_seat(game: Kernel | None, seen: Observation | None) -> dict[int, int]:
    fleets: dict[int, int] = {}
    if game is not None and seen is not None and "trireme" in game.UNIT_KINDS:
        for view in seen.spaces:
            for stack in view.units:
                if stack.kind == "trireme" and stack.seat is not None:
                    fleets[stack.seat] = fleets.get(stack.seat, 0) + stack.count
    return fleets


def players_of(record: GameRecord, game: Kernel | None, seen: Observation | None) -> list[Player]:
    """Every seat's public facts: as seated until the start, then as `seen` shows the board."""
    fleets = _triremes_by_seat(game, seen)  # for the deprecated Player.triremes
    players = []
    clock = record.clock
    absences: list[int] = list(clock.get("absences", ())) if clock is not None else []
    for seat in record.seats:
        s = seat.seat
        bot = None if seat.bot is None else DomainBotPolicy(seat.bot)
        account = seat_account(seat)
        if game is None or seen is None:
            players.append(
                Player(
                    seat=s,
                    name=shown_name(seat),
                    colour=seat.colour,
                    territories=0,
                    armies=0,
                    cards=0,
                    eliminated=False,
                    resigned=False,
                    victory_points=0,
                    triremes=0,
                    bot=bot,
                    account=account,
                )
            )
            continue
        scores = declared(game, SCORES)
        players.append(
            Player(
                seat=s,
                name=shown_name(seat),
                colour=seat.colour,
                territories=game.territories_held(s),
                armies=game.armies_of(s),
                cards=seen.hand_sizes[s],
                eliminated=game.eliminated[s],
                resigned=game.resigned[s],
                victory_points=scores[s] if scores else 0,
                triremes=fleets.get(s, 0),
                bot=bot,
                absences=absences[s] if s < len(absences) else 0,
                account=account,
            )
        )
    return players


def prompts_of(game: Kernel) -> list[Prompt]:
    """The decisions `game` waits for from seats other than the one in turn."""
    return [
        Prompt(
            seat=prompt.seat,
            kind=member(type(prompt.default)),
            default_input=JSON(ready_input(prompt.default)),
        )
        for prompt in game.prompts()
    ]


def hand_of(seen: Observation) -> list[Card] | None:
    """The viewer's own cards, as its game's cards show them; None for a spectator."""
    faces = seen.hand  # the game's own cards
    if faces is None:
        return None
    hand = []
    for face in faces:
        hand.append(
            Card(
                id=face.id,
                symbol=face.symbol,
                territory=face.territory,
                colours=list(face.colours),
            )
        )
    return hand


def objective_of(game: Kernel, seen: Observation) -> Objective | None:
    """The viewer's own objective; None for a spectator and in variants without objectives
    (S.P.Q.RisiKo!)."""
    secret = seen.objective
    if secret is None:
        return None
    card, objective = secret
    territories = getattr(objective, "territories", None)
    board = game.board
    return Objective(
        id=objective.id,
        card=card,
        text=objective.text,
        territories=None if territories is None else [board.territories[t].id for t in territories],
    )


def outcome_of(record: GameRecord) -> Outcome | None:
    """How the game ended, as its record keeps it; None while it goes on."""
    outcome = record.outcome
    if outcome is None:
        return None
    return Outcome(
        winner=outcome["winner"],
        reason=outcome["reason"],
        ranking=[RankingEntry(**entry) for entry in outcome["ranking"]],
    )
