"""Subscription: a game's events, the seats' notices and the lobby, as live streams."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Annotated

import strawberry
from graphql import GraphQLError

from api.accounts.scopes import Scope
from api.graphql.arguments import bounded
from api.graphql.clock import SeatNotice, seat_notice
from api.graphql.context import Info, auth_error, not_found
from api.graphql.events import SHARED_EVENTS, GameEvent
from api.graphql.ids import from_global_id, to_global_id
from api.graphql.lobby import LobbyEvent
from api.seat_stream import account_notices, seat_notices
from api.service import AuthError, ServiceError, hash_token
from api.text_inputs import GLOBAL_ID, TOKEN, shown

MAX_STREAM_TOKENS = 100


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
            bounded(TOKEN, token)
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
