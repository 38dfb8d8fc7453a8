"""The health checks: /healthz (the process answers) and /readyz (its store answers too, in
time: else 503, so that a load balancer sends no requests to it)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from api.settings import Settings
from api.stores.base import Store


def health_routes(store: Store, settings: Settings) -> list[Route]:
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

    return [Route("/healthz", healthz), Route("/readyz", readyz)]
