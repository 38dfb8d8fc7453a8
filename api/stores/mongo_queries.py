"""The MongoDB store's persisted queries (api/persisted.py): documents kept by their SHA-256,
at most about `keep` of them, the oldest dropped first (instances registering at the same
moment may each count the same documents: the bound holds within a few)."""

from __future__ import annotations

from pymongo import ASCENDING
from pymongo.asynchronous.database import AsyncDatabase

from api.stores.mongo_rows import Document


class MongoQueries:
    """Mixed into MongoStore, whose database (`db`) these use."""

    @property
    def db(self) -> AsyncDatabase[Document]:
        raise NotImplementedError

    async def _index_persisted_queries(self) -> None:
        await self.db.persisted_queries.create_index(
            [("registered_at", ASCENDING), ("_id", ASCENDING)], name="age"
        )

    async def persisted_query(self, sha256: str) -> str | None:
        found = await self.db.persisted_queries.find_one({"_id": sha256})
        return None if found is None else str(found["document"])

    async def persist_query(self, sha256: str, document: str, now: float, keep: int) -> None:
        queries = self.db.persisted_queries
        await queries.update_one(
            {"_id": sha256},
            {"$setOnInsert": {"document": document, "registered_at": now}},
            upsert=True,
        )
        kept = await queries.count_documents({})
        if kept > keep:
            oldest = queries.find({}, {"_id": 1}).sort([("registered_at", 1), ("_id", 1)])
            dropped = [found["_id"] async for found in oldest.limit(kept - keep)]
            await queries.delete_many({"_id": {"$in": dropped}})
