"""A well-behaved player's latency while another client hammers the server, before and after
the limits, in one run: `python benchmarks/hostile.py [--seconds S] [--hammers N] [--before DIR]`.

`risiko serve` processes on the embedded store, one after the other: "before" is a checkout
of the server before the limits (`--before DIR`, optional); "off" is this one with no cost
limit worth the name, no budget and no connection caps; "on" has the defaults. On each, a
player of a started game reads its game (state, legal actions) every 50 ms with its seat
token, while `--hammers` connections from the same address send the costliest document each
server accepts (battles of 1,000 armies a side, new to the odds cache every time) as fast as
they are answered. The player's latencies are reported as median and p99, with what the
hammering got done.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.support import Server  # noqa: E402

OFF = {
    "RISIKO_MAX_COST": "1000000000",
    "RISIKO_BUDGET_POINTS": "0",
    "RISIKO_MAX_CONNECTIONS": "0",
    "RISIKO_MAX_CONNECTIONS_PER_ADDRESS": "0",
    "RISIKO_MAX_ALIASES": "1000",
}
ON: dict[str, str] = {}
CREATE = 'mutation { createGame(input: {seed: "bench"}) { game { id } } }'
JOIN = """mutation($id: ID!, $name: String!) {
  joinGame(input: {gameId: $id, name: $name}) { token } }"""
START = "mutation($id: ID!) { startGame(input: {gameId: $id}) { game { id } } }"
READ = """query($id: ID!) { game(id: $id) { version status phase
  territories { id owner armies } legalActions { __typename } } }"""


def odds_document(counter: itertools.count[int], aliases: int) -> str:
    battles = " ".join(
        f"o{i}: battleOdds(attackers: 1000, defenders: {1 + next(counter) % 999}) "
        "{ conquestProbability }"
        for i in range(aliases)
    )
    return f"{{ {battles} }}"


async def started_game(client: httpx.AsyncClient) -> tuple[str, str]:
    """A started game and one seat's token."""
    created = await client.post("/graphql", json={"query": CREATE})
    game_id = created.json()["data"]["createGame"]["game"]["id"]
    tokens = []
    for name in ("Anna", "Bruno", "Carla"):
        joined = await client.post(
            "/graphql", json={"query": JOIN, "variables": {"id": game_id, "name": name}}
        )
        tokens.append(joined.json()["data"]["joinGame"]["token"])
    await client.post(
        "/graphql",
        json={"query": START, "variables": {"id": game_id}},
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    return game_id, tokens[0]


async def player(url: str, game_id: str, token: str, until: float) -> list[float]:
    latencies = []
    headers = {"Authorization": f"Bearer {token}"}
    body = {"query": READ, "variables": {"id": game_id}}
    async with httpx.AsyncClient(base_url=url, timeout=60, headers=headers) as client:
        while time.monotonic() < until:
            started = time.perf_counter()
            answer = await client.post("/graphql", json=body)
            latencies.append(time.perf_counter() - started)
            assert answer.status_code == 200, answer.text
            assert "errors" not in answer.json(), answer.text
            await asyncio.sleep(0.05)
    return latencies


async def hammer(url: str, aliases: int, until: float, counter: itertools.count[int]) -> Any:
    statuses: dict[int, int] = {}
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        while time.monotonic() < until:
            try:
                answer = await client.post(
                    "/graphql", json={"query": odds_document(counter, aliases)}
                )
                statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
            except httpx.HTTPError:
                statuses[0] = statuses.get(0, 0) + 1
                await asyncio.sleep(0.05)
    return statuses


async def measure(server: Server, seconds: float, hammers: int, aliases: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        game_id, token = await started_game(client)
    counter = itertools.count()
    until = time.monotonic() + seconds
    latencies, *hammered = await asyncio.gather(
        player(server.url, game_id, token, until),
        *(hammer(server.url, aliases, until + 0.5, counter) for _ in range(hammers)),
    )
    statuses: dict[int, int] = {}
    for counted in hammered:
        for status, count in counted.items():
            statuses[status] = statuses.get(status, 0) + count
    ordered = sorted(latencies)
    return {
        "reads": len(ordered),
        "median_ms": statistics.median(ordered) * 1000,
        "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
        "hammer_statuses": statuses,
    }


async def baseline(server: Server, seconds: float) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        game_id, token = await started_game(client)
    ordered = sorted(await player(server.url, game_id, token, time.monotonic() + seconds))
    return {
        "reads": len(ordered),
        "median_ms": statistics.median(ordered) * 1000,
        "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--hammers", type=int, default=8)
    parser.add_argument(
        "--before",
        type=Path,
        help="a checkout of the server before the limits (git worktree add DIR f502e9e), "
        "measured first, the same way",
    )
    args = parser.parse_args()
    python = sys.version.split()[0]
    print(f"{args.seconds:g} s each; {args.hammers} hammering connections; python {python}")
    with tempfile.TemporaryDirectory() as folder:
        runs = [("off", OFF, 30, ROOT), ("on", ON, 2, ROOT)]
        if args.before is not None:
            runs.insert(0, ("before", OFF, 30, args.before.resolve()))
        for name, env, aliases, root in runs:
            server = Server(Path(folder) / name / "data", env=env, root=root).start()
            try:
                quiet = asyncio.run(baseline(server, min(5.0, args.seconds)))
                loud = asyncio.run(measure(server, args.seconds, args.hammers, aliases))
            finally:
                server.stop()
            print(
                f"limits {name:6}: alone median {quiet['median_ms']:.1f} ms p99 "
                f"{quiet['p99_ms']:.1f} ms; hammered median {loud['median_ms']:.1f} ms p99 "
                f"{loud['p99_ms']:.1f} ms over {loud['reads']} reads; hammer answers "
                f"{loud['hammer_statuses']} ({aliases} battles a document)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
