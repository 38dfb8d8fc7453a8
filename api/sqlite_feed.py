"""The embedded store's change feed: with several processes on one SQLite file (`risiko serve
--workers N`, or instances sharing a data folder), every event any of them commits reaches
the subscribers of every process, in commit order, none lost and none twice.

SQLite lets one writer commit at a time, and the events table's rowid grows by one with every
event inserted (no event is ever deleted), so its rowid order is the commit order and what a
reader sees is always a prefix of it. A thread of this process follows that order on a
connection of its own: it asks `PRAGMA data_version`, which changes when any other connection
(another process's, or this process's store) has committed, and reads the events after the
last one it passed. It asks again after `poll_seconds` while the store is busy, less and less
often (up to `idle_poll_seconds`) while it is quiet, and at once when this process has
committed. This process's own events it publishes as they were in memory before their commit
(`expect`), instead of decoding them again."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from api.broker import Broker
from api.feed import StoredEventPublisher
from api.publishing import publish
from api.stores.base import RecordedEvent, StoredEvent
from api.stores.sqlite import SqliteStore

logger = logging.getLogger("risiko.feed")
BATCH = 1000  # events read at once

_Row = tuple[int, str, int, int, int | None, str]


@dataclass(frozen=True, slots=True)
class _Commit:
    """A commit of this process: the accounts seated after it, and whether it was made."""

    accounts: Sequence[str]
    outcome: asyncio.Future[bool]


class SqliteChangeFeed:
    def __init__(
        self,
        store: SqliteStore,
        broker: Broker,
        poll_seconds: float = 0.001,
        idle_poll_seconds: float = 0.025,
    ) -> None:
        self.path: Path = store.path
        self.broker = broker
        self.poll_seconds = poll_seconds
        self.idle_poll_seconds = idle_poll_seconds
        self.retry_seconds = 1.0
        self.ready = asyncio.Event()  # set once the feed knows where it starts
        self._publisher = StoredEventPublisher(store, broker)
        self._hints: dict[tuple[str, int], tuple[RecordedEvent, _Commit]] = {}
        self._wake = threading.Event()
        self._stopping = threading.Event()

    def expect(
        self, game_id: str, events: Sequence[RecordedEvent], accounts: Sequence[str]
    ) -> None:
        """This process is about to commit `events` of `game_id`: once committed, the feed
        publishes them as they are (api/publishing.py's Publisher tells it)."""
        commit = _Commit(accounts, asyncio.get_running_loop().create_future())
        for recorded in events:
            self._hints[(game_id, recorded.seq)] = (recorded, commit)

    def committed(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        """They are committed: read at once."""
        self._settle(game_id, events, committed=True)
        self._wake.set()

    def forget(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        """Their commit failed: another instance's events may take their numbers."""
        self._settle(game_id, events, committed=False)
        for recorded in events:
            self._hints.pop((game_id, recorded.seq), None)

    def _settle(self, game_id: str, events: Sequence[RecordedEvent], *, committed: bool) -> None:
        hint = self._hints.get((game_id, events[0].seq)) if events else None
        if hint is not None and not hint[1].outcome.done():
            hint[1].outcome.set_result(committed)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        batches: asyncio.Queue[list[_Row]] = asyncio.Queue()
        started = loop.create_future()
        self._stopping.clear()
        follower = threading.Thread(
            target=self._follow,
            args=(loop, batches, started),
            name="sqlite-feed",
            daemon=True,
        )
        follower.start()
        try:
            await started
            self.ready.set()
            while True:
                for row in await batches.get():
                    await self._publish(row)
        finally:
            self.ready.clear()
            self._stopping.set()
            self._wake.set()
            await asyncio.to_thread(follower.join)

    async def _publish(self, row: _Row) -> None:
        _, game_id, seq, log_seq, visible_to, data = row
        hint = self._hints.get((game_id, seq))
        # This process's commit of the same number, under way: whether it is the one read
        # here, or one that another instance's commit is about to refuse (STALE_VERSION).
        if hint is not None and await hint[1].outcome:
            del self._hints[(game_id, seq)]
            publish(self.broker, game_id, [hint[0]], hint[1].accounts)
            return
        event = StoredEvent(seq, log_seq, visible_to, json.loads(data))
        await self._publisher.publish(game_id, event)

    def _follow(
        self,
        loop: asyncio.AbstractEventLoop,
        batches: asyncio.Queue[list[_Row]],
        started: asyncio.Future[None],
    ) -> None:
        """On the feed's thread: every event after the newest one at the start, in rowid
        order, handed to the event loop a batch at a time."""
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            connection.execute("PRAGMA busy_timeout=5000")
            (last,) = connection.execute("SELECT COALESCE(MAX(rowid), 0) FROM events").fetchone()
            loop.call_soon_threadsafe(_settle, started)
            seen: int | None = None
            pause = self.poll_seconds
            while not self._stopping.is_set():
                self._wake.wait(pause)
                self._wake.clear()
                try:
                    (version,) = connection.execute("PRAGMA data_version").fetchone()
                    if version == seen:  # quiet: ask less and less often, up to a limit
                        pause = min(pause * 2, self.idle_poll_seconds)
                        continue
                    seen, pause = version, self.poll_seconds
                    last = self._read_after(connection, last, loop, batches)
                except sqlite3.Error as error:  # the cursor stays: nothing is skipped
                    seen = None
                    logger.warning("the embedded store's feed could not read (%s)", error)
                    self._stopping.wait(self.retry_seconds)
        except BaseException as error:
            loop.call_soon_threadsafe(_fail, started, error)
            raise
        finally:
            connection.close()

    def _read_after(
        self,
        connection: sqlite3.Connection,
        last: int,
        loop: asyncio.AbstractEventLoop,
        batches: asyncio.Queue[list[_Row]],
    ) -> int:
        """Every event after rowid `last`, handed over; the rowid of the last one."""
        while True:
            rows: list[_Row] = connection.execute(
                "SELECT rowid, game_id, seq, log_seq, visible_to, data FROM events "
                "WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (last, BATCH),
            ).fetchall()
            if not rows:
                return last
            last = rows[-1][0]
            loop.call_soon_threadsafe(batches.put_nowait, rows)
            if len(rows) < BATCH:
                return last


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _fail(future: asyncio.Future[None], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)
