"""Per-operation context: the service and the caller's token, judged for each operation.

The token is a seat's (one seat of one game) or an account's (a session or a personal API
token: `principal`, with its scopes; the account's seat in a game is the one bound to it
there). Over HTTP a context lives for one request. A WebSocket carries many operations over a
long time, while its token may lose its seat (a seat that leaves the lobby), change it (the
seats after it move up) or be revoked (an account's): each operation gets a context of its
own (`for_operation`), whose token is judged when the operation starts, never remembered from
the connection's start.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import strawberry
from graphql import GraphQLError

from api.accounts.errors import CredentialRefused, unauthenticated
from api.accounts.scopes import Principal, Scope
from api.accounts.service import Accounts
from api.accounts.tokens import token_kind
from api.service import AuthError, Forbidden, GameService, Session, Unauthenticated


def auth_error(error: AuthError) -> GraphQLError:
    return GraphQLError(error.message, extensions={"code": error.code})


def credential_error(error: CredentialRefused) -> GraphQLError:
    """UNAUTHENTICATED, or FORBIDDEN with the scope that is missing (`extensions.scope`)."""
    extensions = {"code": error.code}
    if error.scope is not None:
        extensions["scope"] = error.scope
    return GraphQLError(error.message, extensions=extensions)


def as_auth_error(error: CredentialRefused) -> AuthError:
    """A refused account credential as the seat tokens' errors are told (a stream's end, a
    socket's close)."""
    return Forbidden(error.message) if error.code == "FORBIDDEN" else Unauthenticated(error.message)


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
    # The account of an account token judged valid (charged to it), or why it is not.
    principal: Principal | None = None
    refusal: CredentialRefused | None = None

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
        """A token was given and, when last judged, was worth nothing: no seat, no account."""
        return bool(self.token) and self.token_seat is None and self.principal is None

    @property
    def account_token(self) -> bool:
        """The token is an account's (a session or an API token), valid or not."""
        return token_kind(self.token or "") is not None

    def account(self, scope: Scope | None = None) -> Principal:
        """The principal of the request's account token, carrying `scope` when one is named;
        the request fails otherwise (UNAUTHENTICATED, or FORBIDDEN with the scope needed)."""
        try:
            if self.principal is None:
                raise self.refusal or unauthenticated("this needs an account's token")
            if scope is not None:
                self.principal.require(scope)
        except CredentialRefused as error:
            raise credential_error(error) from None
        return self.principal

    def acting_account(self, scope: Scope = Scope.GAMES_PLAY) -> Principal | None:
        """The account a game's command acts for: None for a seat token or no token; the
        principal, once it is seen to carry `scope`; the request fails for an account token
        that is not valid or lacks it (nothing is done)."""
        return self.account(scope) if self.account_token else None

    def acting_account_id(self) -> str | None:
        """The id of the account a game's command acts for (see acting_account)."""
        principal = self.acting_account()
        return None if principal is None else principal.account_id

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
        self.principal = None
        self.refusal = None
        self._seats.clear()
        if not self.token:
            return
        if self.account_token:
            await self._identify_account(self.token)
            return
        try:
            self.token_seat = await self.service.seat_for(self.token)
        except AuthError:
            return  # refused where the token is used; charged to the address meanwhile
        game_id, seat = self.token_seat
        self.client = f"seat:{game_id}:{seat}"

    async def _identify_account(self, token: str) -> None:
        """The account of `token` as the store has it now, charged to it when valid."""
        try:
            if self.accounts is None:  # a schema executed without a server
                raise unauthenticated("accounts are not served here")
            self.principal = await self.accounts.authenticate(token)
        except CredentialRefused as refused:
            self.refusal = refused  # refused where the token is used
            return
        self.client = f"account:{self.principal.account_id}"

    async def seat_now(self, game_id: str) -> int | None:
        """The caller's seat in `game_id` as its token is worth at this moment, asked afresh (a
        subscription asks again whenever the game's seats change); AuthError for a token that
        is worth nothing now."""
        if not self.token:
            return None
        if self.account_token:
            if self.accounts is None:
                raise Unauthenticated("accounts are not served here")
            try:
                principal = await self.accounts.authenticate(self.token)
            except CredentialRefused as refused:
                raise as_auth_error(refused) from None
            return await self._account_seat(principal, game_id)
        found_game, found_seat = await self.service.seat_for(self.token)
        return found_seat if found_game == game_id else None

    async def _account_seat(self, principal: Principal, game_id: str) -> int | None:
        """The account's seat in the game, as its viewer: none for a credential that may not
        read the account's games (GAMES_READ), which sees them as a spectator does."""
        if Scope.GAMES_READ not in principal.scopes:
            return None
        return (await self.session(game_id)).record.seat_of_account(principal.account_id)

    async def viewer_seat(self, game_id: str) -> int | None:
        """The caller's seat in `game_id`, or None for a spectator (no token, or a token of
        another game). A token that belongs to no game at all is an error, not a spectator."""
        if game_id in self._seats:
            return self._seats[game_id]
        seat: int | None = None
        if self.account_token:
            seat = await self._account_seat(self.account(), game_id)
        elif self.token_seat is not None:
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
