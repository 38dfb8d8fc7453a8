"""What each action leaves to the garbage collector, through a real uvicorn in this process:

    .venv/bin/python -m benchmarks.cycles [--actions 100]

The collector is paused; around each `submitAction` (played by the `aggressive` bot, a mirror
engine choosing the moves) it is run with `gc.DEBUG_SAVEALL`, and what it finds is split into
the server's objects and the HTTP client's (httpx, httpcore: this benchmark's own). Prints the
median per action of each, and the server's types most often found; one JSON line on stdout.
A first request of each document is not counted: parsing and validating it leaves cycles in
graphql-core's validation, once per document.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

import httpx
import uvicorn

from api.app import create_app
from api.settings import Settings
from bots.policies import aggressive_policy
from tests.e2e.support import free_port
from tests.integration.api_support import action_input, new_game, submit

CLIENT_MODULES = ("httpx", "httpcore", "anyio")


def servers_objects(garbage: list[object]) -> list[object]:
    """What of `garbage` the HTTP client's objects do not reach (the client's cycles hold
    plain tuples, lists and events too: those are its own)."""
    by_id = {id(thing): thing for thing in garbage}
    reached = {id(thing) for thing in garbage if type(thing).__module__.startswith(CLIENT_MODULES)}
    frontier = [by_id[key] for key in reached]
    while frontier:
        for referent in gc.get_referents(frontier.pop()):
            key = id(referent)
            if key in by_id and key not in reached:
                reached.add(key)
                frontier.append(referent)
    return [thing for key, thing in by_id.items() if key not in reached]


async def measure(actions: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        app = create_app(Settings(data_dir=Path(folder)))
        server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.05)
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
                return await _play(client, actions)
        finally:
            server.should_exit = True
            await serving


async def _play(client: httpx.AsyncClient, actions: int) -> dict[str, object]:
    game = await new_game(client)
    mirror = game.game
    rnd = random.Random(1)
    server_counts: list[int] = []
    client_counts: list[int] = []
    kinds: collections.Counter[str] = collections.Counter()
    gc.collect()
    gc.disable()
    try:
        for played in range(actions + 1):
            seat = mirror.seat_to_act
            if seat is None:
                break
            action = next(iter(aggressive_policy(mirror, seat, rnd)))
            mirror.apply(seat, action)
            gc.collect()
            gc.set_debug(gc.DEBUG_SAVEALL)
            await submit(client, game.id, game.token(seat), action_input(action))
            await asyncio.sleep(0.005)  # the server's side of the exchange ends too
            gc.collect()
            ours = servers_objects(gc.garbage)
            if played > 0:
                server_counts.append(len(ours))
                client_counts.append(len(gc.garbage) - len(ours))
                kinds.update(f"{type(o).__module__}.{type(o).__qualname__}" for o in ours)
            gc.garbage.clear()
            gc.set_debug(0)
    finally:
        gc.set_debug(0)
        gc.enable()
    return {
        "benchmark": "cycles.submit_action",
        "actions": len(server_counts),
        "server_objects_per_action": statistics.median(server_counts),
        "client_objects_per_action": statistics.median(client_counts),
        "server_types": kinds.most_common(10),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=100, help="actions measured")
    report = asyncio.run(measure(parser.parse_args().actions))
    print(
        f"{report['actions']} actions: {report['server_objects_per_action']} of the server's "
        f"objects in cycles per action (the client's: {report['client_objects_per_action']})",
        file=sys.stderr,
    )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
