"""graphql-transport-ws as this server speaks it: errors with codes, and each operation judged
by what the socket's token is worth when it starts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol, cast

from graphql import GraphQLFormattedError
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
    Operation,
    _OperationStreamClosed,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import (
    ConnectionInitMessage,
    ErrorMessage,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import (
    Message as SocketMessage,
)

from api.accounts.changes import account_channel, credential_channel
from api.accounts.errors import CredentialRefused
from api.accounts.tokens import token_hash
from api.graphql.context import Context, as_auth_error
from api.graphql.errors import coded_socket_message
from api.observability import Observability
from api.service import AuthError, Unauthenticated, seats_channel

logger = logging.getLogger("risiko")


class Observed(Protocol):
    """The view a socket belongs to (RisikoGraphQL), as far as the socket tells it things."""

    observability: Observability
    credential_recheck_seconds: float


class CodedSocketHandler(BaseGraphQLTransportWSHandler[Context, None]):
    """graphql-transport-ws whose errors carry a code, as over HTTP, and whose every operation
    is judged by what the socket's token is worth when it starts (never by what it was worth
    at connection_init). A token that stops being worth a seat, or an account's that is
    revoked, ended, or whose account is disabled or deleted, ends the socket: each running
    operation is told why, then the socket is closed with 4403, as a refused token's is."""

    _watcher: asyncio.Task[None] | None = None
    _revoked = False

    async def send_message(self, message: SocketMessage) -> None:
        coded = coded_socket_message(message)
        if coded["type"] == "next":
            cast(Observed, self.view).observability.socket_result()
        if coded["type"] == "error":  # a subscription refused before it ran
            first = coded["payload"][0]
            logger.info(
                "refused a subscription from %s: %s: %s",
                self.context.client,
                first.get("extensions", {}).get("code"),
                first["message"][:200],
            )
        await super().send_message(coded)

    async def handle_connection_init(self, message: ConnectionInitMessage) -> None:
        self.context.revoke_socket = self.revoke
        await super().handle_connection_init(message)
        if self.connection_acknowledged and self.context.token_seat is not None:
            game_id, _ = self.context.token_seat
            self._watcher = asyncio.create_task(self._watch_token(game_id))
        elif self.connection_acknowledged and self.context.principal is not None:
            account_id = self.context.principal.account_id
            self._watcher = asyncio.create_task(self._watch_account(account_id))

    async def run_operation(self, operation: Operation[Context, None]) -> None:
        """Strawberry's, with a context of the operation's own, its token judged now."""
        context = await self.context.for_operation()
        if context.token_revoked:
            refusal = context.refusal
            await self.revoke(
                Unauthenticated("this seat token is no longer valid")
                if refusal is None
                else as_auth_error(refusal)
            )
            return
        try:
            result_source = await self.schema.stream(
                operation.query,
                variable_values=operation.variables,
                context_value=context,
                root_value=self.root_value,
                operation_name=operation.operation_name,
            )
            async with contextlib.aclosing(result_source):
                await self._send_result_stream(operation, result_source)
            await operation.send_operation_message({"id": operation.id, "type": "complete"})
        except _OperationStreamClosed:
            return
        except Exception as error:
            await self.handle_task_exception(error)
            with contextlib.suppress(Exception):
                await operation.send_operation_message({"id": operation.id, "type": "complete"})
            self.operations.pop(operation.id, None)
            raise

    async def revoke(self, error: AuthError) -> None:
        """End every operation with `error`, then the socket (4403)."""
        if self._revoked:
            return
        self._revoked = True
        payload: list[GraphQLFormattedError] = [
            {"message": error.message, "extensions": {"code": error.code}}
        ]
        for operation in list(self.operations.values()):
            with contextlib.suppress(Exception):  # the socket may be closing already
                await operation.send_operation_message(
                    ErrorMessage(id=operation.id, type="error", payload=payload)
                )
        logger.info("closed a socket of %s: %s", self.context.client, error.message)
        with contextlib.suppress(Exception):
            await self.websocket.close(code=4403, reason="Forbidden")

    async def _watch_token(self, game_id: str) -> None:
        """Follow the changes of seats of the token's game, and judge the token after each:
        a token that left its seat ends the socket at once, whatever the socket is doing."""
        service = self.context.service
        token = self.context.token
        try:
            while not self._revoked:
                async with service.broker.subscribe(seats_channel(game_id)) as changes:
                    await service.seat_for(token)  # nothing missed since the socket opened
                    while await changes.get() is not None:
                        await service.seat_for(token)
        except AuthError as error:
            await self.revoke(error)
        except Exception:  # the store may be down a while: operations still judge the token
            logger.exception("could not follow the seat of a socket's token")

    async def _watch_account(self, account_id: str) -> None:
        """Judge the socket's account token again whenever this instance or another tells
        of a change of its account or of the token (api/accounts/changes.py), and at least
        every `credential_recheck_seconds` (an expiry, a store shared through one SQLite
        file): a token worth nothing now ends the socket at once, whatever it is doing."""
        context = self.context
        accounts, token = context.accounts, context.token
        assert accounts is not None
        assert token is not None
        every = cast(Observed, self.view).credential_recheck_seconds
        channels = (account_channel(account_id), credential_channel(token_hash(token)))
        try:
            while not self._revoked:
                async with context.service.broker.subscribe(*channels) as told:
                    message: object = True
                    while message is not None:  # None: fell behind; subscribed again
                        await accounts.authenticate(token)
                        try:
                            async with asyncio.timeout(every):
                                message = await told.get()
                        except TimeoutError:
                            continue
        except CredentialRefused as refused:
            await self.revoke(as_auth_error(refused))
        except Exception:  # the store may be down a while: operations still judge the token
            logger.exception("could not follow the account of a socket's token")

    async def shutdown(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        await super().shutdown()
