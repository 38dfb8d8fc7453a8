"""A crash under load, on either store: several clients submit actions to several games at
once, the API process is killed (SIGKILL) in the middle of it and started again on the same
store. Every action acknowledged to a client is there, and nothing is half-written: each
game's log runs 1..version, its events 1..last, each log entry has exactly the events the
engine gives when the log is replayed, and the replay is the game the server serves."""

from __future__ import annotations

import asyncio
import contextlib
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.broker import Broker
from api.graphql.ids import from_global_id
from api.service import SNAPSHOT_EVERY, GameService
from api.stores.base import GameRecord, LogEntry, Store, StoredEvent
from api.stores.mongo import MongoStore
from api.stores.sqlite import SqliteStore
from domain.actions import action_from_dict
from tests.e2e.support import ROOT, GraphQLClient, Server
from tests.e2e.test_instances import (
    CREATE,
    GAME,
    JOIN,
    START,
    Table,
    history,
    request_for,
    state_as_seat_to_act,
    submit,
    wait_until,
)
from tests.integration.api_support import CLASSIC, state_of
from tests.mongo_server import TRANSACTION_LIFETIME_SECONDS
from tests.support import classic
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions

pytestmark = pytest.mark.anyio

Json = dict[str, Any]

GAMES = 3
PLAYERS = 3
CLIENTS_PER_GAME = 2  # two clients race on each game, with expectedVersion
MIN_ACKNOWLEDGED = 60  # the kill comes once this many actions were acknowledged ...
LOAD_SECONDS = 4.0  # ... or after this long, whichever is first
MAX_PER_CLIENT = 150
SPECTATOR = """
query($id: ID!) { game(id: $id) { version status territories { id owner armies } } }
"""


@dataclass
class Backend:
    name: str
    env: dict[str, str]
    make_store: Callable[[], Store]
    database: Path | None = None  # the SQLite file


@pytest.fixture(params=["sqlite", "mongo"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        database = tmp_path / "data" / "risiko.sqlite3"
        return Backend("sqlite", {"RISIKO_STORE": ""}, lambda: SqliteStore(database), database)
    uri: str = request.getfixturevalue("mongo_uri")
    return Backend("mongo", {"RISIKO_STORE": uri}, lambda: MongoStore(uri))


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    """Servers a test starts; whatever still runs at the end is killed."""
    started: list[Server] = []
    try:
        yield started
    finally:
        for server in started:
            server.stop(signal.SIGKILL)


def launch(servers: list[Server], data_dir: Path, backend: Backend) -> Server:
    server = Server(data_dir, env=backend.env).start()
    servers.append(server)
    return server


@dataclass
class Acknowledged:
    """A submitAction answer with a version: the client was told its action is in."""

    table: Table
    seat: int
    request: Json
    answer: Json


async def open_game(http: httpx.AsyncClient, seed: str) -> Table:
    anonymous = GraphQLClient(http)
    created = (await anonymous(CREATE, {"input": {"seed": seed}}))["createGame"]
    assert created["userErrors"] == [], created
    game_id = created["game"]["id"]
    tokens: dict[int, str] = {}
    for n in range(PLAYERS):
        joined = (await anonymous(JOIN, {"input": {"gameId": game_id, "name": f"P{n}"}}))[
            "joinGame"
        ]
        assert joined["userErrors"] == [], joined
        tokens[joined["seat"]] = joined["token"]
    started = (await GraphQLClient(http, tokens[0])(START, {"input": {"gameId": game_id}}))[
        "startGame"
    ]
    assert started["userErrors"] == [], started
    return Table(game_id, tokens)


def choose(state: Json) -> Json:
    """An attack until conquest when one is offered (dice, conquests, cards), else the first
    family's ready-made input."""
    families = state["legalActions"]
    assert families, state
    for family in families:
        if family["__typename"] == "LegalAttackUntil":
            return dict(family["input"])
    return dict(families[0]["input"])


async def client(
    http: httpx.AsyncClient,
    table: Table,
    name: str,
    acknowledged: list[Acknowledged],
    stop: asyncio.Event,
) -> None:
    """Plays whoever is to act, as fast as it can, until the server dies under it."""
    seat = 0
    try:
        for n in range(MAX_PER_CLIENT):
            if stop.is_set():
                return
            state = (await GraphQLClient(http, table.tokens[seat])(GAME, {"id": table.game_id}))[
                "game"
            ]
            if state["status"] != "ACTIVE":
                return
            if state["seatToAct"] != state["viewerSeat"]:  # read again as the seat to act
                seat = state["seatToAct"]
                continue
            request = {
                "gameId": table.game_id,
                "action": choose(state),
                "expectedVersion": state["version"],
                "clientMutationId": f"{name}-{n}",
            }
            answer = await submit(http, table, seat, request)
            if answer["userErrors"]:  # the other client of this game was first
                assert [e["code"] for e in answer["userErrors"]] == ["STALE_VERSION"], answer
                continue
            assert answer["version"] == state["version"] + 1, answer
            acknowledged.append(Acknowledged(table, seat, request, answer))
    except httpx.TransportError:
        return  # the server is gone: what was in flight was never acknowledged


def raw_id(table: Table) -> str:
    decoded = from_global_id(table.game_id, "Game")
    assert decoded is not None
    return decoded[1]


async def stored_events(store: Store, game_id: str) -> list[StoredEvent]:
    """Every event of the game, public and private, from the store."""
    seen: dict[int, StoredEvent] = {}
    for viewer in range(PLAYERS):
        for event in await store.events(game_id, viewer, 0, 100_000):
            assert seen.setdefault(event.seq, event) == event
    return [seen[seq] for seq in sorted(seen)]


def replay(record: GameRecord, log: list[LogEntry], events: list[StoredEvent]) -> ClassicGame:
    """The log folded into a fresh engine, checking that each entry's stored events are those
    the engine gives for it: none missing, none extra, none changed."""
    by_entry: dict[int, list[tuple[int | None, Json]]] = {}
    for event in events:
        by_entry.setdefault(event.log_seq, []).append((event.visible_to, event.data))
    assert set(by_entry) <= {entry.seq for entry in log}, "events of no log entry"
    game: ClassicGame | None = None
    for entry in log:
        stored = by_entry.get(entry.seq, [])
        if entry.kind in {"create", "join"}:
            expected = {"create": "GameCreated", "join": "PlayerJoined"}[entry.kind]
            assert [data["type"] for _, data in stored] == [expected], entry
            continue
        if entry.kind == "start":
            seats = entry.payload["seats"]
            game = classic(
                CLASSIC.new_game(
                    [s["name"] for s in seats],
                    ClassicOptions.from_dict(record.options),
                    seed=record.seed,
                    colours=[s["colour"] for s in seats],
                )
            )
            produced = game.initial_events
        else:
            assert entry.kind == "action", entry
            assert game is not None, "an action before the start"
            produced = game.apply(entry.seat, action_from_dict(entry.payload))
        assert [(e.visible_to, e.to_dict()) for e in produced] == stored, entry
    assert game is not None
    return game


async def test_every_acknowledged_action_survives_a_crash_under_load(
    backend: Backend, servers: list[Server], tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    first = launch(servers, data_dir, backend)
    acknowledged: list[Acknowledged] = []
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=50)
    async with httpx.AsyncClient(base_url=first.url, timeout=10, limits=limits) as http:
        tables = [await open_game(http, f"crash-{n}") for n in range(GAMES)]
        stop = asyncio.Event()
        clients = [
            asyncio.create_task(client(http, table, f"g{g}-c{c}", acknowledged, stop))
            for g, table in enumerate(tables)
            for c in range(CLIENTS_PER_GAME)
        ]
        with contextlib.suppress(AssertionError):  # slow clients: kill after LOAD_SECONDS
            await wait_until(
                lambda: len(acknowledged) >= MIN_ACKNOWLEDGED or all(t.done() for t in clients),
                "acknowledged actions",
                timeout=LOAD_SECONDS,
            )
        running = sum(not task.done() for task in clients)
        process = first.process
        assert process is not None
        process.send_signal(signal.SIGKILL)  # in the middle of the load
        stop.set()
        await asyncio.wait_for(asyncio.gather(*clients), timeout=30)
        process.wait(timeout=10)
        assert process.returncode == -signal.SIGKILL
    assert running == len(clients), "the load had stopped before the kill"
    assert len(acknowledged) >= GAMES, "too few actions acknowledged to say anything"

    second = launch(servers, data_dir, backend)
    store = backend.make_store()  # the test reads the store itself too
    await store.open()
    try:
        async with httpx.AsyncClient(base_url=second.url, timeout=10) as http:
            for table in tables:
                await check_game(http, store, table, [a for a in acknowledged if a.table is table])
    finally:
        await store.close()


async def check_game(
    http: httpx.AsyncClient, store: Store, table: Table, acknowledged: list[Acknowledged]
) -> None:
    spectator = (await GraphQLClient(http)(SPECTATOR, {"id": table.game_id}))["game"]
    versions = [ack.answer["version"] for ack in acknowledged]
    assert len(versions) == len(set(versions)), "two clients were told the same version"
    highest = max(versions, default=PLAYERS + 2)  # create, the joins, the start
    assert spectator["version"] >= highest  # the in-flight action may be there, or not

    # Every acknowledged answer's events are in that seat's history, as they were answered.
    histories = {seat: await history(http, table, seat) for seat in table.tokens}
    for ack in acknowledged:
        for event in ack.answer["events"]:
            assert event in histories[ack.seat], (ack.answer["version"], event)

    # The store: the row's version is the log's last entry, the log and the events have no
    # gap, each entry has its events and only them, and the replay is the game served.
    game_id = raw_id(table)
    record = await store.get(game_id)
    assert record is not None
    assert record.version == spectator["version"]
    log = await store.log(game_id)
    assert [entry.seq for entry in log] == list(range(1, record.version + 1))
    events = await stored_events(store, game_id)
    last = await store.last_event_seq(game_id)
    assert [event.seq for event in events] == list(range(1, last + 1))
    assert sorted({e["seq"] for seen in histories.values() for e in seen}) == list(
        range(1, last + 1)
    )
    replayed = replay(record, log, events)
    assert 0 <= record.version - record.snapshot_version < SNAPSHOT_EVERY
    session = await GameService(store, Broker()).session(game_id)  # from the snapshot
    assert session.game is not None
    assert state_of(session.game) == state_of(replayed)
    served = {t["id"]: (t["owner"], t["armies"]) for t in spectator["territories"]}
    board = replayed.board.territories
    assert served == {
        board[n].id: (owner, replayed.armies[n]) for n, owner in enumerate(replayed.owner)
    }

    # An acknowledged request sent again is answered as the first time, and applied once.
    if acknowledged:
        last_ack = acknowledged[-1]
        again = await submit(http, table, last_ack.seat, last_ack.request)
        assert (again["version"], again["events"]) == (
            last_ack.answer["version"],
            last_ack.answer["events"],
        )


# A process that dies inside an append, its transaction open: the real store's code, with the
# step after the first writes stuck until the test kills the process.
DYING_WRITER = {
    "sqlite": """
import asyncio, sys, time
from dataclasses import replace
from pathlib import Path
from api.stores.base import LogEntry, StoredEvent
from api.stores.sqlite import SqliteStore

class Stuck:  # the connection, but inserting the events never returns
    def __init__(self, inner):
        self.inner = inner
    def __getattr__(self, name):
        return getattr(self.inner, name)
    def executemany(self, *args):
        print("inside", flush=True)
        time.sleep(3600)

async def main(target, game_id):
    store = SqliteStore(Path(target))
    await store.open()
    record = await store.get(game_id)
    store._connection = Stuck(store._connection)
    seq = record.version + 1
    event = StoredEvent(10_000, seq, None, {"type": "Cut"})
    await store.append(replace(record, version=seq), LogEntry(seq, "action", 0, {}, 0.0), [event])

asyncio.run(main(*sys.argv[1:]))
""",
    "mongo": """
import asyncio, sys
from dataclasses import replace
from pymongo.asynchronous.collection import AsyncCollection
from api.stores.base import LogEntry, StoredEvent
from api.stores.mongo import MongoStore

async def stuck(self, *args, **kwargs):  # inserting the log entry never returns
    print("inside", flush=True)
    await asyncio.sleep(3600)

async def main(target, game_id):
    store = MongoStore(target)
    await store.open()
    record = await store.get(game_id)
    AsyncCollection.insert_one = stuck
    seq = record.version + 1
    event = StoredEvent(10_000, seq, None, {"type": "Cut"})
    await store.append(replace(record, version=seq), LogEntry(seq, "action", 0, {}, 0.0), [event])

asyncio.run(main(*sys.argv[1:]))
""",
}
AT_ONCE = 3.0  # seconds: an action normally takes milliseconds
# On MongoDB, a transaction a crash left open holds its game until the server's transaction
# lifetime limit (10 s for the tests, as deploy/README.md recommends for mongod); meanwhile
# the instance answers that game's actions with STALE_VERSION after at most 10 s of waiting.
LOCKED_AT_MOST = TRANSACTION_LIFETIME_SECONDS + 10.0


def die_inside_an_append(backend: Backend, game_id: str) -> None:
    """Run DYING_WRITER on the game and SIGKILL it once its transaction is open."""
    target = backend.env["RISIKO_STORE"] or str(backend.database)
    child = subprocess.Popen(
        [sys.executable, "-c", DYING_WRITER[backend.name], target, game_id],
        cwd=ROOT,
        stdout=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        ready, _, _ = select.select([child.stdout], [], [], 20)
        assert ready, "the dying writer never got inside its append"
        assert child.stdout.readline() == b"inside\n"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        if child.stdout is not None:
            child.stdout.close()


async def next_action(http: httpx.AsyncClient, table: Table, key: str) -> tuple[Json, float]:
    """The seat to act's first legal action, submitted: the answer and how long it took."""
    state = await state_as_seat_to_act(http, table)
    began = time.monotonic()
    answer = await submit(http, table, state["seatToAct"], request_for(table, state, key))
    return answer, time.monotonic() - began


async def test_a_game_cut_mid_append_by_a_crash_leaves_nothing_and_goes_on(
    backend: Backend, servers: list[Server], tmp_path: Path
) -> None:
    """A process killed with its append's transaction open: nothing of that append is there
    after a restart; the other games take actions at once; the cut game takes them at once on
    SQLite, and on MongoDB once the server's transaction lifetime has run out, answering
    STALE_VERSION (never an error, never a hang) to the client's attempts until then."""
    data_dir = tmp_path / "data"
    first = launch(servers, data_dir, backend)
    async with httpx.AsyncClient(base_url=first.url, timeout=10) as http:
        cut, other = [await open_game(http, seed) for seed in ("cut", "other")]
        for n in range(3):
            answer, _ = await next_action(http, cut, f"before-{n}")
            assert answer["userErrors"] == [], answer
    version = answer["version"]
    first.stop(signal.SIGKILL)
    die_inside_an_append(backend, raw_id(cut))
    cut_at = time.monotonic()

    second = launch(servers, data_dir, backend)
    async with httpx.AsyncClient(base_url=second.url, timeout=LOCKED_AT_MOST) as http:
        state = await state_as_seat_to_act(http, cut)
        assert state["version"] == version  # nothing of the cut append
        assert all(e["type"] != "Cut" for e in await history(http, cut, None))

        attempts: list[tuple[Json, float]] = []

        async def retry_the_cut_game() -> None:
            while True:
                answer, took = await next_action(http, cut, f"after-{len(attempts)}")
                attempts.append((answer, took))
                if not answer["userErrors"]:
                    return
                assert [e["code"] for e in answer["userErrors"]] == ["STALE_VERSION"], answer
                assert time.monotonic() - cut_at < LOCKED_AT_MOST, "locked for too long"
                await asyncio.sleep(0.2)

        retrying = asyncio.create_task(retry_the_cut_game())
        try:
            await asyncio.sleep(0.2)  # the cut game's first attempt is under way
            answer, took = await next_action(http, other, "meanwhile")
            assert answer["userErrors"] == [], answer
            assert took < AT_ONCE, f"another game waited {took:.1f} s"
            await asyncio.wait_for(asyncio.shield(retrying), timeout=LOCKED_AT_MOST)
        finally:
            retrying.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await retrying
    answer, took = attempts[-1]
    assert answer["version"] == version + 1
    if backend.name == "sqlite":  # nothing outlives the process that held the lock
        assert len(attempts) == 1
        assert took < AT_ONCE, f"the cut game waited {took:.1f} s"
    assert time.monotonic() - cut_at < LOCKED_AT_MOST
