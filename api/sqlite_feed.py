"""The embedded store's change feed: with several processes on one SQLite file (`risiko serve
--workers N`, or instances sharing a data folder), every event any of them commits reaches
the subscribers of every process, in commit order, none lost and none twice.

SQLite lets one writer commit at a time, and the events table's rowid grows by one with every
event inserted (no event is ever deleted), so its rowid order is the commit order and what a
reader sees is always a prefix of it. The feed reads the events after the last one it passed,
on the store's own thread and connection (one reader, so one order): right after each commit
of this process, and whenever `PRAGMA data_version` on that connection, which changes only
when another connection has committed, says another process wrote. It asks that every
`poll_seconds` while other processes write (unless a commit of this process has just read
everything), less and less often (up to `idle_poll_seconds`) while they do not: a process
alone never finds anything, and costs nearly nothing.

This process's own events it publishes as they were in memory before their commit (`expect`),
instead of decoding them again, once that commit is known to be made: another process's
commit may take the same numbers."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass

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
        self.store = store
        self.broker = broker
        self.poll_seconds = poll_seconds
        self.idle_poll_seconds = idle_poll_seconds
        self.retry_seconds = 1.0
        self.ready = asyncio.Event()  # set once the feed knows where it starts
        self._publisher = StoredEventPublisher(store, broker)
        self._hints: dict[tuple[str, int], tuple[RecordedEvent, _Commit]] = {}
        self._batches: asyncio.Queue[list[_Row]] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        # On the store's thread only: the last event read, when, and the connection's
        # data_version.
        self._last = 0
        self._read_at = 0.0
        self._version: int | None = None

    def expect(
        self, game_id: str, events: Sequence[RecordedEvent], accounts: Sequence[str]
    ) -> None:
        """This process is about to commit `events` of `game_id`: once committed, the feed
        publishes them as they are (api/publishing.py's Publisher tells it)."""
        commit = _Commit(accounts, asyncio.get_running_loop().create_future())
        for recorded in events:
            self._hints[(game_id, recorded.seq)] = (recorded, commit)

    def committed(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        """They are committed (the store's thread has read them already)."""
        self._settle(game_id, events, committed=True)

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
        self._loop = asyncio.get_running_loop()
        self._batches = asyncio.Queue()
        await self.store.run(self._start)
        self.store.after_commit = self._read
        publishing = asyncio.create_task(self._publish_batches())
        self.ready.set()
        try:
            pause = self.poll_seconds
            while True:
                await asyncio.sleep(pause)
                if time.monotonic() - self._read_at < pause:
                    continue  # this process committed meanwhile, and read what others did
                try:
                    written = await self.store.run(self._read_if_written)
                except sqlite3.Error as error:  # where it stands stays: nothing is skipped
                    logger.warning("the embedded store's feed could not read (%s)", error)
                    await asyncio.sleep(self.retry_seconds)
                    continue
                # Others write: ask again soon; else less and less often.
                pause = self.poll_seconds if written else min(pause * 2, self.idle_poll_seconds)
        finally:
            self.ready.clear()
            self.store.after_commit = None
            publishing.cancel()

    async def _publish_batches(self) -> None:
        while True:
            for row in await self._batches.get():
                try:
                    await self._publish(row)
                except Exception:  # one event that cannot be published stops no other
                    logger.exception("could not publish event %s of game %s", row[2], row[1])

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

    # ------------------------------------------------------------ on the store's thread

    def _start(self, connection: sqlite3.Connection) -> None:
        """From the newest event now on."""
        (self._last,) = connection.execute("SELECT COALESCE(MAX(rowid), 0) FROM events").fetchone()
        (self._version,) = connection.execute("PRAGMA data_version").fetchone()

    def _read_if_written(self, connection: sqlite3.Connection) -> bool:
        """Whether another connection has committed since the last look (and if so, what
        it wrote, handed over)."""
        (version,) = connection.execute("PRAGMA data_version").fetchone()
        if version == self._version:
            return False
        self._version = version
        self._read(connection)
        return True

    def _read(self, connection: sqlite3.Connection) -> None:
        """Every event after the last one read, handed to the event loop."""
        loop = self._loop
        if loop is None:
            return
        self._read_at = time.monotonic()
        while True:
            rows: list[_Row] = connection.execute(
                "SELECT rowid, game_id, seq, log_seq, visible_to, data FROM events "
                "WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (self._last, BATCH),
            ).fetchall()
            if not rows:
                return
            self._last = rows[-1][0]
            loop.call_soon_threadsafe(self._batches.put_nowait, rows)
            if len(rows) < BATCH:
                return
