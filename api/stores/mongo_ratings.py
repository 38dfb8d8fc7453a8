"""The MongoDB rating store: collections `rated_games` (`_id` the game's id, its claim and
whether it is done), `rating_history` (unique by account, variant, speed and number, and by
account, variant, speed and game) and `ratings` (each account's current rating per variant and
speed, unique by the three, sorted by the conservative ordinal for the leaderboards). A
claim, an entry and a projection are each one write; the unique indexes make a second writer
lose (DuplicateKeyError), and a projection only moves forward."""

from __future__ import annotations

import contextlib
from typing import Any

from pymongo import ASCENDING, DESCENDING
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from api.ratings.records import HistoryEntry, RatedGame, RatingRow, Standing
from api.stores.side_stores import MongoSideStore
from competition.ratings import PROVISIONAL_SIGMA, Rating

Document = dict[str, Any]
KEY = [("account", ASCENDING), ("variant", ASCENDING), ("speed", ASCENDING)]


def _rating(data: Document) -> Rating:
    return Rating(float(data["mu"]), float(data["sigma"]))


def _plain(rating: Rating) -> Document:
    return {"mu": rating.mu, "sigma": rating.sigma}


def _entry(document: Document) -> HistoryEntry:
    return HistoryEntry(
        document["account"],
        document["variant"],
        document["speed"],
        int(document["number"]),
        document["game"],
        float(document["at"]),
        bool(document["bot"]),
        _rating(document["before"]),
        _rating(document["after"]),
    )


def _row(document: Document) -> RatingRow:
    return RatingRow(
        document["account"],
        document["variant"],
        document["speed"],
        _rating(document),
        int(document["games"]),
        bool(document["bot"]),
        float(document["at"]),
    )


def _key(account: str, variant: str, speed: str) -> Document:
    return {"account": account, "variant": variant, "speed": speed}


class MongoRatingStore(MongoSideStore):
    WHAT = "rating"

    async def _create(self, db: AsyncDatabase[Document]) -> None:
        await db.rated_games.create_index([("done", ASCENDING), ("at", ASCENDING)], name="undone")
        history = db.rating_history
        await history.create_index([*KEY, ("number", ASCENDING)], unique=True, name="number")
        await history.create_index([*KEY, ("game", ASCENDING)], unique=True, name="game")
        await db.ratings.create_index(KEY, unique=True, name="account")
        board = [("variant", ASCENDING), ("speed", ASCENDING), ("bot", ASCENDING)]
        await db.ratings.create_index(
            [*board, ("ordinal", DESCENDING), ("account", ASCENDING)], name="board"
        )

    async def note(self, game_id: str, at: float) -> None:
        fresh = {"at": at, "plan": None, "done": False}
        await self.db.rated_games.update_one({"_id": game_id}, {"$setOnInsert": fresh}, upsert=True)

    async def claim(self, game: RatedGame) -> RatedGame:
        with contextlib.suppress(DuplicateKeyError):  # claimed already: the first stands
            await self.db.rated_games.update_one(
                {"_id": game.game, "plan": None},
                {"$set": {"plan": game.to_plain()}, "$setOnInsert": {"at": game.at, "done": False}},
                upsert=True,
            )
        claimed = await self.rated_game(game.game)
        if claimed is None:
            raise RuntimeError(f"game {game.game} claimed and not found")
        return claimed

    async def rated_game(self, game_id: str) -> RatedGame | None:
        document = await self.db.rated_games.find_one({"_id": game_id})
        if document is None or document.get("plan") is None:
            return None
        return RatedGame.from_plain(game_id, document["plan"], bool(document["done"]))

    async def mark_done(self, game_id: str) -> None:
        await self.db.rated_games.update_one({"_id": game_id}, {"$set": {"done": True}})

    async def undone(self, limit: int) -> list[str]:
        if limit <= 0:
            return []
        cursor = self.db.rated_games.find({"done": False}, {"_id": 1})
        cursor = cursor.sort([("at", ASCENDING), ("_id", ASCENDING)]).limit(limit)
        return [str(document["_id"]) async for document in cursor]

    async def standing(self, account: str, variant: str, speed: str) -> Standing:
        document = await self.db.rating_history.find_one(
            _key(account, variant, speed), sort=[("number", DESCENDING)]
        )
        if document is None:
            return Standing()
        return Standing(_rating(document["after"]), int(document["number"]))

    async def entry_of(
        self, account: str, variant: str, speed: str, game_id: str
    ) -> HistoryEntry | None:
        document = await self.db.rating_history.find_one(
            {**_key(account, variant, speed), "game": game_id}
        )
        return None if document is None else _entry(document)

    async def add_entry(self, entry: HistoryEntry) -> bool:
        document = {
            **_key(entry.account, entry.variant, entry.speed),
            "number": entry.number,
            "game": entry.game,
            "at": entry.at,
            "bot": entry.bot,
            "before": _plain(entry.before),
            "after": _plain(entry.after),
        }
        try:
            await self.db.rating_history.insert_one(document)
        except DuplicateKeyError:
            return False
        await self.project(entry)
        return True

    async def project(self, entry: HistoryEntry) -> None:
        key = _key(entry.account, entry.variant, entry.speed)
        row = {
            **_plain(entry.after),
            "ordinal": entry.after.ordinal,
            "games": entry.number,
            "bot": entry.bot,
            "at": entry.at,
        }
        with contextlib.suppress(DuplicateKeyError):  # a later entry's rating is there
            await self.db.ratings.update_one(
                {**key, "games": {"$lt": entry.number}}, {"$set": row}, upsert=True
            )

    async def ratings(self, account: str) -> list[RatingRow]:
        cursor = self.db.ratings.find({"account": account})
        cursor = cursor.sort([("variant", ASCENDING), ("speed", ASCENDING)])
        return [_row(document) async for document in cursor]

    async def history(
        self, account: str, variant: str, speed: str, below: int | None, limit: int
    ) -> list[HistoryEntry]:
        if limit <= 0:
            return []
        query = _key(account, variant, speed)
        if below is not None:
            query["number"] = {"$lt": below}
        cursor = self.db.rating_history.find(query).sort("number", DESCENDING).limit(limit)
        return [_entry(document) async for document in cursor]

    async def leaderboard(
        self, variant: str, speed: str, bot: bool, provisional: bool, offset: int, limit: int
    ) -> list[RatingRow]:
        if limit <= 0:
            return []
        query: Document = {"variant": variant, "speed": speed, "bot": bot}
        if not provisional:
            query["sigma"] = {"$lte": PROVISIONAL_SIGMA}
        cursor = self.db.ratings.find(query)
        cursor = cursor.sort([("ordinal", DESCENDING), ("account", ASCENDING)])
        cursor = cursor.skip(offset).limit(limit)
        return [_row(document) async for document in cursor]
