"""The MongoDB store's reads for paging backwards and counting (api/paging.py): the games
newer than one, a game's events before one, and how many of each there are. Each runs on
an index the store creates (`listing`, `newest`, the events' `game_seq`)."""

from __future__ import annotations

from pymongo.asynchronous.database import AsyncDatabase

from api.stores.base import AccountRecordCounts, GameRecord, StoredEvent
from api.stores.mongo_rows import Document, event_of, record_of
from domain.events import readable_by


def listing_query(status: str | None, variant: str | None, account: str | None = None) -> Document:
    query: Document = {}
    if status is not None:
        query["status"] = status
    if variant is not None:
        query["variant"] = variant
    if account is not None:
        query["seats.account_id"] = account
    return query


def record_pipeline(account: str) -> list[Document]:
    """Store.account_record in one aggregation: the account's started games, each with the
    seat it holds there, counted."""
    finished = {"$eq": ["$status", "finished"]}
    mine = {"$filter": {"input": "$seats", "as": "s", "cond": {"$eq": ["$$s.account_id", account]}}}
    won = {"$and": [finished, {"$eq": ["$winner", "$mine.seat"]}]}
    return [
        {"$match": {"seats.account_id": account, "status": {"$ne": "lobby"}}},
        {"$project": {"status": 1, "winner": 1, "mine": mine}},
        {"$unwind": "$mine"},
        {
            "$group": {
                "_id": None,
                "played": {"$sum": 1},
                "finished": {"$sum": {"$cond": [finished, 1, 0]}},
                "won": {"$sum": {"$cond": [won, 1, 0]}},
            }
        },
    ]


def visible_query(game_id: str, viewer: int | None) -> Document:
    """A game's events that `viewer` may see: their marks from `domain.events.readable_by`."""
    return {"game_id": game_id, "visible_to": {"$in": list(readable_by(viewer))}}


class MongoPages:
    """Mixed into MongoStore, whose database (`db`) these read."""

    @property
    def db(self) -> AsyncDatabase[Document]:
        raise NotImplementedError

    async def newer_games(
        self,
        status: str | None,
        variant: str | None,
        than: str | None,
        limit: int,
        account: str | None = None,
    ) -> list[GameRecord]:
        return await self.read_games(status, variant, than, limit, older=False, account=account)

    async def read_games(
        self,
        status: str | None,
        variant: str | None,
        anchor: str | None,
        limit: int,
        *,
        older: bool,
        account: str | None = None,
    ) -> list[GameRecord]:
        """The listing's games from game `anchor` on (None: from its end), nearest first:
        the older ones (the listing's own order, newest first) or the newer ones."""
        if limit <= 0:  # Mongo's limit(0) would mean "no limit"
            return []
        query = listing_query(status, variant, account)
        than, order = ("$lt", -1) if older else ("$gt", 1)
        if anchor is not None:
            found = await self.db.games.find_one({"_id": anchor}, {"created_at": 1})
            if found is None:
                return []
            at = found["created_at"]
            query["$or"] = [{"created_at": {than: at}}, {"created_at": at, "_id": {than: anchor}}]
        cursor = self.db.games.find(query).sort([("created_at", order), ("_id", order)])
        return [record_of(d) async for d in cursor.limit(limit)]

    async def count_games(
        self, status: str | None, variant: str | None, account: str | None = None
    ) -> int:
        return await self.db.games.count_documents(listing_query(status, variant, account))

    async def account_record(self, account: str) -> AccountRecordCounts:
        cursor = await self.db.games.aggregate(record_pipeline(account))
        found = [document async for document in cursor]
        if not found:
            return AccountRecordCounts()
        counts = found[0]
        return AccountRecordCounts(counts["played"], counts["finished"], counts["won"])

    async def events_before(
        self, game_id: str, viewer: int | None, before: int, limit: int
    ) -> list[StoredEvent]:
        if limit <= 0:
            return []
        query = {**visible_query(game_id, viewer), "seq": {"$lt": before}}
        cursor = self.db.events.find(query).sort("seq", -1).limit(limit)
        return [event_of(d) async for d in cursor]

    async def count_events(self, game_id: str, viewer: int | None) -> int:
        return await self.db.events.count_documents(visible_query(game_id, viewer))
