"""Prometheus metrics at /metrics (prometheus-client), when RISIKO_METRICS is `on` (served to
anyone who reaches the server) or `token` (served to a scraper that sends `Authorization:
Bearer <RISIKO_METRICS_TOKEN>`); `off` (the default) serves nothing and measures nothing.

Every name is `risiko_…`; labels are bounded: an operation is its name (the first
MAX_OPERATION_NAMES names a process sees; any later one is `other`) or, unnamed,
`anonymous:<its first root field>` (a field of the schema); codes are the API's own; routes
and store calls are fixed lists. Several processes of one server (uvicorn's workers) share
their figures through prometheus-client's multiprocess mode: set PROMETHEUS_MULTIPROC_DIR to
an empty folder before the server starts (docs/running.md).
"""

from __future__ import annotations

import hmac
import os
import time
from collections.abc import Iterator
from typing import Any

from graphql import FieldNode, OperationDefinitionNode
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, make_asgi_app
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.extensions import SchemaExtension
from strawberry.types.graphql import OperationType

from api.graphql.errors import error_code

MAX_OPERATION_NAMES = 100
# From a cached read (well under a millisecond) to a slow commit on a loaded disk.
SECONDS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
ROUTES = ("/graphql", "/healthz", "/readyz", "/metrics", "/")
PREFIXES = ("/assets/", "/graphiql/")

OPERATIONS = Counter(
    "risiko_graphql_operations", "GraphQL operations run, by name and type", ["operation", "type"]
)
OPERATION_SECONDS = Histogram(
    "risiko_graphql_operation_seconds",
    "Time to answer a query or a mutation, by name and type (subscriptions: see "
    "risiko_subscriptions_open)",
    ["operation", "type"],
    buckets=SECONDS,
)
ERRORS = Counter(
    "risiko_errors",
    "Errors answered, by code: GraphQL errors (over HTTP and WebSocket) and requests refused "
    "before any GraphQL ran",
    ["code"],
)
SUBSCRIPTIONS_OPEN = Gauge(
    "risiko_subscriptions_open", "GraphQL subscriptions running", multiprocess_mode="livesum"
)
SOCKET_RESULTS = Counter(
    "risiko_socket_results",
    "Results sent over WebSockets (`next` messages): the events delivered to subscribers, and "
    "the answer of a query or mutation sent over a socket",
)
HTTP_REQUESTS = Counter(
    "risiko_http_requests", "HTTP requests answered, by route and status", ["route", "status"]
)
HTTP_SECONDS = Histogram(
    "risiko_http_request_seconds",
    "Time to answer an HTTP request, by route",
    ["route"],
    buckets=SECONDS,
)
GAMES_IN_MEMORY = Gauge(
    "risiko_games_in_memory", "Games the service keeps in memory", multiprocess_mode="livesum"
)
STORE_SECONDS = Histogram(
    "risiko_store_call_seconds", "Time of each store call, by call", ["call"], buckets=SECONDS
)
STORE_ERRORS = Counter(
    "risiko_store_errors", "Store calls that failed (not counting version conflicts)", ["call"]
)
COMMITS = Counter(
    "risiko_commits",
    "Writes of a log entry (a game created, a move): ok, or conflict (another writer was first)",
    ["outcome"],
)
COMMIT_SECONDS = Histogram(
    "risiko_commit_seconds", "Time of a durable commit of a log entry", buckets=SECONDS
)
CLOCK_LAG = Histogram(
    "risiko_clock_lag_seconds",
    "How late the clock's tick (deadlines, seated bots) started after its interval",
    buckets=SECONDS,
)
CLOCK_SECONDS = Histogram(
    "risiko_clock_tick_seconds", "Time of the clock's work at each tick", buckets=SECONDS
)


class OperationNames:
    """The label of an operation: its name, or `anonymous:<first root field>`; past
    MAX_OPERATION_NAMES names, `other`."""

    def __init__(self, limit: int = MAX_OPERATION_NAMES) -> None:
        self.limit = limit
        self.seen: set[str] = set()

    def label(self, operation: OperationDefinitionNode | None) -> str:
        if operation is None:
            return "invalid"
        if operation.name is None:
            first = next(
                (s for s in operation.selection_set.selections if isinstance(s, FieldNode)), None
            )
            return f"anonymous:{first.name.value if first else ''}"
        name = operation.name.value
        if name not in self.seen and len(self.seen) >= self.limit:
            return "other"
        self.seen.add(name)
        return name


NAMES = OperationNames()


def count_error(code: str) -> None:
    ERRORS.labels(code).inc()


class OperationMetrics(SchemaExtension):
    """Counts and times each query and mutation, counts each subscription when it starts and
    keeps the count of those running (a subscription's operation lasts as long as it does),
    and counts the errors of an answer by code (of a subscription: its last result's)."""

    def __init__(self) -> None:
        super().__init__()
        self.subscribed = False

    def on_operation(self) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            context = self.execution_context
            if self.subscribed:
                SUBSCRIPTIONS_OPEN.dec()
            else:
                operation = operation_of(context)
                kind = "invalid" if operation is None else operation.operation.value
                label = NAMES.label(operation)
                OPERATIONS.labels(label, kind).inc()
                OPERATION_SECONDS.labels(label, kind).observe(time.perf_counter() - started)
            result = context.result
            for error in getattr(result, "errors", None) or ():
                count_error(error_code_of(error.formatted, getattr(result, "data", None)))

    def on_execute(self) -> Iterator[None]:
        context = self.execution_context
        if context.operation_type is OperationType.SUBSCRIPTION and not self.subscribed:
            self.subscribed = True
            OPERATIONS.labels(NAMES.label(operation_of(context)), "subscription").inc()
            SUBSCRIPTIONS_OPEN.inc()
        yield


def error_code_of(formatted: Any, data: object) -> str:
    code = formatted.get("extensions", {}).get("code")
    return str(code) if code else error_code(formatted, data is not None)


def operation_of(context: Any) -> OperationDefinitionNode | None:
    """The operation a request's document runs: the one it names, or its only one; None for
    a document not parsed, or one of several operations that names none."""
    document = context.graphql_document
    if document is None:
        return None
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    name = context.operation_name
    return next((o for o in operations if o.name is not None and o.name.value == name), None) or (
        operations[0] if len(operations) == 1 else None
    )


def route_of(path: str) -> str:
    if path in ROUTES:
        return path
    return next((prefix.rstrip("/") for prefix in PREFIXES if path.startswith(prefix)), "other")


class HttpMetrics:
    """Counts and times HTTP requests by route and status (a WebSocket is not a request)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route = route_of(scope["path"])
            HTTP_REQUESTS.labels(route, str(status)).inc()
            HTTP_SECONDS.labels(route).observe(time.perf_counter() - started)


def registry() -> CollectorRegistry:
    """The process's registry, or, with PROMETHEUS_MULTIPROC_DIR set, one that gathers every
    process's figures from that folder."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    gathered = CollectorRegistry()
    MultiProcessCollector(gathered)  # type: ignore[no-untyped-call]
    return gathered


class MetricsEndpoint:
    """prometheus-client's exposition (text or OpenMetrics, as the scraper asks), behind the
    token when one is set: 401 without it, the same to a wrong one."""

    def __init__(self, token: str | None) -> None:
        self.token = token
        self.exposition = make_asgi_app(registry())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.token is not None and not _bearer_matches(scope, self.token):
            count_error("UNAUTHENTICATED")
            message = "/metrics needs its token (RISIKO_METRICS_TOKEN)"
            answer = {"errors": [{"message": message, "extensions": {"code": "UNAUTHENTICATED"}}]}
            headers = {"WWW-Authenticate": "Bearer"}
            await JSONResponse(answer, status_code=401, headers=headers)(scope, receive, send)
            return
        await self.exposition(scope, receive, send)


def _bearer_matches(scope: Scope, token: str) -> bool:
    sent = dict(scope.get("headers", [])).get(b"authorization", b"").decode("latin-1")
    scheme, _, given = sent.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode()
    )
