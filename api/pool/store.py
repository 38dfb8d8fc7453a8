"""The seek store's interface (SQLite and MongoDB, beside the games' store).

Matched once: a pass claims each seek of a table by one conditional write of its state from
`open` to `matched:<table>`; a table some of whose seeks another instance (or a cancel, or
expiry) took first is rolled back (`release`: its claimed seeks back to `open`, only those
still claimed by this table). So with several instances on one database each seek sits at one
table at most, and a table is opened only when all its seeks are its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from api.pool.records import SeekRecord

Table = tuple[str, Sequence[str]]  # a table's id (its game's) and its seeks' ids


class SeekStore(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def add(self, seek: SeekRecord, most: int) -> bool:
        """Store `seek` unless its account has `most` open seeks already (False)."""
        ...

    async def seek(self, seek_id: str) -> SeekRecord | None: ...

    async def seeks_of(self, account: str, limit: int) -> list[SeekRecord]:
        """The account's seeks, newest first."""
        ...

    async def open_seeks(self, now: float, limit: int) -> list[SeekRecord]:
        """The open seeks not expired at `now`, oldest first."""
        ...

    async def set_state(self, seek_id: str, state: str, now: float) -> bool:
        """An open seek's new state (cancelled, expired); False if it was not open."""
        ...

    async def claim(self, tables: Sequence[Table], now: float) -> list[str]:
        """Each table's seeks matched to it if every one of them is open (a table some of
        whose seeks were taken first is rolled back: its seeks stay open); the tables
        claimed whole."""
        ...

    async def release(self, seek_ids: Sequence[str], table: str) -> None:
        """The seeks still matched to `table` open again (a table whose claim partly failed)."""
        ...

    async def mark_started(self, table: str) -> None:
        """The table's game is started: its seeks say so."""
        ...

    async def unstarted(self, matched_before: float, limit: int) -> list[SeekRecord]:
        """Matched seeks whose table's game was not started, matched before the time."""
        ...

    async def expire(self, now: float) -> int:
        """Open seeks past their expiry marked expired; how many."""
        ...


def seek_store_for(store: object) -> SeekStore:
    """The seek store beside a game store: a table in the same SQLite file, or a collection
    in the same MongoDB database, with the same write concern."""
    from api.stores.mongo import MongoStore
    from api.stores.mongo_seeks import MongoSeekStore
    from api.stores.sqlite import SqliteStore
    from api.stores.sqlite_seeks import SqliteSeekStore

    if isinstance(store, MongoStore):
        return MongoSeekStore(store.uri, store.write_concern.document.get("w", "majority"))
    if isinstance(store, SqliteStore):
        return SqliteSeekStore(store.path)
    raise TypeError(f"no seek store goes with {type(store).__name__}")
