"""A `Game` is a view of one game for one viewer: a seat, or a spectator."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import strawberry

from api.graphql.clock import Clock, TimeControl, clock_type, time_control_type
from api.graphql.context import Info
from api.graphql.enums import GameStatus, Phase, phase_member
from api.graphql.events import EventPage, event_type
from api.graphql.game_parts import (
    Card,
    Objective,
    Outcome,
    PieceCount,
    Player,
    Prompt,
    Secret,
    TerritoryState,
    hand_of,
    objective_of,
    outcome_of,
    players_of,
    prompts_of,
    territory_state,
)
from api.graphql.generated import (
    GameState,
    LegalAction,
    legal_type,
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
from api.graphql.randomness import Randomness, randomness_type
from api.graphql.rating_types import ExpectedPlace, Speed, expected_places, ratings_of
from api.graphql.seat_types import AdmissionType, admission_type
from api.listings import EventListing, LogListing
from api.ratings.records import Speed as RatingSpeed
from api.service import Session
from api.stores.base import GameRecord
from domain.observation import Observation
from domain.views import NEUTRAL_COLOURS, declared
from variants import get_variant


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

    @strawberry.field(
        description="A rated game (createGame's rated): accounts only, no chosen seed; its "
        "accounts' ratings change once when it ends."
    )
    def rated(self) -> bool:
        return self._record.admission.rated

    @strawberry.field(
        description="A rated game's speed, fixed at creation by its clock; null if unrated."
    )
    def speed(self) -> Speed | None:
        speed = self._record.admission.speed
        return None if speed is None else Speed[RatingSpeed(speed).name]

    @strawberry.field(
        description="A rated game's expected ranking, by seat: each account's chance to finish "
        "first and its expected place, from the ratings of its accounts (as they were when "
        "the game was rated, once it is). Null for an unrated game and one of fewer than two "
        "accounts."
    )
    async def expected_ranking(self, info: Info) -> list[ExpectedPlace] | None:
        if not self._record.admission.rated:
            return None
        expected = await ratings_of(info).expected(self._record)
        return None if expected is None else expected_places(expected)

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
        return players_of(self._record, self.session.game, self.seen)

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
        return [] if game is None or game.is_over else prompts_of(game)

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
        return None if self.seen is None else hand_of(self.seen)

    @strawberry.field(
        description="The viewer's own secret objective; null for a spectator and in variants "
        "without objectives (S.P.Q.RisiKo!)."
    )
    def objective(self) -> Objective | None:
        game = self.session.game
        if game is None or self.seen is None:
            return None
        return objective_of(game, self.seen)

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
        return outcome_of(self._record)


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
