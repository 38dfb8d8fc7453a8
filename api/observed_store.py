"""A store whose calls are measured: each timed (risiko_store_call_seconds), each failure
counted (risiko_store_errors), each write of a log entry a commit (risiko_commits,
risiko_commit_seconds), and with tracing on each a span. It wraps any Store and passes
through what it does not measure (MongoDB's change stream)."""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

from opentelemetry.trace import SpanKind, Tracer

from api import metrics
from api.stores.base import Store, VersionConflict

COMMITS = frozenset({"create", "append"})


class ObservedStore:
    def __init__(self, inner: Store, *, measured: bool, tracer: Tracer | None) -> None:
        self.inner = inner
        self.measured = measured
        self.tracer = tracer
        self.system = "mongodb" if type(inner).__name__.startswith("Mongo") else "sqlite"

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.inner, name)
        if name.startswith("_") or not inspect.iscoroutinefunction(found):
            return found
        observed = self._observed(name, found)
        setattr(self, name, observed)  # wrapped once per call name
        return observed

    def _observed(
        self, name: str, call: Callable[..., Awaitable[Any]]
    ) -> Callable[..., Awaitable[Any]]:
        seconds = metrics.STORE_SECONDS.labels(name)

        @functools.wraps(call)
        async def observed(*args: Any, **kwargs: Any) -> Any:
            if self.tracer is None:
                return await self._measured(name, seconds, call, args, kwargs)
            attributes = {"db.system": self.system, "db.operation.name": name}
            span_name = f"store.{name}"
            with self.tracer.start_as_current_span(span_name, kind=SpanKind.CLIENT) as span:
                span.set_attributes(attributes)
                return await self._measured(name, seconds, call, args, kwargs)

        return observed

    async def _measured(
        self,
        name: str,
        seconds: Any,
        call: Callable[..., Awaitable[Any]],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> Any:
        if not self.measured:
            return await call(*args, **kwargs)
        started = time.perf_counter()
        try:
            answer = await call(*args, **kwargs)
        except VersionConflict:
            if name in COMMITS:
                metrics.COMMITS.labels("conflict").inc()
            raise
        except Exception:
            metrics.STORE_ERRORS.labels(name).inc()
            raise
        took = time.perf_counter() - started
        seconds.observe(took)
        if name in COMMITS:
            metrics.COMMITS.labels("ok").inc()
            metrics.COMMIT_SECONDS.observe(took)
        return answer


def observed(store: Store, *, measured: bool, tracer: Tracer | None) -> Store:
    """`store` itself when nothing is to be measured or traced."""
    if not measured and tracer is None:
        return store
    return cast(Store, ObservedStore(store, measured=measured, tracer=tracer))
