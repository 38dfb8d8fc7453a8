"""The embedded account store: tables of their own in the games' SQLite file.

It has a connection and a thread of its own (calls to SQLite are serialised on it), beside
the game store's; both write with `synchronous=FULL` in WAL mode, and SQLite's lock orders
their writes (a writer waits up to five seconds for the other). Each write is one statement,
or one immediate transaction for a compare-and-set: several processes sharing the data folder
see each other's writes at once.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from api.stores.accounts import AccountRecord, CredentialRecord, NameTaken, ThrottleState
from api.stores.side_stores import SqliteSideStore

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    password_hash TEXT,
    created_at REAL NOT NULL,
    bot INTEGER NOT NULL DEFAULT 0,
    disabled INTEGER NOT NULL DEFAULT 0,
    deleted_at REAL
);
CREATE TABLE IF NOT EXISTS credentials (
    token_hash TEXT PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at REAL NOT NULL,
    last_used_at REAL NOT NULL,
    expires_at REAL
);
CREATE INDEX IF NOT EXISTS credentials_of_account
    ON credentials (account_id, kind, created_at);
CREATE INDEX IF NOT EXISTS credentials_expiring ON credentials (expires_at)
    WHERE expires_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS credentials_used ON credentials (kind, last_used_at);
CREATE TABLE IF NOT EXISTS throttles (
    key TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    version INTEGER NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS throttles_expiring ON throttles (expires_at);
"""
ACCOUNT_COLUMNS = "id, key, name, password_hash, created_at, bot, disabled, deleted_at"
CREDENTIAL_COLUMNS = (
    "id, token_hash, account_id, kind, name, scopes, created_at, last_used_at, expires_at"
)


def _account(row: Sequence[Any]) -> AccountRecord:
    id_, key, name, password_hash, created_at, bot, disabled, deleted_at = row
    return AccountRecord(
        id_, name, key, password_hash, created_at, bool(bot), bool(disabled), deleted_at
    )


def _credential(row: Sequence[Any]) -> CredentialRecord:
    id_, token_hash, account_id, kind, name, scopes, created_at, last_used_at, expires_at = row
    return CredentialRecord(
        id_,
        token_hash,
        account_id,
        kind,
        name,
        tuple(json.loads(scopes)),
        created_at,
        last_used_at,
        expires_at,
    )


class SqliteAccountStore(SqliteSideStore):
    WHAT = "account"

    def _create(self, connection: sqlite3.Connection) -> None:
        with _immediate(connection):
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)

    async def create_account(self, record: AccountRecord) -> None:
        def write(c: sqlite3.Connection) -> None:
            try:
                c.execute(
                    f"INSERT INTO accounts ({ACCOUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    _account_row(record),
                )
            except sqlite3.IntegrityError:
                raise NameTaken(record.key) from None

        await self._run(write)

    async def account(self, account_id: str) -> AccountRecord | None:
        return await self._one_account("id = ?", account_id)

    async def account_by_key(self, key: str) -> AccountRecord | None:
        return await self._one_account("key = ?", key)

    async def _one_account(self, where: str, value: str) -> AccountRecord | None:
        def read(c: sqlite3.Connection) -> AccountRecord | None:
            row = c.execute(
                f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE {where}", (value,)
            ).fetchone()
            return None if row is None else _account(row)

        return await self._run(read)

    async def accounts(self, after_key: str | None, limit: int) -> list[AccountRecord]:
        def read(c: sqlite3.Connection) -> list[AccountRecord]:
            rows = c.execute(
                f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE key > ? ORDER BY key LIMIT ?",
                (after_key or "", limit),
            ).fetchall()
            return [_account(row) for row in rows]

        return await self._run(read)

    async def replace_account(self, record: AccountRecord, expected: AccountRecord) -> bool:
        if record.id != expected.id:
            return False

        def write(c: sqlite3.Connection) -> bool:
            columns = ACCOUNT_COLUMNS.split(", ")
            changes = ", ".join(f"{column} = ?" for column in columns[1:])
            unchanged = " AND ".join(f"{column} IS ?" for column in columns)
            changed = c.execute(
                f"UPDATE accounts SET {changes} WHERE {unchanged}",
                (*_account_row(record)[1:], *_account_row(expected)),
            )
            return changed.rowcount == 1

        return await self._run(write)

    async def add_credential(self, record: CredentialRecord) -> None:
        def write(c: sqlite3.Connection) -> None:
            c.execute(
                f"INSERT INTO credentials ({CREDENTIAL_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    record.token_hash,
                    record.account_id,
                    record.kind,
                    record.name,
                    json.dumps(list(record.scopes)),
                    record.created_at,
                    record.last_used_at,
                    record.expires_at,
                ),
            )

        await self._run(write)

    async def credential(self, token_hash: str) -> tuple[CredentialRecord, AccountRecord] | None:
        def read(c: sqlite3.Connection) -> tuple[CredentialRecord, AccountRecord] | None:
            columns = ", ".join(f"c.{name}" for name in CREDENTIAL_COLUMNS.split(", "))
            account_columns = ", ".join(f"a.{name}" for name in ACCOUNT_COLUMNS.split(", "))
            row = c.execute(
                f"SELECT {columns}, {account_columns} FROM credentials c "
                "JOIN accounts a ON a.id = c.account_id WHERE c.token_hash = ?",
                (token_hash,),
            ).fetchone()
            return None if row is None else (_credential(row[:9]), _account(row[9:]))

        return await self._run(read)

    async def credentials(self, account_id: str, kind: str) -> list[CredentialRecord]:
        def read(c: sqlite3.Connection) -> list[CredentialRecord]:
            rows = c.execute(
                f"SELECT {CREDENTIAL_COLUMNS} FROM credentials "
                "WHERE account_id = ? AND kind = ? ORDER BY created_at, id",
                (account_id, kind),
            ).fetchall()
            return [_credential(row) for row in rows]

        return await self._run(read)

    async def delete_credentials(
        self,
        account_id: str,
        kind: str | None = None,
        ids: Sequence[str] | None = None,
        keep: str | None = None,
    ) -> int:
        clauses, values = ["account_id = ?"], [account_id]
        if kind is not None:
            clauses.append("kind = ?")
            values.append(kind)
        if ids is not None:
            clauses.append(f"id IN ({', '.join('?' for _ in ids)})")
            values.extend(ids)
        if keep is not None:
            clauses.append("id != ?")
            values.append(keep)

        def write(c: sqlite3.Connection) -> int:
            deleted = c.execute(f"DELETE FROM credentials WHERE {' AND '.join(clauses)}", values)
            return deleted.rowcount

        return await self._run(write)

    async def touch_credential(self, credential_id: str, at: float) -> None:
        await self._run(
            lambda c: c.execute(
                "UPDATE credentials SET last_used_at = ? WHERE id = ? AND last_used_at < ?",
                (at, credential_id, at),
            )
        )

    async def throttle(self, key: str) -> tuple[ThrottleState, int] | None:
        def read(c: sqlite3.Connection) -> tuple[ThrottleState, int] | None:
            row = c.execute("SELECT state, version FROM throttles WHERE key = ?", (key,)).fetchone()
            return None if row is None else (dict(json.loads(row[0])), int(row[1]))

        return await self._run(read)

    async def put_throttle(
        self, key: str, state: ThrottleState | None, version: int, expires_at: float
    ) -> bool:
        def write(c: sqlite3.Connection) -> bool:
            with _immediate(c):
                row = c.execute("SELECT version FROM throttles WHERE key = ?", (key,)).fetchone()
                if (0 if row is None else row[0]) != version:
                    return False
                if state is None:
                    c.execute("DELETE FROM throttles WHERE key = ?", (key,))
                elif row is None:
                    c.execute(
                        "INSERT INTO throttles (key, state, version, expires_at) "
                        "VALUES (?, ?, 1, ?)",
                        (key, json.dumps(state), expires_at),
                    )
                else:
                    c.execute(
                        "UPDATE throttles SET state = ?, version = ?, expires_at = ? WHERE key = ?",
                        (json.dumps(state), version + 1, expires_at, key),
                    )
                return True

        return await self._run(write)

    async def sweep(self, now: float, idle_sessions_before: float) -> int:
        def write(c: sqlite3.Connection) -> int:
            with _immediate(c):
                expired = c.execute(
                    "DELETE FROM credentials WHERE expires_at <= ? "
                    "OR (kind = 'session' AND last_used_at < ?)",
                    (now, idle_sessions_before),
                ).rowcount
                expired += c.execute("DELETE FROM throttles WHERE expires_at <= ?", (now,)).rowcount
            return expired

        return await self._run(write)


def _account_row(record: AccountRecord) -> tuple[Any, ...]:
    return (
        record.id,
        record.key,
        record.name,
        record.password_hash,
        record.created_at,
        int(record.bot),
        int(record.disabled),
        record.deleted_at,
    )


@contextlib.contextmanager
def _immediate(connection: sqlite3.Connection) -> Iterator[None]:
    """An immediate transaction on an autocommit connection: committed, or rolled back on
    any error."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
