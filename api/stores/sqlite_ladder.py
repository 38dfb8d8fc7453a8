"""The embedded ladder store: a `ladders` table in the games' SQLite file, one row per ladder
(its record as JSON) with its version beside it; each write is one statement over the
version it replaces."""

from __future__ import annotations

import json
import sqlite3

from api.ladder.records import LadderRecord
from api.stores.side_stores import SqliteSideStore

SCHEMA = """
CREATE TABLE IF NOT EXISTS ladders (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data TEXT NOT NULL
)
"""


class SqliteLadderStore(SqliteSideStore):
    WHAT = "ladder"

    def _create(self, connection: sqlite3.Connection) -> None:
        connection.execute(SCHEMA)

    async def ladder(self, ladder_id: str) -> LadderRecord | None:
        def read(c: sqlite3.Connection) -> LadderRecord | None:
            row = c.execute("SELECT data FROM ladders WHERE id = ?", (ladder_id,)).fetchone()
            return None if row is None else LadderRecord.from_plain(json.loads(row[0]))

        return await self._run(read)

    async def write(self, record: LadderRecord) -> bool:
        data = json.dumps(record.to_plain(), separators=(",", ":"))

        def write(c: sqlite3.Connection) -> bool:
            if record.version == 1:
                inserted = c.execute(
                    "INSERT OR IGNORE INTO ladders (id, version, data) VALUES (?, 1, ?)",
                    (record.id, data),
                )
                return inserted.rowcount == 1
            changed = c.execute(
                "UPDATE ladders SET version = ?, data = ? WHERE id = ? AND version = ?",
                (record.version, data, record.id, record.version - 1),
            )
            return changed.rowcount == 1

        return await self._run(write)
