"""One append to the embedded store, as the statements it runs, in their order: the game's row
(inserted, or moved from version n - 1 to n: the version check), the log entry, its events,
the game's seats, and the idempotency key's answer. `SqliteStore` runs the whole in a
savepoint of a (group) commit; any statement that fails rolls every one of them back."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence

from api.stores.base import (
    GameExists,
    GameRecord,
    Idempotency,
    LogEntry,
    StoredEvent,
    VersionConflict,
)
from api.stores.sqlite_rows import record_to_row

Write = Callable[[sqlite3.Connection], None]


def game_write(
    record: GameRecord,
    entry: LogEntry,
    events: Sequence[StoredEvent],
    idempotency: Idempotency | None,
    *,
    create: bool,
    seats: bool = True,
) -> Write:
    """The statements that store a new game (`create`) or a game's next entry (with the
    seats' token look-up rewritten when `seats` changed)."""

    def write(c: sqlite3.Connection) -> None:
        if create:
            _insert_game(c, record)
        else:
            _update_game(c, record, entry.seq - 1)
        _insert_entry(c, record.id, entry)
        _insert_events(c, record.id, events)
        if create or seats:
            _replace_seats(c, record)
        if idempotency is not None:
            _remember_response(c, record.id, idempotency)

    return write


def _insert_game(c: sqlite3.Connection, record: GameRecord) -> None:
    """The new game's row: GameExists if its id is taken (any other refusal stays itself)."""
    try:
        c.execute(
            "INSERT INTO games (id, variant, status, version, created_at, row, deadline) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                record.id,
                record.variant,
                record.status,
                record.version,
                record.created_at,
                record_to_row(record),
                record.deadline,
            ),
        )
    except sqlite3.IntegrityError as error:
        if error.sqlite_errorname == "SQLITE_CONSTRAINT_PRIMARYKEY":
            raise GameExists(f"game {record.id} exists") from None
        raise


def _update_game(c: sqlite3.Connection, record: GameRecord, previous_version: int) -> None:
    """The game's row, only if it is still at `previous_version`: else a VersionConflict."""
    updated = c.execute(
        "UPDATE games SET status = ?, version = ?, row = ?, deadline = ? "
        "WHERE id = ? AND version = ?",
        (
            record.status,
            record.version,
            record_to_row(record),
            record.deadline,
            record.id,
            previous_version,
        ),
    )
    if updated.rowcount != 1:
        raise VersionConflict(f"game {record.id} is not at version {previous_version}")


def _insert_entry(c: sqlite3.Connection, game_id: str, entry: LogEntry) -> None:
    c.execute(
        "INSERT INTO log (game_id, seq, kind, seat, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (
            game_id,
            entry.seq,
            entry.kind,
            entry.seat,
            json.dumps(entry.payload),
            entry.created_at,
        ),
    )


def _insert_events(c: sqlite3.Connection, game_id: str, events: Sequence[StoredEvent]) -> None:
    c.executemany(
        "INSERT INTO events (game_id, seq, log_seq, visible_to, data) VALUES (?, ?, ?, ?, ?)",
        [(game_id, e.seq, e.log_seq, e.visible_to, json.dumps(e.data)) for e in events],
    )


def _replace_seats(c: sqlite3.Connection, record: GameRecord) -> None:
    """The seats' token hashes as they are now (a seat taken, left or handed to a bot)."""
    c.execute("DELETE FROM seats WHERE game_id = ?", (record.id,))
    c.executemany(
        "INSERT INTO seats (token_hash, game_id, seat, account_id) VALUES (?, ?, ?, ?)",
        [(s.token_hash, record.id, s.seat, s.account_id) for s in record.seats],
    )


def _remember_response(c: sqlite3.Connection, game_id: str, idempotency: Idempotency) -> None:
    """The answer to a keyed request, for its retries (the key unique per game and seat)."""
    c.execute(
        "INSERT INTO idempotency (game_id, seat, key, response) VALUES (?, ?, ?, ?)",
        (
            game_id,
            -1 if idempotency.seat is None else idempotency.seat,
            idempotency.key,
            json.dumps(idempotency.response),
        ),
    )
