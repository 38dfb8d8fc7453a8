"""The bots' ladder: bot accounts join it (`join`, `leave`), and a pass every
`pass_seconds` on every instance seats the free ones in new rated games against each other
(docs/rated-play.md, "The bots' ladder").

A pass reads the ladder's record, forgets its games that have finished, pairs the free bots
(api/ladder/pairing.py) within the bounds (games at once per bot and in all), and writes the
new games into the record over the version it read (compare-and-set) before it creates any:
of two instances pairing at once, one write wins and the other's tables are never created.
Then it opens every game of the record that is not running yet (create, seat, start: each
step safe to repeat), so a game whose instance died after the write is opened by the next
pass, once: its id comes from its number in the record."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import replace

from starlette.applications import Starlette

from api.accounts.scopes import Principal, Scope
from api.ladder import games
from api.ladder.errors import LadderError
from api.ladder.pairing import Candidate, pair
from api.ladder.records import LadderGame, LadderRecord, ladder_game_id
from api.ladder.settings import LadderSettings
from api.stores.accounts import AccountStore
from api.stores.base import GameStatus
from api.stores.ladder import LadderStore, ladder_store_for
from api.stores.ratings import RatingStore
from api.unit_of_work import Work
from domain.errors import ErrorCode

logger = logging.getLogger("risiko")
ATTEMPTS = 20  # writes of the record lost to other instances' before giving up
# A game still not started this long after it was paired (a bot deleted meanwhile left its
# seat empty, or its opening keeps failing) is forgotten, so it does not hold its bots.
STUCK_SECONDS = 600.0


class Ladder:
    def __init__(
        self,
        store: LadderStore,
        work: Work,
        accounts: AccountStore,
        ratings: RatingStore,
        settings: LadderSettings | None = None,
        now: Callable[[], float] = time.time,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.work = work
        self.accounts = accounts
        self.ratings = ratings
        self.settings = settings or LadderSettings()
        self.now = now
        self.rng = rng or random.Random()

    @property
    def id(self) -> str:
        return self.settings.variant

    async def record(self) -> LadderRecord:
        return await self.store.ladder(self.id) or LadderRecord(self.id)

    async def join(self, principal: Principal) -> LadderRecord:
        """The account joins (the scope GAMES_PLAY; bot accounts only: BOTS_ONLY)."""
        principal.require(Scope.GAMES_PLAY)
        if not principal.bot:
            raise LadderError(ErrorCode.BOTS_ONLY, "the ladder is for bot accounts")
        account = principal.account_id
        return await self._change(
            lambda r: r if account in r.members else replace(r, members=(*r.members, account))
        )

    async def leave(self, principal: Principal) -> LadderRecord:
        """The account leaves: no new game; the games it plays go on to their end."""
        principal.require(Scope.GAMES_PLAY)
        account = principal.account_id
        return await self._change(
            lambda r: replace(r, members=tuple(m for m in r.members if m != account))
        )

    async def _change(self, change: Callable[[LadderRecord], LadderRecord]) -> LadderRecord:
        for _ in range(ATTEMPTS):
            record = await self.record()
            changed = change(record)
            if changed == record:
                return record
            changed = replace(changed, version=record.version + 1)
            if await self.store.write(changed):
                return changed
        raise RuntimeError(f"ladder {self.id}: too many conflicting writes")

    async def run(self) -> None:
        """A pass every `pass_seconds`, until cancelled."""
        while True:
            try:
                await self.tick()
            except Exception:
                logger.exception("a pass of the ladder failed")
            await asyncio.sleep(self.settings.pass_seconds)

    async def tick(self) -> list[LadderGame]:
        """One pass: the finished games forgotten, new games paired and written, then every
        game not running yet opened. The games this pass created."""
        created: list[LadderGame] = []
        for _ in range(ATTEMPTS):
            record = await self.record()
            paired = await self._paired(record)
            if paired == record:
                break
            paired = replace(paired, version=record.version + 1)
            if await self.store.write(paired):
                created = [game for game in paired.playing if game.number > record.created]
                record = paired
                break
        else:
            return []
        for game in record.playing:
            try:
                await games.open_game(self.work, self.accounts, self.settings, game)
            except Exception:
                logger.exception("opening ladder game %s failed", game.game)
        return created

    async def _paired(self, record: LadderRecord) -> LadderRecord:
        """The record with its finished games forgotten and the new tables added."""
        playing, now = [], self.now()
        for game in record.playing:
            status = await games.status(self.work, game.game)
            stuck = status in (None, GameStatus.LOBBY) and now - game.created_at > STUCK_SECONDS
            if status != GameStatus.FINISHED and not stuck:
                playing.append(game)
        members = [m for m in record.members if await self._can_play(m)]
        busy = [player for game in playing for player in game.players]
        free = [
            Candidate(member, await self._rating(member))
            for member in members
            if busy.count(member) < self.settings.games_per_bot
        ]
        room = self.settings.games_at_once - len(playing)
        tables = pair(free, self.settings.table_size, room, self.rng, self.settings.noise)
        for number, players in enumerate(tables, start=record.created + 1):
            playing.append(LadderGame(number, ladder_game_id(self.id, number), players, now))
        return replace(
            record,
            members=tuple(members),
            playing=tuple(playing),
            created=record.created + len(tables),
        )

    async def _can_play(self, account_id: str) -> bool:
        account = await self.accounts.account(account_id)
        return account is not None and account.bot and not account.deleted and not account.disabled

    async def _rating(self, account: str) -> float:
        standing = await self.ratings.standing(account, self.id, self.settings.speed)
        return float(standing.rating.display)


Lifespan = Callable[[Starlette], AbstractAsyncContextManager[None]]
AnyLifespan = Callable[[Starlette], AbstractAsyncContextManager[object]]


def ladder_beside(
    store: object, work: Work, accounts: AccountStore, ratings: RatingStore
) -> Ladder:
    """The ladder beside a game store, with its settings from the environment."""
    return Ladder(ladder_store_for(store), work, accounts, ratings)


def with_ladder(ladder: Ladder, lifespan: AnyLifespan) -> Lifespan:
    """The server's `lifespan` with the ladder in it: its store opened once the server's
    stores are, its passes run (unless RISIKO_LADDER_ENABLED is false) while the server
    runs, and both stopped before the server's stores close."""

    @contextlib.asynccontextmanager
    async def running(app: Starlette) -> AsyncIterator[None]:
        async with lifespan(app):
            await ladder.store.open()
            task = asyncio.create_task(ladder.run()) if ladder.settings.enabled else None
            try:
                yield
            finally:
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                await ladder.store.close()

    return running
