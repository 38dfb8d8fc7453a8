"""The embedded store's reads for paging backwards and counting (api/paging.py): the games
newer than one, a game's events before one, and how many of each there are."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from api.stores.base import AccountRecordCounts, GameRecord, StoredEvent
from api.stores.sqlite_rows import read_events, readable_clause, row_to_record

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


def _source(account: str | None) -> tuple[str, list[Any]]:
    """The games read (FROM …): all of them, or those with a seat of `account` (an account
    has at most one seat in a game, so the join repeats none)."""
    if account is None:
        return "games", []
    return "games JOIN seats ON seats.game_id = games.id AND seats.account_id = ?", [account]


def read_games(
    c: sqlite3.Connection,
    status: str | None,
    variant: str | None,
    anchor: str | None,
    limit: int,
    *,
    older: bool,
    account: str | None = None,
) -> list[GameRecord]:
    """The listing's games from game `anchor` on (None: from its end), nearest first: the
    older ones (the listing's own order, newest first) or the newer ones."""
    clauses, values = listing_filter(status, variant)
    than, order = ("<", "DESC") if older else (">", "ASC")
    if anchor is not None:
        found = c.execute("SELECT created_at FROM games WHERE id = ?", (anchor,)).fetchone()
        if found is None:
            return []
        clauses.append(f"(created_at {than} ? OR (created_at = ? AND id {than} ?))")
        values += [found[0], found[0], anchor]
    source, joined = _source(account)
    rows = c.execute(
        f"SELECT games.* FROM {source} {_where(clauses)} "
        f"ORDER BY created_at {order}, id {order} LIMIT ?",
        (*joined, *values, limit),
    ).fetchall()
    return [row_to_record(row) for row in rows]


class SqlitePages:
    """Mixed into SqliteStore, whose thread runs these reads (`_run`)."""

    async def _run(self, function: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def newer_games(
        self,
        status: str | None,
        variant: str | None,
        than: str | None,
        limit: int,
        account: str | None = None,
    ) -> list[GameRecord]:
        return await self._run(
            lambda c: read_games(c, status, variant, than, limit, older=False, account=account)
        )

    async def count_games(
        self, status: str | None, variant: str | None, account: str | None = None
    ) -> int:
        def read(c: sqlite3.Connection) -> int:
            clauses, values = listing_filter(status, variant)
            source, joined = _source(account)
            row = c.execute(
                f"SELECT count(*) FROM {source} {_where(clauses)}", (*joined, *values)
            ).fetchone()
            return int(row[0])

        return await self._run(read)

    async def account_record(self, account: str) -> AccountRecordCounts:
        def read(c: sqlite3.Connection) -> AccountRecordCounts:
            played, finished, won = c.execute(
                "SELECT count(*), coalesce(sum(status = 'finished'), 0), coalesce(sum("
                "status = 'finished' AND json_extract(row, '$.winner') = seats.seat), 0) "
                "FROM games JOIN seats ON seats.game_id = games.id AND seats.account_id = ? "
                "WHERE status != 'lobby'",
                (account,),
            ).fetchone()
            return AccountRecordCounts(int(played), int(finished), int(won))

        return await self._run(read)

    async def events_before(
        self, game_id: str, viewer: int | None, before: int, limit: int
    ) -> list[StoredEvent]:
        preceding = ("seq < ? ORDER BY seq DESC", before)
        return await self._run(lambda c: read_events(c, game_id, viewer, preceding, limit))

    async def count_events(self, game_id: str, viewer: int | None) -> int:
        def read(c: sqlite3.Connection) -> int:
            readable, seats = readable_clause(viewer)
            row = c.execute(
                f"SELECT count(*) FROM events WHERE game_id = ? AND {readable}",
                (game_id, *seats),
            ).fetchone()
            return int(row[0])

        return await self._run(read)
