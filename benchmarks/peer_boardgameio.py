"""A peer, side by side: boardgame.io's Node server and this one, on the same machine.

    .venv/bin/python benchmarks/peer_boardgameio.py [--runs 3] [--clients 20] [--seconds 5]
        [--spectators 100] [--moves 40] [--workdir DIR]

boardgame.io (npm `boardgame.io` 0.50.2, the project in benchmarks/peer_boardgameio/) is
installed from the npm registry by this benchmark into a temporary folder (or `--workdir DIR`,
kept for the next run); nothing of it is committed. Its game is trivial: one counter any seat
may bump. It runs on boardgame.io's own server (Koa + socket.io) with its `FlatFile` store
(node-persist, as boardgame.io's FlatFile uses it: a write queue flushed once a second,
no fsync) and in memory; its clients are boardgame.io's own (`boardgame.io/client` over
socket.io WebSockets) in one Node process. This server is the benchmark server of
benchmarks/api.py (the app of `risiko serve`, one uvicorn worker, on the embedded SQLite
store, every action committed before its answer); its clients are GraphQL over HTTP
(keep-alive) and WebSocket subscribers in one Python process, playing the actions of a
seeded classic game that the `aggressive` bot computed in advance.

Each run, for each server (their order alternating run by run): `--clients` players, each on
a game of its own, each sending its next move once the server has answered the last (for
boardgame.io: once its update came back), for `--seconds`: moves/s and the p50/p99 of a move;
the server's CPU time a move in that phase (from /proc: steadier than the wall clock on a
shared machine); then one player moves `--moves` times on a game that `--spectators` watch
(each move once every spectator has the last): p50/p99 of the delay from a move's send to its
arrival at each spectator. boardgame.io sends a move's update to every client before it
writes the state; this server writes first. Prints a summary on stderr, one JSON line a
server and run on stdout, then one a server with the medians.

package.json pins koa-compose 4.1.0: boardgame.io 0.50.2 adds its routes to Koa after its
socket.io transport built the request handler, which koa-compose 4.2 copies the middleware
for (every lobby request is then a 404).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import api  # noqa: E402
from benchmarks.suite import _connect, _Connections, _last_public_event, percentile  # noqa: E402
from tests.e2e.support import free_port  # noqa: E402

PROJECT = ROOT / "benchmarks" / "peer_boardgameio"
SERVERS = ("boardgameio.flatfile", "boardgameio.memory", "risiko.embedded")
START_VERSION = 6  # a new game's version: created, four seats joined, started
Plan = list[tuple[int, dict[str, Any]]]


def install(workdir: Path) -> None:
    """The Node project, its packages from the npm registry (once a work folder)."""
    for name in ("package.json", "game.js", "server.js", "clients.js"):
        shutil.copy(PROJECT / name, workdir / name)
    if not (workdir / "node_modules" / "boardgame.io").exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=workdir, check=True)


def boardgameio(workdir: Path, store: str, args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            ["node", "server.js", str(port), store, data],
            cwd=workdir,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            if server.stdout.readline().strip() != "ready":
                raise RuntimeError("boardgame.io's server did not start")
            url = f"http://127.0.0.1:{port}"
            cpu = api.cpu_seconds(server.pid)
            result = _node_clients(workdir, url, "players", args.clients, args.seconds)
            result["server_cpu_ms_a_move"] = (
                (api.cpu_seconds(server.pid) - cpu) * 1e3 / max(result["moves"], 1)
            )
            result.update(_node_clients(workdir, url, "spectators", args.spectators, args.moves))
            return result
        finally:
            server.terminate()
            server.wait(timeout=15)


def _node_clients(workdir: Path, url: str, *arguments: object) -> dict[str, Any]:
    done = subprocess.run(
        ["node", "clients.js", url, *map(str, arguments)],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


async def _players(
    url: str, games: list[list[tuple[str, list[str]]]], plan: Plan, seconds: float
) -> tuple[int, float, list[float]]:
    """Each player plays its games' planned actions one after the other until `seconds`."""
    connections = _Connections(url, len(games))
    await connections.open()
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def player(own: list[tuple[str, list[str]]]) -> int:
        done = 0
        for game_id, tokens in own:
            for step, (seat, action) in enumerate(plan):
                if time.perf_counter() >= deadline:
                    return done
                await _submit(connections, game_id, tokens[seat], action, step, latencies)
                done += 1
        return done

    started = time.perf_counter()
    counts = await asyncio.gather(*(player(own) for own in games))
    elapsed = time.perf_counter() - started
    await connections.close()
    return sum(counts), sum(counts) / elapsed, latencies


async def _submit(
    connections: _Connections,
    game_id: str,
    token: str,
    action: dict[str, Any],
    step: int,
    latencies: list[float],
) -> None:
    variables = {
        "input": {
            "gameId": game_id,
            "action": api.graphql_input(action),
            "expectedVersion": START_VERSION + step,
        }
    }
    body = json.dumps({"query": api.SUBMIT, "variables": variables}).encode()
    sent = time.perf_counter()
    answer = await connections.post(body, token)
    latencies.append(time.perf_counter() - sent)
    assert answer["data"]["submitAction"]["userErrors"] == [], answer


async def _spectated(
    url: str, game: tuple[str, list[str]], plan: Plan, spectators: int, moves: int
) -> list[float]:
    """One player moves `moves` times while `spectators` subscribers watch: each delay from a
    move's send to its first event at each subscriber."""
    game_id, tokens = game
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        after = await _last_public_event(client, game_id, START_VERSION)
    base = url.replace("http://", "ws://")
    sockets = [await _connect(base, "graphql", game_id, after, None) for _ in range(spectators)]
    sent_at: dict[int, float] = {}
    seen: dict[int, int] = {}
    delays: list[float] = []
    everyone = asyncio.Event()

    async def watch(socket: Any) -> None:
        mine: set[int] = set()
        async for raw in socket:
            now = time.perf_counter()
            message = json.loads(raw)
            if message["type"] != "next":
                continue
            version = message["payload"]["data"]["gameEvents"]["version"]
            if version in sent_at and version not in mine:
                mine.add(version)
                delays.append(now - sent_at[version])
                seen[version] = seen.get(version, 0) + 1
                if seen[version] == spectators:
                    everyone.set()

    watchers = [asyncio.create_task(watch(socket)) for socket in sockets]
    connections = _Connections(url, 1)
    await connections.open()
    for step, (seat, action) in enumerate(plan[:moves]):
        everyone.clear()
        sent_at[START_VERSION + step + 1] = time.perf_counter()
        await _submit(connections, game_id, tokens[seat], action, step, [])
        with contextlib.suppress(TimeoutError):  # an action no spectator sees: no delay
            await asyncio.wait_for(everyone.wait(), 2)
    await connections.close()
    for socket in sockets:
        await socket.close()
    for watcher in watchers:
        watcher.cancel()
    return delays


def risiko(args: argparse.Namespace, plan: Plan) -> dict[str, Any]:
    # A player plays a whole seeded game (about 400 actions) in a few seconds: enough for all.
    per_player = 1 + int(args.seconds * 150 / len(plan))
    with api.serve(None) as url, httpx.Client(base_url=url, timeout=30) as client:
        games = [[api.new_game(client) for _ in range(per_player)] for _ in range(args.clients)]
        watched = api.new_game(client)
        cpu = api.cpu_seconds(api.SERVER_PIDS[url])
        moves, rate, latencies = asyncio.run(_players(url, games, plan, args.seconds))
        cpu = api.cpu_seconds(api.SERVER_PIDS[url]) - cpu
        delays = asyncio.run(_spectated(url, watched, plan, args.spectators, args.moves))
    return {
        "moves": moves,
        "moves_per_second": rate,
        "move_p50_ms": percentile(latencies, 0.5) * 1000,
        "move_p99_ms": percentile(latencies, 0.99) * 1000,
        "server_cpu_ms_a_move": cpu * 1e3 / max(moves, 1),
        "spectator_deliveries": len(delays),
        "spectator_p50_ms": percentile(delays, 0.5) * 1000,
        "spectator_p99_ms": percentile(delays, 0.99) * 1000,
    }


FIGURES = ("moves_per_second", "move_p99_ms", "server_cpu_ms_a_move", "spectator_p99_ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--moves", type=int, default=40, help="moves the spectators watch")
    parser.add_argument("--workdir", type=Path, help="keep boardgame.io installed here")
    args = parser.parse_args()
    temporary = None
    if args.workdir is None:
        temporary = tempfile.TemporaryDirectory()
        args.workdir = Path(temporary.name)
    args.workdir.mkdir(parents=True, exist_ok=True)
    install(args.workdir)
    plan = api.planned_actions(10_000)
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in SERVERS}
    for run in range(args.runs):
        order = SERVERS if run % 2 == 0 else tuple(reversed(SERVERS))
        for name in order:
            if name == "risiko.embedded":
                result = risiko(args, plan)
            else:
                result = boardgameio(args.workdir, name.split(".")[1], args)
            result = {"benchmark": f"peer.{name}", "run": run + 1, **result}
            results[name].append(result)
            print(json.dumps(result))
            print(
                f"run {run + 1} {name}: {result['moves_per_second']:.0f} moves/s, move p99 "
                f"{result['move_p99_ms']:.1f} ms, server CPU a move "
                f"{result['server_cpu_ms_a_move']:.2f} ms, "
                f"spectator p99 {result['spectator_p99_ms']:.1f} ms",
                file=sys.stderr,
            )
    for name, runs in results.items():
        summary: dict[str, Any] = {"benchmark": f"peer.{name}.summary", "runs": len(runs)}
        for figure in FIGURES:
            values = [r[figure] for r in runs]
            summary[f"{figure}_median"] = round(statistics.median(values), 2)
            summary[f"{figure}_range"] = [round(min(values), 2), round(max(values), 2)]
        print(json.dumps(summary))
        print(
            f"{name}: moves/s {summary['moves_per_second_median']} "
            f"{summary['moves_per_second_range']}, move p99 {summary['move_p99_ms_median']} ms, "
            f"server CPU a move {summary['server_cpu_ms_a_move_median']} ms "
            f"{summary['server_cpu_ms_a_move_range']}, "
            f"spectator p99 {summary['spectator_p99_ms_median']} ms "
            f"{summary['spectator_p99_ms_range']}",
            file=sys.stderr,
        )
    if temporary is not None:
        temporary.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
