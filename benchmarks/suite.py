"""The benchmark suite (benchmarks, not timed tests: the test suite never runs them).

    .venv/bin/python benchmarks/suite.py [--only engine,api,reads,subscriptions,odds,commits,held]
        [--quick]

Every figure is one JSON line on stdout, `{"benchmark": "<name>", ...}`, so that runs can be
collected and compared; a human summary goes to stderr. The first line (`suite.machine`)
describes the machine. Figures:

* engine.<variant>.<policy>: complete four-player games in-process (`bots.simulate`), games/s
  and actions/s, median (and best) of several repetitions, for every variant (classic, spqr),
  with the `aggressive` policy and the `random` one (which needs a round limit to end in
  classic; S.P.Q.RisiKo! games end by victory points with both);
* api.submit.<store>.<route>: submitAction over HTTP, one client, one uvicorn worker, GraphQL
  against the same service call behind a bare Starlette JSON route, alternating game by game
  (`benchmarks/api.py`), on the embedded store and on MongoDB (secantusdb, started here, or
  RISIKO_TEST_MONGODB_URI);
* reads.<query>.<route>: a full board query and a game state query through GraphQL against
  the same JSON from bare Starlette routes of the same server process, alternating request by
  request in one client loop; the GraphQL line carries the ratio. Each line (and each
  api.submit line) also has the server's CPU time a request (`server_cpu_ms`, from /proc: far
  steadier than wall time on a busy machine, which is what comparing a server's settings
  needs: the servers take the suite's environment, RISIKO_METRICS=on say). reads.<query>.in_process:
  the same two without HTTP (schema.execute against the bare routes' functions);
* subscriptions.gameEvents.<route>: S WebSocket subscribers (graphql-transport-ws) of one game
  on one server; then N actions are submitted one at a time (GraphQL submitAction), and for
  every event the delay from just before its submitAction was sent to its arrival at each
  subscriber: p50/p99 over all deliveries, the subscribers spread over client processes
  (`--subscriber-processes`, 2), so that one client's work of receiving S messages does not
  hide the server; and the server's side alone, from the broker's publish of an action's
  events to each message written to its socket. Then the same with S subscribers of
  the bare WebSocket route of `benchmarks/api_app.py` (the same service stream and messages,
  without GraphQL) on a second game with the same seed and the same actions;
* odds.<n>: `battle_odds(n, n)` cold (a fresh process) and warm (in-process, median).
* held.<G>: G games on one server, each getting one action a second (GraphQL submitAction
  over HTTP from one client process), for a ramp of G: p50/p99 delay, actions/s, the server's
  CPU share; held.summary, the most games held with p99 under 100 ms;
* commits.fsync_<ms>ms: durable actions/s, C players each on a game of its own submitting through
  the service to the embedded store on this disk, with group commit off and on, alternating;
  then again with every commit waiting <ms> more, a disk whose fsync takes that long.

`--profile-server DIR` runs the servers under pyinstrument (pip install pyinstrument; not a
project dependency) and writes per server a call tree (NAME.txt), the functions by own and
inclusive time (NAME.txt.flat.txt, from benchmarks/profiles.py) and the session
(NAME.txt.pyisession: `pyinstrument --load FILE`) to DIR.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.typing import Subprotocol

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import api  # noqa: E402
from benchmarks.run import machine  # noqa: E402
from bots.simulate import simulate  # noqa: E402
from domain.odds import battle_odds  # noqa: E402
from variants import VARIANTS  # noqa: E402

BENCHMARKS = ("engine", "api", "reads", "subscriptions", "odds", "commits", "held")
BOARD_QUERY = (
    "{ variants { board { territories { id name region } "
    "regions { id name bonus territories } edges { a b kind } } } }"
)
GAME_QUERY = (
    "query($id: ID!) { game(id: $id) { territories { id owner armies } "
    "players { seat name colour territories armies cards eliminated resigned } } }"
)
SUBMIT = """mutation($input: SubmitActionInput!) {
  submitAction(input: $input) { version events { seq private } userErrors { code message } }
}"""
SUBSCRIBE = (
    "subscription($g: ID!, $after: Int!) { gameEvents(gameId: $g, after: $after) "
    "{ seq version type } }"
)
LAST_EVENT = (
    "query($id: ID!, $after: Int!) { game(id: $id) { version "
    "events(after: $after, first: 100) { events { seq } hasMore } } }"
)


# --------------------------------------------------------------------------- output


def emit(figure: dict[str, Any]) -> None:
    print(json.dumps(figure), flush=True)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


# --------------------------------------------------------------------------- engine


def bench_engine(args: argparse.Namespace) -> list[dict[str, Any]]:
    figures = []
    for variant in VARIANTS:
        for policy in ("aggressive", "random"):
            games = args.engine_games if policy == "aggressive" else args.random_games
            # `aggressive` games end by themselves (simulate's default limit of 200 rounds is
            # never reached); classic `random` ones mostly do not: they end at the round limit.
            # S.P.Q.RisiKo! games end by victory points with either policy (about 17 rounds).
            ends_by_itself = policy == "aggressive" or variant == "spqr"
            limit = 200 if ends_by_itself else args.random_round_limit
            reports = [
                simulate(variant, 4, games, repetition, policy, round_limit=limit)
                for repetition in range(args.engine_repeat)
            ]
            rates = [r.games_per_second for r in reports]
            total = games * len(reports)
            figure = {
                "benchmark": f"engine.{variant}.{policy}",
                "games_per_second": round(statistics.median(rates), 1),
                "games_per_second_best": round(max(rates), 1),
                "actions_per_second": round(
                    statistics.median(r.actions_per_second for r in reports)
                ),
                "games": games,
                "repetitions": len(reports),
                "players": 4,
                "round_limit": limit,
                "average_actions": round(sum(r.actions for r in reports) / total, 1),
                "average_rounds": round(sum(r.rounds for r in reports) / total, 2),
                "games_with_winner": sum(r.winners for r in reports),
                "games_played": total,
            }
            emit(figure)
            say(
                f"engine {variant:8} {policy:10} {figure['games_per_second']:>8} games/s "
                f"{figure['actions_per_second']:>8} actions/s "
                f"({figure['average_actions']} actions, {figure['average_rounds']} rounds a game"
                f"{'' if ends_by_itself else ', round limit ' + str(limit)}; "
                f"{figure['games_with_winner']} of {total} won)"
            )
            figures.append(figure)
    return figures


# --------------------------------------------------------------------------- api


def bench_api(args: argparse.Namespace) -> list[dict[str, Any]]:
    plan = api.planned_actions(args.api_actions)
    figures = []
    for store in args.stores.split(","):
        profile = _profile_path(args, f"api-{store}")
        if store == "embedded":
            label, result = "embedded", api.measure(None, plan, args.api_games, profile)
        elif store == "mongodb":
            from tests.mongo_server import ENVIRONMENT, MongoServer

            label = "mongodb" if os.environ.get(ENVIRONMENT) else "mongodb-secantusdb"
            mongo = MongoServer().start()
            try:
                result = api.measure(mongo.uri_for("risiko_bench"), plan, args.api_games, profile)
            finally:
                mongo.stop()
        else:
            raise ValueError(f"unknown store {store!r}: embedded or mongodb")
        ratio = result["ratio_bare_over_graphql"]
        for route, key in (("graphql", "graphql"), ("bare", "bare_json")):
            figure = {
                "benchmark": f"api.submit.{label}.{route}",
                "requests_per_second": result[key]["per_second"],
                "p50_ms": result[key]["p50_ms"],
                "p99_ms": result[key]["p99_ms"],
                "requests": result[key]["requests"],
                "server_cpu_ms": result[key]["server_cpu_ms"],  # a request's, the game's too
            }
            if route == "graphql":
                figure["bare_over_graphql"] = ratio
            emit(figure)
            say(
                f"api submitAction {label:18} {route:8} {figure['requests_per_second']:>7} req/s "
                f"p50 {figure['p50_ms']} ms p99 {figure['p99_ms']} ms"
                + (f"  (bare/GraphQL {ratio})" if route == "graphql" else "")
            )
            figures.append(figure)
    return figures


# --------------------------------------------------------------------------- reads


def _raw_id(global_id: str) -> str:
    return base64.urlsafe_b64decode(global_id).decode().split(":", 1)[1]


def _play(client: httpx.Client, plan: list[tuple[int, dict[str, Any]]]) -> tuple[str, list[str]]:
    """A new seeded game, started, with `plan` played through the bare route."""
    game_id, tokens = api.new_game(client)
    version = 6  # create, 4 joins, start
    for seat, action in plan:
        body = client.post(
            "/bare/submit",
            headers={"Authorization": f"Bearer {tokens[seat]}"},
            json={"gameId": _raw_id(game_id), "action": action, "expectedVersion": version},
        ).json()
        assert "error" not in body, body
        version += 1
    return game_id, tokens


async def _in_process(plan: list[tuple[int, dict[str, Any]]], runs: int) -> dict[str, Any]:
    """Both reads without HTTP: the schema executing the query and its answer encoded, against
    the bare routes' functions and the same encoding; median milliseconds."""
    import tempfile

    from api.broker import Broker
    from api.graphql.context import Context
    from api.graphql.ids import to_global_id
    from api.graphql.schema import build_schema
    from api.service import GameService
    from api.stores.sqlite import SqliteStore
    from benchmarks.api_app import board_json, game_json
    from domain.actions import action_from_dict

    async def median_ms(call: Callable[[], Any]) -> float:
        await call()
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            await call()
            times.append(time.perf_counter() - started)
        return ms(statistics.median(times))

    schema = build_schema()
    with tempfile.TemporaryDirectory() as data:
        store = SqliteStore(Path(data) / "risiko.sqlite3")
        await store.open()
        try:
            service = GameService(store, Broker())
            record = await service.create_game("classic", {}, api.SEED)
            tokens = [(await service.join_game(record.id, name)).token for name in api.NAMES]
            await service.start_game(record.id, tokens[0])
            for seat, action in plan:
                await service.submit_action(record.id, tokens[seat], action_from_dict(action))
            game_id = to_global_id("Game", record.id)

            async def graphql_board() -> None:
                result = await schema.execute(BOARD_QUERY)
                assert not result.errors, result.errors
                json.dumps({"data": result.data})

            async def plain_board() -> None:
                boards = [{"board": board_json(variant)} for variant in VARIANTS.values()]
                json.dumps({"data": {"variants": boards}})

            async def graphql_game() -> None:
                context = Context(service, None)
                variables = {"id": game_id}
                result = await schema.execute(
                    GAME_QUERY, variable_values=variables, context_value=context
                )
                assert not result.errors, result.errors
                json.dumps({"data": result.data})

            async def plain_game() -> None:
                session = await service.session(record.id)
                json.dumps({"data": {"game": game_json(session)}})

            return {
                "board": (await median_ms(graphql_board), await median_ms(plain_board)),
                "game": (await median_ms(graphql_game), await median_ms(plain_game)),
            }
        finally:
            await store.close()


def bench_reads(args: argparse.Namespace) -> list[dict[str, Any]]:
    plan = api.planned_actions(args.read_actions)
    figures = []
    for name, (graphql_ms, plain_ms) in asyncio.run(_in_process(plan, args.read_requests)).items():
        figure = {
            "benchmark": f"reads.{name}.in_process",
            "graphql_ms": graphql_ms,
            "plain_ms": plain_ms,
            "graphql_over_plain": round(graphql_ms / plain_ms, 1),
        }
        emit(figure)
        say(
            f"reads {name:6} in-process: GraphQL execution {graphql_ms} ms, the bare route's "
            f"function {plain_ms} ms (x{figure['graphql_over_plain']}), JSON encoding included"
        )
        figures.append(figure)
    with (
        api.serve(None, profile=_profile_path(args, "reads")) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        game_id, _ = _play(client, plan)
        queries: dict[str, tuple[Callable[[], httpx.Response], Callable[[], httpx.Response]]] = {
            "board": (
                lambda: client.post("/graphql", json={"query": BOARD_QUERY}),
                lambda: client.get("/bare/variants"),
            ),
            "game": (
                lambda: client.post(
                    "/graphql", json={"query": GAME_QUERY, "variables": {"id": game_id}}
                ),
                lambda: client.get(f"/bare/game/{_raw_id(game_id)}"),
            ),
        }
        sizes: dict[tuple[str, str], int] = {}
        for name, (graphql, bare) in queries.items():  # the same document both ways
            answers = [graphql(), bare()]
            for route, answer in zip(("graphql", "bare"), answers, strict=True):
                assert answer.status_code == 200, answer.text
                sizes[name, route] = len(answer.content)
            # The same data; GraphQL's answer adds its `extensions` (the document's cost).
            same = answers[0].json()["data"] == answers[1].json()["data"]
            assert same, f"{name}: the routes differ"
        latencies: dict[tuple[str, str], list[float]] = {key: [] for key in sizes}
        cpu = dict.fromkeys(sizes, 0.0)  # the server's CPU seconds (in clock ticks: summed)
        server = api.SERVER_PIDS[url]
        for _ in range(args.read_warmup):
            for graphql, bare in queries.values():
                graphql()
                bare()
        for _ in range(args.read_requests):
            for name, (graphql, bare) in queries.items():
                for route, call in (("graphql", graphql), ("bare", bare)):
                    started, cpu_started = time.perf_counter(), api.cpu_seconds(server)
                    response = call()
                    latencies[name, route].append(time.perf_counter() - started)
                    cpu[name, route] += api.cpu_seconds(server) - cpu_started
                    assert response.status_code == 200
    for name in queries:
        rates = {}
        for route in ("graphql", "bare"):
            values = latencies[name, route]
            rates[route] = len(values) / sum(values)
        for route in ("graphql", "bare"):
            values = latencies[name, route]
            figure = {
                "benchmark": f"reads.{name}.{route}",
                "requests_per_second": round(rates[route], 1),
                "p50_ms": ms(statistics.median(values)),
                "p99_ms": ms(percentile(values, 0.99)),
                "requests": len(values),
                "response_bytes": sizes[name, route],
                "server_cpu_ms": round(cpu[name, route] / len(values) * 1000, 3),
            }
            if route == "graphql":
                figure["bare_over_graphql"] = round(rates["bare"] / rates["graphql"], 2)
            emit(figure)
            say(
                f"reads {name:6} {route:8} {figure['requests_per_second']:>8} req/s "
                f"p50 {figure['p50_ms']} ms p99 {figure['p99_ms']} ms "
                f"{figure['response_bytes']} bytes"
                + (f"  (bare/GraphQL {figure['bare_over_graphql']})" if route == "graphql" else "")
            )
            figures.append(figure)
    return figures


# --------------------------------------------------------------------------- subscriptions


def raise_open_files(wanted: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


class Progress:
    """How many subscribers have received the event numbered `target` (or a later one)."""

    def __init__(self, subscribers: int) -> None:
        self.subscribers = subscribers
        self.target: int | None = None
        self.count = 0
        self.done = asyncio.Event()

    def aim(self, target: int, last_seen: list[int]) -> None:
        self.target = target
        self.count = sum(seen >= target for seen in last_seen)
        self.done.clear()
        if self.count >= self.subscribers:
            self.done.set()

    def crossed(self) -> None:
        self.count += 1
        if self.count >= self.subscribers:
            self.done.set()


async def _subscriber(
    index: int,
    socket: Any,
    last_seen: list[int],
    received: list[tuple[float, int, int]],
    progress: Progress,
) -> None:
    async for raw in socket:
        now = time.perf_counter()
        message = json.loads(raw)
        kind = message["type"]
        if kind == "next":
            event = message["payload"]["data"]["gameEvents"]
            seq = event["seq"]
            received.append((now, seq, event["version"]))
            target = progress.target
            if target is not None and last_seen[index] < target <= seq:
                progress.crossed()
            last_seen[index] = max(last_seen[index], seq)
        elif kind == "ping":
            await socket.send(json.dumps({"type": "pong"}))
        elif kind in {"error", "complete"}:
            raise RuntimeError(f"subscriber {index}: {message}")


async def _connect(base: str, route: str, game_id: str, after: int, compression: str | None) -> Any:
    """A subscriber of `gameEvents`: through GraphQL, or the bare route's same messages."""
    if route == "bare":
        return await websockets.connect(
            f"{base}/bare/events/{_raw_id(game_id)}?after={after}",
            compression=compression,
            open_timeout=60,
            ping_interval=None,
            close_timeout=2,
        )
    socket = await websockets.connect(
        f"{base}/graphql",
        subprotocols=[Subprotocol("graphql-transport-ws")],
        compression=compression,
        open_timeout=60,
        ping_interval=None,
        close_timeout=2,
    )
    await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
    ack = json.loads(await socket.recv())
    assert ack["type"] == "connection_ack", ack
    await socket.send(
        json.dumps(
            {
                "id": "1",
                "type": "subscribe",
                "payload": {"query": SUBSCRIBE, "variables": {"g": game_id, "after": after}},
            }
        )
    )
    return socket


async def _last_public_event(client: httpx.AsyncClient, game_id: str, version: int) -> int:
    """The last event a spectator sees: the subscribers start after it."""
    after = 0
    while True:
        answer = await client.post(
            "/graphql", json={"query": LAST_EVENT, "variables": {"id": game_id, "after": after}}
        )
        state = answer.json()["data"]["game"]
        assert state["version"] == version, state
        page = state["events"]
        after = page["events"][-1]["seq"] if page["events"] else after
        if not page["hasMore"]:
            return after


def _subscriber_process(commands: Connection, open_files: int, *setting: Any) -> None:
    """A process of subscribers (`--subscriber-processes`), run by `_subscribers` with
    `setting` (its arguments after `commands`)."""
    raise_open_files(open_files)
    asyncio.run(_subscribers(commands, *setting))


async def _subscribers(
    commands: Connection,
    base: str,
    route: str,
    game_id: str,
    after: int,
    compression: str | None,
    count: int,
    concurrency: int,
) -> None:
    """Opens `count` subscribers and says so; then for each ("aim", seq) answers ("reached",
    seq) once every one of them has the event numbered seq; on ("stop",) it sends back what
    each received, and its CPU."""
    last_seen = [after] * count
    received: list[list[tuple[float, int, int]]] = [[] for _ in range(count)]
    progress = Progress(count)
    sockets: list[Any] = []
    tasks: list[asyncio.Task[None]] = []
    gate = asyncio.Semaphore(concurrency)

    async def open_one(index: int) -> None:
        async with gate:
            socket = await _connect(base, route, game_id, after, compression)
        sockets.append(socket)
        tasks.append(
            asyncio.create_task(_subscriber(index, socket, last_seen, received[index], progress))
        )

    inbox = _inbox(commands)
    waiting: asyncio.Task[None] | None = None

    async def answer(target: int) -> None:
        await progress.done.wait()
        commands.send(("reached", target))

    try:
        await asyncio.gather(*(open_one(i) for i in range(count)))
        commands.send(("connected",))
        while True:
            command = await inbox.get()
            if waiting is not None:
                waiting.cancel()
            if command[0] == "stop":
                break
            progress.aim(command[1], last_seen)
            waiting = asyncio.create_task(answer(command[1]))
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(
            *(asyncio.wait_for(s.close(), 5) for s in sockets), return_exceptions=True
        )
    commands.send(("received", received, time.process_time()))


def _inbox(connection: Connection) -> asyncio.Queue[Any]:
    """What arrives on a pipe, as an asyncio queue of this event loop."""
    inbox: asyncio.Queue[Any] = asyncio.Queue()
    loop = asyncio.get_running_loop()

    def read() -> None:
        try:
            inbox.put_nowait(connection.recv())
        except EOFError:  # the other end is gone
            loop.remove_reader(connection.fileno())
            inbox.put_nowait(("closed",))

    loop.add_reader(connection.fileno(), read)
    return inbox


async def _fan_out(
    url: str,
    route: str,
    game_id: str,
    tokens: list[str],
    first_version: int,
    plan: list[tuple[int, dict[str, Any]]],
    args: argparse.Namespace,
) -> dict[str, Any]:
    count = args.subscribers
    compression = None if args.ws_compression == "none" else "deflate"
    processes = max(1, min(args.subscriber_processes, count))
    shares = [count // processes + (k < count % processes) for k in range(processes)]
    spawn = multiprocessing.get_context("spawn")
    workers: list[tuple[Any, Connection, asyncio.Queue[Any]]] = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        after = await _last_public_event(client, game_id, first_version - 1)
        base = url.replace("http://", "ws://")
        started = time.perf_counter()
        try:
            for share in shares:
                mine, theirs = spawn.Pipe()
                process = spawn.Process(
                    target=_subscriber_process,
                    args=(
                        theirs,
                        share + 256,
                        base,
                        route,
                        game_id,
                        after,
                        compression,
                        share,
                        max(1, args.connect_concurrency // processes),
                    ),
                    daemon=True,
                )
                process.start()
                workers.append((process, mine, _inbox(mine)))
            for _, _, inbox in workers:
                assert (await asyncio.wait_for(inbox.get(), 120))[0] == "connected"
            connect_seconds = time.perf_counter() - started
            say(
                f"subscriptions {route}: {count} subscribers connected in {connect_seconds:.1f} s "
                f"({processes} processes)"
            )

            server_pid = api.SERVER_PIDS[url]
            cpu_started = (time.process_time(), api.cpu_seconds(server_pid), time.perf_counter())
            sent: dict[int, tuple[float, float]] = {}  # version -> (before sending, answered)
            version = first_version
            measured_from: int | None = None
            warm_rss = 0.0
            public_events = 0
            for step, (seat, action) in enumerate(plan):
                before = time.perf_counter()
                response = await client.post(
                    "/graphql",
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                    json={
                        "query": SUBMIT,
                        "variables": {
                            "input": {
                                "gameId": game_id,
                                "action": api.graphql_input(action),
                                "expectedVersion": version - 1,
                            }
                        },
                    },
                )
                answered = time.perf_counter()
                payload = response.json()["data"]["submitAction"]
                assert not payload["userErrors"], payload
                assert payload["version"] == version, payload
                sent[version] = (before, answered)
                public = [e["seq"] for e in payload["events"] if not e["private"]]
                if public:
                    target = max(public)
                    for _, pipe, _ in workers:
                        pipe.send(("aim", target))
                    try:
                        async with asyncio.timeout(args.event_timeout):
                            for _, _, inbox in workers:
                                while (await inbox.get()) != ("reached", target):
                                    pass  # an answer to an earlier aim, come late
                    except TimeoutError:
                        say(
                            f"subscriptions {route}: action {step}: not every subscriber got "
                            f"its events within {args.event_timeout} s"
                        )
                    if measured_from is None:
                        # The warm-up: every subscriber is now past its catch-up, live.
                        measured_from = version + 1
                        warm_rss = api.rss_mib(server_pid)
                        await client.get("/bare/fan-out")  # the server's side from here on
                    else:
                        public_events += len(public)
                version += 1
            await asyncio.sleep(0.05)  # stragglers of the last action
            server_side = (await client.get("/bare/fan-out")).json()
            server_cpu = api.cpu_seconds(server_pid) - cpu_started[1]
            wall = time.perf_counter() - cpu_started[2]
            end_rss = api.rss_mib(server_pid)
            received: list[list[tuple[float, int, int]]] = []
            client_cpu = time.process_time() - cpu_started[0]
            for _, pipe, _ in workers:
                pipe.send(("stop",))
            for _, _, inbox in workers:
                while (answer := await asyncio.wait_for(inbox.get(), 60))[0] != "received":
                    if answer[0] == "closed":
                        raise RuntimeError("a subscriber process ended without its figures")
                received += answer[1]
                client_cpu += answer[2]  # its whole life, connecting included
        finally:
            for process, pipe, _ in workers:
                asyncio.get_running_loop().remove_reader(pipe.fileno())
                pipe.close()
                process.join(10)
                if process.is_alive():
                    process.kill()

    assert measured_from is not None, "no action of the plan had a public event"
    from_send: list[float] = []
    from_answer: list[float] = []
    per_event: dict[int, list[float]] = {}
    for deliveries in received:
        for when, seq, event_version in deliveries:
            if event_version < measured_from:
                continue
            before, answered = sent[event_version]
            from_send.append(when - before)
            from_answer.append(when - answered)
            per_event.setdefault(seq, []).append(when - before)
    expected = public_events * count
    submit = [answered - before for v, (before, answered) in sent.items() if v >= measured_from]
    last_delivery = [max(delays) for delays in per_event.values()]
    all_deliveries = sum(len(deliveries) for deliveries in received)  # warm-up included
    warm_deliveries = sum(v < measured_from for d in received for _, _, v in d)
    written = _server_side(server_side, _raw_id(game_id))
    return {
        "benchmark": f"subscriptions.gameEvents.{route}",
        "subscribers": count,
        "actions": len(submit),
        "events": len(per_event),
        "deliveries": len(from_send),
        "missing_deliveries": expected - len(from_send),
        "p50_ms": ms(statistics.median(from_send)),
        "p99_ms": ms(percentile(from_send, 0.99)),
        "max_ms": ms(max(from_send)),
        "measured_from": "just before the submitAction request is sent",
        "p50_ms_from_answer": ms(statistics.median(from_answer)),
        "p99_ms_from_answer": ms(percentile(from_answer, 0.99)),
        "last_subscriber_p50_ms": ms(statistics.median(last_delivery)),
        # The server's side alone: from the broker's publish of an action's events to each
        # message written to its socket (the client's work and the submit left out).
        "server_writes": len(written),
        "server_p50_ms": ms(statistics.median(written)) if written else None,
        "server_p99_ms": ms(percentile(written, 0.99)) if written else None,
        "submit_p50_ms": ms(statistics.median(submit)),
        "connect_seconds": round(connect_seconds, 2),
        "seconds": round(wall, 2),
        "deliveries_per_second": round(all_deliveries / wall),
        "server_cpu_seconds": round(server_cpu, 2),
        "server_cpu_us_per_delivery": round(server_cpu / all_deliveries * 1e6, 1),
        "client_cpu_seconds": round(client_cpu, 2),
        "subscriber_processes": processes,
        # The server's memory once every subscriber is live, and after every delivery.
        "server_rss_mib_live": round(warm_rss, 1),
        "deliveries_when_live": warm_deliveries,
        "server_rss_mib_end": round(end_rss, 1),
        "server_rss_end_over_live": round(end_rss / warm_rss, 3),
        "ws_compression": args.ws_compression,
        "server_ws": args.server_ws,
        "server_workers": args.server_workers,
    }


def _server_side(taken: dict[str, Any], channel: str) -> list[float]:
    """From `/bare/fan-out`: for each message written, the time since the last publish on the
    game's channel before it (every action's events are published at once, and the next
    action is sent once every subscriber has its events)."""
    publishes = sorted(when for when, name in taken["published"] if name == channel)
    delays = []
    index = 0
    for when in sorted(taken["written"]):
        while index + 1 < len(publishes) and publishes[index + 1] <= when:
            index += 1
        if publishes and publishes[index] <= when:
            delays.append(when - publishes[index])
    return delays


def _setup_length() -> int:
    """How many actions of the benchmark's seeded game the initial placement takes."""
    from domain.actions import action_from_dict
    from domain.flow import Phase
    from variants import get_variant

    game = get_variant("classic").new_game(api.NAMES, seed=api.SEED.encode(), colours=None)
    plan = api.planned_actions(1000)
    for played, (seat, action) in enumerate(plan):
        if game.phase is not Phase.SETUP:
            return played
        game.apply(seat, action_from_dict(action))
    raise RuntimeError("the seeded game never leaves its initial placement")


def bench_subscriptions(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Two games with the same seed and the same setup, on one server: GraphQL subscribers
    watch the first one's next actions, then bare subscribers watch the same actions of the
    second one."""
    wanted = args.subscribers + 256
    if raise_open_files(wanted) < wanted:
        say(f"subscriptions: the open-files limit is under {wanted}; fewer subscribers may fail")
    routes = [route for route in args.subscription_routes.split(",") if route]
    # The subscribers watch the turns after the initial placement (attacks: several events).
    setup_length = _setup_length()
    plan = api.planned_actions(setup_length + 1 + args.subscription_actions)
    setup, live = plan[:setup_length], plan[setup_length:]
    figures: dict[str, dict[str, Any]] = {}
    with (
        api.serve(
            None,
            ws=args.server_ws,
            open_files=wanted,
            profile=_profile_path(args, "subscriptions"),
            workers=args.server_workers,
        ) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        games = {route: _play(client, setup) for route in routes}
        first_version = 6 + len(setup) + 1

        async def bounded() -> None:
            async with asyncio.timeout(args.subscription_timeout):
                for route, (game_id, tokens) in games.items():
                    figures[route] = await _fan_out(
                        url, route, game_id, tokens, first_version, live, args
                    )

        asyncio.run(bounded())
    if "graphql" in figures and "bare" in figures:
        graphql, bare = figures["graphql"], figures["bare"]
        graphql["p50_graphql_over_bare"] = round(graphql["p50_ms"] / bare["p50_ms"], 2)
        graphql["server_cpu_graphql_over_bare"] = round(
            graphql["server_cpu_us_per_delivery"] / bare["server_cpu_us_per_delivery"], 2
        )
    for route, figure in figures.items():
        emit(figure)
        say(
            f"subscriptions {route}: {figure['subscribers']} subscribers, {figure['actions']} "
            f"actions, {figure['events']} events, {figure['deliveries']} deliveries "
            f"({figure['missing_deliveries']} missing): from send p50 {figure['p50_ms']} ms, "
            f"p99 {figure['p99_ms']} ms, max {figure['max_ms']} ms; last subscriber p50 "
            f"{figure['last_subscriber_p50_ms']} ms; server side (publish to written) p50 "
            f"{figure['server_p50_ms']} ms, p99 {figure['server_p99_ms']} ms over "
            f"{figure['server_writes']} messages; server CPU "
            f"{figure['server_cpu_us_per_delivery']} us a delivery; server memory "
            f"{figure['server_rss_mib_live']} MiB live after {figure['deliveries_when_live']} "
            f"deliveries, {figure['server_rss_mib_end']} MiB at the end "
            f"(x{figure['server_rss_end_over_live']}); submitAction p50 "
            f"{figure['submit_p50_ms']} ms"
        )
    return list(figures.values())


# --------------------------------------------------------------------------- odds

COLD = """
import sys, time
sys.path.insert(0, sys.argv[2])
from domain.odds import battle_odds
n = int(sys.argv[1])
started = time.perf_counter()
battle_odds(n, n)
print(time.perf_counter() - started)
"""


def bench_odds(args: argparse.Namespace) -> list[dict[str, Any]]:
    figures = []
    for n in (10, 100, 1000):
        cold = [
            float(
                subprocess.run(
                    [sys.executable, "-c", COLD, str(n), str(ROOT)],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
            )
            for _ in range(args.odds_cold)
        ]
        battle_odds(n, n)
        repeats = max(3, min(200, int(args.odds_budget / max(1, n * n) * 1e6)))
        warm = []
        for _ in range(repeats):
            started = time.perf_counter()
            battle_odds(n, n)
            warm.append(time.perf_counter() - started)
        figure = {
            "benchmark": f"odds.{n}",
            "attackers": n,
            "defenders": n,
            "cold_ms": ms(statistics.median(cold)),
            "warm_ms": ms(statistics.median(warm)),
            "cold_runs": len(cold),
            "warm_runs": len(warm),
        }
        emit(figure)
        say(f"odds {n:>4} vs {n:<4} cold {figure['cold_ms']} ms, warm {figure['warm_ms']} ms")
        figures.append(figure)
    return figures


# --------------------------------------------------------------------------- main


def _profile_path(args: argparse.Namespace, name: str) -> Path | None:
    directory: Path | None = args.profile_server
    if directory is None:
        return None
    directory.mkdir(parents=True, exist_ok=True)
    return directory / f"{name}.txt"


# --------------------------------------------------------------------------- commits


class SlowDisk:
    """The store's connection on a disk whose fsync takes `delay` seconds: each commit
    waits that long on the store's thread, as the writer waits for a real disk."""

    def __init__(self, connection: Any, delay: float) -> None:
        self.connection = connection
        self.delay = delay

    def execute(self, sql: str, *parameters: Any) -> Any:
        cursor = self.connection.execute(sql, *parameters)
        if sql == "COMMIT" and self.delay:
            time.sleep(self.delay)
        return cursor

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)


async def _durable_actions(clients: int, seconds: float, fsync: float, group: bool) -> float:
    """Actions/s that `clients` players, each on a game of its own, get acknowledged (so
    committed) through the service, on the embedded store."""
    import random
    import tempfile

    from api.broker import Broker
    from api.service import GameService
    from api.stores.sqlite import SqliteStore
    from bots.policies import aggressive_policy

    with tempfile.TemporaryDirectory(dir=ROOT) as data:  # the project's disk, not a tmpfs
        store = SqliteStore(Path(data) / "risiko.sqlite3", group_commit=group)
        await store.open()
        store._connection = SlowDisk(store._connection, fsync)  # type: ignore[assignment]
        service = GameService(store, Broker())
        done = 0
        deadline = time.perf_counter() + seconds

        async def player(number: int) -> None:
            nonlocal done
            rnd = random.Random(number)
            while time.perf_counter() < deadline:
                record = await service.create_game("classic", {}, f"commits-{number}-{done}")
                tokens = [(await service.join_game(record.id, f"P{n}")).token for n in range(4)]
                await service.start_game(record.id, tokens[0])
                while time.perf_counter() < deadline:
                    game = (await service.session(record.id)).game
                    if game is None or game.is_over:
                        break
                    seat = game.seat_to_act
                    assert seat is not None
                    action = next(iter(aggressive_policy(game, seat, rnd)))
                    await service.submit_action(record.id, tokens[seat], action)
                    done += 1

        started = time.perf_counter()
        await asyncio.gather(*(player(n) for n in range(clients)))
        elapsed = time.perf_counter() - started
        store._connection = store._connection.connection  # type: ignore[union-attr]
        await store.close()
    return done / elapsed


def bench_commits(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Group commit off and on, alternating, on this disk and on one whose fsync takes 3 ms."""
    figures = []
    for fsync_ms in (0.0, args.fsync_ms):
        rates: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(args.commit_rounds):
            for group in (False, True):
                rate = asyncio.run(
                    _durable_actions(
                        args.commit_clients, args.commit_seconds, fsync_ms / 1e3, group
                    )
                )
                rates[group].append(rate)
        alone, shared = statistics.median(rates[False]), statistics.median(rates[True])
        figure = {
            "benchmark": f"commits.fsync_{fsync_ms:g}ms",
            "clients": args.commit_clients,
            "actions_per_second_alone": round(alone, 1),
            "actions_per_second_grouped": round(shared, 1),
            "grouped_over_alone": round(shared / alone, 2),
            "rounds": args.commit_rounds,
        }
        emit(figure)
        say(
            f"commits, {args.commit_clients} clients, added fsync {fsync_ms:g} ms: "
            f"{figure['actions_per_second_alone']} actions/s alone, "
            f"{figure['actions_per_second_grouped']} grouped ({figure['grouped_over_alone']}x)"
        )
        figures.append(figure)
    return figures


# --------------------------------------------------------------------------- games held


class _Connections:
    """Keep-alive HTTP/1.1 connections to the server, for a client that must cost little:
    at hundreds of requests a second httpx's own work delays the sends it measures (seen:
    a lag of seconds at 250 games), so the held benchmark writes its POSTs itself."""

    def __init__(self, url: str, size: int) -> None:
        parsed = httpx.URL(url)
        self.host, self.port = parsed.host, parsed.port or 80
        self.size = size
        self.pool: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = (
            asyncio.Queue()
        )

    async def open(self) -> None:
        for _ in range(self.size):
            self.pool.put_nowait(await asyncio.open_connection(self.host, self.port))

    async def close(self) -> None:
        while not self.pool.empty():
            _, writer = self.pool.get_nowait()
            writer.close()

    async def post(self, body: bytes, token: str) -> dict[str, Any]:
        reader, writer = await self.pool.get()
        try:
            writer.write(
                b"POST /graphql HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                + f"Authorization: Bearer {token}\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )
            answer: dict[str, Any] = json.loads(await reader.readexactly(length))
            return answer
        finally:
            self.pool.put_nowait((reader, writer))


async def _hold(
    url: str,
    games: list[tuple[str, list[str]]],
    progress: dict[str, int],
    plan: list[tuple[int, dict[str, Any]]],
    seconds: float,
) -> dict[str, Any]:
    """Every game of `games` gets one action a second for `seconds` (each from the next
    step of `plan`, at the version it is at), its players' first sends spread over the first
    second; the delay of every submitAction, from send to answer."""
    import random

    delays: list[float] = []
    late: list[float] = []  # how far behind its second a send started (the client's own lag)
    connections = _Connections(url, 150)  # the server's cap: 200 sockets from one address
    await connections.open()
    start = time.perf_counter() + 0.5

    async def player(game_id: str, tokens: list[str], offset: float) -> None:
        tick = start + offset
        while tick < start + seconds:
            await asyncio.sleep(max(0.0, tick - time.perf_counter()))
            late.append(time.perf_counter() - tick)
            step = progress[game_id]
            seat, action = plan[step]
            variables = {
                "input": {
                    "gameId": game_id,
                    "action": api.graphql_input(action),
                    "expectedVersion": 6 + step,
                }
            }
            body = json.dumps({"query": SUBMIT, "variables": variables}).encode()
            sent = time.perf_counter()
            answer = await connections.post(body, tokens[seat])
            delays.append(time.perf_counter() - sent)
            assert answer["data"]["submitAction"]["userErrors"] == [], answer
            progress[game_id] = step + 1
            tick += 1.0

    rnd = random.Random(len(games))
    try:
        await asyncio.gather(*(player(g, t, rnd.random()) for g, t in games))
    finally:
        await connections.close()
    return {
        "submits": len(delays),
        "p50_ms": ms(percentile(delays, 0.5)),
        "p99_ms": ms(percentile(delays, 0.99)),
        "client_lag_p99_ms": ms(percentile(late, 0.99)),
    }


def bench_held(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Games held by one server process: for each number of games of `--held-games` (a
    ramp), every game gets one action a second (GraphQL submitAction over HTTP, keep-alive
    connections, one client process) for `--held-seconds`; p50/p99 of the delay of each
    action, and the server's CPU. The figure is the most games held with p99 under 100 ms."""
    ramp = [int(n) for n in args.held_games.split(",") if n]
    plan = api.planned_actions(len(ramp) * int(args.held_seconds) + 2)
    figures = []
    with (
        api.serve(
            None,
            ws=args.server_ws,
            http=args.server_http,
            loop=args.server_loop,
            profile=_profile_path(args, "held"),
            workers=args.server_workers,
        ) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        pid = api.SERVER_PIDS[url]
        games: list[tuple[str, list[str]]] = []
        progress: dict[str, int] = {}
        for count in ramp:
            while len(games) < count:  # games are kept from one step to the next
                game_id, tokens = api.new_game(client)
                games.append((game_id, tokens))
                progress[game_id] = 0
            cpu = api.cpu_seconds(pid)
            began = time.perf_counter()
            figure = asyncio.run(_hold(url, games, progress, plan, args.held_seconds))
            elapsed = time.perf_counter() - began
            figure = {
                "benchmark": f"held.{count}",
                "games": count,
                "workers": args.server_workers,
                **figure,
                "actions_per_second": round(figure["submits"] / elapsed, 1),
                "server_cpu_share": round((api.cpu_seconds(pid) - cpu) / elapsed, 2),
            }
            emit(figure)
            say(
                f"held {count} games at 1 action/s: p50 {figure['p50_ms']} ms, p99 "
                f"{figure['p99_ms']} ms, {figure['actions_per_second']} actions/s, server CPU "
                f"{figure['server_cpu_share']}, client lag p99 {figure['client_lag_p99_ms']} ms"
            )
            figures.append(figure)
    held = max((f["games"] for f in figures if f["p99_ms"] < 100), default=0)
    summary = {"benchmark": "held.summary", "games_with_p99_under_100ms": held}
    emit(summary)
    say(f"held: {held} games with p99 under 100 ms")
    return [*figures, summary]


RUNNERS: dict[str, Callable[[argparse.Namespace], list[dict[str, Any]]]] = {
    "engine": bench_engine,
    "api": bench_api,
    "reads": bench_reads,
    "subscriptions": bench_subscriptions,
    "odds": bench_odds,
    "commits": bench_commits,
    "held": bench_held,
}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--only", default=",".join(BENCHMARKS), help="comma-separated subset")
    p.add_argument("--quick", action="store_true", help="small sizes, to try the suite out")
    engine = p.add_argument_group("engine")
    engine.add_argument("--engine-games", type=int, default=100, help="aggressive games a run")
    engine.add_argument("--random-games", type=int, default=40, help="random games a run")
    engine.add_argument("--random-round-limit", type=int, default=20)
    engine.add_argument("--engine-repeat", type=int, default=5, help="runs (median taken)")
    http = p.add_argument_group("api")
    http.add_argument("--api-games", type=int, default=2, help="games per route")
    http.add_argument("--api-actions", type=int, default=150, help="actions per game")
    http.add_argument("--stores", default="embedded,mongodb", help="embedded, mongodb or both")
    reads = p.add_argument_group("reads")
    reads.add_argument("--read-requests", type=int, default=400, help="requests per query+route")
    reads.add_argument("--read-warmup", type=int, default=20)
    reads.add_argument("--read-actions", type=int, default=120, help="actions before reading")
    subs = p.add_argument_group("subscriptions")
    subs.add_argument("--subscribers", type=int, default=1000)
    subs.add_argument("--subscription-actions", type=int, default=40, help="measured actions")
    subs.add_argument("--connect-concurrency", type=int, default=50)
    subs.add_argument(
        "--subscriber-processes",
        type=int,
        default=2,
        help="client processes the subscribers are spread over (steered from this one)",
    )
    subs.add_argument("--event-timeout", type=float, default=20.0, help="seconds per action")
    subs.add_argument("--subscription-timeout", type=float, default=180.0, help="seconds in all")
    subs.add_argument("--ws-compression", choices=("deflate", "none"), default="deflate")
    subs.add_argument("--subscription-routes", default="graphql,bare", help="graphql, bare, both")
    subs.add_argument(
        "--server-ws",
        default="risiko",
        help="`risiko`: the protocol classes `risiko serve` runs (api/connections.py, on "
        "uvicorn's websockets-sansio); or one of uvicorn's --ws names, such as `websockets`, "
        "the legacy one, whose deflate takes eight times the memory",
    )
    p.add_argument(
        "--server-http",
        default="auto",
        help="uvicorn's HTTP implementation (h11, httptools), with a --server-ws other than risiko",
    )
    p.add_argument("--server-loop", default="auto", help="uvicorn's loop: asyncio, uvloop, auto")
    p.add_argument(
        "--server-workers",
        type=int,
        default=1,
        help="server processes (`risiko serve --workers N`) for held and subscriptions",
    )
    odds = p.add_argument_group("odds")
    odds.add_argument("--odds-cold", type=int, default=3, help="fresh processes per size")
    odds.add_argument(
        "--odds-budget", type=float, default=3.0, help="warm runs: budget * 1e6 / n^2, 3 to 200"
    )
    commits = p.add_argument_group("commits")
    commits.add_argument("--commit-clients", type=int, default=20, help="players, a game each")
    commits.add_argument("--commit-seconds", type=float, default=3.0, help="seconds a run")
    commits.add_argument("--commit-rounds", type=int, default=3, help="runs of each (median)")
    commits.add_argument("--fsync-ms", type=float, default=3.0, help="the slow disk's fsync")
    held = p.add_argument_group("held")
    held.add_argument("--held-games", default="250,500,750,1000", help="the ramp of games")
    held.add_argument("--held-seconds", type=float, default=10.0, help="seconds a step")
    p.add_argument("--profile-server", type=Path, help="pyinstrument profiles of the servers")
    return p


def main() -> int:
    args = parser().parse_args()
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = sorted(set(chosen) - set(BENCHMARKS))
    if unknown:
        parser().error(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
    if args.quick:
        args.engine_games, args.random_games, args.engine_repeat = 20, 10, 2
        args.api_games, args.api_actions = 1, 60
        args.read_requests = 50
        args.subscribers, args.subscription_actions = min(args.subscribers, 100), 10
        args.odds_cold = 1
        args.commit_seconds, args.commit_rounds = 1.0, 1
        args.held_games, args.held_seconds = "50,100", 3.0
    emit(
        {
            "benchmark": "suite.machine",
            "machine": machine(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "benchmarks": chosen,
            "load_average_1min": round(os.getloadavg()[0], 2),  # others' work on the machine
        }
    )
    say(f"machine: {machine()}, {os.cpu_count()} CPUs")
    started = time.perf_counter()
    failed = []
    for name in BENCHMARKS:
        if name in chosen:
            began = time.perf_counter()
            try:
                RUNNERS[name](args)
            except Exception as error:  # report it, and go on with the next benchmark
                failed.append(name)
                emit({"benchmark": name, "error": f"{type(error).__name__}: {error}"})
                say(f"-- {name}: FAILED: {type(error).__name__}: {error}")
            else:
                say(f"-- {name}: {time.perf_counter() - began:.1f} s")
    seconds = time.perf_counter() - started
    load = round(os.getloadavg()[0], 2)
    emit({"benchmark": "suite.run", "seconds": round(seconds, 1), "load_average_1min": load})
    say(f"suite: {seconds:.1f} s, load average {load}" + (f", failed: {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
