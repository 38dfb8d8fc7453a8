"""The embedded store: SQLite in a data folder. Zero set-up, durable: every append commits
with `synchronous=FULL` in WAL mode before the service acknowledges it.

SQLite calls run on one dedicated thread, which also serialises them; the event loop never
waits on the disk. Writes share commits (group commit): the appends that arrive while a commit
is on its way to the disk go together into the next transaction, each in a savepoint of its
own, so one fsync makes several of them durable, and a write that fails (a version conflict)
rolls back alone. Each is acknowledged only once its transaction has committed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from api.stores.base import (
    GameRecord,
    Idempotency,
    LogEntry,
    StoredEvent,
    VersionConflict,
)
from api.stores.sqlite_lock import WriteLock
from api.stores.sqlite_pages import SqlitePages, read_games
from api.stores.sqlite_queries import QUERIES_SCHEMA, SqliteQueries
from api.stores.sqlite_rows import read_events, record_to_row, row_to_record
from api.stores.sqlite_writes import Write, game_write

T = TypeVar("T")
logger = logging.getLogger("risiko.store")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    created_at REAL NOT NULL,
    row TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_listing ON games (status, variant, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS games_newest ON games (created_at DESC, id DESC);
CREATE TABLE IF NOT EXISTS log (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER,
    payload TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    log_seq INTEGER NOT NULL,
    visible_to INTEGER,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS seats (
    token_hash TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS idempotency (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    key TEXT NOT NULL,
    response TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, key)
);
"""


def _make_schema(connection: sqlite3.Connection) -> None:
    """The tables and indexes, and the columns a data folder of an older version lacks."""
    for statement in (SCHEMA + QUERIES_SCHEMA).split(";"):
        if statement.strip():
            connection.execute(statement)
    columns = {row[1] for row in connection.execute("PRAGMA table_info(games)")}
    if "deadline" not in columns:  # a data folder written before game clocks
        connection.execute("ALTER TABLE games ADD COLUMN deadline REAL")
    connection.execute(
        "CREATE INDEX IF NOT EXISTS games_due ON games (deadline) WHERE deadline IS NOT NULL"
    )
    seat_columns = {row[1] for row in connection.execute("PRAGMA table_info(seats)")}
    if "account_id" not in seat_columns:  # a data folder written before accounts sat down
        connection.execute("ALTER TABLE seats ADD COLUMN account_id TEXT")
    connection.execute(
        "CREATE INDEX IF NOT EXISTS seats_of_account ON seats (account_id, game_id) "
        "WHERE account_id IS NOT NULL"
    )


def _settle(future: asyncio.Future[None], outcome: BaseException | None) -> None:
    if future.cancelled():
        return
    if outcome is None:
        future.set_result(None)
    else:
        future.set_exception(outcome)


class _Executes(Protocol):
    def execute(self, sql: str, /) -> object: ...


def enter_wal_mode(connection: _Executes, *, patience: float = 15.0) -> None:
    """Switch the database to write-ahead logging, waiting out other processes opening it.

    Two instances opening one fresh database at once can both try the switch; SQLite then
    answers one of them "database is locked" at once, without calling the busy handler
    (the switch needs the database to itself). That instance waits and tries again rather
    than failing to start.
    """
    deadline = time.monotonic() + patience
    delay = 0.01
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() + delay > deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.25)


class SqliteStore(SqlitePages, SqliteQueries):
    def __init__(self, path: Path, *, group_commit: bool = True) -> None:
        self.path = path
        self.group_commit = group_commit
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        self._connection: sqlite3.Connection | None = None
        self._closed = False
        # Writes waiting for the next commit, and whether a commit is queued or under way.
        self._pending: deque[tuple[Write, asyncio.Future[None], asyncio.AbstractEventLoop]] = (
            deque()
        )
        self._pending_lock = threading.Lock()
        self._committing = False
        self._write_lock = WriteLock(path)  # shared with the other processes on this file
        # Called on the store's thread after each commit (api/sqlite_feed.py reads the events
        # committed since it last read).
        self.after_commit: Callable[[sqlite3.Connection], None] | None = None

    async def run(self, function: Callable[[sqlite3.Connection], T]) -> T:
        """`function` on the store's thread, with its connection (the store's own feed)."""
        return await self._run(function)

    async def _run(self, function: Callable[[sqlite3.Connection], T]) -> T:
        if self._closed:
            raise RuntimeError("the store is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._call, function)

    def _call(self, function: Callable[[sqlite3.Connection], T]) -> T:
        if self._connection is None:
            raise RuntimeError("the store is not open")
        return function(self._connection)

    async def open(self) -> None:
        def connect() -> None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            connection.row_factory = sqlite3.Row
            connection.execute("PRAGMA busy_timeout=5000")
            enter_wal_mode(connection)
            connection.execute("PRAGMA synchronous=FULL")
            # Several processes may open one database at once (instances sharing a data
            # folder): the schema is made, or migrated, by one at a time.
            connection.execute("BEGIN IMMEDIATE")
            try:
                _make_schema(connection)
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            self._connection = connection
            self._write_lock.open()

        if self._closed:  # opened again after a close: a fresh thread
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
            self._closed = False
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, connect)

    async def close(self) -> None:
        def disconnect(connection: sqlite3.Connection) -> None:
            connection.close()
            self._connection = None
            self._write_lock.close()

        with self._pending_lock:
            self._closed = True  # no write is queued from now on
        while True:  # the writes already queued are committed (or refused) first
            with self._pending_lock:
                if not self._committing:
                    break
            await asyncio.sleep(0.001)
        if self._connection is not None:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._executor, self._call, disconnect)
        self._executor.shutdown(wait=True)

    async def ping(self) -> bool:
        return await self._run(lambda c: c.execute("SELECT 1").fetchone()[0] == 1)

    async def create(
        self, record: GameRecord, entry: LogEntry, events: Sequence[StoredEvent]
    ) -> None:
        await self._write(record, entry, events, None, create=True)

    async def append(
        self,
        record: GameRecord,
        entry: LogEntry,
        events: Sequence[StoredEvent],
        idempotency: Idempotency | None = None,
        seats_changed: bool = True,
    ) -> None:
        await self._write(record, entry, events, idempotency, create=False, seats=seats_changed)

    async def _write(
        self,
        record: GameRecord,
        entry: LogEntry,
        events: Sequence[StoredEvent],
        idempotency: Idempotency | None,
        *,
        create: bool,
        seats: bool = True,
    ) -> None:
        write = game_write(record, entry, events, idempotency, create=create, seats=seats)
        if self.group_commit:
            await self._commit_with_others(write)
        else:
            await self._commit_alone(write)

    async def _commit_alone(self, write: Write) -> None:
        """`write` in a transaction of its own."""
        (outcome,) = await self._run(lambda _: self._transaction([write]))
        if outcome is not None:
            raise outcome

    async def _commit_with_others(self, write: Write) -> None:
        """`write` queued for the next commit (group commit), which the store's thread starts
        unless one is already queued or under way; returns once that commit is done."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._pending_lock:
            if self._closed:
                raise RuntimeError("the store is closed")
            self._pending.append((write, future, loop))
            if not self._committing:
                self._committing = True
                self._executor.submit(self._commit_pending)
        await future

    def _transaction(self, writes: Sequence[Write]) -> list[BaseException | None]:
        """On the store's thread: `writes` in one transaction, each in a savepoint of its own
        (one that fails rolls back alone); what became of each. If the commit fails, nothing
        of them was written, and each gets that error."""
        with self._write_lock.held():
            outcomes = self._transaction_locked(writes)
        if self.after_commit is not None and self._connection is not None:
            try:
                self.after_commit(self._connection)
            except sqlite3.Error:  # the feed reads it at its next look: the commit stands
                logger.warning("could not read back a commit's events", exc_info=True)
        return outcomes

    def _transaction_locked(self, writes: Sequence[Write]) -> list[BaseException | None]:
        outcomes: list[BaseException | None] = []
        try:
            c = self._connection
            if c is None:
                raise RuntimeError("the store is not open")
            c.execute("BEGIN IMMEDIATE")
            try:
                for write in writes:
                    c.execute("SAVEPOINT write")
                    try:
                        write(c)
                    except BaseException as error:
                        c.execute("ROLLBACK TO write")
                        if isinstance(error, sqlite3.IntegrityError):
                            error = VersionConflict(str(error))
                        outcomes.append(error)
                    else:
                        outcomes.append(None)
                    c.execute("RELEASE write")
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
        except BaseException as error:
            return [error] * len(writes)
        return outcomes

    def _commit_pending(self) -> None:
        """On the store's thread: every write waiting, in one transaction; then the next
        batch, as a new task, so that reads queued meanwhile go first."""
        with self._pending_lock:
            batch = list(self._pending)
            self._pending.clear()
        outcomes = self._transaction([write for write, _, _ in batch])
        for (_, future, loop), outcome in zip(batch, outcomes, strict=True):
            loop.call_soon_threadsafe(_settle, future, outcome)
        with self._pending_lock:
            if self._pending:  # arrived during this commit: the next one, after queued reads
                self._executor.submit(self._commit_pending)
            else:
                self._committing = False

    async def get(self, game_id: str) -> GameRecord | None:
        def read(c: sqlite3.Connection) -> GameRecord | None:
            row = c.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            return None if row is None else row_to_record(row)

        return await self._run(read)

    async def log(self, game_id: str, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        def read(c: sqlite3.Connection) -> list[LogEntry]:
            rows = c.execute(
                "SELECT seq, kind, seat, payload, created_at FROM log "
                "WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                (game_id, after, -1 if limit is None else limit),
            ).fetchall()
            return [
                LogEntry(r["seq"], r["kind"], r["seat"], json.loads(r["payload"]), r["created_at"])
                for r in rows
            ]

        return await self._run(read)

    async def events(
        self, game_id: str, viewer: int | None, after: int, limit: int
    ) -> list[StoredEvent]:
        following = ("seq > ? ORDER BY seq", after)
        return await self._run(lambda c: read_events(c, game_id, viewer, following, limit))

    async def last_event_seq(self, game_id: str, version: int | None = None) -> int:
        def read(c: sqlite3.Connection) -> int:
            row = c.execute(
                "SELECT MAX(seq) FROM events WHERE game_id = ? AND log_seq <= ?",
                (game_id, version if version is not None else 2**62),
            ).fetchone()
            return int(row[0] or 0)

        return await self._run(read)

    async def games(
        self,
        status: str | None,
        variant: str | None,
        after: str | None,
        limit: int,
        account: str | None = None,
    ) -> list[GameRecord]:
        return await self._run(
            lambda c: read_games(c, status, variant, after, limit, older=True, account=account)
        )

    async def mark_anonymous(self, game_id: str, version: int, seats: Sequence[int]) -> bool:
        def write(c: sqlite3.Connection) -> bool:
            c.execute("BEGIN IMMEDIATE")
            try:
                row = c.execute(
                    "SELECT * FROM games WHERE id = ? AND version = ? AND status = 'finished'",
                    (game_id, version),
                ).fetchone()
                if row is not None:
                    marked = row_to_record(row).with_anonymous(seats)
                    c.execute(
                        "UPDATE games SET row = ? WHERE id = ? AND version = ?",
                        (record_to_row(marked), game_id, version),
                    )
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
            return row is not None

        return await self._run(write)

    async def seat_of(self, token_hash: str) -> tuple[str, int] | None:
        def read(c: sqlite3.Connection) -> tuple[str, int] | None:
            row = c.execute(
                "SELECT game_id, seat FROM seats WHERE token_hash = ?", (token_hash,)
            ).fetchone()
            return None if row is None else (row[0], row[1])

        return await self._run(read)

    async def count_lobby_games(self, creator: str) -> int:
        def read(c: sqlite3.Connection) -> int:
            row = c.execute(
                "SELECT count(*) FROM games WHERE status = 'lobby'"
                " AND json_extract(row, '$.creator') = ?",
                (creator,),
            ).fetchone()
            return int(row[0])

        return await self._run(read)

    async def stale_lobby_games(self, updated_before: float, limit: int) -> list[str]:
        def read(c: sqlite3.Connection) -> list[str]:
            rows = c.execute(
                "SELECT id FROM games WHERE status = 'lobby'"
                " AND json_extract(row, '$.updated_at') < ?"
                " ORDER BY json_extract(row, '$.updated_at') LIMIT ?",
                (updated_before, limit),
            ).fetchall()
            return [row[0] for row in rows]

        return await self._run(read)

    async def idempotent_response(
        self, game_id: str, seat: int | None, key: str
    ) -> dict[str, Any] | None:
        def read(c: sqlite3.Connection) -> dict[str, Any] | None:
            row = c.execute(
                "SELECT response FROM idempotency WHERE game_id = ? AND seat = ? AND key = ?",
                (game_id, -1 if seat is None else seat, key),
            ).fetchone()
            return None if row is None else dict(json.loads(row[0]))

        return await self._run(read)

    async def due_games(self, now: float, limit: int) -> list[str]:
        def read(c: sqlite3.Connection) -> list[str]:
            rows = c.execute(
                "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= ? "
                "AND status = 'active' ORDER BY deadline LIMIT ?",
                (now, limit),
            ).fetchall()
            return [str(row[0]) for row in rows]

        return await self._run(read)
