"""What the server tells its operators, set up from the settings: Prometheus metrics
(api/metrics.py, RISIKO_METRICS) and OpenTelemetry traces (api/tracing.py, an OTLP
endpoint). Each is installed only when on: off, the request path carries none of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from opentelemetry.sdk.trace import TracerProvider
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Route
from strawberry import Schema
from strawberry.extensions import SchemaExtension

from api import metrics
from api.observed_store import observed
from api.service import GameService
from api.settings import MetricsMode, Settings
from api.stores.base import Store
from api.tracing import OperationSpans, configured_provider, traced_requests, tracer_of


@dataclass
class Observability:
    metrics: bool
    metrics_token: str | None
    provider: TracerProvider | None

    @classmethod
    def of(cls, settings: Settings, provider: TracerProvider | None = None) -> Observability:
        """From the settings and OpenTelemetry's variables (`provider`, given: spans go to it
        whatever those say, as the tests give an in-memory exporter's)."""
        token = settings.metrics_token if settings.metrics is MetricsMode.TOKEN else None
        return cls(
            metrics=settings.metrics is not MetricsMode.OFF,
            metrics_token=token,
            provider=provider or configured_provider(),
        )

    def store(self, store: Store) -> Store:
        tracer = None if self.provider is None else tracer_of(self.provider)
        return observed(store, measured=self.metrics, tracer=tracer)

    def instrument(self, schema: Schema) -> None:
        """The schema's extensions, with the measuring ones first (outermost: they see the
        whole operation, refusals included)."""
        first: list[type[SchemaExtension] | Callable[[], SchemaExtension]] = []
        if self.metrics:
            first.append(metrics.OperationMetrics)
        if self.provider is not None:
            tracer = tracer_of(self.provider)
            first.append(lambda: OperationSpans(tracer))
        schema.extensions = (*first, *schema.extensions)

    def routes(self) -> list[BaseRoute]:
        if not self.metrics:
            return []
        return [Route("/metrics", metrics.MetricsEndpoint(self.metrics_token), methods=["GET"])]

    def outer_middleware(self) -> list[Middleware]:
        return [Middleware(metrics.HttpMetrics)] if self.metrics else []

    def inner_middleware(self) -> list[Middleware]:
        """Within the request id's, so that a request's span carries it."""
        if self.provider is None:
            return []
        return [Middleware(traced_requests, provider=self.provider)]

    def clock_ticked(self, lag: float, took: float, games_in_memory: int) -> None:
        if self.metrics:
            metrics.CLOCK_LAG.observe(max(0.0, lag))
            metrics.CLOCK_SECONDS.observe(took)
            metrics.GAMES_IN_MEMORY.set(games_in_memory)

    def socket_result(self) -> None:
        if self.metrics:
            metrics.SOCKET_RESULTS.inc()

    async def close(self) -> None:
        if self.provider is not None:
            self.provider.force_flush()
            self.provider.shutdown()


def games_in_memory(service: GameService) -> int:
    """The games the service keeps in memory (its sessions' cache)."""
    return len(service.sessions)
