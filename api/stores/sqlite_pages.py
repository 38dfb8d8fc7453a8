"""The embedded store's reads for paging backwards and counting (api/paging.py): the games
newer than one, a game's events before one, and how many of each there are."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from api.stores.base import GameRecord, StoredEvent
from api.stores.sqlite_rows import row_to_record

T = TypeVar("T")


def listing_filter(status: str | None, variant: str | None) -> tuple[list[str], list[Any]]:
    """The WHERE clauses (and their values) of the games listing's filters."""
    clauses: list[str] = []
    values: list[Any] = []
    if status is not None:
        clauses.append("status = ?")
        values.append(status)
    if variant is not None:
        clauses.append("variant = ?")
        values.append(variant)
    return clauses, values


def _where(clauses: list[str]) -> str:
    return f"WHERE {' AND '.join(clauses)}" if clauses else ""


class SqlitePages:
    """Mixed into SqliteStore, whose thread runs these reads (`_run`)."""

    async def _run(self, function: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def newer_games(
        self, status: str | None, variant: str | None, than: str | None, limit: int
    ) -> list[GameRecord]:
        def read(c: sqlite3.Connection) -> list[GameRecord]:
            clauses, values = listing_filter(status, variant)
            if than is not None:
                anchor = c.execute("SELECT created_at FROM games WHERE id = ?", (than,)).fetchone()
                if anchor is None:
                    return []
                clauses.append("(created_at > ? OR (created_at = ? AND id > ?))")
                values += [anchor[0], anchor[0], than]
            rows = c.execute(
                f"SELECT * FROM games {_where(clauses)} ORDER BY created_at, id LIMIT ?",
                (*values, limit),
            ).fetchall()
            return [row_to_record(row) for row in rows]

        return await self._run(read)

    async def count_games(self, status: str | None, variant: str | None) -> int:
        def read(c: sqlite3.Connection) -> int:
            clauses, values = listing_filter(status, variant)
            row = c.execute(f"SELECT count(*) FROM games {_where(clauses)}", values).fetchone()
            return int(row[0])

        return await self._run(read)

    async def events_before(
        self, game_id: str, viewer: int | None, before: int, limit: int
    ) -> list[StoredEvent]:
        def read(c: sqlite3.Connection) -> list[StoredEvent]:
            rows = c.execute(
                "SELECT seq, log_seq, visible_to, data FROM events "
                "WHERE game_id = ? AND seq < ? AND (visible_to IS NULL OR visible_to = ?) "
                "ORDER BY seq DESC LIMIT ?",
                (game_id, before, -2 if viewer is None else viewer, limit),
            ).fetchall()
            return [
                StoredEvent(r["seq"], r["log_seq"], r["visible_to"], json.loads(r["data"]))
                for r in rows
            ]

        return await self._run(read)

    async def count_events(self, game_id: str, viewer: int | None) -> int:
        def read(c: sqlite3.Connection) -> int:
            row = c.execute(
                "SELECT count(*) FROM events "
                "WHERE game_id = ? AND (visible_to IS NULL OR visible_to = ?)",
                (game_id, -2 if viewer is None else viewer),
            ).fetchone()
            return int(row[0])

        return await self._run(read)
