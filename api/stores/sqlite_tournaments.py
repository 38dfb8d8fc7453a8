"""The embedded tournament store: a table of its own in the games' SQLite file, one row per
tournament (its record as JSON) with the record's version beside it for compare-and-set, and
an index from each table's game to its tournament (written with the record that seats it: a
finishing game asks it while the game's lock is held).

Like the account store it has a connection and a thread of its own; each write is one
statement, so several processes sharing the data folder see each other's writes at once and
a write over a moved version changes no row."""

from __future__ import annotations

import json
import sqlite3
from typing import TypeVar

from api.stores.side_stores import SqliteSideStore
from api.stores.tournaments import TournamentExists
from api.tournaments.records import TournamentRecord

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data TEXT NOT NULL
)
"""
GAMES_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_games (
    game_id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL
)
"""


def _record(data: str) -> TournamentRecord:
    return TournamentRecord.from_plain(json.loads(data))


def _data(record: TournamentRecord) -> str:
    return json.dumps(record.to_plain(), separators=(",", ":"))


class SqliteTournamentStore(SqliteSideStore):
    WHAT = "tournament"

    def _create(self, connection: sqlite3.Connection) -> None:
        connection.execute(SCHEMA)
        connection.execute("BEGIN IMMEDIATE")
        try:
            indexed = connection.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tournament_games'"
            ).fetchone()
            connection.execute(GAMES_SCHEMA)
            if indexed is None:  # a file of an earlier version: its tables' games indexed once
                for (data,) in connection.execute("SELECT data FROM tournaments").fetchall():
                    _index_games(connection, _record(data))
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    async def create_tournament(self, record: TournamentRecord) -> None:
        def write(c: sqlite3.Connection) -> None:
            try:
                c.execute(
                    "INSERT INTO tournaments (id, version, data) VALUES (?, ?, ?)",
                    (record.id, record.version, _data(record)),
                )
            except sqlite3.IntegrityError:
                raise TournamentExists(record.id) from None

        await self._run(write)

    async def tournament(self, tournament_id: str) -> TournamentRecord | None:
        def read(c: sqlite3.Connection) -> TournamentRecord | None:
            row = c.execute(
                "SELECT data FROM tournaments WHERE id = ?", (tournament_id,)
            ).fetchone()
            return None if row is None else _record(row[0])

        return await self._run(read)

    async def tournaments(self, after_id: str | None, limit: int) -> list[TournamentRecord]:
        def read(c: sqlite3.Connection) -> list[TournamentRecord]:
            rows = c.execute(
                "SELECT data FROM tournaments WHERE id > ? ORDER BY id LIMIT ?",
                (after_id or "", limit),
            ).fetchall()
            return [_record(row[0]) for row in rows]

        return await self._run(read)

    async def tournament_of_game(self, game_id: str) -> str | None:
        def read(c: sqlite3.Connection) -> str | None:
            row = c.execute(
                "SELECT tournament_id FROM tournament_games WHERE game_id = ?", (game_id,)
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._run(read)

    async def replace_tournament(self, record: TournamentRecord) -> bool:
        def write(c: sqlite3.Connection) -> bool:
            c.execute("BEGIN IMMEDIATE")
            try:
                changed = c.execute(
                    "UPDATE tournaments SET version = ?, data = ? WHERE id = ? AND version = ?",
                    (record.version, _data(record), record.id, record.version - 1),
                ).rowcount
                if changed == 1:
                    _index_games(c, record)
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
            return changed == 1

        return await self._run(write)


def _index_games(connection: sqlite3.Connection, record: TournamentRecord) -> None:
    connection.executemany(
        "INSERT OR IGNORE INTO tournament_games (game_id, tournament_id) VALUES (?, ?)",
        [(table.game, record.id) for round_ in record.played for table in round_.tables],
    )
