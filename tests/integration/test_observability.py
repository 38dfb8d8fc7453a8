"""Traces, in-process with OpenTelemetry's in-memory exporter: a span for the request (with its
request id, under the caller's trace), one for the GraphQL operation within it, one for each
store call within that. And what the defaults leave out: no metrics, no traces, no
measuring on the request path (tests/e2e/test_observability.py scrapes a real server)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode
from strawberry.extensions import ParserCache

from api.app import create_app
from api.metrics import OperationNames
from api.settings import Settings
from api.tracing import configured_provider

pytestmark = pytest.mark.anyio

CREATE = 'mutation Open { createGame(input: {variant: "classic"}) { game { id } } }'
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"


@asynccontextmanager
async def traced_app(
    data_dir: Path, exporter: InMemorySpanExporter
) -> AsyncIterator[httpx.AsyncClient]:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    app = create_app(Settings(data_dir=data_dir), tracer_provider=provider)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c,
    ):
        yield c


def only(spans: list[ReadableSpan], name: str) -> ReadableSpan:
    (found,) = [span for span in spans if span.name == name]
    return found


async def test_a_request_its_operation_and_its_store_calls_are_spans(tmp_path: Path) -> None:
    exporter = InMemorySpanExporter()
    async with traced_app(tmp_path / "data", exporter) as client:
        exporter.clear()  # the start-up's store calls
        parent = f"00-{TRACE_ID}-00f067aa0ba902b7-01"
        headers = {"traceparent": parent, "X-Request-Id": "traced-1"}
        answer = await client.post("/graphql", json={"query": CREATE}, headers=headers)
        assert answer.json()["data"]["createGame"]["game"]["id"]
        refused = await client.post("/graphql", json={"query": "{ nope }"})
        assert refused.json()["errors"]
    every = list(exporter.get_finished_spans())
    spans = [span for span in every if format(span.context.trace_id, "032x") == TRACE_ID]
    request = only(spans, "POST /graphql")  # under the caller's trace
    operation = only(spans, "graphql mutation Open")
    create = only(spans, "store.create")
    assert request.kind is SpanKind.SERVER
    assert request.attributes is not None
    assert request.attributes["risiko.request_id"] == "traced-1"
    assert operation.parent is not None
    assert operation.parent.span_id == request.context.span_id
    assert operation.attributes == {
        "graphql.operation.type": "mutation",
        "graphql.operation.name": "Open",
    }
    assert create.parent is not None
    assert create.parent.span_id == operation.context.span_id
    assert create.kind is SpanKind.CLIENT
    assert create.attributes == {"db.system": "sqlite", "db.operation.name": "create"}
    failed = only(every, "graphql query")
    assert failed.status.status_code is StatusCode.ERROR


async def test_by_default_nothing_is_measured_nor_traced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
        monkeypatch.delenv(name, raising=False)
    assert configured_provider() is None
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector.invalid:4318")
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    assert configured_provider() is None
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT")
    app = create_app(Settings(data_dir=tmp_path / "data"))
    service = app.state.service
    assert type(service.store).__name__ == "SqliteStore"  # not wrapped: nothing measures it
    middleware = {m.cls.__name__ for m in app.user_middleware}  # type: ignore[attr-defined]
    assert middleware == {"CORSMiddleware", "RequestId", "GZipMiddleware", "BodySizeLimit"}
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c,
    ):
        assert (await c.get("/metrics")).status_code == 404


def test_operation_labels_are_bounded() -> None:
    from graphql import OperationDefinitionNode, parse

    names = OperationNames(limit=2)

    def label(document: str) -> str:
        (operation,) = parse(document).definitions
        assert isinstance(operation, OperationDefinitionNode)
        return names.label(operation)

    assert [label(f"query Q{n} {{ variants {{ name }} }}") for n in range(4)] == [
        "Q0",
        "Q1",
        "other",
        "other",
    ]
    assert label("query Q1 { variants { name } }") == "Q1"  # a name seen keeps its label
    assert label("{ a: game(id: 1) { id } variants { name } }") == "anonymous:game"
    assert names.label(None) == "invalid"


def test_the_settings_refuse_a_token_mode_without_a_token() -> None:
    with pytest.raises(ValueError, match="RISIKO_METRICS_TOKEN"):
        Settings(metrics="token")
    assert Settings(metrics="token", metrics_token="x" * 16).metrics_token == "x" * 16


def test_no_extension_is_added_by_default(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path / "data"))
    routes = app.routes  # the GraphQL view is the first route's endpoint
    view = routes[0].endpoint  # type: ignore[attr-defined]
    assert view.schema.extensions[0] is ParserCache
