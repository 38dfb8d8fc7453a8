"""The matchmaking pool served (docs/rated-play.md, "The pool, served").

An account joins a seek (`join`: checked against the game's limits, its rating in that
variant and speed read once, at most `MOST_SEEKS` open at once), sees it (`seeks_of`) and
cancels it (`cancel`). Every instance runs a pass every `PASS_SECONDS` and at once when a seek
is added here: open seeks past their lifetime expire, the open ones are matched
(competition/matchmaking.match), each table's seeks are claimed by a conditional write of
their state (`open` to `matched:<table>`; a table whose claim partly failed is rolled back, its
seeks open again for the next pass), and the table's game is created with the table's id,
seated with the accounts and started. A table whose opening failed (its instance died, the
store failed) is opened again by a later pass, every step being safe to repeat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from api.accounts.scopes import Principal, Scope
from api.clock import TimeControl
from api.pool.records import CANCELLED, OPEN, SeekRecord
from api.pool.store import SeekStore
from api.ratings.records import Speed, speed_of
from api.stores.ratings import RatingStore
from competition.matchmaking import Kind, Opponents, Seek, Window, match, seek_problem
from domain.errors import CodedError, ErrorCode, InvalidOptions
from variants import VARIANTS

MOST_SEEKS = 3  # open seeks of one account at once
PASS_SECONDS = 5.0
PASS_LIMIT = 10_000  # seeks looked at in one pass, oldest first
# A seek lives long enough to meet a table of its pace: half an hour for a game played at a
# sitting (its window is at its widest after ten minutes), a day for a correspondence game.
LIFETIME = {Speed.REAL_TIME: 30 * 60.0, Speed.CORRESPONDENCE: 24 * 3600.0}
REPAIR_AFTER = 60.0  # a table matched this long ago and not started is opened again
REPAIR_BATCH = 100

logger = logging.getLogger("risiko")


class PoolError(CodedError):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class JoinSeek:
    """A seek asked for: a game of `variant` at a table of `players`, with `clock` (its
    TimeControl's plain form), rated or not, against `opponents`."""

    variant: str
    players: int
    clock: dict[str, object] | None
    rated: bool = True
    opponents: Opponents = Opponents.ANY
    seed: str | None = None  # refused: the pool's dice are nobody's choice


def pace(clock: dict[str, object]) -> str:
    """The pool's key of a clock: seeks meet only seekers of the very same clock."""
    return json.dumps(clock, sort_keys=True, separators=(",", ":"))


def as_seek(record: SeekRecord) -> Seek:
    return Seek(
        id=record.id,
        account=record.account,
        rating=record.rating,
        variant=record.variant,
        players=record.players,
        speed=pace(record.clock),
        rated=record.rated,
        created=record.created,
        kind=Kind.BOT if record.bot else Kind.PERSON,
        opponents=Opponents(record.opponents),
    )


def checked_clock(command: JoinSeek) -> dict[str, object]:
    """The seek's settings checked: INVALID_SEEK, UNKNOWN_VARIANT or RATED_GAME_SEEDED."""
    if command.variant not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise PoolError(ErrorCode.UNKNOWN_VARIANT, f"unknown variant; known: {known}")
    if command.seed is not None:
        if command.rated:
            raise PoolError(ErrorCode.RATED_GAME_SEEDED, "a rated game's dice are nobody's choice")
        raise PoolError(ErrorCode.INVALID_SEEK, "the pool's games have dice nobody arranged")
    ruleset = VARIANTS[command.variant].ruleset
    if not ruleset.min_players <= command.players <= ruleset.max_players:
        raise PoolError(
            ErrorCode.INVALID_SEEK,
            f"{command.variant} is played by {ruleset.min_players} to {ruleset.max_players}",
        )
    if not command.clock:
        raise PoolError(ErrorCode.INVALID_SEEK, "a pool game has a clock (strangers wait)")
    try:
        control = TimeControl.from_dict(dict(command.clock))
    except (InvalidOptions, TypeError) as error:
        raise PoolError(ErrorCode.INVALID_SEEK, str(error)) from None
    if not control.timed:
        raise PoolError(ErrorCode.INVALID_SEEK, "a pool game has a time per turn or a bank")
    return control.to_dict()


class TableOpener(Protocol):
    async def open_table(self, table: str, seeks: Sequence[SeekRecord]) -> None:
        """The table's game created, seated and started (api/pool/tables.PoolTables); safe
        to repeat."""
        ...


class Pool:
    def __init__(
        self,
        store: SeekStore,
        ratings: RatingStore,
        tables: TableOpener,
        now: Callable[[], float] = time.time,
        window: Window | None = None,
    ) -> None:
        self.store = store
        self.ratings = ratings
        self.tables = tables
        self.now = now
        self.window = window or Window()
        self.wanted = asyncio.Event()  # a seek was added here: pass at once

    async def join(self, principal: Principal, command: JoinSeek) -> SeekRecord:
        principal.require(Scope.GAMES_PLAY)
        clock = checked_clock(command)
        speed = speed_of(clock)
        standing = await self.ratings.standing(principal.account_id, command.variant, speed)
        now = self.now()
        record = SeekRecord(
            id=uuid.uuid4().hex,
            account=principal.account_id,
            name=principal.name,
            bot=principal.bot,
            variant=command.variant,
            players=command.players,
            clock=clock,
            speed=speed.value,
            rated=command.rated,
            opponents=command.opponents.value,
            rating=float(standing.rating.display),
            created=now,
            expires=now + LIFETIME[speed],
        )
        problem = seek_problem(as_seek(record))
        if problem is not None:
            raise PoolError(ErrorCode.INVALID_SEEK, problem)
        if not await self.store.add(record, MOST_SEEKS):
            raise PoolError(
                ErrorCode.TOO_MANY_SEEKS, f"at most {MOST_SEEKS} open seeks: cancel one first"
            )
        self.wanted.set()
        return record

    async def cancel(self, principal: Principal, seek_id: str) -> SeekRecord:
        """The principal's open seek cancelled; a seek matched already stays matched."""
        principal.require(Scope.GAMES_PLAY)
        record = await self.store.seek(seek_id)
        if record is None:
            raise PoolError(ErrorCode.SEEK_NOT_FOUND, "no seek of that id")
        if record.account != principal.account_id:
            raise PoolError(ErrorCode.NOT_YOUR_SEEK, "a seek is cancelled by its account")
        if record.state == OPEN:
            await self.store.set_state(seek_id, CANCELLED, self.now())
        return await self.store.seek(seek_id) or record

    async def seeks_of(self, account: str, limit: int) -> list[SeekRecord]:
        return await self.store.seeks_of(account, limit)

    async def run_pass(self) -> int:
        """Expire, repair, match, claim and open: the tables opened."""
        opened = 0
        for table, seeks in await self.claim_tables(self.now()):
            opened += await self._open(table, seeks)
        return opened

    async def claim_tables(self, now: float) -> list[tuple[str, list[SeekRecord]]]:
        """A pass's tables formed and claimed whole (their seeks matched to them), each with
        its seeks, the oldest first; their games are still to open."""
        await self.store.expire(now)
        await self._repair(now)
        records = await self.store.open_seeks(now, PASS_LIMIT)
        by_id = {record.id: record for record in records}
        seeks = [as_seek(record) for record in records]
        # A full pool's matching takes a tenth of a second or more: off the event loop, which
        # goes on serving meanwhile.
        found = await asyncio.to_thread(match, seeks, now, self.window)
        formed = {uuid.uuid4().hex: [by_id[seek.id] for seek in table.seeks] for table in found}
        tables = [(table, [seek.id for seek in seeks]) for table, seeks in formed.items()]
        return [(table, formed[table]) for table in await self.store.claim(tables, now)]

    async def _open(self, table: str, seeks: Sequence[SeekRecord]) -> int:
        try:
            await self.tables.open_table(table, seeks)
            await self.store.mark_started(table)
        except Exception:
            logger.exception("opening the pool's table %s failed (a later pass retries)", table)
            return 0
        return 1

    async def _repair(self, now: float) -> None:
        tables: dict[str, list[SeekRecord]] = defaultdict(list)
        for record in await self.store.unstarted(now - REPAIR_AFTER, REPAIR_BATCH):
            tables[record.table or ""].append(record)
        for table, seeks in tables.items():
            await self._open(table, sorted(seeks, key=lambda s: (s.created, s.id)))

    async def run(self, every: float = PASS_SECONDS) -> None:
        """A pass every `every` seconds, and at once when a seek is added, until cancelled."""
        while True:
            try:
                await self.run_pass()
            except Exception:
                logger.exception("a pass of the matchmaking pool failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wanted.wait(), timeout=every)
            self.wanted.clear()
