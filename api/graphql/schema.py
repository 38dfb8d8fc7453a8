"""Query, Mutation and Subscription: thin resolvers over the application service."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncGenerator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, TypeVar

import strawberry
from graphql import GraphQLError
from strawberry.extensions import (
    MaskErrors,
    MaxTokensLimiter,
    ParserCache,
    SchemaExtension,
)
from strawberry.extensions.runner import SchemaExtensionsRunner
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext

from api.accounts.scopes import Scope
from api.anonymous import shown_name
from api.budget import Budgets
from api.graphql.account_games import game_connection, games_page
from api.graphql.accounts import AccountMutation, AccountQuery
from api.graphql.catalogue import Variant, variant_type
from api.graphql.clock import SeatNotice, seat_notice
from api.graphql.context import Info, auth_error, not_found
from api.graphql.enums import GameStatus, TieRule
from api.graphql.errors import is_unexpected
from api.graphql.events import SHARED_EVENTS, GameEvent, event_type
from api.graphql.game import Game, GameConnection, Viewer, game_type
from api.graphql.generated import STATE_TYPES, to_action
from api.graphql.ids import Node, from_global_id, to_global_id
from api.graphql.inputs import (
    AddBotInput,
    CreateGameInput,
    CreateGamePayload,
    GameInput,
    GamePayload,
    JoinGameInput,
    JoinGamePayload,
    SubmitActionInput,
    SubmitActionPayload,
    UserError,
    user_error,
)
from api.graphql.limits import DocumentLimits, Limits
from api.graphql.lobby import LobbyEvent
from api.graphql.odds import BattleOdds, VolleyOdds, odds_type, volley_odds_type
from api.graphql.options import OWN_OPTION_TYPES, chosen_options
from api.graphql.pages import (
    AFTER,
    BEFORE,
    FIRST,
    LAST,
)
from api.graphql.seat_types import seat_taker
from api.graphql.shared_events import SharedEventExecutor, StreamResultsRunner
from api.graphql.static_reads import StaticAnswers, StaticReads
from api.listings import GameListing
from api.seat_stream import account_notices, seat_notices
from api.service import AuthError, ServiceError, Submitted, hash_token
from api.stores.base import ANYONE
from api.text_inputs import (
    CLIENT_MUTATION_ID,
    DATA_NAME,
    GLOBAL_ID,
    TOKEN,
    TextBound,
    TextRefused,
    shown,
)
from domain.errors import CodedError, ErrorCode
from domain.odds import BattleOdds as DomainOdds
from domain.odds import TieRule as DomainTieRule
from domain.odds import VolleyOdds as DomainVolleyOdds
from domain.odds import battle_odds, volley_odds
from domain.rng import contribution_problem
from variants import VARIANTS

T = TypeVar("T")
MAX_STREAM_TOKENS = 100

MAX_ODDS_ARMIES = 1000
MAX_VOLLEY_UNITS = 80  # a colour has 70 tanks and aircraft; 80 a side takes about 0.25 s
MAX_EXACT_VOLLEY_UNITS = 15  # fractions grow fast: 15 a side takes about 0.1 s, 20 0.25 s
ODDS_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="odds")


@functools.lru_cache(maxsize=1024)
def cached_odds(
    attackers: int,
    defenders: int,
    attacker_dice: int,
    defender_dice: int,
    tie_rule: str,
    attacker_bonus: int,
    defender_bonus: int,
    stop_at: int,
    stop_on_no_loss: bool,
) -> DomainOdds:
    return battle_odds(
        attackers,
        defenders,
        max_attacker_dice=attacker_dice,
        max_defender_dice=defender_dice,
        tie_rule=DomainTieRule(tie_rule),
        attacker_bonus=attacker_bonus,
        defender_bonus=defender_bonus,
        stop_at=stop_at,
        stop_on_no_loss=stop_on_no_loss,
    )


@functools.lru_cache(maxsize=256)
def cached_volley_odds(
    attackers: int, defenders: int, flag: bool, attacker_first: bool, exact: bool
) -> DomainVolleyOdds:
    return volley_odds(attackers, defenders, flag=flag, attacker_first=attacker_first, exact=exact)


async def _attempt(work: Callable[[], Awaitable[T]]) -> T | list[UserError]:
    """A mutation's work, or the user error that refused it and changed nothing; a token
    that is missing or wrong fails the request instead (an error with a code, not data)."""
    try:
        return await work()
    except AuthError as error:
        raise auth_error(error) from None
    except CodedError as error:
        return [user_error(error)]


def _client_seed(value: str | None) -> str | None:
    """A seat's contribution as given, or BAD_USER_INPUT (nothing is done) for one that is
    not 1 to 64 printable ASCII characters."""
    problem = None if value is None else contribution_problem(value)
    if problem is not None:
        raise GraphQLError(f"clientSeed: {problem}", extensions={"code": "BAD_USER_INPUT"})
    return value


def _bounded(bound: TextBound, value: str | None) -> None:
    """A text the service does not check itself (a clientMutationId, a filter, a token),
    refused before anything runs. Names, seeds, colours and variants are the service's to
    check (each with its code: INVALID_NAME…), ids are from_global_id's."""
    if value is not None:
        try:
            bound.check(value)
        except TextRefused as refused:
            raise GraphQLError(refused.message, extensions={"code": "BAD_USER_INPUT"}) from None


def _game_id(global_id: str) -> str:
    decoded = from_global_id(global_id, "Game")
    if decoded is None:
        raise ServiceError(ErrorCode.INVALID_ID, f"{shown(global_id)} is not a game id")
    return decoded[1]


async def _game(info: Info, game_id: str) -> Game:
    session = await info.context.session(game_id)
    return game_type(session, await info.context.viewer_seat(game_id))


@strawberry.type
class Query:
    @strawberry.field(description="The games this server plays, with their boards and options.")
    def variants(self) -> list[Variant]:
        return [variant_type(variant) for variant in VARIANTS.values()]

    @strawberry.field(description="One game by its global id; null if there is none.")
    async def game(
        self,
        info: Info,
        id: Annotated[
            strawberry.ID,
            strawberry.argument(description=f"A game's global id ({GLOBAL_ID.rule})."),
        ],
    ) -> Game | None:
        decoded = from_global_id(id, "Game")
        if decoded is None:
            raise not_found(f"{shown(id)} is not a game id")
        try:
            return await _game(info, decoded[1])
        except ServiceError:
            raise not_found(f"there is no game {shown(id)}") from None

    @strawberry.field(
        description="Games, newest first, as a Relay connection: pages forward (first, "
        "after) and backward (last, before), at most 100 games a page."
    )
    async def games(
        self,
        info: Info,
        status: Annotated[
            GameStatus | None, strawberry.argument(description="Only games in this status.")
        ] = None,
        variant: Annotated[
            str | None,
            strawberry.argument(description=f"Only games of this variant ({DATA_NAME.rule})."),
        ] = None,
        first: FIRST = None,
        after: AFTER = None,
        last: LAST = None,
        before: BEFORE = None,
    ) -> GameConnection:
        _bounded(DATA_NAME, variant)
        store = info.context.service.store
        listing = GameListing(store, status.value if status else None, variant)
        found = await games_page(info, listing, (first, last), (after, before))
        return game_connection(found, listing.count)

    @strawberry.field(description="Any object by its global id.")
    async def node(
        self,
        info: Info,
        id: Annotated[
            strawberry.ID, strawberry.argument(description=f"A global id ({GLOBAL_ID.rule}).")
        ],
    ) -> Node | None:
        decoded = from_global_id(id)
        if decoded is None or decoded[0] != "Game":
            return None
        try:
            return await _game(info, decoded[1])
        except ServiceError:
            return None

    @strawberry.field(description="Exact odds of attacking until conquest or exhaustion.")
    async def battle_odds(
        self,
        attackers: Annotated[int, strawberry.argument(description="Attacking armies, ≤ 1000.")],
        defenders: Annotated[int, strawberry.argument(description="Defending armies, ≤ 1000.")],
        attacker_dice: Annotated[
            int, strawberry.argument(description="Most dice the attacker rolls, 1 to 3.")
        ] = 3,
        defender_dice: Annotated[
            int, strawberry.argument(description="Most dice the defender rolls, 1 to 3.")
        ] = 3,
        tie_rule: Annotated[
            TieRule, strawberry.argument(description="DEFENDER_WINS, or NO_LOSS (naval).")
        ] = TieRule.DEFENDER_WINS,
        attacker_bonus: Annotated[
            int, strawberry.argument(description="+1 on the attacker's highest die (0 or 1).")
        ] = 0,
        defender_bonus: Annotated[
            int, strawberry.argument(description="+1 on the defender's highest die (0 or 1).")
        ] = 0,
        stop_at: Annotated[
            int, strawberry.argument(description="Stop when this many attackers are left.")
        ] = 0,
        naval: Annotated[
            bool,
            strawberry.argument(
                description="S.P.Q.RisiKo! naval combat: ties remove nothing and the battle "
                "stops at the first roll that removes no trireme; attackers are all the triremes."
            ),
        ] = False,
    ) -> BattleOdds:
        if not (0 <= attackers <= MAX_ODDS_ARMIES and 0 <= defenders <= MAX_ODDS_ARMIES):
            raise GraphQLError(
                f"armies must be 0 to {MAX_ODDS_ARMIES}", extensions={"code": "BAD_USER_INPUT"}
            )
        try:
            # Large battles take a while (1,000 a side: about 0.3 s): off the event loop, one
            # at a time (threads share one interpreter lock: many at once would starve the
            # loop, and every other player with it), and remembered, since bots ask the same
            # questions again and again. Naval combat always has ties remove nothing,
            # whatever tieRule says.
            odds = await asyncio.get_running_loop().run_in_executor(
                ODDS_WORKER,
                cached_odds,
                attackers,
                defenders,
                attacker_dice,
                defender_dice,
                DomainTieRule.NO_LOSS.value if naval else tie_rule.value,
                attacker_bonus,
                defender_bonus,
                stop_at,
                naval,
            )
        except ValueError as error:
            raise GraphQLError(str(error), extensions={"code": "BAD_USER_INPUT"}) from None
        return odds_type(odds)

    @strawberry.field(
        description="Exact odds of a FutuRisiKo! battle: the sides fire volleys in turn, a die "
        "per unit hitting on 2 faces of 6, the defender's flag adding 2 dice while it stands and "
        "falling to one hit once no defending unit is left."
    )
    async def volley_odds(
        self,
        attackers: Annotated[
            int, strawberry.argument(description=f"Attacking units, 1 to {MAX_VOLLEY_UNITS}.")
        ],
        defenders: Annotated[
            int, strawberry.argument(description=f"Defending units, 0 to {MAX_VOLLEY_UNITS}.")
        ],
        flag: Annotated[
            bool, strawberry.argument(description="A defending flag stands there.")
        ] = True,
        attacker_first: Annotated[
            bool,
            strawberry.argument(
                description="The attacker fires first (it has more aircraft there); false: "
                "the defender does (more aircraft, or a tie)."
            ),
        ] = False,
        exact: Annotated[
            bool,
            strawberry.argument(
                description=f"Also the exact fraction (up to {MAX_EXACT_VOLLEY_UNITS} a side)."
            ),
        ] = False,
    ) -> VolleyOdds:
        limit = MAX_EXACT_VOLLEY_UNITS if exact else MAX_VOLLEY_UNITS
        if not (1 <= attackers <= limit and 0 <= defenders <= limit):
            raise GraphQLError(
                f"attackers must be 1 to {limit} and defenders 0 to {limit}"
                + (" for an exact fraction" if exact else ""),
                extensions={"code": "BAD_USER_INPUT"},
            )
        try:
            odds = await asyncio.get_running_loop().run_in_executor(
                ODDS_WORKER, cached_volley_odds, attackers, defenders, flag, attacker_first, exact
            )
        except ValueError as error:
            raise GraphQLError(str(error), extensions={"code": "BAD_USER_INPUT"}) from None
        fraction = str(odds.conquest_probability) if exact else None
        return volley_odds_type(odds, fraction)

    @strawberry.field(
        description="The seat the request's seat token belongs to; null without one, and with "
        "an account's token (an account may sit in many games: see me.games)."
    )
    async def viewer(self, info: Info) -> Viewer | None:
        token = info.context.token
        if not token or info.context.account_token:
            return None
        try:
            game_id, seat = await info.context.service.seat_for(token)
        except AuthError as error:
            raise auth_error(error) from None
        session = await info.context.service.session(game_id)
        record = session.record.seats[seat]
        return Viewer(
            seat=seat, name=shown_name(record), colour=record.colour, game=game_type(session, seat)
        )


def _options(input: CreateGameInput) -> dict[str, Any]:
    """The options given, as plain values over the variant's defaults (api/graphql/options)."""
    return chosen_options(input.variant, input.options, input.variant_options)


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Create a game in the lobby. Seats join, then one starts it.")
    async def create_game(
        self,
        info: Info,
        input: Annotated[CreateGameInput, strawberry.argument(description="The game.")],
    ) -> CreateGamePayload:
        _bounded(CLIENT_MUTATION_ID, input.client_mutation_id)
        info.context.acting_account(Scope.GAMES_CREATE)  # the creator: its account, if any
        service = info.context.service
        admission = ANYONE if input.admission is None else input.admission.to_admission()
        record = await _attempt(
            lambda: service.create_game(
                input.variant,
                _options(input),
                input.seed,
                creator=info.context.client,
                time_control=None if input.time_control is None else input.time_control.to_plain(),
                admission=admission,
            )
        )
        if isinstance(record, list):
            return CreateGamePayload(
                game=None, user_errors=record, client_mutation_id=input.client_mutation_id
            )
        session = await info.context.service.session(record.id)
        return CreateGamePayload(
            game=game_type(session, None),
            user_errors=[],
            client_mutation_id=input.client_mutation_id,
        )

    @strawberry.mutation(description="Take a seat; returns its token, once.")
    async def join_game(
        self,
        info: Info,
        input: Annotated[JoinGameInput, strawberry.argument(description="The seat.")],
    ) -> JoinGamePayload:
        _bounded(CLIENT_MUTATION_ID, input.client_mutation_id)
        service = info.context.service
        client_seed = _client_seed(input.client_seed)
        principal = info.context.acting_account()
        account = None if principal is None else seat_taker(principal)
        joined = await _attempt(
            lambda: service.join_game(
                _game_id(input.game_id), input.name or "", input.colour, client_seed, account
            )
        )
        if isinstance(joined, list):
            return JoinGamePayload(
                game=None,
                seat=None,
                token=None,
                user_errors=joined,
                client_mutation_id=input.client_mutation_id,
            )
        session = await info.context.service.session(joined.record.id)
        sees = principal is None or Scope.GAMES_READ in principal.scopes
        return JoinGamePayload(
            game=game_type(session, joined.seat if sees else None),
            seat=joined.seat,
            token=joined.token if principal is None else None,
            user_errors=[],
            client_mutation_id=input.client_mutation_id,
            client_seed_accepted=joined.client_seed_accepted,
        )

    @strawberry.mutation(
        description="Seat a bot that the server plays, with a seat's view and rules (the "
        "token of any seated player, in the lobby)."
    )
    async def add_bot(
        self, info: Info, input: Annotated[AddBotInput, strawberry.argument(description="The bot.")]
    ) -> JoinGamePayload:
        _bounded(CLIENT_MUTATION_ID, input.client_mutation_id)
        service = info.context.service
        account = info.context.acting_account_id()
        joined = await _attempt(
            lambda: service.add_bot(
                _game_id(input.game_id),
                info.context.token,
                input.policy,
                input.name,
                input.colour,
                account,
            )
        )
        if isinstance(joined, list):
            return JoinGamePayload(
                game=None,
                seat=None,
                token=None,
                user_errors=joined,
                client_mutation_id=input.client_mutation_id,
            )
        session = await service.session(joined.record.id)
        return JoinGamePayload(
            game=game_type(session, None),
            seat=joined.seat,
            token=None,  # nobody but the server plays a bot
            user_errors=[],
            client_mutation_id=input.client_mutation_id,
        )

    @strawberry.mutation(description="Start the game (any seated player, enough players).")
    async def start_game(
        self, info: Info, input: Annotated[GameInput, strawberry.argument(description="The game.")]
    ) -> GamePayload:
        return await _game_move(info, input, "start")

    @strawberry.mutation(
        description="Leave: before the start the seat is freed; after it, the player resigns."
    )
    async def leave_game(
        self, info: Info, input: Annotated[GameInput, strawberry.argument(description="The game.")]
    ) -> GamePayload:
        return await _game_move(info, input, "leave")

    @strawberry.mutation(description="Submit one action for the token's seat.")
    async def submit_action(
        self,
        info: Info,
        input: Annotated[SubmitActionInput, strawberry.argument(description="The action.")],
    ) -> SubmitActionPayload:
        _bounded(CLIENT_MUTATION_ID, input.client_mutation_id)
        service = info.context.service
        game_id = ""
        account = info.context.acting_account_id()

        async def submit() -> Submitted:
            nonlocal game_id
            game_id = _game_id(input.game_id)
            return await service.submit_action(
                game_id,
                info.context.token,
                to_action(input.action),
                input.expected_version,
                input.client_mutation_id,
                token_seat=info.context.token_seat,
                account=account,
            )

        submitted = await _attempt(submit)
        if isinstance(submitted, list):
            return SubmitActionPayload(
                version=None,
                events=[],
                user_errors=submitted,
                client_mutation_id=input.client_mutation_id,
            )
        return SubmitActionPayload(
            version=submitted.version,
            events=[event_type(e) for e in submitted.events],
            user_errors=[],
            client_mutation_id=input.client_mutation_id,
            game_id=game_id,
            session=submitted.session,
        )


async def _game_move(info: Info, input: GameInput, move: str) -> GamePayload:
    _bounded(CLIENT_MUTATION_ID, input.client_mutation_id)
    service = info.context.service
    game_id = ""
    client_seed = _client_seed(input.client_seed) if move == "start" else None
    accepted: bool | None = None
    account = info.context.acting_account_id()
    token = info.context.token

    async def act() -> None:
        nonlocal game_id, accepted
        game_id = _game_id(input.game_id)
        if move == "start":
            started = await service.start_game(game_id, token, client_seed, account)
            accepted = client_seed is not None and not started.seed_chosen
        else:
            await service.leave_game(game_id, token, account)

    refused = await _attempt(act)
    if isinstance(refused, list):
        return GamePayload(
            game=None, user_errors=refused, client_mutation_id=input.client_mutation_id
        )
    session = await service.session(game_id)
    seat = await info.context.viewer_seat(game_id) if move == "start" else None
    return GamePayload(
        game=game_type(session, seat),
        user_errors=[],
        client_mutation_id=input.client_mutation_id,
        client_seed_accepted=accepted,
    )


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="The game's events after `after`, then live ones, as the viewer may see them."
    )
    async def game_events(
        self,
        info: Info,
        game_id: Annotated[
            strawberry.ID, strawberry.argument(description=f"The game's id ({GLOBAL_ID.rule}).")
        ],
        after: Annotated[
            int, strawberry.argument(description="Replay the events after this seq first.")
        ] = 0,
    ) -> AsyncGenerator[GameEvent, None]:
        decoded = from_global_id(game_id, "Game")
        if decoded is None:
            raise not_found(f"{shown(game_id)} is not a game id")
        game = decoded[1]
        context = info.context
        viewer = await context.viewer_seat(game)
        try:
            stream = context.service.stream(game, viewer, after, lambda: context.seat_now(game))
            async for event in stream:
                yield SHARED_EVENTS.of(event, game)
        except ServiceError as error:
            raise not_found(error.message) from None
        except AuthError as error:  # the token lost its seat while the stream ran
            await context.revoked(error)

    @strawberry.subscription(
        description="What concerns these seats in all their games, in one stream: when it "
        "becomes a seat's turn (YOUR_TURN), when it owes an answer (ANSWER_OWED), when its "
        "deadline nears (DEADLINE_NEAR), and when a game ends (GAME_ENDED). It starts with "
        "what stands now, and ends when every one of the games has ended. Without `tokens`, "
        "the seats of the socket's account (the scope GAMES_READ): every game it sits in, "
        "and each it joins later; that stream ends only with the socket."
    )
    async def seat_events(
        self,
        info: Info,
        tokens: Annotated[
            list[str] | None,
            strawberry.argument(
                description=f"Seat tokens, 1 to {MAX_STREAM_TOKENS}, each of {TOKEN.rule}; "
                "omitted: the account's seats."
            ),
        ] = None,
    ) -> AsyncGenerator[SeatNotice, None]:
        if tokens is None:
            account = info.context.account(Scope.GAMES_READ)
            async for notice in account_notices(info.context.service, account.account_id):
                yield seat_notice(notice)
            return
        if not 1 <= len(tokens) <= MAX_STREAM_TOKENS:
            raise GraphQLError(
                f"seatEvents takes 1 to {MAX_STREAM_TOKENS} tokens, not {len(tokens)}",
                extensions={"code": "BAD_USER_INPUT"},
            )
        for token in tokens:
            _bounded(TOKEN, token)
        service = info.context.service
        seats = []
        for token in dict.fromkeys(tokens):
            try:
                game_id, _ = await service.seat_for(token)
            except AuthError as error:
                raise auth_error(error) from None
            seats.append((game_id, hash_token(token)))
        try:
            async for notice in seat_notices(service, seats):
                yield seat_notice(notice)
        except AuthError as error:  # one of the tokens left its seat
            raise auth_error(error) from None

    @strawberry.subscription(description="Games created, started and finished.")
    async def lobby(self, info: Info) -> AsyncGenerator[LobbyEvent, None]:
        async for message in info.context.service.lobby():
            yield LobbyEvent(
                type=message["type"],
                game_id=to_global_id("Game", message["game_id"]),
                variant=message.get("variant"),
                winner=message.get("winner"),
                seed_chosen=message.get("seed_chosen"),
            )


class MaskUnexpectedErrors(MaskErrors):
    """MaskErrors, minus its `isinstance` against a runtime-checkable Protocol: it runs once
    per result, so once per event and per subscriber, where it cost about 4 % of the server's
    time (benchmarks/suite.py --only subscriptions, profiled)."""

    def __init__(self) -> None:
        super().__init__(should_mask_error=is_unexpected)

    def _process_result(self, result: object) -> None:
        errors = getattr(result, "errors", None)
        if errors:
            result.errors = self._process_errors(errors)  # type: ignore[attr-defined]


class Schema(strawberry.Schema):
    """Logs only the errors nobody meant: a client's typo is its business, not the log's."""

    static_answers: StaticAnswers | None = None  # the answers kept by StaticReads

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        super().process_errors([e for e in errors if is_unexpected(e)], execution_context)

    def create_extensions_runner(
        self, execution_context: ExecutionContext, extensions: list[SchemaExtension]
    ) -> SchemaExtensionsRunner:
        return StreamResultsRunner(execution_context, extensions)


def build_schema(
    max_depth: int = 12,
    max_aliases: int = 30,
    max_tokens: int = 3000,
    max_cost: int = 50_000,
    budgets: Budgets | None = None,
) -> Schema:
    """The schema with its limits; `budgets`, when given, charges each document's cost to
    its client (None: no budgets, as for `risiko export-schema`)."""
    limits = Limits(max_depth=max_depth, max_aliases=max_aliases, max_cost=max_cost)
    answers = StaticAnswers()
    built = Schema(
        query=merge_types("Query", (Query, AccountQuery)),
        mutation=merge_types("Mutation", (Mutation, AccountMutation)),
        subscription=Subscription,
        types=[Game, *STATE_TYPES, *OWN_OPTION_TYPES],
        execution_context_class=SharedEventExecutor,
        extensions=[
            ParserCache,
            lambda: DocumentLimits(limits, budgets),
            lambda: MaxTokensLimiter(max_token_count=max_tokens),
            lambda: StaticReads(answers),
            MaskUnexpectedErrors,
        ],
    )
    built.static_answers = answers
    return built


schema = build_schema()
__all__ = ["build_schema", "schema"]
