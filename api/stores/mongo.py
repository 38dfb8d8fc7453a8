"""The MongoDB store, on PyMongo's native async client (`pymongo.AsyncMongoClient`).

Every append is one multi-document transaction: the game's row moves from version n - 1 to n
only if it is still at n - 1, and the log entry (unique game and sequence) is inserted with
its events, seats and idempotency key. A stale writer matches nothing and gets a conflict.
Collections and indexes are created at start-up, idempotently.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from pymongo import ASCENDING, DESCENDING, AsyncMongoClient, WriteConcern
from pymongo.asynchronous.client_session import AsyncClientSession
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import BulkWriteError, DuplicateKeyError, OperationFailure, PyMongoError
from pymongo.read_concern import ReadConcern
from pymongo.uri_parser import parse_uri

from api.stores.base import (
    GameRecord,
    Idempotency,
    LogEntry,
    StoredEvent,
    VersionConflict,
)
from api.stores.mongo_pages import MongoPages, visible_query
from api.stores.mongo_queries import MongoQueries
from api.stores.mongo_rows import Document, event_of, record_document, record_of
from api.stores.mongo_writes import write_game

DEFAULT_DATABASE = "risiko"


class MongoStore(MongoPages, MongoQueries):
    def __init__(
        self, uri: str, write_concern: str | int = "majority", transaction_timeout: float = 10.0
    ) -> None:
        self.uri = uri
        self.transaction_timeout = transaction_timeout
        self.database_name = parse_uri(uri).get("database") or DEFAULT_DATABASE
        self.write_concern = WriteConcern(w=write_concern)
        self._client: AsyncMongoClient[Document] | None = None

    @property
    def db(self) -> AsyncDatabase[Document]:
        if self._client is None:
            raise RuntimeError("the store is not open")
        return self._client.get_database(
            self.database_name,
            write_concern=self.write_concern,
            read_concern=ReadConcern("majority"),
        )

    async def open(self) -> None:
        self._client = AsyncMongoClient(self.uri, tz_aware=False, serverSelectionTimeoutMS=5000)
        db = self.db
        await db.games.create_index(
            [
                ("status", ASCENDING),
                ("variant", ASCENDING),
                ("created_at", DESCENDING),
                ("_id", DESCENDING),
            ],
            name="listing",
        )
        await db.games.create_index(
            [("created_at", DESCENDING), ("_id", DESCENDING)], name="newest"
        )
        await db.games.create_index([("status", ASCENDING), ("creator", ASCENDING)], name="creator")
        await db.games.create_index(
            [("status", ASCENDING), ("updated_at", ASCENDING)], name="unchanged"
        )
        await db.games.create_index(
            [("seats.account_id", ASCENDING), ("created_at", DESCENDING), ("_id", DESCENDING)],
            name="of_account",
        )
        await db.games.create_index(
            [("deadline", ASCENDING)],
            name="due",
            partialFilterExpression={"deadline": {"$type": "double"}},
        )
        await db.log.create_index(
            [("game_id", ASCENDING), ("seq", ASCENDING)], unique=True, name="game_seq"
        )
        await db.events.create_index(
            [("game_id", ASCENDING), ("seq", ASCENDING)], unique=True, name="game_seq"
        )
        await db.seats.create_index([("game_id", ASCENDING)], name="game")
        await db.idempotency.create_index(
            [("game_id", ASCENDING), ("seat", ASCENDING), ("key", ASCENDING)],
            unique=True,
            name="game_seat_key",
        )
        await self._index_persisted_queries()

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    async def ping(self) -> bool:
        if self._client is None:
            return False
        try:
            await self._client.admin.command("ping")
        except PyMongoError:
            return False
        return True

    async def create(
        self, record: GameRecord, entry: LogEntry, events: Sequence[StoredEvent]
    ) -> None:
        await self._write(record, entry, events, None, create=True)

    async def append(
        self,
        record: GameRecord,
        entry: LogEntry,
        events: Sequence[StoredEvent],
        idempotency: Idempotency | None = None,
        seats_changed: bool = True,
    ) -> None:
        await self._write(record, entry, events, idempotency, create=False, seats=seats_changed)

    async def _write(
        self,
        record: GameRecord,
        entry: LogEntry,
        events: Sequence[StoredEvent],
        idempotency: Idempotency | None,
        *,
        create: bool,
        seats: bool = True,
    ) -> None:
        assert self._client is not None, "the store is not open"
        db = self.db

        async def write(session: AsyncClientSession) -> None:
            await write_game(
                db, session, record, entry, events, idempotency, create=create, seats=seats
            )

        try:
            # The driver retries transient conflicts for up to two minutes; a conflict that
            # lasts (a transaction orphaned by a crashed instance holds its locks until the
            # server's transaction lifetime limit) becomes a conflict the client can retry.
            async with asyncio.timeout(self.transaction_timeout):
                async with self._client.start_session() as session:
                    await session.with_transaction(write)
        except TimeoutError:
            raise VersionConflict(f"game {record.id} is locked by another writer") from None
        except DuplicateKeyError as error:
            raise VersionConflict(str(error)) from None
        except BulkWriteError as error:
            if all(e.get("code") == 11000 for e in error.details.get("writeErrors", [])):
                raise VersionConflict(str(error)) from None
            raise
        except OperationFailure as error:
            if error.has_error_label("TransientTransactionError") or error.code == 112:
                raise VersionConflict(str(error)) from None
            raise

    async def get(self, game_id: str) -> GameRecord | None:
        document = await self.db.games.find_one({"_id": game_id})
        return None if document is None else record_of(document)

    async def log(self, game_id: str, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        if limit is not None and limit <= 0:  # Mongo's limit(0) would mean "no limit"
            return []
        cursor = self.db.log.find({"game_id": game_id, "seq": {"$gt": after}}).sort("seq", 1)
        if limit is not None:
            cursor = cursor.limit(limit)
        return [
            LogEntry(d["seq"], d["kind"], d["seat"], d["payload"], d["created_at"])
            async for d in cursor
        ]

    async def events(
        self, game_id: str, viewer: int | None, after: int, limit: int
    ) -> list[StoredEvent]:
        if limit <= 0:  # Mongo's limit(0) would mean "no limit"
            return []
        cursor = (
            self.db.events.find({**visible_query(game_id, viewer), "seq": {"$gt": after}})
            .sort("seq", 1)
            .limit(limit)
        )
        return [event_of(d) async for d in cursor]

    async def last_event_seq(self, game_id: str, version: int | None = None) -> int:
        query: Document = {"game_id": game_id}
        if version is not None:
            query["log_seq"] = {"$lte": version}
        document = await self.db.events.find_one(query, sort=[("seq", -1)])
        return 0 if document is None else int(document["seq"])

    async def games(
        self,
        status: str | None,
        variant: str | None,
        after: str | None,
        limit: int,
        account: str | None = None,
    ) -> list[GameRecord]:
        return await self.read_games(status, variant, after, limit, older=True, account=account)

    async def mark_anonymous(self, game_id: str, version: int, seats: Sequence[int]) -> bool:
        found = await self.db.games.find_one(
            {"_id": game_id, "version": version, "status": "finished"}
        )
        if found is None:
            return False
        marked = record_document(record_of(found).with_anonymous(seats))["seats"]
        result = await self.db.games.update_one(
            {"_id": game_id, "version": version}, {"$set": {"seats": marked}}
        )
        return result.matched_count == 1

    async def seat_of(self, token_hash: str) -> tuple[str, int] | None:
        document = await self.db.seats.find_one({"_id": token_hash})
        return None if document is None else (document["game_id"], int(document["seat"]))

    async def count_lobby_games(self, creator: str) -> int:
        return await self.db.games.count_documents({"status": "lobby", "creator": creator})

    async def stale_lobby_games(self, updated_before: float, limit: int) -> list[str]:
        cursor = (
            self.db.games.find(
                {"status": "lobby", "updated_at": {"$lt": updated_before}}, {"_id": 1}
            )
            .sort("updated_at", 1)
            .limit(limit)
        )
        return [str(document["_id"]) async for document in cursor]

    async def due_games(self, now: float, limit: int) -> list[str]:
        if limit <= 0:
            return []
        cursor = (
            self.db.games.find(
                {"deadline": {"$type": "double", "$lte": now}, "status": "active"}, {"_id": 1}
            )
            .sort("deadline", 1)
            .limit(limit)
        )
        return [str(document["_id"]) async for document in cursor]

    async def idempotent_response(
        self, game_id: str, seat: int | None, key: str
    ) -> dict[str, Any] | None:
        document = await self.db.idempotency.find_one(
            {"game_id": game_id, "seat": -1 if seat is None else seat, "key": key}
        )
        return None if document is None else dict(document["response"])

    async def watch_events(
        self, resume_after: Document | None = None, on_open: Callable[[], object] | None = None
    ) -> AsyncIterator[tuple[Document, StoredEvent, str]]:
        """Every event inserted by any instance, in commit order, with its resume token."""
        pipeline = [{"$match": {"operationType": "insert"}}]
        async with await self.db.events.watch(pipeline, resume_after=resume_after) as stream:
            if on_open is not None:
                on_open()
            async for change in stream:
                document = change["fullDocument"]
                yield change["_id"], event_of(document), document["game_id"]
