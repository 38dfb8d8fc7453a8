"""The unit of work: one change of one game, whole or not at all.

Every command that changes a game runs in one. Under the game's lock (one change of a game at
a time in this process) it reads the game as it is now (its session: cached, else rebuilt
from the log); the command works out the change on a copy of the engine; the commit appends
it to the store in one transaction (the log entry, its numbered events, the game's row, a
snapshot every few versions, the answer kept for a clientMutationId) on the unique (game,
sequence) key, so that of two instances racing for a version only one wins (STALE_VERSION).
Only then does the cache hold the new game and do its events go to the subscribers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any, Self

from api.commands import LobbyLimits
from api.publishing import Publisher
from api.read_models import Session, Sessions
from api.service_errors import ServiceError
from api.stores import codec
from api.stores.base import (
    GameRecord,
    GameStatus,
    Idempotency,
    LogEntry,
    RecordedEvent,
    Store,
    StoredEvent,
    VersionConflict,
)
from domain.errors import ErrorCode
from domain.events import Event
from domain.kernel import Kernel

SNAPSHOT_EVERY = 10

logger = logging.getLogger("risiko")


@dataclass(frozen=True, slots=True)
class Change:
    """What one log entry changes: the game's row after it (its version and time are set by
    the commit), the entry (kind, seat, payload), its events, and the engine after it (None:
    unchanged). `answer_key`: the clientMutationId under which the answer to `seat` is kept."""

    record: GameRecord
    kind: str
    seat: int | None
    payload: dict[str, Any]
    events: Sequence[Event]
    game: Kernel | None = None
    answer_key: str | None = None


@dataclass(frozen=True, slots=True)
class Committed:
    """A change the store accepted: the game as it is now and the events it numbered."""

    session: Session
    events: tuple[RecordedEvent, ...]

    @property
    def record(self) -> GameRecord:
        return self.session.record


def _never_due(game_id: str) -> None:
    """No clock told of the games due at once (until the service sets one)."""


async def _nobody_told(game_id: str) -> None:
    """Nobody told of a finished game (until the server sets who: its tournament)."""


async def _as_it_is(record: GameRecord) -> GameRecord:
    """No account deleted (until the server sets who knows: api/account_games.py)."""
    return record


@dataclass
class Work:
    """What every unit of work needs: the store, the games as they are now, the publisher,
    the time, the lobby's limits, whom to tell of a game the clock must act on at once, what a
    game's row becomes as it finishes (the seats of deleted accounts made anonymous), and
    whom to tell once a finished game is committed (the tournament that counts its result)."""

    store: Store
    sessions: Sessions
    publisher: Publisher
    now: Callable[[], float]
    lobby: LobbyLimits = field(default_factory=LobbyLimits)
    due: Callable[[str], None] = _never_due
    finishing: Callable[[GameRecord], Awaitable[GameRecord]] = _as_it_is
    finished: Callable[[str], Awaitable[None]] = _nobody_told
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    def unit(self, game_id: str) -> UnitOfWork:
        """A unit of work on `game_id`: `async with work.unit(game_id) as unit: ...`."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return UnitOfWork(self, game_id, lock)

    async def create(self, record: GameRecord, payload: dict[str, Any], event: Event) -> None:
        """A new game: its row, its create entry and the event that tells it (nobody can
        race for a game nobody knows yet)."""
        entry = LogEntry(1, "create", None, payload, record.created_at)
        recorded = RecordedEvent(1, 1, event.visible_to, event)
        self.publisher.expect(record.id, [recorded])
        try:
            await self.store.create(record, entry, [codec.encode(recorded)])
        except BaseException:
            self.publisher.forget(record.id, [recorded])
            raise
        self.sessions.remember(Session(record, None, 1))
        self.publisher.publish(record.id, [recorded])


class UnitOfWork:
    """One change of one game under its lock (see the module)."""

    def __init__(self, work: Work, game_id: str, lock: asyncio.Lock) -> None:
        self.work = work
        self.game_id = game_id
        self._lock = lock

    async def __aenter__(self) -> Self:
        await self._lock.acquire()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._lock.release()

    async def session(self) -> Session:
        """The game as it is now (GAME_NOT_FOUND if there is none)."""
        return await self.work.sessions.get(self.game_id)

    async def commit(self, session: Session, change: Change) -> Committed:
        """Append `change` to the game `session` shows: STALE_VERSION if another change was
        accepted first (the cached game is dropped then; a rebuild reads the winner's)."""
        now = self.work.now()
        game = change.game or session.game
        record = _next_row(change.record, session.record.version + 1, now, game)
        if record.status == GameStatus.FINISHED != session.record.status:
            record = await self.work.finishing(record)
        first = session.last_event + 1
        events = tuple(
            RecordedEvent(first + offset, record.version, event.visible_to, event)
            for offset, event in enumerate(change.events)
        )
        stored = [codec.encode(event) for event in events]
        entry = LogEntry(record.version, change.kind, change.seat, change.payload, now)
        self.work.publisher.expect(record.id, events, accounts_of(record))
        try:
            await self.work.store.append(
                record,
                entry,
                stored,
                _answer(change, entry, stored),
                seats_changed=record.seats != session.record.seats,
            )
        except BaseException as error:
            self.work.publisher.forget(record.id, events)
            self.work.sessions.forget(self.game_id)
            if isinstance(error, VersionConflict):
                raise ServiceError(
                    ErrorCode.STALE_VERSION,
                    "another change was accepted first; load the game and retry",
                ) from None
            raise
        committed = Committed(Session(record, game, session.last_event + len(events)), events)
        self.work.sessions.remember(committed.session)
        self.work.publisher.publish(record.id, events, accounts_of(record))
        if record.deadline is not None and record.deadline <= now:
            self.work.due(record.id)  # a bot, or the proxy, is to act at once
        if record.status == GameStatus.FINISHED != session.record.status:
            await self._tell_finished(record.id)
        return committed

    async def _tell_finished(self, game_id: str) -> None:
        """The game is over and committed: whoever counts it hears now. A failure leaves the
        game as committed; what counts it also looks again later (the tournament as it is
        read), so it is logged, not raised."""
        try:
            await self.work.finished(game_id)
        except Exception:
            logger.exception("telling that game %s finished failed", game_id)


def each_told(*listeners: Callable[[str], Awaitable[None]]) -> Callable[[str], Awaitable[None]]:
    """`Work.finished` for several listeners (the tournaments, the ratings): each is told in
    turn, and one's failure is logged without keeping the others from hearing."""

    async def tell(game_id: str) -> None:
        for listener in listeners:
            try:
                await listener(game_id)
            except Exception:
                logger.exception("telling that game %s finished failed", game_id)

    return tell


def accounts_of(record: GameRecord) -> list[str]:
    """The accounts seated in the game."""
    return [seat.account_id for seat in record.seats if seat.account_id is not None]


def _next_row(record: GameRecord, version: int, now: float, game: Kernel | None) -> GameRecord:
    """The row at its new version, with a snapshot every few versions (and at the end): a
    rebuild replays at most that many entries after it."""
    record = replace(record, version=version, updated_at=now)
    if game is not None and (version - record.snapshot_version >= SNAPSHOT_EVERY or game.is_over):
        record = replace(record, snapshot=game.snapshot(), snapshot_version=version)
    return record


def _answer(change: Change, entry: LogEntry, stored: Sequence[StoredEvent]) -> Idempotency | None:
    """The answer kept for the change's clientMutationId: its version and the events its seat
    may see."""
    if change.answer_key is None:
        return None
    seen = [event for event in stored if event.is_visible_to(change.seat)]
    return Idempotency(change.seat, change.answer_key, codec.encode_answer(entry.seq, seen))
