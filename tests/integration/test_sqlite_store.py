"""The embedded store: atomic appends with optimistic concurrency, the log and the events
with their visibility, the listing of games, idempotency, and durability across reopening."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from api.stores.base import (
    GameRecord,
    Idempotency,
    LogEntry,
    SeatRecord,
    StoredEvent,
    VersionConflict,
)
from api.stores.sqlite import SqliteStore, enter_wal_mode


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "data" / "risiko.sqlite3"


@pytest.fixture
async def store(database: Path) -> AsyncIterator[SqliteStore]:
    opened = SqliteStore(database)
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


def record(
    game_id: str = "g1",
    *,
    variant: str = "classic",
    status: str = "lobby",
    version: int = 1,
    created_at: float = 1000.0,
    seats: tuple[SeatRecord, ...] = (),
) -> GameRecord:
    return GameRecord(
        id=game_id,
        variant=variant,
        options={"round_limit": None, "protected_rounds": 4},
        seed=b"\x00secret\xff",
        commitment="c" * 64,
        status=status,
        version=version,
        created_at=created_at,
        updated_at=created_at,
        seats=seats,
    )


def entry(seq: int, kind: str = "action", seat: int | None = 0) -> LogEntry:
    return LogEntry(seq, kind, seat, {"kind": "end_turn", "n": seq}, 1000.0 + seq)


def event(seq: int, log_seq: int, visible_to: int | None = None) -> StoredEvent:
    return StoredEvent(seq, log_seq, visible_to, {"type": "Test", "seq": seq, "ü": "è"})


async def created(store: SqliteStore, game_id: str = "g1", **fields: object) -> GameRecord:
    new = record(game_id, **fields)  # type: ignore[arg-type]
    await store.create(new, LogEntry(1, "create", None, {}, 1000.0), [event(1, 1)])
    return new


async def append(
    store: SqliteStore,
    game: GameRecord,
    events: list[StoredEvent],
    idempotency: Idempotency | None = None,
    **changes: object,
) -> GameRecord:
    """Append the game's next entry with `events`; the new row."""
    updated = replace(game, version=game.version + 1, **changes)  # type: ignore[arg-type]
    await store.append(updated, entry(updated.version), events, idempotency)
    return updated


async def snapshot(store: SqliteStore, game_id: str) -> tuple[object, ...]:
    return (
        await store.get(game_id),
        await store.log(game_id),
        await store.events(game_id, 0, 0, 1000),
        await store.events(game_id, 1, 0, 1000),
        await store.last_event_seq(game_id),
        await store.seat_of("hash-0"),
        await store.seat_of("hash-1"),
    )


SEATS = (SeatRecord(0, "Anna", "blu", "hash-0"), SeatRecord(1, "Bruno", "rosso", "hash-1"))


# --------------------------------------------------------------------------- writing


@pytest.mark.anyio
async def test_create_and_read_back(store: SqliteStore) -> None:
    assert await store.ping() is True
    game = await created(store, seats=SEATS)
    assert await store.get("g1") == game
    assert await store.get("nope") is None
    assert await store.log("g1") == [LogEntry(1, "create", None, {}, 1000.0)]
    assert await store.events("g1", None, 0, 10) == [event(1, 1)]
    assert await store.last_event_seq("g1") == 1
    assert await store.last_event_seq("nope") == 0
    assert await store.seat_of("hash-1") == ("g1", 1)
    assert await store.seat_of("hash-2") is None
    with pytest.raises(VersionConflict):  # the same game twice
        await created(store, seats=SEATS)
    assert await store.get("g1") == game


@pytest.mark.anyio
async def test_append_moves_the_version_and_replaces_the_row(store: SqliteStore) -> None:
    game = await created(store, seats=SEATS[:1])
    game = await append(store, game, [event(2, 2), event(3, 2, visible_to=1)], seats=SEATS)
    game = await append(store, game, [], status="active")
    assert await store.get("g1") == game
    assert game.version == 3
    assert [e.seq for e in await store.log("g1")] == [1, 2, 3]
    assert [e.seq for e in await store.log("g1", after=2)] == [3]
    assert await store.last_event_seq("g1") == 3
    assert await store.seat_of("hash-1") == ("g1", 1)
    # Seats replaced: a seat that left loses its token, the others follow their new number.
    moved = (SeatRecord(0, "Bruno", "rosso", "hash-1"),)
    game = await append(store, game, [event(4, 4)], seats=moved)
    assert await store.seat_of("hash-0") is None
    assert await store.seat_of("hash-1") == ("g1", 0)


@pytest.mark.anyio
async def test_the_same_sequence_twice_is_a_conflict_and_writes_nothing(
    store: SqliteStore,
) -> None:
    game = await created(store, seats=SEATS)
    game = await append(store, game, [event(2, 2)])
    before = await snapshot(store, "g1")
    stale = replace(game, version=game.version - 1)  # a writer that did not see version 2
    key = Idempotency(0, "k", {"version": 3})
    with pytest.raises(VersionConflict):
        await append(store, stale, [event(3, 2)], key, status="active", seats=SEATS[:1])
    assert await snapshot(store, "g1") == before
    assert await store.idempotent_response("g1", 0, "k") is None
    # A version from the future conflicts too.
    ahead = replace(game, version=game.version + 5)
    with pytest.raises(VersionConflict):
        await append(store, ahead, [event(3, 8)])
    assert await snapshot(store, "g1") == before
    # The right version goes through.
    await append(store, game, [event(3, 3)], key)
    assert (await store.get("g1")) == replace(game, version=3)


@pytest.mark.anyio
async def test_a_failure_late_in_the_transaction_rolls_everything_back(
    store: SqliteStore,
) -> None:
    """The row's version matches, but an event's seq is taken: the UPDATE of the row, the
    log entry and the other events are rolled back with it."""
    game = await created(store, seats=SEATS)
    game = await append(store, game, [event(2, 2)], Idempotency(0, "used"))
    before = await snapshot(store, "g1")
    with pytest.raises(VersionConflict):
        await append(store, game, [event(3, 3), event(2, 3)], status="finished")
    assert await snapshot(store, "g1") == before
    with pytest.raises(VersionConflict):  # an idempotency key used twice by one seat
        await append(store, game, [event(3, 3)], Idempotency(0, "used"), status="finished")
    assert await snapshot(store, "g1") == before
    # The connection is usable afterwards: no transaction was left open.
    await append(store, game, [event(3, 3)], Idempotency(1, "used"))
    assert await store.last_event_seq("g1") == 3


@pytest.mark.anyio
async def test_a_second_connection_conflicts_like_a_second_process(database: Path) -> None:
    first, second = SqliteStore(database), SqliteStore(database)
    await first.open()
    await second.open()
    try:
        game = await created(first)
        assert await second.get("g1") == game
        await append(first, game, [event(2, 2)])
        with pytest.raises(VersionConflict):
            await append(second, game, [event(2, 2, visible_to=1)])
        assert await second.events("g1", 1, 0, 10) == [event(1, 1), event(2, 2)]
    finally:
        await first.close()
        await second.close()


# --------------------------------------------------------------------------- reading


@pytest.mark.anyio
async def test_events_are_filtered_by_viewer_and_paged(store: SqliteStore) -> None:
    game = await created(store)
    events = [event(2, 2, 0), event(3, 2), event(4, 2, 1), event(5, 2, 2), event(6, 2)]
    await append(store, game, events)
    other = await created(store, "g2")
    await append(store, other, [event(2, 2, 0)])

    async def seqs(viewer: int | None, after: int = 0, limit: int = 100) -> list[int]:
        return [e.seq for e in await store.events("g1", viewer, after, limit)]

    assert await seqs(None) == [1, 3, 6]
    assert await seqs(0) == [1, 2, 3, 6]
    assert await seqs(1) == [1, 3, 4, 6]
    assert await seqs(2) == [1, 3, 5, 6]
    assert await seqs(-1) == [1, 3, 6]
    assert await seqs(0, after=2) == [3, 6]
    assert await seqs(1, after=1, limit=2) == [3, 4]
    assert await seqs(1, after=6) == []
    assert await seqs(None, limit=0) == []
    assert await store.events("g1", 0, 1, 1) == [event(2, 2, 0)]  # data round-trips
    assert await store.last_event_seq("g2") == 2


@pytest.mark.anyio
async def test_games_listing_filters_and_pages(store: SqliteStore) -> None:
    # Created at 1000, 1001, ... and three at the same instant (ties go by id, newest first).
    specs = [
        ("a", "lobby", "classic", 1000.0),
        ("b", "active", "classic", 1001.0),
        ("c", "finished", "classic", 1002.0),
        ("d", "active", "spqr", 1003.0),
        ("e", "lobby", "classic", 1004.0),
        ("f", "active", "classic", 1004.0),
        ("g", "lobby", "spqr", 1004.0),
    ]
    for game_id, status, variant, at in specs:
        await created(store, game_id, status=status, variant=variant, created_at=at)

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
    # Pages of 2, each after the last id of the previous one: all, once, in order.
    pages: list[list[str]] = []
    after = None
    while True:
        page = await ids(limit=2, after=after)
        if not page:
            break
        pages.append(page)
        after = page[-1]
    assert pages == [["g", "f"], ["e", "d"], ["c", "b"], ["a"]]
    assert await ids(status="active", after="f") == ["d", "b"]
    assert await ids(status="active", after="e") == ["d", "b"]  # anchor of another status
    assert await ids(after="nope") == []
    # The listing follows status changes.
    a = await store.get("a")
    assert a is not None
    await append(store, a, [], status="active")
    assert await ids(status="active") == ["f", "d", "b", "a"]


@pytest.mark.anyio
async def test_idempotency_lookup(store: SqliteStore) -> None:
    game = await created(store, seats=SEATS)
    game = await append(store, game, [event(2, 2)], Idempotency(0, "k", {"version": 2}))
    game = await append(store, game, [event(3, 3)], Idempotency(1, "k", {"version": 3}))
    game = await append(store, game, [event(4, 4)], Idempotency(None, "k", {"version": 4}))
    assert await store.idempotent_response("g1", 0, "k") == {"version": 2}
    assert await store.idempotent_response("g1", 1, "k") == {"version": 3}
    assert await store.idempotent_response("g1", None, "k") == {"version": 4}
    assert await store.idempotent_response("g1", 2, "k") is None
    assert await store.idempotent_response("g1", 0, "other") is None
    assert await store.idempotent_response("g2", 0, "k") is None


# --------------------------------------------------------------------------- durability


@pytest.mark.anyio
async def test_everything_survives_closing_and_reopening(database: Path) -> None:
    first = SqliteStore(database)
    await first.open()
    game = await created(first, seats=SEATS)
    game = await append(first, game, [event(2, 2, 1)], Idempotency(1, "k", {"v": 2}))
    before = await snapshot(first, "g1")
    await first.close()
    assert database.exists()
    reopened = SqliteStore(database)
    await reopened.open()
    try:
        assert await snapshot(reopened, "g1") == before
        assert await reopened.idempotent_response("g1", 1, "k") == {"v": 2}
        assert await reopened.games(None, None, None, 10) == [game]
        await append(reopened, game, [event(3, 3)])
        assert await reopened.last_event_seq("g1") == 3
    finally:
        await reopened.close()
    # What SQLite itself holds, read without the store.
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT seq, kind FROM log ORDER BY seq").fetchall()
    assert rows == [(1, "create"), (2, "action"), (3, "action")]


@pytest.mark.anyio
async def test_a_store_not_opened_refuses_to_work(database: Path) -> None:
    never_opened = SqliteStore(database)
    with pytest.raises(RuntimeError):
        await never_opened.ping()
    await never_opened.close()


@pytest.mark.anyio
async def test_the_same_store_opens_again_after_closing(database: Path) -> None:
    store = SqliteStore(database)
    await store.open()
    await created(store)
    await store.close()
    await store.open()
    try:
        assert await store.ping() is True
        assert await store.get("g1") is not None
    finally:
        await store.close()


# --------------------------------------------------------------------------- group commit


class CountingConnection:
    """The store's connection, counting the transactions it commits."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.commits = 0

    def execute(self, sql: str, *parameters: Any) -> sqlite3.Cursor:
        if sql == "COMMIT":
            self.commits += 1
        return self.connection.execute(sql, *parameters)

    def __getattr__(self, name: str) -> object:
        return getattr(self.connection, name)


@pytest.mark.anyio
async def test_appends_that_arrive_together_share_a_commit(database: Path) -> None:
    store = SqliteStore(database)
    await store.open()
    games = [await created(store, f"g{n}") for n in range(20)]
    counting = CountingConnection(store._connection)  # type: ignore[arg-type]
    store._connection = counting  # type: ignore[assignment]
    try:
        await asyncio.gather(*(append(store, game, [event(2, 2)]) for game in games))
        assert counting.commits < len(games)  # at least two appends shared a transaction
    finally:
        store._connection = counting.connection
        await store.close()
    reopened = SqliteStore(database)  # every acknowledged append is on disk
    await reopened.open()
    try:
        for game in games:
            assert await reopened.last_event_seq(game.id) == 2
    finally:
        await reopened.close()


@pytest.mark.anyio
async def test_a_conflict_in_a_shared_commit_fails_alone(store: SqliteStore) -> None:
    game, other = await created(store, "g1"), await created(store, "g2")
    outcomes = await asyncio.gather(
        append(store, game, [event(2, 2)]),
        append(store, game, [event(2, 2, visible_to=1)]),  # the same version again
        append(store, other, [event(2, 2)]),
        return_exceptions=True,
    )
    assert isinstance(outcomes[0], GameRecord)
    assert isinstance(outcomes[1], VersionConflict)
    assert isinstance(outcomes[2], GameRecord)
    assert await store.events("g1", 1, 0, 10) == [event(1, 1), event(2, 2)]
    assert await store.last_event_seq("g2") == 2


@pytest.mark.anyio
@pytest.mark.parametrize("group_commit", [True, False])
async def test_appends_are_durable_with_or_without_group_commit(
    database: Path, group_commit: bool
) -> None:
    store = SqliteStore(database, group_commit=group_commit)
    await store.open()
    games = [await created(store, f"g{n}") for n in range(5)]
    await asyncio.gather(*(append(store, game, [event(2, 2)]) for game in games))
    await store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await append(store, games[0], [event(3, 3)])
    reopened = SqliteStore(database)
    await reopened.open()
    try:
        assert [await reopened.last_event_seq(g.id) for g in games] == [2] * 5
    finally:
        await reopened.close()


class _LockedFor:
    """A connection whose switch to WAL is refused "database is locked" a number of times."""

    def __init__(self, refusals: int, message: str = "database is locked") -> None:
        self.refusals = refusals
        self.message = message
        self.tries = 0

    def execute(self, sql: str, /) -> object:
        assert sql == "PRAGMA journal_mode=WAL"
        self.tries += 1
        if self.tries <= self.refusals:
            raise sqlite3.OperationalError(self.message)
        return None


def test_an_instance_opening_while_another_switches_to_wal_waits_and_tries_again() -> None:
    connection = _LockedFor(refusals=3)
    enter_wal_mode(connection)
    assert connection.tries == 4


def test_a_lock_that_never_lifts_fails_after_the_patience() -> None:
    connection = _LockedFor(refusals=10**6)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        enter_wal_mode(connection, patience=0.2)
    assert 2 <= connection.tries < 100


def test_any_other_error_is_not_retried() -> None:
    connection = _LockedFor(refusals=1, message="disk I/O error")
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        enter_wal_mode(connection)
    assert connection.tries == 1


def _open_and_close(path: str) -> None:
    async def cycle() -> None:
        store = SqliteStore(Path(path))
        await store.open()
        await store.close()

    asyncio.run(cycle())


def test_several_processes_open_one_fresh_database_at_once(tmp_path: Path) -> None:
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    path = str(tmp_path / "shared" / "risiko.sqlite3")
    processes = [context.Process(target=_open_and_close, args=(path,)) for _ in range(6)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=60)
    assert [process.exitcode for process in processes] == [0] * 6
