"""One append to the MongoDB store, as the writes it makes in its transaction, in their order:
the game's document (inserted, or moved from version n - 1 to n: the version check), the log
entry, its events, the game's seats, and the idempotency key's answer. `MongoStore` runs the
whole in one multi-document transaction; a write that fails aborts every one of them."""

from __future__ import annotations

from collections.abc import Sequence

from pymongo.asynchronous.client_session import AsyncClientSession
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from api.stores.base import (
    GameExists,
    GameRecord,
    Idempotency,
    LogEntry,
    StoredEvent,
    VersionConflict,
)
from api.stores.mongo_rows import Document, record_document


async def write_game(
    db: AsyncDatabase[Document],
    session: AsyncClientSession,
    record: GameRecord,
    entry: LogEntry,
    events: Sequence[StoredEvent],
    idempotency: Idempotency | None,
    *,
    create: bool,
    seats: bool = True,
) -> None:
    """A new game (`create`) or a game's next entry, in `session`'s transaction."""
    if create:
        await _insert_game(db, session, record)
    else:
        await _update_game(db, session, record, entry.seq)
    await _insert_entry(db, session, record.id, entry)
    if events:
        await _insert_events(db, session, record.id, events)
    if create or seats:
        await _replace_seats(db, session, record)
    if idempotency is not None:
        await _remember_response(db, session, record.id, idempotency)


async def _insert_game(
    db: AsyncDatabase[Document], session: AsyncClientSession, record: GameRecord
) -> None:
    """The new game's document: GameExists if its id is taken."""
    try:
        await db.games.insert_one(record_document(record), session=session)
    except DuplicateKeyError:
        raise GameExists(f"game {record.id} exists") from None


async def _update_game(
    db: AsyncDatabase[Document], session: AsyncClientSession, record: GameRecord, seq: int
) -> None:
    """The game's document at version `seq`, only if it is still at `seq - 1`: else a
    VersionConflict. Its snapshot is rewritten only when the record holds a new one."""
    document = record_document(record)
    changes = {key: value for key, value in document.items() if key != "_id"}
    if record.snapshot_version != seq:  # the stored snapshot stays as it is
        del changes["snapshot"], changes["snapshot_version"]
    result = await db.games.update_one(
        {"_id": record.id, "version": seq - 1},
        {"$set": changes},
        session=session,
    )
    if result.matched_count != 1:
        raise VersionConflict(f"game {record.id} is not at version {seq - 1}")


async def _insert_entry(
    db: AsyncDatabase[Document], session: AsyncClientSession, game_id: str, entry: LogEntry
) -> None:
    await db.log.insert_one(
        {
            "game_id": game_id,
            "seq": entry.seq,
            "kind": entry.kind,
            "seat": entry.seat,
            "payload": entry.payload,
            "created_at": entry.created_at,
        },
        session=session,
    )


async def _insert_events(
    db: AsyncDatabase[Document],
    session: AsyncClientSession,
    game_id: str,
    events: Sequence[StoredEvent],
) -> None:
    await db.events.insert_many(
        [
            {
                "game_id": game_id,
                "seq": e.seq,
                "log_seq": e.log_seq,
                "visible_to": e.visible_to,
                "data": e.data,
            }
            for e in events
        ],
        session=session,
    )


async def _replace_seats(
    db: AsyncDatabase[Document], session: AsyncClientSession, record: GameRecord
) -> None:
    """The seats' token hashes as they are now (a seat taken, left or handed to a bot)."""
    await db.seats.delete_many({"game_id": record.id}, session=session)
    if record.seats:
        await db.seats.insert_many(
            [{"_id": s.token_hash, "game_id": record.id, "seat": s.seat} for s in record.seats],
            session=session,
        )


async def _remember_response(
    db: AsyncDatabase[Document],
    session: AsyncClientSession,
    game_id: str,
    idempotency: Idempotency,
) -> None:
    """The answer to a keyed request, for its retries (the key unique per game and seat)."""
    await db.idempotency.insert_one(
        {
            "game_id": game_id,
            "seat": -1 if idempotency.seat is None else idempotency.seat,
            "key": idempotency.key,
            "response": idempotency.response,
        },
        session=session,
    )
