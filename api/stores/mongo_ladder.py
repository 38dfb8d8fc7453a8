"""The MongoDB ladder store: a `ladders` collection in the games' database, one document per
ladder (`_id` its id, `version`, `data` its record's plain form); a write is an insert (the
first version) or a `replace_one` filtered on the version it replaces."""

from __future__ import annotations

from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from api.ladder.records import LadderRecord
from api.stores.side_stores import MongoSideStore

Document = dict[str, Any]


class MongoLadderStore(MongoSideStore):
    WHAT = "ladder"

    async def _create(self, db: AsyncDatabase[Document]) -> None:
        return None  # the ladders are found by their `_id` only

    async def ladder(self, ladder_id: str) -> LadderRecord | None:
        document = await self.db.ladders.find_one({"_id": ladder_id})
        return None if document is None else LadderRecord.from_plain(document["data"])

    async def write(self, record: LadderRecord) -> bool:
        document = {"_id": record.id, "version": record.version, "data": record.to_plain()}
        if record.version == 1:
            try:
                await self.db.ladders.insert_one(document)
            except DuplicateKeyError:
                return False
            return True
        result = await self.db.ladders.replace_one(
            {"_id": record.id, "version": record.version - 1}, document
        )
        return result.matched_count == 1
