"""The server's ticker: the task that wakes the games' clocks every `clock_interval_seconds`
(api/scheduler.py does what they owe) for as long as the server runs, and records how late
each tick was and how long it took."""

from __future__ import annotations

import asyncio
import logging
import time

from api.observability import Observability, games_in_memory
from api.service import GameService
from api.settings import Settings

logger = logging.getLogger("risiko")


async def run_clock(service: GameService, settings: Settings, observed: Observability) -> None:
    """The games' clocks: turn deadlines, seated bots and tournament time limits, which
    the service acts on through its write path; and the lobby's games nobody started,
    abandoned, checked every minute at most."""
    sweep_seconds = min(60.0, settings.unstarted_game_ttl_seconds / 2 or 60.0)
    ticks_per_sweep = max(1, round(sweep_seconds / settings.clock_interval_seconds))
    tick = 0
    while True:
        slept = time.perf_counter()
        await asyncio.sleep(settings.clock_interval_seconds)
        woke = time.perf_counter()
        try:
            await service.tick()
            await service.expire_due()  # time limits of games from before game clocks
            if tick % ticks_per_sweep == 0:
                await service.expire_lobby()
        except Exception:  # the store may be down for a while; try again next tick
            logger.exception("the clock could not declare expired time limits")
        tick += 1
        late = woke - slept - settings.clock_interval_seconds
        try:
            observed.clock_ticked(late, time.perf_counter() - woke, games_in_memory(service))
        except Exception:  # a figure lost, never the clock: it would stop for good
            logger.exception("the clock's figures could not be recorded")
