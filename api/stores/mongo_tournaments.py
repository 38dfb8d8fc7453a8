"""The MongoDB tournament store: a `tournaments` collection in the games' database, one
document per tournament (`_id` its id, `version`, `data` its record's plain form). A write is
a `replace_one` filtered on the version it replaces, so two instances never both win. Reads
and writes with the account store's concerns (majority)."""

from __future__ import annotations

from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from api.stores.side_stores import MongoSideStore
from api.stores.tournaments import TournamentExists
from api.tournaments.records import TournamentRecord

Document = dict[str, Any]


def _document(record: TournamentRecord) -> Document:
    return {"_id": record.id, "version": record.version, "data": record.to_plain()}


class MongoTournamentStore(MongoSideStore):
    WHAT = "tournament"

    async def _create(self, db: AsyncDatabase[Document]) -> None:
        # A finished game asks which tournament plays it (tournament_of_game), inside its
        # commit: an index, not a scan of every tournament.
        await db.tournaments.create_index("data.played.tables.game", name="table_games")

    async def create_tournament(self, record: TournamentRecord) -> None:
        try:
            await self.db.tournaments.insert_one(_document(record))
        except DuplicateKeyError:
            raise TournamentExists(record.id) from None

    async def tournament(self, tournament_id: str) -> TournamentRecord | None:
        document = await self.db.tournaments.find_one({"_id": tournament_id})
        return None if document is None else TournamentRecord.from_plain(document["data"])

    async def tournaments(self, after_id: str | None, limit: int) -> list[TournamentRecord]:
        if limit <= 0:  # Mongo's limit(0) would mean "no limit"
            return []
        cursor = (
            self.db.tournaments.find({"_id": {"$gt": after_id or ""}}).sort("_id", 1).limit(limit)
        )
        return [TournamentRecord.from_plain(document["data"]) async for document in cursor]

    async def tournament_of_game(self, game_id: str) -> str | None:
        query = {"data.played.tables.game": game_id}
        document = await self.db.tournaments.find_one(query, {"_id": 1})
        return None if document is None else str(document["_id"])

    async def replace_tournament(self, record: TournamentRecord) -> bool:
        result = await self.db.tournaments.replace_one(
            {"_id": record.id, "version": record.version - 1}, _document(record)
        )
        return result.matched_count == 1
