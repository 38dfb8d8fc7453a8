"""A seat's own stream: what concerns one or more seats, across their games, in one stream.

A bot that plays fifty games follows one stream instead of fifty: it is told when it becomes
a seat's turn, when an answer is owed, when a deadline nears and when a game ends. Each
notice is worked out from the game as it is (its session), woken by the game's events, so it
shows nothing a spectator could not see: whose turn it is, and the clock.

The seats are those of a list of seat tokens, or every seat of an account (as Lichess's
event stream of an account): the games it sits in when the stream starts, and each game it
joins later, told by its account's channel (api/accounts/changes.py). An account's stream
never ends of itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from api.accounts.changes import account_channel
from api.clock import ClockState
from api.service import GameService, Unauthenticated
from api.stores.base import GameStatus, SeatRecord

WARN_AT_MOST = 60.0  # seconds before a deadline, at most, that DEADLINE_NEAR comes
WARN_SHARE = 0.25  # … and at least this share of the time the seat had, at most 60 s
MAX_GAMES = 1000  # an account's games not finished that its stream follows from the start


class NoticeKind(enum.StrEnum):
    YOUR_TURN = "your_turn"  # the seat is to act in its turn
    ANSWER_OWED = "answer_owed"  # the seat owes an answer out of turn (a prompt)
    DEADLINE_NEAR = "deadline_near"  # the seat's time runs out soon
    GAME_ENDED = "game_ended"


@dataclass(frozen=True, slots=True)
class Notice:
    game_id: str
    seat: int
    kind: NoticeKind
    version: int
    deadline: float | None


@dataclass(slots=True)
class _Watch:
    """What the stream has told one seat of one game so far. The seat is found anew from its
    token (or its account) at every look: in the lobby the seats after one that leaves move
    up."""

    game_id: str
    token_hash: str | None
    account_id: str | None = None
    seat: int = -1
    acting: NoticeKind | None = None
    deadline: float | None = None  # the seat's deadline now, if its time runs
    warn_at: float | None = None  # when DEADLINE_NEAR is due for it (None: told, or none)
    ended: bool = False


async def seat_notices(
    service: GameService, seats: Sequence[tuple[str, str]]
) -> AsyncIterator[Notice]:
    """The notices of `seats` ((game id, seat token's hash) pairs), the current ones first;
    ends when every one of their games has ended. A token that is no longer any seat's (it
    left the lobby) ends the stream with `Unauthenticated`."""
    stream = _SeatStream(service, [_Watch(game_id, token_hash) for game_id, token_hash in seats])
    async for notice in stream.run(None):
        yield notice


async def account_notices(service: GameService, account_id: str) -> AsyncIterator[Notice]:
    """The notices of every seat of the account: in the games not finished it sits in now,
    and in each it joins later. A seat it leaves (in the lobby) is no longer followed."""
    stream = _SeatStream(service, [])
    for status in (GameStatus.LOBBY, GameStatus.ACTIVE):
        for record in await service.games(status, None, None, MAX_GAMES, account_id):
            stream.watches.append(_Watch(record.id, None, account_id))
    async for notice in stream.run(account_id):
        yield notice


class _SeatStream:
    """The watches of one stream, and the games' events that wake it."""

    def __init__(self, service: GameService, watches: list[_Watch]) -> None:
        self.service = service
        self.watches = watches
        self.wakes: asyncio.Queue[str] = asyncio.Queue()
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.seated: set[str] = set()  # games the account has just sat down in

    async def run(self, account_id: str | None) -> AsyncIterator[Notice]:
        """The notices, the current ones first; with `account_id`, also of the games the
        account joins meanwhile, and for ever; else until every game has ended."""
        for game_id in sorted({watch.game_id for watch in self.watches}):
            self._follow(game_id)
        if account_id is not None:
            self.tasks[""] = asyncio.create_task(self._seatings(account_id))
        try:
            while account_id is not None or not all(watch.ended for watch in self.watches):
                due, timeout = await self.warnings()
                for notice in due:
                    yield notice
                woken = await self.woken(timeout)
                self._join(account_id)
                for watch in self.watches:
                    if watch.game_id in woken and not watch.ended:
                        for notice in await self.look(watch):
                            yield notice
        finally:
            for task in self.tasks.values():
                task.cancel()
            for task in self.tasks.values():
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def _follow(self, game_id: str) -> None:
        self.tasks[game_id] = asyncio.create_task(self.forward(game_id))

    def _join(self, account_id: str | None) -> None:
        """Follow each game the account has just sat down in: anew if it had left it."""
        for game_id in self.seated:
            watch = next((w for w in self.watches if w.game_id == game_id), None)
            if watch is None:
                self.watches.append(_Watch(game_id, None, account_id))
                self._follow(game_id)
            elif watch.ended:
                watch.ended, watch.acting = False, None
        self.seated.clear()

    async def _seatings(self, account_id: str) -> None:
        """Wake the stream with each game the account takes a seat in."""
        while True:  # subscribed again if the broker drops a subscriber that fell behind
            async with self.service.broker.subscribe(account_channel(account_id)) as queue:
                while (message := await queue.get()) is not None:
                    if isinstance(message, dict) and message.get("type") == "AccountSeated":
                        self.seated.add(message["game_id"])
                        await self.wakes.put(message["game_id"])

    async def forward(self, game_id: str) -> None:
        """Wake the stream at each of the game's events."""
        while True:  # subscribed again if the broker drops a subscriber that fell behind
            async with self.service.broker.subscribe(game_id) as queue:
                await self.wakes.put(game_id)  # whatever happened before this subscription
                while await queue.get() is not None:
                    await self.wakes.put(game_id)

    async def woken(self, timeout: float | None) -> set[str]:
        """The games woken within `timeout` seconds (a burst of events: each once)."""
        try:
            async with asyncio.timeout(timeout):
                woken = {await self.wakes.get()}
        except TimeoutError:
            return set()
        while not self.wakes.empty():
            woken.add(self.wakes.get_nowait())
        return woken

    async def warnings(self) -> tuple[list[Notice], float | None]:
        """The DEADLINE_NEAR notices due now, and the seconds until the next one (None)."""
        now = self.service.clock()
        due: list[Notice] = []
        timeout = None
        for watch in self.watches:
            if watch.warn_at is None or watch.ended:
                continue
            if watch.warn_at <= now:
                watch.warn_at = None
                version = (await self.service.session(watch.game_id)).record.version
                kind = NoticeKind.DEADLINE_NEAR
                due.append(Notice(watch.game_id, watch.seat, kind, version, watch.deadline))
            else:
                wait = watch.warn_at - now
                timeout = wait if timeout is None else min(timeout, wait)
        return due, timeout

    async def look(self, watch: _Watch) -> list[Notice]:
        """What changed for the watched seat since the last look."""
        session = await self.service.session(watch.game_id)
        record, game = session.record, session.game
        seat = _seat_of(record.seats, watch)
        if seat is None:  # the account left the game's lobby
            watch.ended = True
            return []
        watch.seat = seat
        if record.status == GameStatus.FINISHED:
            watch.ended = True
            return [Notice(watch.game_id, watch.seat, NoticeKind.GAME_ENDED, record.version, None)]
        if game is None:
            return []  # in the lobby
        acting: NoticeKind | None = None
        if game.seat_to_act == watch.seat:
            acting = NoticeKind.ANSWER_OWED if game.prompt_stack else NoticeKind.YOUR_TURN
        deadline = None
        if acting is not None and record.clock is not None and record.time_control is not None:
            deadline = ClockState.from_plain(record.clock).deadline
        self._follow_deadline(watch, deadline)
        notices = []
        if acting is not None and acting != watch.acting:
            notices.append(Notice(watch.game_id, watch.seat, acting, record.version, deadline))
        watch.acting = acting
        return notices

    def _follow_deadline(self, watch: _Watch, deadline: float | None) -> None:
        """A new deadline of the seat's: its warning comes before it, by a share of the time
        the seat had (at most WARN_AT_MOST seconds)."""
        if deadline == watch.deadline:
            return
        watch.deadline = deadline
        watch.warn_at = None
        if deadline is not None:
            span = max(0.0, deadline - self.service.clock())
            watch.warn_at = deadline - min(WARN_AT_MOST, span * WARN_SHARE)


def _seat_of(seats: Sequence[SeatRecord], watch: _Watch) -> int | None:
    """The watched seat now: its token's, or its account's (None if the account has left)."""
    for seat in seats:
        if watch.token_hash is not None and seat.token_hash == watch.token_hash:
            return seat.seat
        if watch.account_id is not None and seat.account_id == watch.account_id:
            return seat.seat
    if watch.account_id is not None:
        return None
    raise Unauthenticated("a seat token of this stream is no longer valid")
