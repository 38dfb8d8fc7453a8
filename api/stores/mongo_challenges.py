"""The MongoDB challenge store: a `challenges` collection in the games' database, one
document per challenge (`_id` its id, `version`, `status`, `parties`: its accounts, `data` its
record's plain form). A write is a `replace_one` filtered on the version it replaces, so two
instances never both win. Reads and writes with majority concerns."""

from __future__ import annotations

from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from api.challenges.records import ChallengeRecord, ChallengeStatus
from api.challenges.store import ChallengeExists
from api.stores.side_stores import MongoSideStore

Document = dict[str, Any]


def _document(record: ChallengeRecord) -> Document:
    return {
        "_id": record.id,
        "version": record.version,
        "status": record.status.value,
        "parties": list(record.parties),
        "data": record.to_plain(),
    }


class MongoChallengeStore(MongoSideStore):
    WHAT = "challenge"

    async def _create(self, db: AsyncDatabase[Document]) -> None:
        await db.challenges.create_index([("parties", 1), ("_id", -1)], name="parties")

    async def create_challenge(self, record: ChallengeRecord) -> None:
        try:
            await self.db.challenges.insert_one(_document(record))
        except DuplicateKeyError:
            raise ChallengeExists(record.id) from None

    async def challenge(self, challenge_id: str) -> ChallengeRecord | None:
        document = await self.db.challenges.find_one({"_id": challenge_id})
        return None if document is None else ChallengeRecord.from_plain(document["data"])

    async def replace_challenge(self, record: ChallengeRecord) -> bool:
        result = await self.db.challenges.replace_one(
            {"_id": record.id, "version": record.version - 1}, _document(record)
        )
        return result.matched_count == 1

    async def challenges_of(
        self, account: str, stored_open: bool, limit: int
    ) -> list[ChallengeRecord]:
        if limit <= 0:  # Mongo's limit(0) would mean "no limit"
            return []
        query: Document = {"parties": account}
        if stored_open:
            query["status"] = ChallengeStatus.OPEN.value
        cursor = self.db.challenges.find(query).sort("_id", -1).limit(limit)
        return [ChallengeRecord.from_plain(document["data"]) async for document in cursor]
