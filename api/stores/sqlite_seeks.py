"""The embedded seek store: a table of its own in the games' SQLite file, one row per seek
(its record as JSON) with the columns a pass filters on beside it. Every change of state is
one `UPDATE ... WHERE state = ?`: a seek another process claimed, cancelled or expired first
changes no row (several processes may share the data folder)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from api.pool.records import OPEN, SeekRecord, matched
from api.pool.store import Table
from api.stores.side_stores import SqliteSideStore

SCHEMA = """
CREATE TABLE IF NOT EXISTS seeks (
    id TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    state TEXT NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL,
    matched_at REAL,
    started INTEGER NOT NULL DEFAULT 0,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS seeks_by_state ON seeks (state, created);
CREATE INDEX IF NOT EXISTS seeks_by_account ON seeks (account, created);
"""
COLUMNS = "id, account, state, created, expires, matched_at, started, data"


def _record(row: tuple[object, ...]) -> SeekRecord:
    data = json.loads(str(row[7]))
    data.update(state=row[2], matched_at=row[5], started=bool(row[6]))
    return SeekRecord.from_plain(data)


class SqliteSeekStore(SqliteSideStore):
    WHAT = "seek"

    def _create(self, connection: sqlite3.Connection) -> None:
        connection.executescript(SCHEMA)

    async def add(self, seek: SeekRecord, most: int) -> bool:
        data = json.dumps(seek.to_plain(), separators=(",", ":"))

        def write(c: sqlite3.Connection) -> bool:
            # One statement: the count and the insert cannot be split by another writer.
            inserted = c.execute(
                f"INSERT INTO seeks ({COLUMNS}) SELECT ?, ?, ?, ?, ?, NULL, 0, ? "
                "WHERE (SELECT COUNT(*) FROM seeks WHERE account = ? AND state = ?) < ?",
                (
                    seek.id,
                    seek.account,
                    seek.state,
                    seek.created,
                    seek.expires,
                    data,
                    seek.account,
                    OPEN,
                    most,
                ),
            )
            return inserted.rowcount == 1

        return await self._run(write)

    async def seek(self, seek_id: str) -> SeekRecord | None:
        def read(c: sqlite3.Connection) -> SeekRecord | None:
            row = c.execute(f"SELECT {COLUMNS} FROM seeks WHERE id = ?", (seek_id,)).fetchone()
            return None if row is None else _record(row)

        return await self._run(read)

    async def _select(self, where: str, values: tuple[object, ...]) -> list[SeekRecord]:
        def read(c: sqlite3.Connection) -> list[SeekRecord]:
            rows = c.execute(f"SELECT {COLUMNS} FROM seeks WHERE {where}", values).fetchall()
            return [_record(row) for row in rows]

        return await self._run(read)

    async def seeks_of(self, account: str, limit: int) -> list[SeekRecord]:
        where = "account = ? ORDER BY created DESC, id DESC LIMIT ?"
        return await self._select(where, (account, limit))

    async def open_seeks(self, now: float, limit: int) -> list[SeekRecord]:
        where = "state = ? AND expires > ? ORDER BY created, id LIMIT ?"
        return await self._select(where, (OPEN, now, limit))

    async def unstarted(self, matched_before: float, limit: int) -> list[SeekRecord]:
        where = (
            "state LIKE 'matched:%' AND started = 0 AND matched_at < ? ORDER BY matched_at LIMIT ?"
        )
        return await self._select(where, (matched_before, limit))

    async def _update(self, sql: str, values: tuple[object, ...]) -> int:
        return await self._run(lambda c: c.execute(sql, values).rowcount)

    async def set_state(self, seek_id: str, state: str, now: float) -> bool:
        sql = "UPDATE seeks SET state = ? WHERE id = ? AND state = ?"
        return await self._update(sql, (state, seek_id, OPEN)) == 1

    async def claim(self, tables: Sequence[Table], now: float) -> list[str]:
        def write(c: sqlite3.Connection) -> list[str]:
            # One transaction for the pass (one sync to disk, not one a seek), a savepoint
            # a table: a table not claimed whole is rolled back alone.
            sql = "UPDATE seeks SET state = ?, matched_at = ? WHERE id = ? AND state = ?"
            claimed = []
            c.execute("BEGIN IMMEDIATE")
            try:
                for table, seek_ids in tables:
                    c.execute("SAVEPOINT table_claim")
                    taken = [
                        c.execute(sql, (matched(table), now, seek_id, OPEN)).rowcount
                        for seek_id in seek_ids
                    ]
                    if all(taken):
                        claimed.append(table)
                        c.execute("RELEASE table_claim")
                    else:
                        c.execute("ROLLBACK TO table_claim")
                        c.execute("RELEASE table_claim")
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
            return claimed

        return await self._run(write)

    async def release(self, seek_ids: Sequence[str], table: str) -> None:
        def write(c: sqlite3.Connection) -> None:
            sql = "UPDATE seeks SET state = ?, matched_at = NULL WHERE id = ? AND state = ?"
            for seek_id in seek_ids:
                c.execute(sql, (OPEN, seek_id, matched(table)))

        await self._run(write)

    async def mark_started(self, table: str) -> None:
        await self._update("UPDATE seeks SET started = 1 WHERE state = ?", (matched(table),))

    async def expire(self, now: float) -> int:
        sql = "UPDATE seeks SET state = 'expired' WHERE state = ? AND expires <= ?"
        return await self._update(sql, (OPEN, now))
