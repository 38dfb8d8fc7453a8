"""Per-operation context: the service and the caller's seat token, judged for each operation.

Over HTTP a context lives for one request. A WebSocket carries many operations over a long
time, while its token may lose its seat (a seat that leaves the lobby) or change it (the seats
after it move up): each operation gets a context of its own (`for_operation`), whose token is
judged when the operation starts, never remembered from the connection's start.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import strawberry
from graphql import GraphQLError

from api.accounts.service import Accounts
from api.service import AuthError, GameService, Session


def auth_error(error: AuthError) -> GraphQLError:
    return GraphQLError(error.message, extensions={"code": error.code})


def not_found(message: str) -> GraphQLError:
    return GraphQLError(message, extensions={"code": "NOT_FOUND"})


@dataclass
class Context:
    service: GameService
    token: str | None
    request: Any = None
    response: Any = None
    connection_params: dict[str, Any] | None = None  # set by the WebSocket handshake
    # Whom the documents' cost is charged to: the seat of a valid token, else the address.
    client: str = "address:unknown"
    token_seat: tuple[str, int] | None = None  # (game, seat) of a token already checked
    _seats: dict[str, int | None] = field(default_factory=dict)
    # Games already read by this operation (StaticReads, deciding whether it has the answer);
    # emptied when the operation ends: a WebSocket's context outlives its operations.
    sessions: dict[str, Session] = field(default_factory=dict)
    # Over a WebSocket: ends every operation of the socket with the error given and closes it
    # (4403), for a token found no longer valid while an operation runs.
    revoke_socket: Callable[[AuthError], Awaitable[None]] | None = None
    address: str | None = None
    accounts: Accounts | None = None  # the account commands (api/graphql/accounts.py)

    async def for_operation(self) -> Context:
        """A context for one operation of a WebSocket, its token judged as it is now."""
        context = Context(
            self.service,
            self.token,
            self.request,
            self.response,
            self.connection_params,
            revoke_socket=self.revoke_socket,
            accounts=self.accounts,
        )
        await context.identify(self.address)
        return context

    @property
    def token_revoked(self) -> bool:
        """A token was given and, when last judged, was worth no seat."""
        return bool(self.token) and self.token_seat is None

    async def revoked(self, error: AuthError) -> None:
        """The token turned out worthless during an operation: over a WebSocket the socket
        ends (every operation told why); over HTTP the request fails with the error."""
        if self.revoke_socket is None:
            raise auth_error(error)
        await self.revoke_socket(error)

    async def session(self, game_id: str) -> Session:
        """The game as it is now (ServiceError if there is none)."""
        session = self.sessions.get(game_id)
        return session if session is not None else await self.service.session(game_id)

    async def identify(self, address: str | None) -> None:
        """Charge this context to its token's seat when the token is valid, else to its
        address: a made-up token must not buy a fresh budget."""
        self.address = address
        self.client = f"address:{address or 'unknown'}"
        self.token_seat = None
        self._seats.clear()
        if not self.token:
            return
        try:
            self.token_seat = await self.service.seat_for(self.token)
        except AuthError:
            return  # refused where the token is used; charged to the address meanwhile
        game_id, seat = self.token_seat
        self.client = f"seat:{game_id}:{seat}"

    async def seat_now(self, game_id: str) -> int | None:
        """The caller's seat in `game_id` as its token is worth at this moment, asked afresh (a
        subscription asks again whenever the game's seats change); AuthError for a token that
        is worth nothing now."""
        if not self.token:
            return None
        found_game, found_seat = await self.service.seat_for(self.token)
        return found_seat if found_game == game_id else None

    async def viewer_seat(self, game_id: str) -> int | None:
        """The caller's seat in `game_id`, or None for a spectator (no token, or a token of
        another game). A token that belongs to no game at all is an error, not a spectator."""
        if game_id in self._seats:
            return self._seats[game_id]
        seat: int | None = None
        if self.token_seat is not None:
            found_game, found_seat = self.token_seat
            seat = found_seat if found_game == game_id else None
        elif self.token:
            try:
                found_game, found_seat = await self.service.seat_for(self.token)
            except AuthError as error:
                raise auth_error(error) from None
            seat = found_seat if found_game == game_id else None
        self._seats[game_id] = seat
        return seat


Info = strawberry.Info[Context, None]
