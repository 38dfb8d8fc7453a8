"""The embedded challenge store: a `challenges` table in the games' SQLite file, one row per
challenge (its record as JSON, its version and status beside it), and a row per party in
`challenge_parties` to find an account's challenges. Each write is one statement (or one
transaction), so processes sharing the file see each other's writes at once, and a write
over a moved version changes no row."""

from __future__ import annotations

import json
import sqlite3

from api.challenges.records import ChallengeRecord
from api.challenges.store import ChallengeExists
from api.stores.side_stores import SqliteSideStore

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS challenges (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    data TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS challenge_parties (
    account TEXT NOT NULL,
    challenge TEXT NOT NULL,
    PRIMARY KEY (account, challenge)
)""",
)


def _data(record: ChallengeRecord) -> str:
    return json.dumps(record.to_plain(), separators=(",", ":"))


class SqliteChallengeStore(SqliteSideStore):
    WHAT = "challenge"

    def _create(self, connection: sqlite3.Connection) -> None:
        for statement in SCHEMA:
            connection.execute(statement)

    async def create_challenge(self, record: ChallengeRecord) -> None:
        def write(c: sqlite3.Connection) -> None:
            try:
                with c:  # one transaction: the challenge and its parties, or nothing
                    c.execute("BEGIN IMMEDIATE")
                    c.execute(
                        "INSERT INTO challenges (id, version, status, data) VALUES (?, ?, ?, ?)",
                        (record.id, record.version, record.status.value, _data(record)),
                    )
                    c.executemany(
                        "INSERT INTO challenge_parties (account, challenge) VALUES (?, ?)",
                        [(account, record.id) for account in record.parties],
                    )
            except sqlite3.IntegrityError:
                raise ChallengeExists(record.id) from None

        await self._run(write)

    async def challenge(self, challenge_id: str) -> ChallengeRecord | None:
        def read(c: sqlite3.Connection) -> ChallengeRecord | None:
            row = c.execute("SELECT data FROM challenges WHERE id = ?", (challenge_id,)).fetchone()
            return None if row is None else ChallengeRecord.from_plain(json.loads(row[0]))

        return await self._run(read)

    async def replace_challenge(self, record: ChallengeRecord) -> bool:
        def write(c: sqlite3.Connection) -> bool:
            changed = c.execute(
                "UPDATE challenges SET version = ?, status = ?, data = ? "
                "WHERE id = ? AND version = ?",
                (record.version, record.status.value, _data(record), record.id, record.version - 1),
            )
            return changed.rowcount == 1

        return await self._run(write)

    async def challenges_of(
        self, account: str, stored_open: bool, limit: int
    ) -> list[ChallengeRecord]:
        status = "AND c.status = 'open'" if stored_open else ""

        def read(c: sqlite3.Connection) -> list[ChallengeRecord]:
            rows = c.execute(
                "SELECT c.data FROM challenge_parties p JOIN challenges c ON c.id = p.challenge "
                f"WHERE p.account = ? {status} ORDER BY c.id DESC LIMIT ?",
                (account, limit),
            ).fetchall()
            return [ChallengeRecord.from_plain(json.loads(row[0])) for row in rows]

        return await self._run(read)
