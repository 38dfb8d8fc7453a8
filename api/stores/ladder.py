"""The ladder store's interface: one record per ladder, written whole under a version
(compare-and-set), beside the games' tables (api/ladder/records.py).

A pass of the ladder (api/ladder/service.py) writes the games it will create into the record
over the version it read, before it creates any: of two instances pairing at once one write
wins, the other's tables are never created; the games' ids come from their numbers in the
record, so a game whose instance died before it was created is created by the next pass, once.
"""

from __future__ import annotations

from typing import Protocol

from api.ladder.records import LadderRecord


class LadderStore(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def ladder(self, ladder_id: str) -> LadderRecord | None: ...

    async def write(self, record: LadderRecord) -> bool:
        """Write `record` if the stored one's version is `record.version - 1` (none stored
        for version 1); False, and nothing written, if another write came first."""
        ...


def ladder_store_for(store: object) -> LadderStore:
    """The ladder store beside a game store: a table in the same SQLite file, or a
    collection in the same MongoDB database, with the same write concern."""
    from api.stores.mongo import MongoStore
    from api.stores.mongo_ladder import MongoLadderStore
    from api.stores.sqlite import SqliteStore
    from api.stores.sqlite_ladder import SqliteLadderStore

    if isinstance(store, MongoStore):
        return MongoLadderStore(store.uri, store.write_concern.document.get("w", "majority"))
    if isinstance(store, SqliteStore):
        return SqliteLadderStore(store.path)
    raise TypeError(f"no ladder store goes with {type(store).__name__}")
