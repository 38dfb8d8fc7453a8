"""uvicorn's pure-Python stack against its fast one, side by side in one run:

    .venv/bin/python benchmarks/stack.py [--games 4] [--actions 300]

Two benchmark servers (benchmarks/api.py) run at once: one on h11 and asyncio's event loop,
one on httptools and uvloop (what `risiko serve` runs where uvloop installs). One client plays
the same seeded game on each, one request at a time, alternating game by game, so that a
noisy machine hurts both alike. Prints the median submitAction delay and requests/s of each
and their ratio, and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys

import httpx

import api

STACKS = {"h11+asyncio": ("h11", "asyncio"), "httptools+uvloop": ("httptools", "uvloop")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per stack")
    parser.add_argument("--actions", type=int, default=300, help="actions per game")
    args = parser.parse_args()
    plan = api.planned_actions(args.actions)
    latencies: dict[str, list[float]] = {name: [] for name in STACKS}
    (slow_http, slow_loop), (fast_http, fast_loop) = STACKS.values()
    with (
        api.serve(None, ws="websockets-sansio", http=slow_http, loop=slow_loop) as slow,
        api.serve(None, ws="websockets-sansio", http=fast_http, loop=fast_loop) as fast,
        httpx.Client(base_url=slow, timeout=30) as slow_client,
        httpx.Client(base_url=fast, timeout=30) as fast_client,
    ):
        clients = dict(zip(STACKS, (slow_client, fast_client), strict=True))
        for game in range(args.games):
            order = list(STACKS) if game % 2 == 0 else list(reversed(STACKS))
            for name in order:
                latencies[name] += api.run(clients[name], plan, bare=False)
    figures = {name: api.summary(values) for name, values in latencies.items()}
    slow_name, fast_name = STACKS
    ratio = round(figures[fast_name]["per_second"] / figures[slow_name]["per_second"], 2)
    for name, figure in figures.items():
        print(
            f"{name}: submitAction p50 {figure['p50_ms']} ms, p99 {figure['p99_ms']} ms, "
            f"{figure['per_second']} requests/s",
            file=sys.stderr,
        )
    print(f"{fast_name} ÷ {slow_name}: {ratio}", file=sys.stderr)
    print(json.dumps({"benchmark": "stack", **figures, "fast_over_slow": ratio}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
