"""submitAction over HTTP, against the same service call behind a bare Starlette JSON route,
in one run: `python benchmarks/api.py [--games N] [--stores embedded,mongodb]`.

The server runs in its own process (uvicorn, one worker), on the embedded store and on the
MongoDB store (secantusdb, started by the benchmark, or RISIKO_TEST_MONGODB_URI). Each game is
created with the same seed, so its actions are known in advance: they are computed in-process
by the `aggressive` bot, then sent one after the other by one client, as GraphQL to one game
and as bare JSON to another, alternating game by game. Every request is a real, accepted,
durable action.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots.policies import POLICIES  # noqa: E402
from domain.errors import RuleViolation  # noqa: E402
from tests.e2e.support import free_port  # noqa: E402
from variants import get_variant  # noqa: E402

SEED = "benchmark"
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
SUBMIT = """mutation($input: SubmitActionInput!) {
  submitAction(input: $input) { version userErrors { code message } }
}"""


def planned_actions(limit: int) -> list[tuple[int, dict[str, Any]]]:
    """The first `limit` actions of the seeded game, as (seat, action dict)."""
    game = get_variant("classic").new_game(NAMES, seed=SEED.encode(), colours=None)
    rnd = random.Random(0)
    plan: list[tuple[int, dict[str, Any]]] = []
    while not game.is_over and len(plan) < limit:
        seat = game.seat_to_act
        assert seat is not None
        for action in POLICIES["aggressive"](game, seat, rnd):
            try:
                game.apply(seat, action)
            except RuleViolation:
                break
            plan.append((seat, action.to_dict()))
            if game.is_over or game.seat_to_act != seat or len(plan) >= limit:
                break
    return plan


def graphql_input(action: dict[str, Any]) -> dict[str, Any]:
    kind = action["kind"]
    fields = {k: v for k, v in action.items() if k != "kind"}
    camel = "".join(part.title() for part in kind.split("_"))
    name = camel[0].lower() + camel[1:]
    if kind == "end_turn":
        return {"endTurn": True}
    if kind == "attack_until":
        fields["stopAt"] = fields.pop("stop_at")
    return {name: fields}


def new_game(client: httpx.Client) -> tuple[str, list[str]]:
    def gql(query: str, variables: dict[str, Any], token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        body = client.post(
            "/graphql", json={"query": query, "variables": variables}, headers=headers
        ).json()
        assert "errors" not in body, body
        return body["data"]

    created = gql(
        "mutation($s: String) { createGame(input: {seed: $s}) { game { id } } }", {"s": SEED}
    )
    game_id = created["createGame"]["game"]["id"]
    tokens = []
    for name in NAMES:
        joined = gql(
            "mutation($g: ID!, $n: String!) { joinGame(input: {gameId: $g, name: $n}) { token } }",
            {"g": game_id, "n": name},
        )
        tokens.append(joined["joinGame"]["token"])
    gql(
        "mutation($g: ID!) { startGame(input: {gameId: $g}) { game { version } } }",
        {"g": game_id},
        tokens[0],
    )
    return game_id, tokens


def run(client: httpx.Client, plan: list[tuple[int, dict[str, Any]]], bare: bool) -> list[float]:
    game_id, tokens = new_game(client)
    version = 6  # create, 4 joins, start
    latencies: list[float] = []
    raw_id = json.loads('"' + game_id + '"')
    if bare:
        import base64

        raw_id = base64.urlsafe_b64decode(game_id).decode().split(":", 1)[1]
    for seat, action in plan:
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        started = time.perf_counter()
        if bare:
            response = client.post(
                "/bare/submit",
                headers=headers,
                json={"gameId": raw_id, "action": action, "expectedVersion": version},
            )
            body = response.json()
            assert "error" not in body, body
        else:
            response = client.post(
                "/graphql",
                headers=headers,
                json={
                    "query": SUBMIT,
                    "variables": {
                        "input": {
                            "gameId": game_id,
                            "action": graphql_input(action),
                            "expectedVersion": version,
                        }
                    },
                },
            )
            body = response.json()
            assert not body["data"]["submitAction"]["userErrors"], body
        latencies.append(time.perf_counter() - started)
        version += 1
    return latencies


def summary(latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    return {
        "requests": len(ordered),
        "per_second": round(len(ordered) / sum(ordered), 1),
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2),
    }


# Runs uvicorn in the server process, after raising its open-files limit (for many WebSocket
# connections), with the HTTP and WebSocket protocol classes `risiko serve` runs
# (api/connections.py; its connection caps off: the benchmarks open many sockets from one
# address), or with one of uvicorn's own WebSocket implementations when asked by name. With
# RISIKO_BENCH_PROFILE set, under pyinstrument, writing when the server stops that file (a call
# tree), the same path plus .flat.txt (functions by own and inclusive time,
# benchmarks/profiles.py) and plus .pyisession (to render again: pyinstrument --load FILE).
LAUNCHER = """
import os, resource, signal, sys, warnings
import uvicorn
from api.connections import ConnectionLimits, guarded_protocols
from benchmarks.api_app import timed_websocket
# uvicorn's legacy `websockets` implementation warns that it is deprecated.
warnings.filterwarnings("ignore", message="The `websockets` implementation is deprecated")
# uvicorn shuts down on SIGTERM, then raises it again for the previous handler: let that be
# this no-op, so that the profile below is still written.
signal.signal(signal.SIGTERM, lambda *_: None)
wanted = int(os.environ.get("RISIKO_BENCH_OPEN_FILES", "0"))
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if soft != resource.RLIM_INFINITY and soft < wanted:
    limit = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
port, ws, http, loop = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
workers = int(sys.argv[5])
if workers > 1:  # each worker builds them by name (api/workers.py), caps off by the environment
    protocols = {"http": "api.workers:Http", "ws": "api.workers:WebSocket"}
elif ws == "risiko":
    guarded_http, guarded_ws = guarded_protocols(ConnectionLimits(max_total=0, max_per_address=0))
    protocols = {"http": guarded_http, "ws": timed_websocket(guarded_ws)}
else:
    protocols = {"ws": ws, "http": http}
target = os.environ.get("RISIKO_BENCH_PROFILE")
profiler = None
if target:
    from pyinstrument import Profiler
    profiler = Profiler(interval=0.001, async_mode="disabled")
    profiler.start()
try:
    uvicorn.run(
        "benchmarks.api_app:create",
        factory=True,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        loop=loop,
        workers=workers,
        **protocols,
    )
finally:
    if profiler is not None:
        profiler.stop()
        with open(target, "w") as out:
            out.write(profiler.output_text(unicode=False, color=False))
        profiler.last_session.save(target + ".pyisession")
        from benchmarks.profiles import summarize
        with open(target + ".flat.txt", "w") as out:
            out.write(summarize(target + ".pyisession"))
"""


SERVER_PIDS: dict[str, int] = {}  # base URL -> process id of the servers running


def rss_mib(pid: int) -> float:
    """A process's resident memory now, with its children's (a server's workers), in MiB
    (Linux: /proc)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024 + sum(rss_mib(int(child)) for child in children)
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process and its children (a server's workers) have used
    so far (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return own + sum(cpu_seconds(int(child)) for child in children)


@contextmanager
def serve(
    store_uri: str | None = None,
    *,
    ws: str = "risiko",
    http: str = "auto",
    loop: str = "auto",
    open_files: int = 0,
    profile: Path | None = None,
    workers: int = 1,
) -> Iterator[str]:
    """The benchmark's server (the real app plus the bare routes) in its own process: uvicorn,
    one worker, on a free loopback port and a fresh data folder. Yields its base URL.

    `ws="risiko"` runs the protocol classes of `risiko serve`; any other name runs uvicorn's
    own, with `http` as its HTTP implementation (`h11`, `httptools`, `auto`). `loop` is
    uvicorn's event loop (`asyncio`, `uvloop`, `auto`: uvloop where it is installed).
    `workers` > 1: that many processes on the port, as `risiko serve --workers` runs them
    (the protocol classes of `risiko serve`, whatever `ws` says; no profile)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "RISIKO_DATA_DIR": data, "PYTHONPATH": path}
        # Throughput is measured here, not admission: one client asking as fast as it can
        # would spend its budget of cost points (RISIKO_BUDGET_POINTS) in a second or two.
        env["RISIKO_BUDGET_POINTS"] = "0"
        env.pop("RISIKO_STORE", None)
        env.pop("RISIKO_BENCH_PROFILE", None)
        if store_uri:
            env["RISIKO_STORE"] = store_uri
        if open_files:
            env["RISIKO_BENCH_OPEN_FILES"] = str(open_files)
        if profile is not None:
            env["RISIKO_BENCH_PROFILE"] = str(profile)
        if workers > 1:
            env["RISIKO_MAX_CONNECTIONS"] = env["RISIKO_MAX_CONNECTIONS_PER_ADDRESS"] = "0"
        server = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(port), ws, http, loop, str(workers)],
            cwd=ROOT,
            env=env,
        )
        url = f"http://127.0.0.1:{port}"
        SERVER_PIDS[url] = server.pid
        try:
            deadline = time.monotonic() + 60
            while True:
                if server.poll() is not None:
                    raise RuntimeError(f"the benchmark server exited ({server.returncode})")
                try:
                    if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("the benchmark server did not become ready")
                time.sleep(0.1)
            yield url
        finally:
            SERVER_PIDS.pop(url, None)
            server.terminate()
            try:
                server.wait(timeout=60 if profile else 15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def measure(
    store_uri: str | None,
    plan: list[tuple[int, dict[str, Any]]],
    games: int,
    profile: Path | None = None,
) -> dict[str, Any]:
    """GraphQL and bare JSON, alternating game by game, on one server process."""
    with serve(store_uri, profile=profile) as url, httpx.Client(base_url=url, timeout=30) as client:
        graphql: list[float] = []
        bare: list[float] = []
        cpu = {"graphql": 0.0, "bare_json": 0.0}  # the server's CPU seconds on each route
        for _ in range(games):
            for route, latencies in (("graphql", graphql), ("bare_json", bare)):
                before = cpu_seconds(SERVER_PIDS[url])
                latencies += run(client, plan, bare=route == "bare_json")
                cpu[route] += cpu_seconds(SERVER_PIDS[url]) - before
    result: dict[str, Any] = {"graphql": summary(graphql), "bare_json": summary(bare)}
    for route, requests in (("graphql", graphql), ("bare_json", bare)):
        result[route]["server_cpu_ms"] = round(cpu[route] / len(requests) * 1000, 3)
    result["ratio_bare_over_graphql"] = round(
        result["bare_json"]["per_second"] / result["graphql"]["per_second"], 2
    )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per route")
    parser.add_argument("--actions", type=int, default=300, help="actions per game")
    parser.add_argument(
        "--stores",
        default="embedded,mongodb",
        help="embedded, mongodb or both; mongodb runs secantusdb (or RISIKO_TEST_MONGODB_URI)",
    )
    args = parser.parse_args()
    plan = planned_actions(args.actions)
    results: dict[str, Any] = {}
    for store in args.stores.split(","):
        if store == "embedded":
            results["embedded (SQLite)"] = measure(None, plan, args.games)
        elif store == "mongodb":
            from tests.mongo_server import ENVIRONMENT, MongoServer

            mongo = MongoServer().start()
            try:
                label = "mongodb" if os.environ.get(ENVIRONMENT) else "mongodb (secantusdb)"
                results[label] = measure(mongo.uri_for("risiko_bench"), plan, args.games)
            finally:
                mongo.stop()
        else:
            parser.error(f"unknown store {store!r}")
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
