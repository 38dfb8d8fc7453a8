"""The embedded rating store: tables of its own in the games' SQLite file (rated games, the
accounts' rating history, their current ratings). An entry and its projection are written in
one transaction; the unique keys make a second writer of the same entry lose."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from api.ratings.records import HistoryEntry, RatedGame, RatingRow, Standing
from api.stores.side_stores import SqliteSideStore
from competition.ratings import PROVISIONAL_SIGMA, Rating

SCHEMA = """
CREATE TABLE IF NOT EXISTS rated_games (
    id TEXT PRIMARY KEY,
    at REAL NOT NULL,
    plan TEXT,
    done INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS rated_games_undone ON rated_games (done, at);
CREATE TABLE IF NOT EXISTS rating_history (
    account TEXT NOT NULL,
    variant TEXT NOT NULL,
    speed TEXT NOT NULL,
    number INTEGER NOT NULL,
    game TEXT NOT NULL,
    at REAL NOT NULL,
    bot INTEGER NOT NULL,
    before_mu REAL NOT NULL,
    before_sigma REAL NOT NULL,
    after_mu REAL NOT NULL,
    after_sigma REAL NOT NULL,
    PRIMARY KEY (account, variant, speed, number),
    UNIQUE (account, variant, speed, game)
);
CREATE TABLE IF NOT EXISTS ratings (
    account TEXT NOT NULL,
    variant TEXT NOT NULL,
    speed TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ordinal REAL NOT NULL,
    games INTEGER NOT NULL,
    bot INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (account, variant, speed)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (variant, speed, bot, ordinal DESC);
"""
HISTORY = (
    "account, variant, speed, number, game, at, bot, before_mu, before_sigma, after_mu, after_sigma"
)
PROJECT = """
INSERT INTO ratings (account, variant, speed, mu, sigma, ordinal, games, bot, at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (account, variant, speed) DO UPDATE SET
    mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,
    games = excluded.games, bot = excluded.bot, at = excluded.at
WHERE excluded.games > ratings.games
"""
ROW = "account, variant, speed, mu, sigma, games, bot, at"


def _entry(row: Any) -> HistoryEntry:
    account, variant, speed, number, game, at, bot, bmu, bsigma, amu, asigma = row
    return HistoryEntry(
        account,
        variant,
        speed,
        number,
        game,
        at,
        bool(bot),
        Rating(bmu, bsigma),
        Rating(amu, asigma),
    )


def _row(row: Any) -> RatingRow:
    account, variant, speed, mu, sigma, games, bot, at = row
    return RatingRow(account, variant, speed, Rating(mu, sigma), games, bool(bot), at)


def _project(c: sqlite3.Connection, entry: HistoryEntry) -> None:
    after = entry.after
    c.execute(
        PROJECT,
        (
            *(entry.account, entry.variant, entry.speed),
            *(after.mu, after.sigma, after.ordinal, entry.number, int(entry.bot), entry.at),
        ),
    )


class SqliteRatingStore(SqliteSideStore):
    WHAT = "rating"

    def _create(self, connection: sqlite3.Connection) -> None:
        connection.executescript(SCHEMA)

    async def note(self, game_id: str, at: float) -> None:
        await self._run(
            lambda c: c.execute(
                "INSERT OR IGNORE INTO rated_games (id, at) VALUES (?, ?)", (game_id, at)
            )
        )

    async def claim(self, game: RatedGame) -> RatedGame:
        plan = json.dumps(game.to_plain(), separators=(",", ":"))

        def write(c: sqlite3.Connection) -> tuple[str, int]:
            c.execute(
                "INSERT OR IGNORE INTO rated_games (id, at) VALUES (?, ?)", (game.game, game.at)
            )
            c.execute(
                "UPDATE rated_games SET plan = ? WHERE id = ? AND plan IS NULL", (plan, game.game)
            )
            row = c.execute(
                "SELECT plan, done FROM rated_games WHERE id = ?", (game.game,)
            ).fetchone()
            return str(row[0]), int(row[1])

        stored, done = await self._run(write)
        return RatedGame.from_plain(game.game, json.loads(stored), bool(done))

    async def rated_game(self, game_id: str) -> RatedGame | None:
        row = await self._run(
            lambda c: c.execute(
                "SELECT plan, done FROM rated_games WHERE id = ? AND plan IS NOT NULL", (game_id,)
            ).fetchone()
        )
        return (
            None if row is None else RatedGame.from_plain(game_id, json.loads(row[0]), bool(row[1]))
        )

    async def mark_done(self, game_id: str) -> None:
        await self._run(
            lambda c: c.execute("UPDATE rated_games SET done = 1 WHERE id = ?", (game_id,))
        )

    async def undone(self, limit: int) -> list[str]:
        rows = await self._run(
            lambda c: c.execute(
                "SELECT id FROM rated_games WHERE done = 0 ORDER BY at, id LIMIT ?", (limit,)
            ).fetchall()
        )
        return [str(row[0]) for row in rows]

    async def standing(self, account: str, variant: str, speed: str) -> Standing:
        row = await self._run(
            lambda c: c.execute(
                "SELECT after_mu, after_sigma, number FROM rating_history "
                "WHERE account = ? AND variant = ? AND speed = ? ORDER BY number DESC LIMIT 1",
                (account, variant, speed),
            ).fetchone()
        )
        return Standing() if row is None else Standing(Rating(row[0], row[1]), row[2])

    async def entry_of(
        self, account: str, variant: str, speed: str, game_id: str
    ) -> HistoryEntry | None:
        row = await self._run(
            lambda c: c.execute(
                f"SELECT {HISTORY} FROM rating_history "
                "WHERE account = ? AND variant = ? AND speed = ? AND game = ?",
                (account, variant, speed, game_id),
            ).fetchone()
        )
        return None if row is None else _entry(row)

    async def add_entry(self, entry: HistoryEntry) -> bool:
        values = (
            *(entry.account, entry.variant, entry.speed, entry.number, entry.game, entry.at),
            *(int(entry.bot), entry.before.mu, entry.before.sigma),
            *(entry.after.mu, entry.after.sigma),
        )

        def write(c: sqlite3.Connection) -> bool:
            c.execute("BEGIN IMMEDIATE")
            try:
                c.execute(
                    f"INSERT INTO rating_history ({HISTORY}) VALUES ({', '.join('?' * 11)})", values
                )
            except sqlite3.IntegrityError:
                c.execute("ROLLBACK")
                return False
            try:
                _project(c, entry)
            except BaseException:
                c.execute("ROLLBACK")
                raise
            c.execute("COMMIT")
            return True

        return await self._run(write)

    async def project(self, entry: HistoryEntry) -> None:
        await self._run(lambda c: _project(c, entry))

    async def ratings(self, account: str) -> list[RatingRow]:
        rows = await self._run(
            lambda c: c.execute(
                f"SELECT {ROW} FROM ratings WHERE account = ? ORDER BY variant, speed", (account,)
            ).fetchall()
        )
        return [_row(row) for row in rows]

    async def history(
        self, account: str, variant: str, speed: str, below: int | None, limit: int
    ) -> list[HistoryEntry]:
        rows = await self._run(
            lambda c: c.execute(
                f"SELECT {HISTORY} FROM rating_history WHERE account = ? AND variant = ? "
                "AND speed = ? AND number < ? ORDER BY number DESC LIMIT ?",
                (account, variant, speed, below if below is not None else 2**62, limit),
            ).fetchall()
        )
        return [_entry(row) for row in rows]

    async def leaderboard(
        self, variant: str, speed: str, bot: bool, provisional: bool, offset: int, limit: int
    ) -> list[RatingRow]:
        most_sigma = 1e9 if provisional else PROVISIONAL_SIGMA
        rows = await self._run(
            lambda c: c.execute(
                f"SELECT {ROW} FROM ratings WHERE variant = ? AND speed = ? AND bot = ? "
                "AND sigma <= ? ORDER BY ordinal DESC, account LIMIT ? OFFSET ?",
                (variant, speed, int(bot), most_sigma, limit, offset),
            ).fetchall()
        )
        return [_row(row) for row in rows]
