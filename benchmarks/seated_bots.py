"""Bots the server plays, through the service's write path on the embedded store:

    .venv/bin/python benchmarks/seated_bots.py [--games 10] [--variant classic] [--seats 4]

Each game is a table of `--seats` bots seated with addBot's service call (ODDS policy), a
host who leaves at the start, and the clock's own work until the end (no HTTP: the store, the
engine, the seat views, the odds and the clock). Prints the median seconds a game, the median
actions a second, and one JSON line. With `--clock`, the games also have a time control, to
measure what the clock's bookkeeping costs each move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project's api package, not benchmarks/api.py

from api.broker import Broker  # noqa: E402
from api.service import GameService  # noqa: E402
from api.stores.sqlite import SqliteStore  # noqa: E402
from bots.seated import BotPolicy  # noqa: E402


async def one_game(
    service: GameService, variant: str, seats: int, seed: str, clock: bool
) -> tuple[float, int]:
    control = {"turn_seconds": 3600} if clock else None
    record = await service.create_game(variant, {}, seed, time_control=control)
    host = await service.join_game(record.id, "host")
    for _ in range(seats):
        await service.add_bot(record.id, host.token, BotPolicy.ODDS)
    await service.start_game(record.id, host.token)
    started = time.perf_counter()
    await service.leave_game(record.id, host.token)
    while True:
        await service.settle()
        session = await service.session(record.id)
        if session.record.status == "finished":
            break
        await service.tick()
    seconds = time.perf_counter() - started
    entries = await service.store.log(record.id)
    return seconds, sum(1 for entry in entries if entry.kind == "bot")


async def main(games: int, variant: str, seats: int, clock: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "risiko.sqlite3")
        await store.open()
        service = GameService(store, Broker())
        try:
            runs = [
                await one_game(service, variant, seats, f"seated-{n}", clock) for n in range(games)
            ]
        finally:
            await service.close()
            await store.close()
    return {
        "games": games,
        "median_seconds_a_game": round(statistics.median(s for s, _ in runs), 3),
        "median_actions_a_second": round(statistics.median(n / s for s, n in runs), 1),
        "median_actions_a_game": statistics.median(n for _, n in runs),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--clock", action="store_true", help="with a time control")
    arguments = parser.parse_args()
    report = asyncio.run(main(arguments.games, arguments.variant, arguments.seats, arguments.clock))
    print(
        f"{arguments.variant}, {arguments.seats} seated bots: "
        f"{report['median_seconds_a_game']} s a game, "
        f"{report['median_actions_a_second']} actions/s (medians of {arguments.games})"
    )
    print(json.dumps(report))
