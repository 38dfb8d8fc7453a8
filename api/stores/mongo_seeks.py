"""The MongoDB seek store: a `seeks` collection in the games' database, one document per
seek (`_id` its id, its record's fields). Every change of state is an `update_one` filtered
on the state it leaves: of two instances claiming one seek, one matches it, the other
matches nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pymongo import ASCENDING, DESCENDING
from pymongo.asynchronous.database import AsyncDatabase

from api.pool.records import EXPIRED, OPEN, SeekRecord, matched
from api.pool.store import Table
from api.stores.side_stores import MongoSideStore

Document = dict[str, Any]


def _record(document: Document) -> SeekRecord:
    return SeekRecord.from_plain({**document, "id": document["_id"]})


class MongoSeekStore(MongoSideStore):
    WHAT = "seek"

    async def _create(self, db: AsyncDatabase[Document]) -> None:
        await db.seeks.create_index([("state", ASCENDING), ("created", ASCENDING)])
        await db.seeks.create_index([("account", ASCENDING), ("created", DESCENDING)])

    async def add(self, seek: SeekRecord, most: int) -> bool:
        # Counted, then inserted: two joins of one account at the same instant may both pass
        # (one seek over the bound, at worst); the bound is against floods, not a contract.
        if await self.db.seeks.count_documents({"account": seek.account, "state": OPEN}) >= most:
            return False
        plain = seek.to_plain()
        await self.db.seeks.insert_one({"_id": plain.pop("id"), **plain})
        return True

    async def seek(self, seek_id: str) -> SeekRecord | None:
        document = await self.db.seeks.find_one({"_id": seek_id})
        return None if document is None else _record(document)

    async def _find(
        self, query: Document, order: list[tuple[str, int]], limit: int
    ) -> list[SeekRecord]:
        if limit <= 0:  # Mongo's limit(0) would mean "no limit"
            return []
        cursor = self.db.seeks.find(query).sort(order).limit(limit)
        return [_record(document) async for document in cursor]

    async def seeks_of(self, account: str, limit: int) -> list[SeekRecord]:
        order = [("created", DESCENDING), ("_id", DESCENDING)]
        return await self._find({"account": account}, order, limit)

    async def open_seeks(self, now: float, limit: int) -> list[SeekRecord]:
        query = {"state": OPEN, "expires": {"$gt": now}}
        return await self._find(query, [("created", ASCENDING), ("_id", ASCENDING)], limit)

    async def unstarted(self, matched_before: float, limit: int) -> list[SeekRecord]:
        query = {
            "state": {"$regex": "^matched:"},
            "started": False,
            "matched_at": {"$lt": matched_before},
        }
        return await self._find(query, [("matched_at", ASCENDING)], limit)

    async def set_state(self, seek_id: str, state: str, now: float) -> bool:
        result = await self.db.seeks.update_one(
            {"_id": seek_id, "state": OPEN}, {"$set": {"state": state}}
        )
        return result.modified_count == 1

    async def claim(self, tables: Sequence[Table], now: float) -> list[str]:
        claimed = []
        for table, seek_ids in tables:
            taken = []
            for seek_id in seek_ids:  # in the table's order, oldest first, as every instance
                result = await self.db.seeks.update_one(
                    {"_id": seek_id, "state": OPEN},
                    {"$set": {"state": matched(table), "matched_at": now}},
                )
                if result.modified_count != 1:
                    # Stop at the first seek taken first: of two instances claiming one table
                    # the first to take its oldest seek takes them all, none both half.
                    break
                taken.append(seek_id)
            if len(taken) == len(seek_ids):
                claimed.append(table)
            else:  # another instance, a cancel or expiry came first: the table is undone
                await self.release(taken, table)
        return claimed

    async def release(self, seek_ids: Sequence[str], table: str) -> None:
        for seek_id in seek_ids:
            await self.db.seeks.update_one(
                {"_id": seek_id, "state": matched(table)},
                {"$set": {"state": OPEN, "matched_at": None}},
            )

    async def mark_started(self, table: str) -> None:
        await self.db.seeks.update_many({"state": matched(table)}, {"$set": {"started": True}})

    async def expire(self, now: float) -> int:
        result = await self.db.seeks.update_many(
            {"state": OPEN, "expires": {"$lte": now}}, {"$set": {"state": EXPIRED}}
        )
        return result.modified_count
