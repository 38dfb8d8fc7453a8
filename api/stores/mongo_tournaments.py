"""The MongoDB tournament store: a `tournaments` collection in the games' database, one
document per tournament (`_id` its id, `version`, `data` its record's plain form). A write is
a `replace_one` filtered on the version it replaces, so two instances never both win. Reads
and writes with the account store's concerns (majority)."""

from __future__ import annotations

from typing import Any

from pymongo import AsyncMongoClient, WriteConcern
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError
from pymongo.read_concern import ReadConcern
from pymongo.uri_parser import parse_uri

from api.stores.mongo import DEFAULT_DATABASE
from api.stores.tournaments import TournamentExists
from api.tournaments.records import TournamentRecord

Document = dict[str, Any]


def _document(record: TournamentRecord) -> Document:
    return {"_id": record.id, "version": record.version, "data": record.to_plain()}


class MongoTournamentStore:
    def __init__(self, uri: str, write_concern: str | int = "majority") -> None:
        self.uri = uri
        self.database_name = parse_uri(uri).get("database") or DEFAULT_DATABASE
        self.write_concern = WriteConcern(w=write_concern)
        self._client: AsyncMongoClient[Document] | None = None

    @property
    def db(self) -> AsyncDatabase[Document]:
        if self._client is None:
            raise RuntimeError("the tournament store is not open")
        return self._client.get_database(
            self.database_name,
            write_concern=self.write_concern,
            read_concern=ReadConcern("majority"),
        )

    async def open(self) -> None:
        self._client = AsyncMongoClient(self.uri, tz_aware=False, serverSelectionTimeoutMS=5000)
        # A finished game asks which tournament plays it (tournament_of_game), inside its
        # commit: an index, not a scan of every tournament.
        await self.db.tournaments.create_index("data.played.tables.game", name="table_games")

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

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
