"""The Starlette application: GraphQL over HTTP and WebSocket at /graphql, health checks."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.http import GraphQLHTTPResponse
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL

from api.broker import Broker
from api.graphql.context import Context
from api.graphql.schema import build_schema
from api.service import AuthError, GameService
from api.settings import Settings
from api.stores.base import Store
from api.stores.sqlite import SqliteStore

GRAPHQL_RESPONSE = "application/graphql-response+json"
logger = logging.getLogger("risiko")
_accepts_graphql_response: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "accepts_graphql_response", default=False
)


def bearer_token(value: str | None) -> str | None:
    if not value:
        return None
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else value.strip()


class RisikoGraphQL(GraphQL[Context, None]):
    """Strawberry's ASGI view with our context, WebSocket authentication and the status codes
    of the GraphQL-over-HTTP specification for clients that ask for its media type."""

    def __init__(self, service: GameService, settings: Settings) -> None:
        super().__init__(
            build_schema(settings.max_query_depth, settings.max_aliases, settings.max_tokens),
            graphql_ide="graphiql" if settings.graphiql else None,
            subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
        )
        self.service = service

    async def get_context(self, request: Request | WebSocket, response: Any) -> Context:
        if isinstance(request, WebSocket):
            return Context(self.service, None, request, response)
        accept = request.headers.get("accept", "")
        _accepts_graphql_response.set(GRAPHQL_RESPONSE in accept)
        token = bearer_token(request.headers.get("authorization"))
        return Context(self.service, token, request, response)

    async def on_ws_connect(self, context: Context) -> dict[str, object] | None:
        """Browsers cannot set headers on a WebSocket: the token comes in connection_init's
        payload as `token` (or `authorization`). A wrong token closes the socket (4403)."""
        params = context.connection_params or {}
        raw = params.get("token") or params.get("authorization")
        token = bearer_token(raw) if isinstance(raw, str) else None
        if token:
            try:
                await self.service.seat_for(token)
            except AuthError:
                raise ConnectionRejectionError({"code": "UNAUTHENTICATED"}) from None
        context.token = token
        return None

    def create_response(
        self, response_data: GraphQLHTTPResponse | list[GraphQLHTTPResponse], sub_response: Response
    ) -> Response:
        response = super().create_response(response_data, sub_response)
        if _accepts_graphql_response.get():
            response.headers["content-type"] = GRAPHQL_RESPONSE
            # A request error (unparsable, invalid, refused before execution) has no data.
            if (
                isinstance(response_data, dict)
                and response_data.get("data") is None
                and response_data.get("errors")
                and response.status_code == 200
            ):
                response.status_code = 400
        return response


class BodySizeLimit:
    """Refuses request bodies over `limit` bytes with 413, before they are read whole."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send)
                return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        response = JSONResponse(
            {
                "errors": [
                    {
                        "message": f"request body larger than {self.limit} bytes",
                        "extensions": {"code": "PAYLOAD_TOO_LARGE"},
                    }
                ]
            },
            status_code=413,
        )
        await response({"type": "http"}, _no_receive, send)


class _TooLarge(Exception):
    pass


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


def create_app(settings: Settings | None = None, store: Store | None = None) -> Starlette:
    settings = settings or Settings()
    store = store or SqliteStore(settings.database)
    service = GameService(store, Broker())
    graphql = RisikoGraphQL(service, settings)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        try:
            ready = await store.ping()
        except Exception:  # any failure of the store means "not ready", never a crash
            ready = False
        return JSONResponse(
            {"status": "ready" if ready else "unavailable"}, status_code=200 if ready else 503
        )

    async def clock() -> None:
        """Tournament time limits: the game's clock submits ExpireTime through the service."""
        while True:
            await asyncio.sleep(settings.clock_interval_seconds)
            try:
                await service.expire_due()
            except Exception:  # the store may be down for a while; try again next tick
                logger.exception("the clock could not declare expired time limits")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.open()
        await service.recover_deadlines()
        ticking = asyncio.create_task(clock())
        try:
            yield
        finally:
            ticking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticking
            await store.close()

    app = Starlette(
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", graphql),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
        ],
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.settings = settings
    return BodySizeLimit(app, settings.max_body_bytes)  # type: ignore[return-value]
