"""The Starlette application: GraphQL over HTTP and WebSocket at /graphql, health checks."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from datetime import timedelta
from typing import Any

from cross_web import HTTPException
from opentelemetry.sdk.trace import TracerProvider
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError, MissingQueryError
from strawberry.http import GraphQLHTTPResponse
from strawberry.schema.exceptions import (
    CannotGetOperationTypeError,
    InvalidOperationTypeError,
)
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types.graphql import OperationType

from api import web_client
from api.account_feed import AccountFeed
from api.account_games import SeatedAccounts
from api.accounts.changes import account_channel, telling
from api.accounts.service import Accounts
from api.body_limit import BodySizeLimit
from api.broker import Broker, LobbyNews
from api.budget import Budgets
from api.challenges.wiring import challenges_beside
from api.clock_ticker import run_clock
from api.feeds import GamesFeed, games_feed, started
from api.graphiql import ASSETS_PATH, MISSING_PAGE, ImmutableFiles, local_page
from api.graphql.context import Context
from api.graphql.errors import coded_result
from api.graphql.schema import build_schema
from api.graphql.shared_events import FrameEncoder
from api.graphql.static_reads import encode_response
from api.health import health_routes
from api.ladder.service import ladder_beside, with_ladder
from api.observability import Observability
from api.origins import admits, origin_pattern
from api.persisted import carries_persisted_query, persisted_queries
from api.pool.wiring import pool_beside
from api.ratings.service import Ratings, ratings_beside
from api.refusals import (
    CODES_BY_STATUS,
    GRAPHQL_RESPONSE,
    RequestRefused,
    decode_json_object,
    error_body,
    log_refusal,
    refusal_response,
)
from api.request_id import RequestId
from api.service import GameService, LobbyLimits
from api.settings import Settings
from api.socket_handler import CodedSocketHandler
from api.sqlite_feed import SqliteChangeFeed
from api.stores.accounts import account_store_for
from api.stores.base import Store
from api.stores.sqlite import SqliteStore
from api.stores.tournaments import tournament_store_for
from api.tournaments.games import GameTables
from api.tournaments.service import Tournaments
from api.unit_of_work import each_told

logger = logging.getLogger("risiko")
_accepts_graphql_response: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "accepts_graphql_response", default=False
)
# A document refused before it ran (its code and message), logged once the answer's status is
# known: a client of plain application/json gets 200 for it, as GraphQL over HTTP says.
_refused_document: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "refused_document", default=None
)


def bearer_token(value: str | None) -> str | None:
    if not value:
        return None
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else value.strip()


class RisikoGraphQL(GraphQL[Context, None]):
    """Strawberry's ASGI view with our context, WebSocket authentication and the status codes
    of the GraphQL-over-HTTP specification for clients that ask for its media type."""

    graphql_transport_ws_handler_class = CodedSocketHandler

    def __init__(
        self,
        service: GameService,
        settings: Settings,
        observability: Observability,
        accounts: Accounts | None = None,
    ) -> None:
        self.accounts = accounts
        self.credential_recheck_seconds = settings.credential_recheck_seconds
        self.budgets = budgets_of(settings)
        self.origins = origin_pattern(settings.cors_origins)
        schema = build_schema(
            settings.max_query_depth,
            settings.max_aliases,
            settings.max_tokens,
            settings.max_cost,
            self.budgets,
        )
        self.static_answers = schema.static_answers
        observability.instrument(schema)
        self.observability = observability
        self.persisted = persisted_queries(service.store, schema, settings)
        super().__init__(
            schema,
            graphql_ide="graphiql" if settings.graphiql else None,
            connection_init_wait_timeout=timedelta(
                seconds=settings.connection_init_timeout_seconds
            ),
            subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
        )
        self.service = service
        self.frames = FrameEncoder()
        self.graphiql_assets = settings.graphiql_assets_dir
        self.graphiql_page: str | None = None

    def encode_json(self, data: object) -> str | bytes:
        """Each subscriber's `next` frame reuses the JSON of an event already encoded for
        another subscriber (api/graphql/shared_events.py), and an answer kept in memory the
        JSON of its data (api/graphql/static_reads.py)."""
        if isinstance(data, dict):
            frame = self.frames.next_frame(data)
            if frame is not None:
                return frame
            if self.static_answers is not None:
                spliced = encode_response(self.static_answers, data)
                if spliced is not None:
                    return spliced
        return super().encode_json(data)

    async def render_graphql_ide(self, request: Request) -> Response:
        """GraphiQL with its files served by this server, or how to install them."""
        if self.graphiql_page is None:
            self.graphiql_page = local_page(self.graphiql_assets)
        if self.graphiql_page is None:
            return HTMLResponse(MISSING_PAGE, status_code=503)
        return HTMLResponse(self.graphiql_page)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """HTTP requests get a JSON answer with a code whatever goes wrong, never a 500 for
        a client's mistake nor an exception's text."""
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        request = Request(scope, receive)
        _refused_document.set(None)
        try:
            response = await self.run(request)
            refused = _refused_document.get()
            if refused is not None:  # the status the client gets, as the access log says
                log_refusal(request, response.status_code, *refused)
        except RequestRefused as refused:
            response = refusal_response(request, refused)
        except HTTPException as error:
            response = refusal_response(request, _refusal(error))
        except Exception:  # a defect of ours: logged with its traceback, answered without it
            logger.exception("unexpected error answering %s %s", request.method, request.url)
            response = JSONResponse(
                error_body("INTERNAL_SERVER_ERROR", "Unexpected error."), status_code=500
            )
        await response(scope, receive, send)

    def parse_json(self, data: str | bytes) -> Any:
        return decode_json_object(data)

    async def parse_http_body(self, request_adapter: Any) -> Any:
        """A persisted query's document (api/persisted.py) in place of its hash."""
        data = await super().parse_http_body(request_adapter)
        accept = request_adapter.headers.get("accept", "")
        return await self.persisted.resolve(data, accept) if not isinstance(data, list) else data

    def should_render_graphql_ide(self, request: Any) -> bool:
        """GraphiQL for a browser's GET, but not for a GET of a persisted query."""
        return super().should_render_graphql_ide(request) and not carries_persisted_query(
            request.query_params
        )

    async def execute_single(
        self,
        request: Request,
        request_adapter: Any,
        sub_response: Response,
        context: Context,
        root_value: None,
        request_data: Any,
    ) -> Any:
        """Queries by GET or POST, mutations by POST only; subscriptions need the WebSocket."""
        get = request_adapter.method == "GET"
        allowed = {OperationType.QUERY} if get else {OperationType.QUERY, OperationType.MUTATION}
        try:
            result = await self.schema.execute(
                request_data.query,
                root_value=root_value,
                variable_values=request_data.variables,
                context_value=context,
                operation_name=request_data.operation_name,
                allowed_operation_types=allowed,
                operation_extensions=request_data.extensions,
            )
            await self.persisted.keep_after_run(result.data is not None)
            return result
        except MissingQueryError:
            raise RequestRefused(400, "BAD_REQUEST", "the request has no `query`") from None
        except CannotGetOperationTypeError as error:
            raise RequestRefused(400, "BAD_REQUEST", error.as_http_error_reason()) from None
        except InvalidOperationTypeError as error:
            if error.operation_type is OperationType.MUTATION:
                raise RequestRefused(
                    405, "METHOD_NOT_ALLOWED", "mutations are sent with POST", {"Allow": "POST"}
                ) from None
            raise RequestRefused(
                400,
                "SUBSCRIPTION_NEEDS_WEBSOCKET",
                "subscriptions run over a WebSocket at /graphql (graphql-transport-ws)",
            ) from None

    async def process_result(self, request: Request, result: Any) -> GraphQLHTTPResponse:
        response = coded_result(result)
        errors: list[dict[str, Any]] = response.get("errors") or []  # type: ignore[assignment]
        if response.get("data") is None and errors and "path" not in errors[0]:
            first = errors[0]  # not run at all: a refusal, one line of log (in __call__)
            _refused_document.set((first["extensions"]["code"], first["message"]))
            if _accepts_graphql_response.get():  # the spec's media type: no data entry at all
                response.pop("data", None)
        return response

    async def get_context(self, request: Request | WebSocket, response: Any) -> Context:
        address = request.client.host if request.client else None
        if isinstance(request, WebSocket):
            context = Context(self.service, None, request, response, accounts=self.accounts)
            await context.identify(address)  # again with the token at connection_init
            return context
        accept = request.headers.get("accept", "")
        _accepts_graphql_response.set(GRAPHQL_RESPONSE in accept)
        token = bearer_token(request.headers.get("authorization"))
        context = Context(self.service, token, request, response, accounts=self.accounts)
        await context.identify(address)
        refusal = self.budgets.refusal(context.client) if self.budgets else None
        if refusal is not None:  # told to retry later, asking again already: refused unread
            raise RequestRefused(
                429,
                "RATE_LIMITED",
                f"over budget: retry after {refusal.retry_after} s",
                refusal.headers(),
                {"retryAfter": refusal.retry_after, "remaining": refusal.remaining},
            )
        return context

    def is_websocket_origin_allowed(self, request: Any, origin: str) -> bool:
        """A page on another origin opens a WebSocket when RISIKO_CORS_ORIGINS admits it."""
        return admits(self.origins, origin)

    async def on_ws_connect(self, context: Context) -> dict[str, object] | None:
        """The token of a socket: in connection_init's payload as `token` or `Authorization`
        (any case; browsers cannot set headers on a WebSocket), else the upgrade request's
        Authorization header. A token that is there but unusable closes the socket (4403):
        never a silent downgrade to spectator."""
        params = context.connection_params or {}
        raw: object = next(
            (value for key, value in params.items() if key.lower() in {"token", "authorization"}),
            None,
        )
        if raw is None and context.request is not None:
            raw = context.request.headers.get("authorization")
        if raw is not None and not (isinstance(raw, str) and bearer_token(raw)):
            raise ConnectionRejectionError({"code": "UNAUTHENTICATED"})
        context.token = bearer_token(raw) if isinstance(raw, str) else None
        client = context.request.client if context.request is not None else None
        await context.identify(client.host if client else None)
        if context.token_revoked:  # a seat's token worth no seat, or an account's not valid
            raise ConnectionRejectionError({"code": "UNAUTHENTICATED"})
        return None

    def create_response(
        self, response_data: GraphQLHTTPResponse | list[GraphQLHTTPResponse], sub_response: Response
    ) -> Response:
        response = super().create_response(response_data, sub_response)
        # A game is live and seen per seat: no cache keeps an answer (GET queries included),
        # and nothing in between serves one viewer's answer to another.
        response.headers["Cache-Control"] = "no-store"
        response.headers["Vary"] = "Authorization, Accept"
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


def budgets_of(settings: Settings) -> Budgets | None:
    if not settings.budget_points:
        return None
    return Budgets(settings.budget_points, settings.budget_refill_per_second)


def _refusal(error: HTTPException) -> RequestRefused:
    """Strawberry's own refusals, with our codes and the statuses of GraphQL over HTTP."""
    if error.reason == "Unsupported content type":
        return RequestRefused(415, "UNSUPPORTED_MEDIA_TYPE", "send the request as application/json")
    if error.status_code == 405:
        return RequestRefused(405, "METHOD_NOT_ALLOWED", "use GET or POST", {"Allow": "GET, POST"})
    code = CODES_BY_STATUS.get(error.status_code, "BAD_REQUEST")
    return RequestRefused(error.status_code, code, error.reason)


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


def _accounts(
    store: Store, service: GameService, broker: Broker
) -> tuple[Accounts, AccountFeed | None]:
    """The accounts beside the games' store: the games they sit in (SeatedAccounts, which
    also marks a deleted account's seats as its games finish), this instance's sockets told
    at once of a change of an account, and every instance's through MongoDB's change stream."""
    from api.stores.mongo_accounts import MongoAccountStore

    account_store = account_store_for(store)
    seated = SeatedAccounts(service.work, account_store)
    service.work.finishing = seated.anonymise

    def changed(account_id: str) -> None:
        broker.publish(account_channel(account_id), [LobbyNews(type="AccountChanged")])

    accounts = Accounts(telling(account_store, changed), games=seated)
    if isinstance(account_store, MongoAccountStore):
        return accounts, AccountFeed(account_store, broker)
    return accounts, None


def _lifespan(
    store: Store,
    service: GameService,
    people: tuple[Accounts, Tournaments, Ratings],
    observed: Observability,
    settings: Settings,
    feeds: tuple[GamesFeed | None, AccountFeed | None],
) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    """The server's start (the store opened, the clocks' deadlines recovered, the clock and
    the change feeds running) and its stop, in the reverse order."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        accounts, tournaments, ratings = people
        games_feed, account_feed = feeds
        tasks: list[asyncio.Task[None]] = []
        await store.open()
        if games_feed is not None:  # before anything commits: it publishes from here on
            tasks.append(await started(games_feed))
        await accounts.start()
        await tournaments.store.open()
        await ratings.store.open()
        await service.recover_deadlines()
        tasks.append(asyncio.create_task(run_clock(service, settings, observed)))
        tasks.append(asyncio.create_task(ratings.run()))  # the safety net, from the start
        if account_feed is not None:
            tasks.append(await started(account_feed))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await service.close()
            await ratings.store.close()
            await tournaments.store.close()
            await accounts.stop()
            await store.close()
            await observed.close()

    return lifespan


def _middleware(
    settings: Settings, graphql: RisikoGraphQL, observed: Observability
) -> list[Middleware]:
    """Outermost first."""
    return [
        *observed.outer_middleware(),
        Middleware(
            CORSMiddleware,
            allow_origin_regex=graphql.origins.pattern if graphql.origins else None,
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type", "Accept", "X-Request-Id"],
            expose_headers=["RateLimit", "RateLimit-Policy", "Retry-After", "X-Request-Id"],
            max_age=600,
        ),
        Middleware(RequestId),
        *observed.inner_middleware(),
        # Large answers compressed (the boards: 19 kB, 2.8 kB gzipped); small ones, such
        # as a seat's token, never (nothing for a compression side channel to measure).
        Middleware(GZipMiddleware, minimum_size=1024),
        Middleware(BodySizeLimit, limit=settings.max_body_bytes),
    ]


def create_app(
    settings: Settings | None = None,
    store: Store | None = None,
    tracer_provider: TracerProvider | None = None,
) -> Starlette:
    """The server; `tracer_provider`, given, receives its spans (api/tracing.py)."""
    settings = settings or Settings()
    store = store or make_store(settings)
    broker = Broker()
    feed = games_feed(store, broker)
    lobby = LobbyLimits(
        settings.max_unstarted_games_per_client, settings.unstarted_game_ttl_seconds
    )
    observed = Observability.of(settings, tracer_provider)
    service = GameService(
        observed.store(store),
        broker,
        publish_locally=feed is None,
        lobby=lobby,
        feed=feed if isinstance(feed, SqliteChangeFeed) else None,
    )
    accounts, account_feed = _accounts(store, service, broker)
    tournaments = Tournaments(tournament_store_for(store), GameTables(service.work, accounts.store))
    ratings = ratings_beside(store, service.work)
    service.work.finished = each_told(tournaments.game_finished, ratings.game_finished)
    graphql = RisikoGraphQL(service, settings, observed, accounts)
    app = Starlette(
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", graphql),
            *health_routes(store, settings),
            *observed.routes(),
            Mount(ASSETS_PATH.rstrip("/"), ImmutableFiles(directory=settings.graphiql_assets_dir)),
            Route("/", web_client.page(settings.web_client_dir)),
            Mount("/assets", ImmutableFiles(directory=settings.web_client_dir / "assets")),
        ],
        middleware=_middleware(settings, graphql, observed),
        lifespan=_lifespan(
            store,
            service,
            (accounts, tournaments, ratings),
            observed,
            settings,
            (feed, account_feed),
        ),
    )
    challenges_beside(app, store, service.work, accounts.store)
    pool_beside(app, store, service.work, accounts, ratings)
    app.state.service = service
    app.state.accounts = accounts
    app.state.tournaments = tournaments
    app.state.ratings = ratings
    app.state.ladder = ladder_beside(store, service.work, accounts.store, ratings.store)
    app.router.lifespan_context = with_ladder(app.state.ladder, app.router.lifespan_context)
    app.state.settings = settings
    return app
