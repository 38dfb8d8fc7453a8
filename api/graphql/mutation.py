"""Mutation: creating, joining, starting and leaving games, seating bots and submitting
actions; a refusal comes back as user errors and changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Annotated, Any, TypeVar

import strawberry

from api.accounts.scopes import Scope
from api.graphql.arguments import bounded, checked_client_seed, game_id_of
from api.graphql.context import Info, auth_error
from api.graphql.events import event_type
from api.graphql.game import game_type
from api.graphql.generated import to_action
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
from api.graphql.options import chosen_options
from api.graphql.seat_types import seat_taker
from api.service import AuthError, Submitted
from api.stores.base import ANYONE
from api.text_inputs import CLIENT_MUTATION_ID
from domain.errors import CodedError

T = TypeVar("T")


async def _attempt(work: Callable[[], Awaitable[T]]) -> T | list[UserError]:
    """A mutation's work, or the user error that refused it and changed nothing; a token
    that is missing or wrong fails the request instead (an error with a code, not data)."""
    try:
        return await work()
    except AuthError as error:
        raise auth_error(error) from None
    except CodedError as error:
        return [user_error(error)]


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
        bounded(CLIENT_MUTATION_ID, input.client_mutation_id)
        info.context.acting_account(Scope.GAMES_CREATE)  # the creator: its account, if any
        service = info.context.service
        admission = ANYONE if input.admission is None else input.admission.to_admission()
        if input.rated:
            admission = replace(admission, rated=True)
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
        bounded(CLIENT_MUTATION_ID, input.client_mutation_id)
        service = info.context.service
        client_seed = checked_client_seed(input.client_seed)
        principal = info.context.acting_account()
        account = None if principal is None else seat_taker(principal)
        joined = await _attempt(
            lambda: service.join_game(
                game_id_of(input.game_id), input.name or "", input.colour, client_seed, account
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
        bounded(CLIENT_MUTATION_ID, input.client_mutation_id)
        service = info.context.service
        account = info.context.acting_account_id()
        joined = await _attempt(
            lambda: service.add_bot(
                game_id_of(input.game_id),
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
        bounded(CLIENT_MUTATION_ID, input.client_mutation_id)
        service = info.context.service
        game_id = ""
        account = info.context.acting_account_id()

        async def submit() -> Submitted:
            nonlocal game_id
            game_id = game_id_of(input.game_id)
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
    bounded(CLIENT_MUTATION_ID, input.client_mutation_id)
    service = info.context.service
    game_id = ""
    client_seed = checked_client_seed(input.client_seed) if move == "start" else None
    accepted: bool | None = None
    account = info.context.acting_account_id()
    token = info.context.token

    async def act() -> None:
        nonlocal game_id, accepted
        game_id = game_id_of(input.game_id)
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
