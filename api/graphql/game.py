"""A `Game` is a view of one game for one viewer: a seat, or a spectator."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from api.anonymous import shown_name
from api.graphql.clock import Clock, TimeControl, clock_type, time_control_type
from api.graphql.context import Info
from api.graphql.enums import GameStatus, Phase, phase_member
from api.graphql.events import EventPage, event_type
from api.graphql.generated import (
    GameState,
    LegalAction,
    legal_type,
    member,
    ready_input,
    state_type,
)
from api.graphql.ids import Node, page_size, to_global_id
from api.graphql.options import GameOptions, VariantOptions, game_options, variant_options
from api.graphql.pages import (
    AFTER,
    BEFORE,
    EVENT_CURSOR,
    FIRST,
    LAST,
    LOG_CURSOR,
    ActionLogConnection,
    ActionLogPage,
    Count,
    GameEventConnection,
    PageInfo,
    cut_by_seq,
    event_connection,
    log_connection,
    log_entry_type,
)
from api.graphql.seat_types import AdmissionType, SeatAccount, admission_type, seat_account
from api.listings import EventListing, LogListing
from api.service import Session, engine_seed
from api.stores.base import GameRecord
from bots.seated import BotPolicy as DomainBotPolicy
from domain.observation import Observation
from domain.views import ARMY, NEUTRAL_COLOURS, SCORES, SpaceView, declared
from variants import get_variant


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


@strawberry.type(description="A seat's contribution to the game's randomness (its client seed).")
class SeedContribution:
    seat: int = strawberry.field(description="The seat, from 0.")
    given: bool = strawberry.field(description="The seat gave one (a seat may give none).")
    value: str | None = strawberry.field(
        description="The client seed, shown from the start, when it is fixed (harmless "
        "before too, the secret being hidden, but nobody needs it then); null before, and "
        "for a seat that gave none."
    )
    by_server: bool = strawberry.field(
        description="The server gave it, from its own randomness, for a bot it plays (addBot): "
        "no more a guarantee than the server's secret itself."
    )
    at_start: bool = strawberry.field(
        description="Given by the seat that started the game, with startGame: the last one "
        "fixed, when every other was known (see docs/architecture.md, A game's randomness)."
    )


@strawberry.type(
    description="Where a game's dice and cards come from, and what proves it. The server "
    "commits to a secret when the game is created (commitment: its SHA-256), before any seat "
    "joins; each seat may add a contribution (joinGame's clientSeed); at the start the seed "
    "of every die is derived from the secret and the contributions in seat order "
    "(HMAC-SHA256, see derivedSeed), and its hash published (startCommitment). At the end "
    "the secret and the derived seed are revealed: anyone checks the chain, and every die "
    "with the action log (`risiko verify SERVER GAME`). A game whose seed was chosen takes "
    "no contributions: its creator knows every roll and card to come."
)
class Randomness:
    commitment: str = strawberry.field(
        description="SHA-256 (hex) of the server's secret (or of the chosen seed), published "
        "at creation."
    )
    seed_chosen: bool = strawberry.field(
        description="Whoever created the game chose its seed, and so knows every roll and "
        "card to come; such a game takes no contributions, to stay reproducible from its seed."
    )
    derived: bool = strawberry.field(
        description="The dice come from a seed derived from the secret and the seats' "
        "contributions (every game whose seed nobody chose); false: from the secret itself "
        "(a chosen seed, or a game started before contributions)."
    )
    contributions: list[SeedContribution] = strawberry.field(
        description="One per seat, in seat order, when the game takes contributions; empty "
        "otherwise."
    )
    start_commitment: str | None = strawberry.field(
        description="SHA-256 (hex) of the seed the dice come from, fixed and published at the "
        "start (GameStarted's commitment); null before the start."
    )
    secret: str | None = strawberry.field(
        description="The server's secret (or the chosen seed), hex, revealed once the game is "
        "over: its SHA-256 is the commitment. Null before: with it the derived seed, and so "
        "every die, card and objective to come, would be known."
    )
    derived_seed: str | None = strawberry.field(
        description="The seed every die and card came from, hex, revealed once the game is "
        "over: HMAC-SHA256 keyed by the secret over the bytes of 'risiko/seats/v1', then for "
        "each seat in order 0x00 (none given) or 0x01, the contribution's length in 4 bytes "
        "big-endian and its ASCII bytes; the secret itself when `derived` is false."
    )


def randomness_type(session: Session) -> Randomness:
    record = session.record
    started = record.status != "lobby"
    derived = not record.seed_chosen and (not started or record.contributions is not None)
    contributions = []
    if derived:
        fixed = record.contributions
        for seat in record.seats:
            value = fixed[seat.seat] if fixed is not None else seat.client_seed
            contributions.append(
                SeedContribution(
                    seat=seat.seat,
                    given=value is not None,
                    value=value if started else None,
                    by_server=seat.client_seed_source == "server",
                    at_start=seat.client_seed_source == "start",
                )
            )
    over = record.status == "finished"
    seed = engine_seed(record.seed, record.contributions)
    game = session.game
    return Randomness(
        commitment=record.commitment,
        seed_chosen=record.seed_chosen,
        derived=derived,
        contributions=contributions,
        start_commitment=None if game is None else game.commitment,
        secret=record.seed.hex() if over else None,
        derived_seed=seed.hex() if over else None,
    )


@strawberry.type(description="A game, as the viewer (a seat, or a spectator) may see it.")
class Game(Node):
    session: strawberry.Private[Session]
    viewer: strawberry.Private[int | None]
    # What the viewer may see (domain/observation.py): every field that shows the board, a
    # hand, an objective, secrets or legal actions renders it; none asks the game itself.
    seen: strawberry.Private[Observation | None] = None

    @property
    def _record(self) -> GameRecord:
        return self.session.record

    @strawberry.field(description="Status: LOBBY, ACTIVE or FINISHED.")
    def status(self) -> GameStatus:
        return GameStatus(self._record.status)

    @strawberry.field(description="The variant's name.")
    def variant(self) -> str:
        return self._record.variant

    @strawberry.field(
        description="The revision of the variant's rules the game plays by, for good: the "
        "newest when it was created (Variant.rulesRevisions says what each changed). A rule "
        "fixed later applies to games created after it; replay or verify a game by its own."
    )
    def rules_revision(self) -> int:
        return self._record.rules_revision

    @strawberry.field(description="Grows by one with every accepted change; see expectedVersion.")
    def version(self) -> int:
        return self._record.version

    @strawberry.field(description="When the game was created (ISO 8601, UTC).")
    def created_at(self) -> str:
        return datetime.fromtimestamp(self._record.created_at, UTC).isoformat()

    @strawberry.field(
        description="The options the game was created with, every game's in one type (null "
        "where the game has none such); variantOptions has the game's own type."
    )
    def options(self) -> GameOptions:
        return game_options(get_variant(self._record.variant), self._record.options)

    @strawberry.field(
        description="The options the game was created with, in its variant's own type "
        "(ClassicOptions, SpqrOptions, …): every option it has, and only those."
    )
    def variant_options(self) -> VariantOptions:
        return variant_options(get_variant(self._record.variant), self._record.options)

    @strawberry.field(
        description="Who may take a seat: guests or accounts only, people, bots or anyone "
        "(createGame's admission)."
    )
    def admission(self) -> AdmissionType:
        return admission_type(self._record)

    @strawberry.field(description="The time control it was created with; null: no clock.")
    def time_control(self) -> TimeControl | None:
        return time_control_type(self._record)

    @strawberry.field(
        description="The clock: whose time runs, until when, the banks and the absences; null "
        "before the start, and in games with no time control, no time limit and no bot."
    )
    def clock(self) -> Clock | None:
        return clock_type(self._record)

    @strawberry.field(description="The viewer's seat in this game, or null for a spectator.")
    def viewer_seat(self) -> int | None:
        return self.viewer

    @strawberry.field(description="Public facts of every player, by seat.")
    def players(self) -> list[Player]:
        game = self.session.game
        fleets: dict[int, int] = {}  # triremes by seat, for the deprecated Player.triremes
        seen = self.seen
        if game is not None and seen is not None and "trireme" in game.UNIT_KINDS:
            for view in seen.spaces:
                for stack in view.units:
                    if stack.kind == "trireme" and stack.seat is not None:
                        fleets[stack.seat] = fleets.get(stack.seat, 0) + stack.count
        players = []
        clock = self._record.clock
        absences: list[int] = list(clock.get("absences", ())) if clock is not None else []
        for seat in self._record.seats:
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

    @strawberry.field(
        description="The seat whose turn it is; null before the start and after the end."
    )
    def current_player(self) -> int | None:
        game = self.session.game
        return None if game is None or game.is_over else game.current

    @strawberry.field(description="The seat the game waits for (the defender, while it declares).")
    def seat_to_act(self) -> int | None:
        game = self.session.game
        return None if game is None else game.seat_to_act

    @strawberry.field(
        description="Decisions owed by a seat other than the one in turn (the defender's dice, "
        "when defenders declare them), each with the answer given if it never comes."
    )
    def prompts(self) -> list[Prompt]:
        game = self.session.game
        if game is None or game.is_over:
            return []
        return [
            Prompt(
                seat=prompt.seat,
                kind=member(type(prompt.default)),
                default_input=JSON(ready_input(prompt.default)),
            )
            for prompt in game.prompts()
        ]

    @strawberry.field(
        description="What this game shows of its own state beyond the fields every game has, "
        "in its variant's type (ClassicState, SpqrState, …); null before the start."
    )
    def state(self) -> GameState | None:
        game = self.session.game
        return None if game is None else state_type(game.state_view())

    @strawberry.field(description="The phase of the turn; null before the start.")
    def phase(self) -> Phase | None:
        game = self.session.game
        return None if game is None else phase_member(game.phase)

    @strawberry.field(description="The round, from 1 (0 during the initial placement).")
    def round(self) -> int:
        game = self.session.game
        return 0 if game is None else game.round

    @strawberry.field(
        description="Armies the current player still has to place (0 during the S.P.Q.RisiKo! "
        "occupation, where each claimed province gets 2 legionaries)."
    )
    def armies_to_place(self) -> int:
        game = self.session.game
        return 0 if game is None else game.armies_to_place()

    @strawberry.field(description="Cards left in the draw deck.")
    def deck_size(self) -> int:
        game = self.session.game
        return 0 if game is None else game.deck_size()

    @strawberry.field(
        description="Every territory's owner and armies (S.P.Q.RisiKo!: every province and "
        "sea area, with neutral armies, triremes and power centres)."
    )
    def territories(self) -> list[TerritoryState]:
        board = get_variant(self._record.variant).ruleset.board
        if self.seen is None:
            return [TerritoryState(id=t.id, owner=None, armies=0) for t in board.territories]
        return [territory_state(view) for view in self.seen.spaces]

    @strawberry.field(
        description="S.P.Q.RisiKo!: the colour ids of the neutral armies (the colours no "
        "player took); empty in classic games."
    )
    def neutral_colours(self) -> list[str]:
        game = self.session.game
        return [] if game is None else list(declared(game, NEUTRAL_COLOURS))

    @strawberry.field(
        description="S.P.Q.RisiKo!: triremes the current player won with a set this turn and "
        "still has to place (forfeited at the end of the turn); 0 otherwise.",
        deprecation_reason="Use piecesToPlace: the count of kind trireme.",
    )
    def pending_triremes(self) -> int:
        return self._pieces_to_place().get("trireme", 0)

    @strawberry.field(
        description="S.P.Q.RisiKo!: power centres the current player won with a set this turn "
        "and still has to place (forfeited at the end of the turn); 0 otherwise.",
        deprecation_reason="Use piecesToPlace: the count of kind power_centre.",
    )
    def pending_power_centres(self) -> int:
        return self._pieces_to_place().get("power_centre", 0)

    def _pieces_to_place(self) -> dict[str, int]:
        game = self.session.game
        return {} if game is None else game.pieces_to_place()

    @strawberry.field(
        description="Pieces other than armies that the current player won this turn and must "
        "still place, by kind (S.P.Q.RisiKo!: trireme, power_centre, from a set of cards; "
        "forfeited at the end of the turn); armies to place: armiesToPlace."
    )
    def pieces_to_place(self) -> list[PieceCount]:
        owed = self._pieces_to_place()
        return [PieceCount(kind=kind, count=count) for kind, count in owed.items()]

    @strawberry.field(
        description="Markers not yet on the board, by kind (Variant.markerKinds; S.P.Q.RisiKo!: "
        "power_centre, of 12; RisiKo! Più: fortress, of 6, one on each standing fortress)."
    )
    def markers_left(self) -> list[PieceCount]:
        return [PieceCount(kind=kind, count=count) for kind, count in self._markers_left().items()]

    def _markers_left(self) -> dict[str, int]:
        supply = get_variant(self._record.variant).ruleset.marker_supply()
        for view in [] if self.seen is None else self.seen.spaces:
            for marker in view.markers:
                supply[marker] -= 1
        return supply

    @strawberry.field(
        description="S.P.Q.RisiKo!: power centres not yet on the board (of 12); 0 otherwise.",
        deprecation_reason="Use markersLeft: the count of kind power_centre.",
    )
    def power_centres_left(self) -> int:
        return self._markers_left().get("power_centre", 0)

    @strawberry.field(
        description="The viewer's own secrets beyond its hand and objective (RisiKo! Più: "
        "hidden_territory, hidden_armies_used, marshal_orders, spy_orders); null for a "
        "spectator."
    )
    def secrets(self) -> list[Secret] | None:
        secrets = None if self.seen is None else self.seen.secrets
        if secrets is None:
            return None
        return [Secret(name=name, value=value) for name, value in secrets]

    @strawberry.field(description="The viewer's own cards; null for a spectator.")
    def hand(self) -> list[Card] | None:
        faces = None if self.seen is None else self.seen.hand  # the game's own cards
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

    @strawberry.field(
        description="The viewer's own secret objective; null for a spectator and in variants "
        "without objectives (S.P.Q.RisiKo!)."
    )
    def objective(self) -> Objective | None:
        game = self.session.game
        secret = None if self.seen is None else self.seen.objective
        if game is None or secret is None:
            return None  # also in variants without objectives (S.P.Q.RisiKo!)
        card, objective = secret
        territories = getattr(objective, "territories", None)
        board = game.board
        return Objective(
            id=objective.id,
            card=card,
            text=objective.text,
            territories=None
            if territories is None
            else [board.territories[t].id for t in territories],
        )

    @strawberry.field(description="What the viewer may do now, in the shapes ActionInput takes.")
    def legal_actions(self) -> list[LegalAction]:
        if self.seen is None or self._record.status != "active":
            return []
        return [legal_type(family) for family in self.seen.legal]

    @strawberry.field(description="The history as the viewer may see it, oldest first.")
    async def events(
        self,
        info: Info,
        after: Annotated[int, strawberry.argument(description="Events after this seq.")] = 0,
        first: Annotated[int, strawberry.argument(description="At most 100.")] = 50,
    ) -> EventPage:
        size = page_size(first)
        found = await info.context.service.events(self._record.id, self.viewer, after, size + 1)
        return EventPage(events=[event_type(e) for e in found[:size]], has_more=len(found) > size)

    @strawberry.field(
        description="Its creator chose its seed (createGame's seed), and so knows every roll "
        "and card to come: a reproducible game, not a fair one. Every other game's dice come "
        "from the server's secret and the seats' contributions (see randomness)."
    )
    def seed_chosen(self) -> bool:
        return self._record.seed_chosen

    @strawberry.field(
        description="Where the game's dice and cards come from, what is public now, and, "
        "once the game is over, what proves every roll."
    )
    def randomness(self) -> Randomness:
        return randomness_type(self.session)

    @strawberry.field(
        description="The action log of a finished game, oldest first: with the secret and "
        "the contributions (randomness) it replays every die and card. Null while the game "
        "goes on: an entry may hold what some seat may not know yet (a hidden territory, the "
        "cards of a set)."
    )
    async def action_log(
        self,
        info: Info,
        after: Annotated[int, strawberry.argument(description="Entries after this seq.")] = 0,
        first: Annotated[int, strawberry.argument(description="At most 100.")] = 50,
    ) -> ActionLogPage | None:
        size = page_size(first)
        if self._record.status != "finished":
            return None
        found = await info.context.service.action_log(self.session, after, size + 1)
        return ActionLogPage(
            entries=[log_entry_type(entry) for entry in found[:size]], has_more=len(found) > size
        )

    @strawberry.field(
        description="The history as the viewer may see it, oldest first, as a Relay "
        "connection: pages forward (first, after) and backward (last, before)."
    )
    async def events_connection(
        self,
        info: Info,
        first: FIRST = None,
        after: AFTER = None,
        last: LAST = None,
        before: BEFORE = None,
    ) -> GameEventConnection:
        game_id = self._record.id
        listing = EventListing(info.context.service.store, self._record, self.viewer)
        page = await cut_by_seq(listing, EVENT_CURSOR, game_id, (first, last), (after, before))
        return event_connection(game_id, page, listing.count)

    @strawberry.field(
        description="A finished game's action log (see actionLog), oldest first, as a Relay "
        "connection: pages forward (first, after) and backward (last, before). Null while "
        "the game goes on."
    )
    async def action_log_connection(
        self,
        info: Info,
        first: FIRST = None,
        after: AFTER = None,
        last: LAST = None,
        before: BEFORE = None,
    ) -> ActionLogConnection | None:
        record = self._record
        if record.status != "finished":
            return None
        listing = LogListing(info.context.service.store, record)
        page = await cut_by_seq(listing, LOG_CURSOR, record.id, (first, last), (after, before))
        return log_connection(record.id, page, record.version)

    @strawberry.field(
        description="SHA-256 of the secret seed, published at creation (randomness.commitment)."
    )
    def seed_commitment(self) -> str:
        return self._record.commitment

    @strawberry.field(
        description="The secret seed (hex), revealed once the game is over "
        "(randomness.secret); the dice came from randomness.derivedSeed."
    )
    def seed(self) -> str | None:
        return self._record.seed.hex() if self._record.status == "finished" else None

    @strawberry.field(description="How the game ended; null while it goes on.")
    def outcome(self) -> Outcome | None:
        outcome = self._record.outcome
        if outcome is None:
            return None
        return Outcome(
            winner=outcome["winner"],
            reason=outcome["reason"],
            ranking=[RankingEntry(**entry) for entry in outcome["ranking"]],
        )


def game_type(session: Session, viewer: int | None) -> Game:
    """The game as `viewer` (a seat, or None for a spectator) sees it now."""
    game = session.game
    seen = None if game is None else game.observe(viewer)
    return Game(
        id=to_global_id("Game", session.record.id), session=session, viewer=viewer, seen=seen
    )


@strawberry.type(description="A game of the listing, with its cursor.")
class GameEdge:
    cursor: str = strawberry.field(description="Its place: pass it as `after` or `before`.")
    node: Game = strawberry.field(description="The game, as a spectator sees it.")


@strawberry.type(description="A page of games, newest first (a Relay connection).")
class GameConnection:
    edges: list[GameEdge] = strawberry.field(description="The games of this page.")
    page_info: PageInfo = strawberry.field(description="Where this page lies in the listing.")
    count: strawberry.Private[Count | None] = None

    @strawberry.field(description="How many games the listing holds, with its filters.")
    async def total_count(self) -> int:
        assert self.count is not None
        return await self.count()


@strawberry.type(description="The seat a token belongs to.")
class Viewer:
    seat: int = strawberry.field(description="The token's seat.")
    name: str = strawberry.field(description="The seat's name.")
    colour: str = strawberry.field(description="The seat's colour.")
    game: Game = strawberry.field(description="The token's game, as its seat sees it.")
