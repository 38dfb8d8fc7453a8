"""`risiko serve --workers N`: N server processes on one port, one store, every core used.

uvicorn starts the processes (spawned, not forked) and hands each the listening socket; each
builds its own application from the environment (the parent puts its flags there first), so
what a worker needs is importable by name: `app`, and the protocol classes bound to the
connection limits. Every process publishes every process's events to its own subscribers
(api/feeds.py), whichever committed them."""

from __future__ import annotations

import sys

from starlette.applications import Starlette

from api.app import create_app
from api.collector import tune_for_serving
from api.connections import ConnectionLimits, guarded_protocols
from api.settings import Settings


def limits_of(settings: Settings) -> ConnectionLimits:
    """The caps on the sockets of one process."""
    return ConnectionLimits(
        max_total=settings.max_connections,
        max_per_address=settings.max_connections_per_address,
        header_timeout=settings.header_timeout_seconds,
        body_timeout=settings.body_timeout_seconds,
        stalled_reader_timeout=settings.stalled_reader_timeout_seconds,
    )


def serving_app(settings: Settings) -> Starlette:
    """The application of one serving process, its interpreter tuned for serving."""
    # The odds worker thread computes while the event loop serves everyone else: hand the
    # interpreter lock over every millisecond instead of every five, so that a request
    # waits less for it (benchmarks/hostile.py: the player's p99 under hammering).
    sys.setswitchinterval(0.001)
    served = create_app(settings)
    tune_for_serving()
    return served


def app() -> Starlette:
    """A worker's application (uvicorn's factory), from the environment."""
    return serving_app(Settings())


# A worker's protocol classes, by name (uvicorn imports them in each process).
Http, WebSocket = guarded_protocols(limits_of(Settings()))
