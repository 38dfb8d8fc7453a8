"""The embedded store's persisted queries (api/persisted.py): documents kept by their
SHA-256, at most `keep` of them, the oldest dropped first."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

QUERIES_SCHEMA = """
CREATE TABLE IF NOT EXISTS persisted_queries (
    hash TEXT PRIMARY KEY,
    document TEXT NOT NULL,
    registered_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS persisted_queries_age ON persisted_queries (registered_at, hash);
"""


class SqliteQueries:
    """Mixed into SqliteStore, whose thread runs these (`_run`)."""

    async def _run(self, function: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def persisted_query(self, sha256: str) -> str | None:
        def read(c: sqlite3.Connection) -> str | None:
            row = c.execute(
                "SELECT document FROM persisted_queries WHERE hash = ?", (sha256,)
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._run(read)

    async def persist_query(self, sha256: str, document: str, now: float, keep: int) -> None:
        def write(c: sqlite3.Connection) -> None:
            c.execute("BEGIN IMMEDIATE")
            try:
                c.execute(
                    "INSERT OR IGNORE INTO persisted_queries (hash, document, registered_at) "
                    "VALUES (?, ?, ?)",
                    (sha256, document, now),
                )
                (kept,) = c.execute("SELECT count(*) FROM persisted_queries").fetchone()
                if kept > keep:
                    c.execute(
                        "DELETE FROM persisted_queries WHERE hash IN (SELECT hash FROM "
                        "persisted_queries ORDER BY registered_at, hash LIMIT ?)",
                        (kept - keep,),
                    )
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise

        await self._run(write)
