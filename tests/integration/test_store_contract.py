"""The store contract, written once and run against every adapter (SQLite and MongoDB): atomic
appends with optimistic concurrency, the log, the events and who sees them, the listing of
games, seats, idempotency, snapshots, durability across a new store object, and a game's
session rebuilt through GameService from a snapshot, from the whole log, or from a stale one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from pymongo import MongoClient
from pymongo.collection import Collection
from pymongo.database import Database

from api.broker import Broker
from api.lobby_events import GameCreated
from api.service import SNAPSHOT_EVERY, GameService
from api.stores.base import (
    GameExists,
    GameRecord,
    Idempotency,
    LogEntry,
    SeatRecord,
    Store,
    StoredEvent,
    VersionConflict,
)
from api.stores.mongo import MongoStore
from api.stores.sqlite import SqliteStore
from domain.actions import PlaceArmies
from domain.flow import Phase
from domain.legal import LegalPlace
from tests.integration.api_support import CLASSIC, play_service, service_game, state_of
from tests.support import classic
from variants import get_variant

pytestmark = pytest.mark.anyio

Json = dict[str, Any]


# --------------------------------------------------------------------------- the adapters


@dataclass
class Backend:
    """One adapter: how to make a store object on its data, and how to write a game's row
    behind the store's back (to damage a snapshot the way an old or odd row would)."""

    name: str
    make: Callable[[], Store]
    patch_snapshot: Callable[[str, Json | None, int], None]
    forget_rules_revision: Callable[[str], None]  # a row as written before revisions existed
    # Makes a game's row, create entry and first event as written before seeds were said to
    # be chosen and seats contributed (no such fields at all).
    make_old: Callable[[str], None]


# What rows, seats and create entries hold since a chosen seed is public and seats contribute.
NEW_ROW_FIELDS = ("seed_chosen", "contributions")
NEW_SEAT_FIELDS = ("client_seed", "client_seed_source")


def _old_row(data: Json) -> Json:
    old = {key: value for key, value in data.items() if key not in NEW_ROW_FIELDS}
    old["seats"] = [
        {key: value for key, value in seat.items() if key not in NEW_SEAT_FIELDS}
        for seat in data["seats"]
    ]
    return old


def sqlite_backend(database: Path) -> Backend:
    def patch(game_id: str, snapshot: Json | None, version: int) -> None:
        with contextlib.closing(sqlite3.connect(database)) as connection, connection:
            (row,) = connection.execute("SELECT row FROM games WHERE id = ?", (game_id,)).fetchone()
            data = json.loads(row)
            data["snapshot"], data["snapshot_version"] = snapshot, version
            connection.execute("UPDATE games SET row = ? WHERE id = ?", (json.dumps(data), game_id))

    def forget(game_id: str) -> None:
        with contextlib.closing(sqlite3.connect(database)) as connection, connection:
            (row,) = connection.execute("SELECT row FROM games WHERE id = ?", (game_id,)).fetchone()
            data = json.loads(row)
            del data["rules_revision"]
            connection.execute("UPDATE games SET row = ? WHERE id = ?", (json.dumps(data), game_id))

    def make_old(game_id: str) -> None:
        with contextlib.closing(sqlite3.connect(database)) as connection, connection:
            (row,) = connection.execute("SELECT row FROM games WHERE id = ?", (game_id,)).fetchone()
            old = json.dumps(_old_row(json.loads(row)))
            connection.execute("UPDATE games SET row = ? WHERE id = ?", (old, game_id))
            for table, column in (("log", "payload"), ("events", "data")):
                query = f"SELECT {column} FROM {table} WHERE game_id = ? AND seq = 1"
                (created,) = connection.execute(query, (game_id,)).fetchone()
                data = json.loads(created)
                del data["seed_chosen"]
                connection.execute(
                    f"UPDATE {table} SET {column} = ? WHERE game_id = ? AND seq = 1",
                    (json.dumps(data), game_id),
                )

    return Backend("sqlite", lambda: SqliteStore(database), patch, forget, make_old)


def mongo_backend(uri: str) -> Backend:
    def patch(game_id: str, snapshot: Json | None, version: int) -> None:
        client: MongoClient[Json]
        with MongoClient(uri) as client:
            games: Collection[Json] = client.get_default_database().games
            if snapshot is None:  # a row as written before snapshots existed
                change: Json = {"$unset": {"snapshot": "", "snapshot_version": ""}}
            else:
                change = {"$set": {"snapshot": snapshot, "snapshot_version": version}}
            assert games.update_one({"_id": game_id}, change).matched_count == 1

    def forget(game_id: str) -> None:
        client: MongoClient[Json]
        with MongoClient(uri) as client:
            games: Collection[Json] = client.get_default_database().games
            change: Json = {"$unset": {"rules_revision": ""}}
            assert games.update_one({"_id": game_id}, change).modified_count == 1

    def make_old(game_id: str) -> None:
        client: MongoClient[Json]
        with MongoClient(uri) as client:
            database: Database[Json] = client.get_default_database()
            games: Collection[Json] = database.games
            row = games.find_one({"_id": game_id})
            assert row is not None
            games.replace_one({"_id": game_id}, _old_row(row))
            for collection, field in ((database.log, "payload"), (database.events, "data")):
                found = collection.update_one(
                    {"game_id": game_id, "seq": 1}, {"$unset": {f"{field}.seed_chosen": ""}}
                )
                assert found.modified_count == 1

    return Backend("mongo", lambda: MongoStore(uri), patch, forget, make_old)


@pytest.fixture(params=["sqlite", "mongo"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        return sqlite_backend(tmp_path / "data" / "risiko.sqlite3")
    uri: str = request.getfixturevalue("mongo_uri")  # starts MongoDB for these tests only
    return mongo_backend(uri)


@contextlib.asynccontextmanager
async def opened(backend: Backend) -> AsyncIterator[Store]:
    """A store object on the backend's data, open (another one: a second process, or the
    same data after a restart)."""
    store = backend.make()
    await store.open()
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    async with opened(backend) as store:
        yield store


# --------------------------------------------------------------------------- records


OPTIONS: Json = {"round_limit": None, "protected_rounds": 4, "nested": {"ok": [1, "è", True]}}
SEATS = (SeatRecord(0, "Anna", "blu", "hash-0"), SeatRecord(1, "Bruno", "rosso", "hash-1"))


def record(
    game_id: str = "g1",
    *,
    variant: str = "classic",
    status: str = "lobby",
    created_at: float = 1000.25,
    seats: tuple[SeatRecord, ...] = (),
) -> GameRecord:
    return GameRecord(
        id=game_id,
        variant=variant,
        options=OPTIONS,
        seed=b"\x00secret\xff",
        commitment="c" * 64,
        status=status,
        version=1,
        created_at=created_at,
        updated_at=created_at,
        seats=seats,
    )


def entry(seq: int, kind: str = "action", seat: int | None = 0) -> LogEntry:
    return LogEntry(seq, kind, seat, {"kind": "end_turn", "n": seq, "ü": [None, 1.5]}, 1000.0 + seq)


def event(seq: int, log_seq: int, visible_to: int | None = None) -> StoredEvent:
    return StoredEvent(seq, log_seq, visible_to, {"type": "Test", "seq": seq, "ü": "è"})


CREATE_ENTRY = LogEntry(1, "create", None, {}, 1000.0)


async def created(store: Store, game_id: str = "g1", **fields: Any) -> GameRecord:
    new = record(game_id, **fields)
    await store.create(new, CREATE_ENTRY, [event(1, 1)])
    return new


async def append(
    store: Store,
    game: GameRecord,
    events: list[StoredEvent],
    idempotency: Idempotency | None = None,
    **changes: Any,
) -> GameRecord:
    """Append the game's next entry with `events`; the new row."""
    updated = replace(game, version=game.version + 1, **changes)
    await store.append(updated, entry(updated.version), events, idempotency)
    return updated


async def everything(store: Store, game_id: str = "g1") -> tuple[object, ...]:
    """All a store holds of a game, as every reader would see it."""
    return (
        await store.get(game_id),
        await store.log(game_id),
        await store.events(game_id, None, 0, 1000),
        await store.events(game_id, 0, 0, 1000),
        await store.events(game_id, 1, 0, 1000),
        await store.last_event_seq(game_id),
        await store.seat_of("hash-0"),
        await store.seat_of("hash-1"),
        await store.games(None, None, None, 1000),
        await store.idempotent_response(game_id, 0, "k"),
        await store.idempotent_response(game_id, 1, "k"),
        await store.idempotent_response(game_id, None, "k"),
    )


# --------------------------------------------------------------------------- writing


async def test_create_and_read_back(store: Store) -> None:
    assert await store.ping() is True
    game = await created(store, seats=SEATS)
    assert await store.get("g1") == game
    assert await store.get("nope") is None
    assert await store.log("g1") == [CREATE_ENTRY]
    assert await store.events("g1", None, 0, 10) == [event(1, 1)]
    assert await store.last_event_seq("g1") == 1
    assert await store.last_event_seq("nope") == 0
    assert await store.log("nope") == []
    assert await store.events("nope", None, 0, 10) == []
    assert await store.seat_of("hash-1") == ("g1", 1)
    assert await store.seat_of("hash-2") is None
    before = await everything(store)
    with pytest.raises(VersionConflict):  # the same game twice
        await store.create(
            replace(game, status="active", seats=SEATS[:1]), CREATE_ENTRY, [event(1, 1, 0)]
        )
    assert await everything(store) == before


async def test_a_taken_id_and_only_a_taken_id_is_game_exists(
    backend: Backend, store: Store
) -> None:
    """`create` under a taken id says GameExists (what opening a game under an id every
    instance derives alike takes for "created already": api/bound_games.py), whether the id
    was taken before or by a create racing it from another store object (a second
    instance); and writes nothing. A conflict of an append is no GameExists."""
    game = await created(store, seats=SEATS)
    before = await everything(store)
    async with opened(backend) as other:
        for writer in (store, other):
            again = replace(game, status="active", seats=SEATS[:1])
            taken = await refused(writer.create(again, CREATE_ENTRY, [event(1, 1, 0)]))
            assert isinstance(taken, GameExists), repr(taken)
        assert await everything(store) == before
        racing = [
            (store if n % 2 else other).create(
                record("g2", created_at=n), CREATE_ENTRY, [event(1, 1)]
            )
            for n in range(4)
        ]
        outcomes = await asyncio.gather(*racing, return_exceptions=True)
        assert sum(outcome is None for outcome in outcomes) == 1, outcomes
        assert all(isinstance(o, GameExists) for o in outcomes if o is not None), outcomes
    stale = await refused(store.append(game, entry(1), [event(2, 1)]))  # version 1 again
    assert isinstance(stale, VersionConflict), repr(stale)
    assert not isinstance(stale, GameExists), repr(stale)


async def test_append_moves_the_version_and_replaces_the_row(store: Store) -> None:
    game = await created(store, seats=SEATS[:1])
    game = await append(store, game, [event(2, 2), event(3, 2, visible_to=1)], seats=SEATS)
    game = await append(store, game, [], status="active")  # an entry may have no event
    assert game.version == 3
    assert await store.get("g1") == game
    assert [e.seq for e in await store.log("g1")] == [1, 2, 3]
    assert await store.last_event_seq("g1") == 3


async def test_the_same_sequence_twice_is_a_conflict_and_writes_nothing(store: Store) -> None:
    game = await created(store, seats=SEATS)
    game = await append(store, game, [event(2, 2)], Idempotency(1, "k", {"version": 2}))
    before = await everything(store)
    winner = replace(game, version=3, status="active")
    await store.append(winner, entry(3), [event(3, 3)])
    after_winner = await everything(store)
    assert after_winner != before
    # A second writer of seq 3 (it read version 2 too): refused, and nothing of it is written,
    # neither its log entry, its events, its seats, its idempotency key nor its row.
    loser = replace(game, version=3, status="finished", seats=SEATS[1:], winner=1)
    with pytest.raises(VersionConflict):
        await store.append(
            loser, entry(3, seat=1), [event(4, 3), event(5, 3, 1)], Idempotency(0, "k", {"v": 3})
        )
    assert await everything(store) == after_winner
    # A writer that skips a version, or goes back to one, conflicts too.
    for version in (game.version + 5, game.version):
        stale = replace(game, version=version, status="finished")
        with pytest.raises(VersionConflict):
            await store.append(stale, entry(version), [event(9, version)])
        assert await everything(store) == after_winner


async def refused(write: Awaitable[object]) -> BaseException:
    """The error a write fails with (the test fails if it goes through)."""
    try:
        await write
    except Exception as error:
        return error
    raise AssertionError("the write went through")


async def test_a_failure_late_in_the_transaction_rolls_everything_back(store: Store) -> None:
    """The row's version matches, but an event's seq (or an idempotency key) is taken: the
    row, the log entry, the seats and the other events are rolled back with it."""
    game = await created(store, seats=SEATS)
    game = await append(store, game, [event(2, 2)], Idempotency(0, "k", {"v": 2}))
    before = await everything(store)
    await refused(append(store, game, [event(3, 3), event(2, 3)], status="finished", seats=()))
    assert await everything(store) == before
    # An idempotency key used twice by one seat.
    await refused(append(store, game, [event(3, 3)], Idempotency(0, "k"), status="finished"))
    assert await everything(store) == before
    # Nothing was left open: the right write goes through afterwards.
    await append(store, game, [event(3, 3)], Idempotency(1, "k", {"v": 3}))
    assert await store.last_event_seq("g1") == 3
    assert await store.idempotent_response("g1", 1, "k") == {"v": 3}


async def test_a_taken_key_late_in_the_transaction_is_a_version_conflict(store: Store) -> None:
    """Whatever unique key a write collides with, the caller gets VersionConflict (the
    service's STALE_VERSION), not the database's own error."""
    game = await created(store, seats=SEATS)
    game = await append(store, game, [event(2, 2)], Idempotency(0, "k", {"v": 2}))
    key = await refused(append(store, game, [event(3, 3)], Idempotency(0, "k")))
    assert isinstance(key, VersionConflict), repr(key)
    taken = await refused(append(store, game, [event(3, 3), event(2, 3)]))
    assert isinstance(taken, VersionConflict), repr(taken)


async def test_racing_writers_of_one_sequence_one_wins(backend: Backend, store: Store) -> None:
    """Writers of the same next seq at once, from this store object and another one (a second
    process): exactly one is accepted, every other gets VersionConflict, nothing else."""
    game = await created(store, seats=SEATS)
    async with opened(backend) as other:
        for round_ in range(3):
            attempts = [
                (store if n % 2 else other).append(
                    replace(game, version=game.version + 1, winner=n),
                    entry(game.version + 1, seat=n),
                    [event(game.version + 1, game.version + 1, n % 2)],
                    Idempotency(n % 2, f"race-{round_}-{n}", {"n": n}),
                )
                for n in range(6)
            ]
            outcomes = await asyncio.gather(*attempts, return_exceptions=True)
            won = [n for n, outcome in enumerate(outcomes) if outcome is None]
            assert len(won) == 1, outcomes
            assert all(
                isinstance(outcome, VersionConflict) for outcome in outcomes if outcome is not None
            ), outcomes
            (n,) = won
            game = replace(game, version=game.version + 1, winner=n)
            for reader in (store, other):
                assert await reader.get("g1") == game
                assert (await reader.log("g1"))[-1] == entry(game.version, seat=n)
                assert await reader.last_event_seq("g1") == game.version
                keys = [
                    await reader.idempotent_response("g1", m % 2, f"race-{round_}-{m}")
                    for m in range(6)
                ]
                assert keys == [{"n": n} if m == n else None for m in range(6)]


# --------------------------------------------------------------------------- reading


async def test_the_log_in_order_and_after(store: Store) -> None:
    game = await created(store)
    for _ in range(4):
        game = await append(store, game, [])
    log = await store.log("g1")
    assert log == [CREATE_ENTRY, *(entry(seq) for seq in range(2, 6))]
    assert await store.log("g1", after=0) == log
    assert await store.log("g1", after=3) == log[3:]
    assert await store.log("g1", after=5) == []
    other = await created(store, "g2")
    await append(store, other, [])
    assert await store.log("g1") == log  # one game's log only


async def test_events_are_filtered_by_viewer_and_paged(store: Store) -> None:
    game = await created(store)
    events = [event(2, 2, 0), event(3, 2), event(4, 2, 1), event(5, 2, 2), event(6, 2)]
    await append(store, game, events)
    other = await created(store, "g2")
    await append(store, other, [event(2, 2, 0), event(3, 2)])

    async def seqs(viewer: int | None, after: int = 0, limit: int = 100) -> list[int]:
        return [e.seq for e in await store.events("g1", viewer, after, limit)]

    every = await store.events("g1", 0, 0, 100) + await store.events("g1", 1, 0, 100)
    every += await store.events("g1", 2, 0, 100)
    for viewer in (None, 0, 1, 2, 3):  # the store's query decides as domain.events.may_see
        expected = sorted({e.seq for e in every if e.is_visible_to(viewer)})
        assert await seqs(viewer) == expected
    assert await seqs(None) == [1, 3, 6]  # public only
    assert await seqs(0) == [1, 2, 3, 6]  # public and its own
    assert await seqs(1) == [1, 3, 4, 6]
    assert await seqs(2) == [1, 3, 5, 6]
    assert await seqs(3) == [1, 3, 6]
    assert await seqs(0, after=2) == [3, 6]
    assert await seqs(1, after=1, limit=2) == [3, 4]
    assert await seqs(None, limit=1) == [1]
    assert await seqs(1, after=6) == []
    assert await store.events("g1", 0, 1, 1) == [event(2, 2, 0)]  # data round-trips
    assert await store.events("g1", 2, 4, 1) == [event(5, 2, 2)]
    assert await store.last_event_seq("g1") == 6
    assert await store.last_event_seq("g2") == 3


async def test_a_page_of_no_events_or_games_is_empty(store: Store) -> None:
    game = await created(store)
    await append(store, game, [event(2, 2), event(3, 2)])
    assert await store.events("g1", None, 0, 0) == []
    assert await store.games(None, None, None, 0) == []


async def test_last_event_seq_counts_private_events_too(store: Store) -> None:
    game = await created(store)
    game = await append(store, game, [event(2, 2), event(3, 2, visible_to=1)])
    assert await store.last_event_seq("g1") == 3
    assert [e.seq for e in await store.events("g1", None, 0, 10)] == [1, 2]
    await append(store, game, [])
    assert await store.last_event_seq("g1") == 3


# Created at 1000, 1001, ... and three at the same instant: ties go by id, newest first.
LISTED = [
    ("a", "lobby", "classic", 1000.0),
    ("b", "active", "classic", 1001.0),
    ("c", "finished", "classic", 1002.0),
    ("d", "active", "spqr", 1003.0),
    ("e", "lobby", "classic", 1004.0),
    ("f", "active", "classic", 1004.0),
    ("g", "lobby", "spqr", 1004.0),
]


async def create_listed(store: Store) -> None:
    for game_id, status, variant, at in reversed(LISTED):  # not in the listing's order
        await created(store, game_id, status=status, variant=variant, created_at=at)


async def test_games_listing_filters_and_pages(store: Store) -> None:
    await create_listed(store)

    async def ids(
        status: str | None = None,
        variant: str | None = None,
        after: str | None = None,
        limit: int = 100,
    ) -> list[str]:
        return [r.id for r in await store.games(status, variant, after, limit)]

    assert await ids() == ["g", "f", "e", "d", "c", "b", "a"]
    assert await ids(status="active") == ["f", "d", "b"]
    assert await ids(variant="spqr") == ["g", "d"]
    assert await ids(status="lobby", variant="classic") == ["e", "a"]
    assert await ids(status="over") == []
    assert await ids(variant="futurisiko") == []
    # Pages of 2, each after the last id of the previous one: all, once, in order.
    listings: list[tuple[str | None, str]] = [
        (None, "gfedcba"),
        ("lobby", "gea"),
        ("active", "fdb"),
    ]
    for wanted, expected in listings:
        pages: list[list[str]] = []
        after: str | None = None
        while page := await ids(status=wanted, limit=2, after=after):
            pages.append(page)
            after = page[-1]
        assert [game for page in pages for game in page] == list(expected)
        assert all(len(page) == 2 for page in pages[:-1])
    assert await ids(after="f", limit=2) == ["e", "d"]  # within the tie at 1004
    assert await ids(status="active", after="e") == ["d", "b"]  # anchor of another status
    assert await ids(variant="spqr", after="g") == ["d"]
    assert await ids(after="a") == []
    assert await ids(after="nope") == []
    # The listing follows status changes, and keeps each game's whole row.
    a = await store.get("a")
    assert a is not None
    a = await append(store, a, [], status="active")
    assert await ids(status="active") == ["f", "d", "b", "a"]
    assert (await store.games("active", None, "b", 10)) == [a]


async def test_newer_games_go_back_up_the_listing_and_counts_follow_the_filters(
    store: Store,
) -> None:
    """`newer_games` is the listing read from the other end (api/paging.py's `last` and
    `before`): the games before an anchor, nearest first; `count_games` counts a listing."""
    await create_listed(store)

    async def newer(
        than: str | None, status: str | None = None, variant: str | None = None, limit: int = 100
    ) -> list[str]:
        return [r.id for r in await store.newer_games(status, variant, than, limit)]

    assert await newer(None) == ["a", "b", "c", "d", "e", "f", "g"]  # the listing, reversed
    assert await newer("d") == ["e", "f", "g"]
    assert await newer("e", limit=1) == ["f"]  # within the tie at 1004, by id
    assert await newer("g") == []
    assert await newer("a", status="active") == ["b", "d", "f"]
    assert await newer("b", variant="spqr", limit=1) == ["d"]
    assert await newer("nope") == []
    assert await newer(None, limit=0) == []
    listing = [r.id for r in await store.games(None, None, None, 100)]
    for index, anchor in enumerate(listing):  # each side of every anchor, together: all
        before = list(reversed(await newer(anchor)))
        after = [r.id for r in await store.games(None, None, anchor, 100)]
        assert [*before, anchor, *after] == listing, index
    assert await store.count_games(None, None) == 7
    assert await store.count_games("active", None) == 3
    assert await store.count_games("lobby", "spqr") == 1
    assert await store.count_games("finished", "spqr") == 0
    assert (await store.newer_games(None, None, "f", 1))[0] == await store.get("g")


async def test_events_before_go_back_and_counts_see_what_the_viewer_sees(store: Store) -> None:
    game = await created(store)
    events = [event(2, 2, 0), event(3, 2), event(4, 2, 1), event(5, 2, 2), event(6, 2)]
    await append(store, game, events)
    other = await created(store, "g2")
    await append(store, other, [event(2, 2, 0), event(3, 2)])

    async def seqs(viewer: int | None, before: int, limit: int = 100) -> list[int]:
        return [e.seq for e in await store.events_before("g1", viewer, before, limit)]

    assert await seqs(None, 100) == [6, 3, 1]
    assert await seqs(0, 100) == [6, 3, 2, 1]
    assert await seqs(1, 6) == [4, 3, 1]
    assert await seqs(2, 6, limit=2) == [5, 3]
    assert await seqs(0, 1) == []
    assert await seqs(0, 100, limit=0) == []
    assert await store.events_before("g1", 1, 5, 1) == [event(4, 2, 1)]  # data round-trips
    for viewer in (None, 0, 1, 2, 3):
        forward = [e.seq for e in await store.events("g1", viewer, 0, 100)]
        assert list(reversed(await seqs(viewer, 100))) == forward
        assert await store.count_events("g1", viewer) == len(forward)
    assert await store.count_events("g2", None) == 2
    assert await store.count_events("nope", 0) == 0


async def test_persisted_queries_are_kept_by_hash_and_bounded(backend: Backend) -> None:
    """A document kept under its hash is there for another store object on the same data
    (another instance); past `keep`, the oldest go first; a hash kept twice keeps its first
    document and its age."""
    async with opened(backend) as store:
        assert await store.persisted_query("a" * 64) is None
        for n in range(5):
            await store.persist_query(f"{n}" * 64, f"{{ q{n} }}", 1000.0 + n, keep=3)
        await store.persist_query("4" * 64, "{ other }", 2000.0, keep=3)
    async with opened(backend) as store:
        kept = [await store.persisted_query(f"{n}" * 64) for n in range(5)]
        assert kept == [None, None, "{ q2 }", "{ q3 }", "{ q4 }"]
        await store.persist_query("5" * 64, "{ q5 }", 1005.0, keep=3)
        assert await store.persisted_query("2" * 64) is None
        assert await store.persisted_query("5" * 64) == "{ q5 }"


async def test_seats_follow_joins_and_leaves(store: Store) -> None:
    game = await created(store)
    assert await store.seat_of("hash-0") is None
    game = await append(store, game, [], seats=SEATS[:1])  # Anna joins
    assert await store.seat_of("hash-0") == ("g1", 0)
    game = await append(store, game, [], seats=SEATS)  # Bruno joins
    assert [await store.seat_of(h) for h in ("hash-0", "hash-1")] == [("g1", 0), ("g1", 1)]
    # Anna leaves: seats are replaced, and Bruno follows his new number with his token.
    game = await append(store, game, [], seats=(SeatRecord(0, "Bruno", "rosso", "hash-1"),))
    assert await store.seat_of("hash-0") is None
    assert await store.seat_of("hash-1") == ("g1", 0)
    # Another game's seats are its own: replacing them leaves this game's alone.
    other = await created(store, "g2", seats=(SeatRecord(0, "Carla", "verde", "hash-2"),))
    await append(store, other, [], seats=())
    assert await store.seat_of("hash-2") is None
    assert await store.seat_of("hash-1") == ("g1", 0)
    game = await append(store, game, [], seats=())
    assert await store.seat_of("hash-1") is None


async def test_seats_are_rewritten_only_when_the_caller_says_they_changed(store: Store) -> None:
    """A move leaves the seats as they were: the store need not rewrite their look-up (the
    unit of work says so), and what the look-up answers stays right."""
    game = await created(store, seats=SEATS)
    game = replace(game, version=game.version + 1)
    await store.append(game, entry(game.version), [], None, seats_changed=False)
    assert [await store.seat_of(h) for h in ("hash-0", "hash-1")] == [("g1", 0), ("g1", 1)]
    # Told nothing changed, the store keeps the look-up as it was (the row has what it got).
    game = replace(game, version=game.version + 1, seats=SEATS[:1])
    await store.append(game, entry(game.version), [], None, seats_changed=False)
    assert await store.seat_of("hash-1") == ("g1", 1)
    assert (await store.get("g1")) == game
    # Told they changed (the default), it rewrites it.
    game = replace(game, version=game.version + 1)
    await store.append(game, entry(game.version), [])
    assert await store.seat_of("hash-1") is None
    assert await store.seat_of("hash-0") == ("g1", 0)


async def test_idempotency_lookup(store: Store) -> None:
    game = await created(store, seats=SEATS)
    response: Json = {"version": 2, "events": [{"seq": 2, "data": {"ü": None}}]}
    game = await append(store, game, [event(2, 2)], Idempotency(0, "k", response))
    game = await append(store, game, [event(3, 3)], Idempotency(1, "k", {"version": 3}))
    game = await append(store, game, [event(4, 4)], Idempotency(None, "k", {"version": 4}))
    assert await store.idempotent_response("g1", 0, "k") == response
    assert await store.idempotent_response("g1", 1, "k") == {"version": 3}
    assert await store.idempotent_response("g1", None, "k") == {"version": 4}
    assert await store.idempotent_response("g1", 2, "k") is None
    assert await store.idempotent_response("g1", 0, "other") is None
    assert await store.idempotent_response("g2", 0, "k") is None


async def test_a_snapshot_round_trips(store: Store) -> None:
    """A real engine's snapshot, the outcome and the winner come back as they were written,
    and the snapshot restores the very same position."""
    game = CLASSIC.new_game(["Anna", "Bruno", "Carla"], seed=b"snapshot")
    seat = game.seat_to_act
    assert seat is not None
    (family,) = game.legal_actions(seat)
    assert isinstance(family, LegalPlace)
    game.apply(seat, PlaceArmies(family.territories[0], 2))
    snapshot = game.snapshot()
    row = await created(store, seats=SEATS)
    assert (await store.get("g1")) == row
    assert row.snapshot is None
    assert row.snapshot_version == 0
    outcome: Json = {"winner": 1, "reason": "objective", "ranking": [{"rank": 1, "seat": 1}]}
    row = await append(
        store,
        row,
        [],
        status="finished",
        snapshot=snapshot,
        snapshot_version=2,
        winner=1,
        outcome=outcome,
    )
    read = await store.get("g1")
    assert read == row
    assert read.snapshot == snapshot
    restored = CLASSIC.new_game(["Anna", "Bruno", "Carla"], seed=b"snapshot")
    restored.restore(read.snapshot)
    assert state_of(restored) == state_of(game)
    # A later row replaces the snapshot with its own.
    row = await append(store, row, [], snapshot={"seq": 99}, snapshot_version=3)
    assert await store.get("g1") == row


# --------------------------------------------------------------------------- durability


async def test_everything_is_there_after_a_restart(backend: Backend) -> None:
    first = backend.make()
    await first.open()
    try:
        game = await created(first, seats=SEATS)
        game = await append(first, game, [event(2, 2, 1)], Idempotency(1, "k", {"v": 2}))
        game = await append(first, game, [event(3, 3)], snapshot={"seq": 3}, snapshot_version=3)
        await created(first, "g2", created_at=2000.0)
        before = await everything(first)
        log = await first.log("g1")
    finally:
        await first.close()
    async with opened(backend) as reopened:
        assert await reopened.ping() is True
        assert await everything(reopened) == before
        assert await reopened.log("g1") == log
        assert [r.id for r in await reopened.games(None, None, None, 10)] == ["g2", "g1"]
        # It goes on where it was, and conflicts where it should.
        with pytest.raises(VersionConflict):
            await append(reopened, replace(game, version=2), [event(3, 3)])
        await append(reopened, game, [event(4, 4)])
        assert await reopened.last_event_seq("g1") == 4


# --------------------------------------------------------------------------- sessions


async def test_a_session_rebuilds_from_a_snapshot_from_the_log_and_from_a_stale_snapshot(
    backend: Backend, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through GameService: a fresh service (empty cache) rebuilds the live game from the
    stored snapshot; with the snapshot gone, from the whole log; with a snapshot older than
    the row, from it and the log entries after it. All three are the live game."""
    service = GameService(store, Broker())
    game = await service_game(service, players=3, seed="contract")
    mirror = game.game
    await play_service(service, game, lambda g: g.seq >= 15)
    old = await store.get(game.id)
    assert old is not None
    assert old.snapshot is not None
    assert 0 <= old.version - old.snapshot_version < SNAPSHOT_EVERY  # a snapshot every few
    await play_service(service, game, lambda g: g.phase is not Phase.SETUP and g.seq >= 40)
    live = await service.session(game.id)
    assert live.game is not None
    assert state_of(live.game) == state_of(mirror)
    assert live.record.snapshot_version > old.snapshot_version
    assert 0 <= live.record.version - live.record.snapshot_version < SNAPSHOT_EVERY

    reads: list[int] = []
    log = store.log

    async def spied_log(game_id: str, after: int = 0) -> list[LogEntry]:
        reads.append(after)
        return await log(game_id, after)

    monkeypatch.setattr(store, "log", spied_log)

    async def rebuilt(replayed_after: int) -> GameService:
        reads.clear()
        fresh = GameService(store, Broker())
        session = await fresh.session(game.id)
        assert reads == [replayed_after]  # the road it took
        assert session.game is not None
        assert session.game is not live.game
        assert state_of(session.game) == state_of(mirror)
        assert session.record.version == live.record.version
        assert session.last_event == live.last_event == await store.last_event_seq(game.id)
        return fresh

    await rebuilt(live.record.snapshot_version)  # (a) the snapshot, then the entries after it
    backend.patch_snapshot(game.id, None, 0)  # (b) no snapshot: the whole log
    await rebuilt(0)
    assert old.snapshot is not None
    backend.patch_snapshot(game.id, old.snapshot, old.snapshot_version)  # (c) a stale one
    fresh = await rebuilt(old.snapshot_version)
    other_format = {**old.snapshot, "format": -1}  # (d) written by another engine version
    backend.patch_snapshot(game.id, other_format, old.snapshot_version)
    await rebuilt(0)  # dropped: the whole log
    backend.patch_snapshot(game.id, old.snapshot, old.snapshot_version)
    # The rebuilt engine plays on as the live one would have (same dice, same cards).
    target = mirror.seq + 10
    await play_service(fresh, game, lambda g: g.seq >= target)
    again = await GameService(store, Broker()).session(game.id)
    assert again.game is not None
    assert state_of(again.game) == state_of(mirror)


# --------------------------------------------------------------------------- rules revisions


async def test_a_rules_revision_round_trips_and_a_row_without_one_reads_as_1(
    backend: Backend, store: Store
) -> None:
    game = await created(store, variant="futurisiko")
    assert (await store.get("g1")) == game
    assert game.rules_revision == 1  # a record's default: what a row without one means
    game = await append(store, game, [], rules_revision=2)
    assert await store.get("g1") == game
    async with opened(backend) as reopened:
        assert (await reopened.get("g1")) == game
    backend.forget_rules_revision("g1")
    assert await store.get("g1") == replace(game, rules_revision=1)


async def futurisiko_game(service: GameService, seed: str) -> tuple[str, list[str]]:
    """A FutuRisiKo! game of three in the lobby: its id and its seats' tokens."""
    record = await service.create_game("futurisiko", {}, seed)
    tokens = [(await service.join_game(record.id, f"P{n}")).token for n in range(3)]
    return record.id, tokens


async def play_ready(service: GameService, game_id: str, tokens: list[str], actions: int) -> None:
    """`actions` moves, each the ready one of the first legal family of the seat to act."""
    for _ in range(actions):
        game = (await service.session(game_id)).game
        assert game is not None
        seat = game.seat_to_act
        assert seat is not None
        await service.submit_action(game_id, tokens[seat], game.legal_actions(seat)[0].ready())


async def test_a_game_keeps_the_rules_revision_it_was_created_under(
    backend: Backend, store: Store
) -> None:
    """Through GameService: a game created now plays by its variant's newest rules, kept in
    its row and its create entry, and rebuilt by them from the log and from a snapshot; a
    game whose row has no revision (created before revisions existed) plays by revision 1."""
    futurisiko = get_variant("futurisiko")
    seed = "revisions-9"  # three seats: the first card shows two playing colours
    by_revision = {
        revision: futurisiko.new_game(
            ["P0", "P1", "P2"], seed=seed.encode(), rules_revision=revision
        ).initial_events
        for revision in (1, 2)
    }
    assert by_revision[1] != by_revision[2]  # the test tells the two apart

    service = GameService(store, Broker())
    new_id, new_tokens = await futurisiko_game(service, seed)
    old_id, old_tokens = await futurisiko_game(service, seed)
    backend.forget_rules_revision(old_id)
    service = GameService(store, Broker())  # the rows as stored, not as cached
    for game_id, tokens in ((new_id, new_tokens), (old_id, old_tokens)):
        await service.start_game(game_id, tokens[0])
        await play_ready(service, game_id, tokens, SNAPSHOT_EVERY + 2)
    (create, *_) = await store.log(new_id)
    assert create.payload["rules_revision"] == futurisiko.rules_revision == 2

    for game_id, revision in ((new_id, 2), (old_id, 1)):
        live = await service.session(game_id)
        assert live.record.rules_revision == revision
        assert live.record.snapshot_version > 0
        started = [e for e in await store.events(game_id, None, 0, 100) if e.log_seq == 5]
        assert [e.data for e in started] == [e.to_dict() for e in by_revision[revision]]
        fresh = await GameService(store, Broker()).session(game_id)  # from the snapshot
        backend.patch_snapshot(game_id, None, 0)
        replayed = await GameService(store, Broker()).session(game_id)  # from the log
        for rebuilt in (fresh, replayed):
            assert rebuilt.game is not None
            assert live.game is not None
            assert rebuilt.game.rules_revision == revision
            assert rebuilt.game.snapshot() == live.game.snapshot()


async def test_a_game_with_contributions_replays_from_its_log_and_its_snapshot(
    backend: Backend, store: Store
) -> None:
    """A game whose seed nobody chose: its dice come from the secret and the seats'
    contributions, which its start entry and its row keep; a fresh service (a restart, or
    another instance) rebuilds the very same game from its snapshot and from its whole log,
    and plays on with the same dice."""
    service = GameService(store, Broker())
    game = await service_game(
        service, seed=None, client_seeds=["anna's", None, "carla's"], starter_seed="at start"
    )
    record = await store.get(game.id)
    assert record is not None
    assert not record.seed_chosen
    # The starter's contribution, given at the start, replaced the one it joined with.
    assert record.contributions == ("at start", None, "carla's")
    assert [s.client_seed_source for s in record.seats] == ["start", None, "seat"]
    entries = await store.log(game.id)
    [start] = [entry for entry in entries if entry.kind == "start"]
    assert start.payload["contributions"] == ["at start", None, "carla's"]
    joins = [entry.payload.get("client_seed") for entry in entries if entry.kind == "join"]
    assert joins == ["anna's", None, "carla's"]
    # The dice are not the bare secret's.
    plain = CLASSIC.new_game(["P0", "P1", "P2"], seed=record.seed)
    mirror = game.game
    assert [e.to_dict() for e in plain.initial_events] != [
        e.to_dict() for e in mirror.initial_events
    ]
    await play_service(service, game, lambda g: g.phase is not Phase.SETUP and g.seq >= 25)
    live = await service.session(game.id)
    assert live.record.snapshot is not None
    assert live.record.snapshot_version > 2
    # From the snapshot (the seed is not in it: the row's contributions make it again), then
    # from the whole log; each plays on with the same dice as the live game would have.
    for snapshot in (True, False):
        if not snapshot:
            backend.patch_snapshot(game.id, None, 0)
        fresh = GameService(store, Broker())
        rebuilt = await fresh.session(game.id)
        assert rebuilt.game is not None
        assert state_of(rebuilt.game) == state_of(mirror)
        target = mirror.seq + 12
        await play_service(fresh, game, lambda g: g.seq >= target)  # noqa: B023
        again = await GameService(store, Broker()).session(game.id)
        assert again.game is not None
        assert state_of(again.game) == state_of(mirror)


async def test_a_game_stored_before_contributions_replays_as_it_was_played(
    backend: Backend, store: Store
) -> None:
    """A row, seats and a log written before seeds were said to be chosen and seats
    contributed: no such fields, and a start entry without contributions. It reads as a
    game whose seed was not said to be chosen, and replays from its bare secret, as played."""
    service = GameService(store, Broker())
    game = await service_game(service, seed="played before contributions")
    await play_service(service, game, lambda g: g.seq >= 15)
    backend.make_old(game.id)
    for snapshot in (True, False):
        if not snapshot:
            backend.patch_snapshot(game.id, None, 0)
        session = await GameService(store, Broker()).session(game.id)
        assert not session.record.seed_chosen
        assert session.record.contributions is None
        assert all(s.client_seed is None for s in session.record.seats)
        assert session.game is not None
        assert state_of(session.game) == state_of(game.game)
    [start] = [entry for entry in await store.log(game.id) if entry.kind == "start"]
    assert "contributions" not in start.payload
    created = (await store.log(game.id))[0]
    assert "seed_chosen" not in created.payload
    told = (await GameService(store, Broker()).events(game.id, None, 0, 1))[0].event
    assert isinstance(told, GameCreated)
    assert told.seed_chosen is None
    assert told.to_dict() == {"type": "GameCreated", **created.payload}  # as it was stored


async def test_the_services_events_and_answers_are_stored_as_they_always_were(
    store: Store,
) -> None:
    """Events are typed up to the store: what the store keeps of them is the data it always
    kept (the lobby's events, the clock's, the engine's private ones with their seat, the
    answer kept for a clientMutationId), and reads back typed as it was."""
    clock = [1000.0]
    service = GameService(store, Broker(), clock=lambda: clock[0])
    record = await service.create_game("classic", {}, "shapes", None, {"turn_seconds": 60})
    host = await service.join_game(record.id, "Host", "blu")
    leaver = await service.join_game(record.id, "Leaver")
    await service.leave_game(record.id, leaver.token)
    await service.add_bot(record.id, host.token, name="Robo")
    third = await service.join_game(record.id, "Third")
    await service.start_game(record.id, host.token)
    await service.settle()  # the bot plays its turns of the setup, if it is first
    session = await service.session(record.id)
    assert session.game is not None
    seat = session.game.seat_to_act
    assert seat in (0, 2)
    game = classic(session.game)
    own = game.board.territories[game.owner.index(seat)].id
    token = (host if seat == 0 else third).token
    await service.submit_action(record.id, token, PlaceArmies(own, 1), None, "key-1")
    await service.settle()
    stored = await store.events(record.id, seat, 0, 1000)
    created = (await store.log(record.id))[0]
    assert stored[0].data == {"type": "GameCreated", **created.payload}
    assert list(created.payload) == [
        "variant",
        "options",
        "commitment",
        "rules_revision",
        "seed_chosen",
        "time_control",
    ]
    assert [e.data for e in stored[1:5]] == [
        {"type": "PlayerJoined", "seat": 0, "name": "Host", "colour": "blu"},
        {"type": "PlayerJoined", "seat": 1, "name": "Leaver", "colour": "rosso"},
        {"type": "PlayerLeft", "seat": 1},
        {"type": "BotJoined", "seat": 1, "name": "Robo", "colour": "rosso", "policy": "odds"},
    ]
    clocks = [e.data for e in stored if e.data["type"] == "ClockChanged"]
    assert clocks
    assert all(list(data) == ["type", "seat", "kind", "deadline", "banks"] for data in clocks)
    objectives = [e for e in stored if e.data["type"] == "ObjectiveAssigned"]
    assert [(e.visible_to, e.data["seat"]) for e in objectives] == [(seat, seat)]
    answer = await store.idempotent_response(record.id, seat, "key-1")
    assert answer is not None
    assert list(answer) == ["version", "events"]
    last = [e for e in stored if e.log_seq == answer["version"]]
    assert answer["events"] == [
        {"seq": e.seq, "log_seq": e.log_seq, "visible_to": e.visible_to, "data": e.data}
        for e in last
    ]
    typed = await service.events(record.id, seat, 0, 1000)
    assert [(e.seq, e.log_seq, e.visible_to, e.event.to_dict()) for e in typed] == [
        (e.seq, e.log_seq, e.visible_to, e.data) for e in stored
    ]


# --------------------------------------------------------------------------- lobby limits


async def test_lobby_games_by_creator_and_by_age(store: Store) -> None:
    def lobby_game(game_id: str, creator: str, updated_at: float) -> GameRecord:
        return replace(record(game_id), creator=creator, updated_at=updated_at)

    for game in (
        lobby_game("old", "ann", 100.0),
        lobby_game("older", "ann", 50.0),
        lobby_game("new", "ann", 900.0),
        lobby_game("bob", "bob", 10.0),
    ):
        await store.create(game, CREATE_ENTRY, [event(1, 1)])
    assert await store.count_lobby_games("ann") == 3
    assert await store.count_lobby_games("nobody") == 0
    assert (await store.get("old")) == lobby_game("old", "ann", 100.0)  # the creator is kept
    assert await store.stale_lobby_games(500.0, 10) == ["bob", "older", "old"]
    assert await store.stale_lobby_games(500.0, 2) == ["bob", "older"]
    assert await store.stale_lobby_games(10.0, 10) == []  # strictly before
    # A game that started is neither counted nor stale.
    started = await append(store, lobby_game("old", "ann", 100.0), [], status="active")
    assert started.status == "active"
    assert await store.count_lobby_games("ann") == 2
    assert await store.stale_lobby_games(500.0, 10) == ["bob", "older"]
