"""Rating a rated game once it ends, on any instance, exactly once (docs/rated-play.md, "The
service").

The commit that finishes a rated game tells `game_finished` (Work.finished, beside the
tournaments'). The game is claimed in the rating store by one write keyed by its id: its
accounts, their ranks in the engine's final ranking, and their ratings before it, as the first
claim found them (a second claim, by a retry or another instance, reads the first's). Each
account's new rating is then written as its next history entry under its rating's number (a
compare-and-set: an entry of that number or of that game already there, nothing written),
rated against the others' ratings of the claim; a writer that finds its number taken by
another game rereads and retries, one that finds the game's entry there is done. Then the
game is marked done.

Safety net: the row of a rated game that finishes is noted in the store before its commit
(Work.finishing), so that a game whose instance died before its rating was written is found
again: every instance rates the noted games that are finished and not done at its start and
every `CATCH_UP_SECONDS` after.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from api.ratings.records import HistoryEntry, RatedGame, RatedSeat, Standing
from api.service_errors import ServiceError
from api.stores.base import GameRecord, GameStatus
from api.stores.ratings import RatingStore, rating_store_for
from api.unit_of_work import Work
from competition.ratings import Prediction, Rating, predict, rate
from domain.errors import ErrorCode

CATCH_UP_SECONDS = 300.0
CATCH_UP_BATCH = 100
ATTEMPTS = 20  # writes of one account's entry lost to other games' before giving up

logger = logging.getLogger("risiko")
# A game's row as it is now (GAME_NOT_FOUND, a ServiceError, if there is none).
GameRows = Callable[[str], Awaitable[GameRecord]]


def is_rated(record: GameRecord) -> bool:
    return record.admission.rated and record.admission.speed is not None


def rated_accounts(record: GameRecord) -> list[tuple[int, str, bool]]:
    """The seats bound to accounts: (seat, account, a bot's)."""
    return [
        (seat.seat, seat.account_id, seat.account_bot)
        for seat in record.seats
        if seat.account_id is not None
    ]


@dataclass(frozen=True, slots=True)
class Expected:
    """A rated table's prediction: each account seat's rating and chance, in seat order."""

    seats: tuple[tuple[int, str, Standing], ...]  # seat, account, its rating then
    prediction: Prediction


class Ratings:
    """The accounts' ratings: rating finished games, and what the API reads."""

    def __init__(
        self, store: RatingStore, rows: GameRows, now: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.rows = rows
        self.now = now

    async def finishing(self, record: GameRecord) -> GameRecord:
        """Before the commit that finishes `record`: a rated one is noted (the safety net).
        A failure is logged, not raised: the game finishes, and is rated just after."""
        if is_rated(record):
            try:
                await self.store.note(record.id, self.now())
            except Exception:
                logger.exception("noting rated game %s failed", record.id)
        return record

    async def game_finished(self, game_id: str) -> None:
        """After the commit that finished the game: a rated one is rated, once."""
        await self.rate(await self.rows(game_id))

    async def rate(self, record: GameRecord) -> bool:
        """Rate a finished rated game unless it is done; False if it is not a finished
        rated game."""
        if not is_rated(record) or record.status != GameStatus.FINISHED:
            return False
        claimed = await self.store.rated_game(record.id)
        if claimed is None:  # nobody claimed it yet: the ratings now, read once
            claimed = await self.store.claim(await self._table(record))
        if not claimed.done:
            if len(claimed.seats) >= 2:  # a game abandoned in the lobby has no ranking
                for index in range(len(claimed.seats)):
                    await self._apply(claimed, index)
            await self.store.mark_done(record.id)
        return True

    async def _table(self, record: GameRecord) -> RatedGame:
        """The game's accounts, their ranks and their ratings now."""
        ranking = (record.outcome or {}).get("ranking") or []
        ranks = {int(place["seat"]): int(place["rank"]) for place in ranking}
        variant, speed = record.variant, str(record.admission.speed)
        seats = [
            RatedSeat(account, bot, ranks[seat], await self.store.standing(account, variant, speed))
            for seat, account, bot in rated_accounts(record)
            if seat in ranks
        ]
        return RatedGame(record.id, variant, speed, record.updated_at, tuple(seats))

    async def _apply(self, game: RatedGame, index: int) -> None:
        seat = game.seats[index]
        key = (seat.account, game.variant, game.speed)
        for _ in range(ATTEMPTS):
            written = await self.store.entry_of(*key, game.game)
            if written is not None:  # a retry, or another instance, wrote it
                await self.store.project(written)
                return
            now = await self.store.standing(*key)
            after = _after(game, index, now.rating)
            entry = HistoryEntry(
                *key, now.games + 1, game.game, game.at, seat.bot, now.rating, after
            )
            if await self.store.add_entry(entry):
                return
        raise RuntimeError(f"rating {seat.account} in game {game.game}: too many conflicts")

    async def catch_up(self) -> int:
        """Rate the noted games that are finished and not yet done; how many were."""
        rated = 0
        for game_id in await self.store.undone(CATCH_UP_BATCH):
            try:
                record = await self.rows(game_id)
            except ServiceError as error:
                if error.code == ErrorCode.GAME_NOT_FOUND:
                    await self.store.mark_done(game_id)
                    continue
                raise
            try:
                rated += await self.rate(record)
            except Exception:
                logger.exception("rating game %s failed", game_id)
        return rated

    async def run(self, every: float = CATCH_UP_SECONDS) -> None:
        """The safety net: `catch_up` at once, then every `every` seconds, until cancelled."""
        while True:
            try:
                caught = await self.catch_up()
                if caught:
                    logger.info("rated %d finished games found unrated", caught)
            except Exception:
                logger.exception("catching up on ratings failed")
            await asyncio.sleep(every)

    async def expected(self, record: GameRecord) -> Expected | None:
        """A rated table's expected ranking by the ratings its accounts had at the start (the
        claim's, once the game is rated; their ratings now before); None for an unrated game
        or one with fewer than two accounts."""
        if not is_rated(record):
            return None
        seats = rated_accounts(record)
        if len(seats) < 2:
            return None
        claimed = await self.store.rated_game(record.id)
        before = {} if claimed is None else {s.account: s.before for s in claimed.seats}
        speed = str(record.admission.speed)
        standings = [
            before.get(account) or await self.store.standing(account, record.variant, speed)
            for _, account, _ in seats
        ]
        prediction = predict([standing.rating for standing in standings])
        placed = tuple(
            (seat, account, s) for (seat, account, _), s in zip(seats, standings, strict=True)
        )
        return Expected(placed, prediction)


def _after(game: RatedGame, index: int, rating: Rating) -> Rating:
    """The account at `index`'s rating after the game, from `rating` (its own now) and the
    others' as the claim found them; the claim's own figure when nothing moved meanwhile."""
    ratings = [seat.before.rating for seat in game.seats]
    ratings[index] = rating
    return rate(ratings, [seat.rank for seat in game.seats])[index]


def ratings_beside(store: object, work: Work) -> Ratings:
    """The ratings beside the games' store, told by `work`: a finishing rated game is noted
    before its commit (after its deleted accounts' seats are marked). The caller adds
    `game_finished` to the listeners of `work.finished`."""

    async def row(game_id: str) -> GameRecord:
        return (await work.sessions.get(game_id)).record

    ratings = Ratings(rating_store_for(store), row, work.now)
    anonymise = work.finishing

    async def finishing(record: GameRecord) -> GameRecord:
        return await ratings.finishing(await anonymise(record))

    work.finishing = finishing
    return ratings
