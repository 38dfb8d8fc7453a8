"""OpenTelemetry traces, when an OTLP endpoint is configured (off by default): a span for each
HTTP request and WebSocket connection (opentelemetry-instrumentation-asgi, which also takes
the caller's `traceparent`), one for each GraphQL operation within it, and one for each store
call within that.

Configured by OpenTelemetry's own variables: OTEL_EXPORTER_OTLP_ENDPOINT (or
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) turns it on and says where the spans go, over OTLP/HTTP
(protobuf); OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME (default `risiko`),
OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER and its argument as the SDK reads them;
OTEL_SDK_DISABLED=true turns it off again.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from opentelemetry.sdk.resources import SERVICE_NAME, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import Span, SpanKind, Status, StatusCode, Tracer
from starlette.types import ASGIApp, Scope
from strawberry.extensions import SchemaExtension

from api import request_id
from api.metrics import operation_of

ENDPOINTS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")


def configured_provider() -> TracerProvider | None:
    """A tracer provider exporting over OTLP/HTTP, if an endpoint is configured."""
    if not any(os.environ.get(name) for name in ENDPOINTS):
        return None
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return None
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    named = {} if os.environ.get("OTEL_SERVICE_NAME") else {SERVICE_NAME: "risiko"}
    provider = TracerProvider(resource=Resource.create(named))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    return provider


def traced_requests(app: ASGIApp, provider: TracerProvider) -> ASGIApp:
    """A span per HTTP request and per WebSocket connection (not per message), with the
    request id (api/request_id.py) as `risiko.request_id`."""
    from opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware

    def name_request(span: Span, scope: Scope) -> None:
        if span.is_recording():
            span.set_attribute("risiko.request_id", request_id.current.get())

    return OpenTelemetryMiddleware(
        app,
        tracer_provider=provider,
        exclude_spans=["receive", "send"],
        server_request_hook=name_request,
    )


def tracer_of(provider: TracerProvider) -> Tracer:
    return provider.get_tracer("risiko")


class OperationSpans(SchemaExtension):
    """A span for each GraphQL operation (a subscription's lasts as long as it does), named
    by its type and name, marked as an error when its answer holds errors."""

    def __init__(self, tracer: Tracer) -> None:
        super().__init__()
        self.tracer = tracer

    def on_operation(self) -> Iterator[None]:
        with self.tracer.start_as_current_span("graphql", kind=SpanKind.INTERNAL) as span:
            yield
            context = self.execution_context
            operation = operation_of(context)
            kind = "invalid" if operation is None else operation.operation.value
            name = operation.name.value if operation is not None and operation.name else None
            span.update_name(f"graphql {kind}" + (f" {name}" if name else ""))
            span.set_attribute("graphql.operation.type", kind)
            if name:
                span.set_attribute("graphql.operation.name", name)
            errors = getattr(context.result, "errors", None)
            if errors:
                span.set_status(Status(StatusCode.ERROR, f"{len(errors)} GraphQL error(s)"))
