"""The Starlette application: GraphQL over HTTP and WebSocket at /graphql, health checks."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
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
from api.feed import ChangeFeed
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
            # A request error (unparsable, invalid, refused before execution) has no data and
            # no error with a path; an execution error that nulled the data is still a 200.
            data: dict[str, Any] = dict(response_data) if isinstance(response_data, dict) else {}
            errors = data.get("errors") or []
            if (
                data
                and data.get("data") is None
                and errors
                and not any(error.get("path") for error in errors)
                and response.status_code == 200
            ):
                response.status_code = 400
        return response


class BodySizeLimit:
    """Refuses request bodies over `limit` bytes with 413. The body is read (at most `limit`
    bytes of it) before the application runs, then handed to it unchanged."""

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
        messages: list[Message] = []
        received = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            received += len(message.get("body", b""))
            if received > self.limit:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

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


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


def make_store(settings: Settings) -> Store:
    """The MongoDB store when RISIKO_STORE holds a connection string, else the embedded one."""
    if settings.store:
        if not settings.store.startswith(("mongodb://", "mongodb+srv://")):
            raise ValueError(
                "RISIKO_STORE must be a mongodb:// or mongodb+srv:// connection string"
            )
        from api.stores.mongo import MongoStore

        concern = settings.mongodb_write_concern
        return MongoStore(settings.store, int(concern) if concern.isdigit() else concern)
    return SqliteStore(settings.database)


def _change_feed(store: Store, broker: Broker) -> ChangeFeed | None:
    from api.stores.mongo import MongoStore

    return ChangeFeed(store, broker) if isinstance(store, MongoStore) else None


def create_app(settings: Settings | None = None, store: Store | None = None) -> Starlette:
    settings = settings or Settings()
    store = store or make_store(settings)
    broker = Broker()
    feed = _change_feed(store, broker)
    service = GameService(store, broker, publish_locally=feed is None)
    graphql = RisikoGraphQL(service, settings)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        try:
            async with asyncio.timeout(settings.readiness_timeout_seconds):
                ready = await store.ping()
        except Exception:  # any failure or delay of the store means "not ready", never a crash
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
        tasks = [asyncio.create_task(clock())]
        if feed is not None:
            tasks.append(asyncio.create_task(feed.run()))
            await asyncio.wait_for(feed.ready.wait(), timeout=30)
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await store.close()

    app = Starlette(
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", graphql),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
        ],
        middleware=[Middleware(BodySizeLimit, limit=settings.max_body_bytes)],
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.settings = settings
    return app
