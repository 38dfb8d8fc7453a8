"""The clock's work (api/clock.py keeps the time; this acts on it): the games whose deadline
has passed found at every tick, and for each the steps it is owed, one at a time under its
lock, through the same write as a seat's move (api/moves.py): the time limit, a seated bot's
move, the proxy's for the rest of a turn it took over, or an absence, which resigns the seat,
answers a prompt with its default or plays the turn by the absence policy."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from dataclasses import replace

from api.clock import ANSWER, TURN, Absence, ClockState, PlayedByProxy, TimeControl
from api.moves import Play, apply_action, time_control
from api.read_models import Session
from api.service_errors import ServiceError
from api.stores.base import GameStatus
from api.unit_of_work import UnitOfWork, Work
from bots.seated import BotPolicy, seated_choice
from domain import actions as a
from domain.errors import RuleViolation
from domain.events import Event

logger = logging.getLogger("risiko.service")
# The clock's steps in one go for one game (a bot's turn, a proxy's): then the other games'
# turn; the next tick comes back to it.
CLOCK_STEPS = 200
DUE_PER_TICK = 100


class Scheduler:
    """Finds the games the clock owes a step and works on each in the background, one task a
    game (any instance may: the write's version check lets one act)."""

    def __init__(self, work: Work) -> None:
        self.work = work
        # Time limits of games started before game clocks (their rows have no clock state):
        # game id -> when the limit expires. Every newer game keeps its deadline in its row.
        self.deadlines: dict[str, float] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}

    async def tick(self) -> list[str]:
        """The games whose deadline has passed, each given to the clock."""
        due = await self.work.store.due_games(self.work.now(), DUE_PER_TICK)
        for game_id in due:
            self.kick(game_id)
        return due

    def kick(self, game_id: str) -> None:
        """Work on `game_id` in the background, unless already at work on it."""
        if game_id in self._tasks:
            return
        task = asyncio.get_running_loop().create_task(self._run(game_id))
        self._tasks[game_id] = task
        task.add_done_callback(lambda _: self._tasks.pop(game_id, None))

    async def _run(self, game_id: str) -> None:
        try:
            for _ in range(CLOCK_STEPS):
                if not await self.act_on_clock(game_id):
                    return
        except ServiceError as error:  # another instance acted first, or the game is over
            logger.debug("game %s: the clock stops (%s)", game_id, error.message)
        except Exception:  # the store may be down for a while: the next tick comes back
            logger.exception("game %s: the clock could not act", game_id)

    async def act_on_clock(self, game_id: str) -> bool:
        """One step the clock owes the game, if one is due; whether it acted."""
        async with self.work.unit(game_id) as unit:
            return await clock_step(unit, await unit.session())

    async def settle(self) -> None:
        """Wait until the clock's work under way is done (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def recover_deadlines(self) -> None:
        """After a restart: the time limits of the games under way, from their start entries."""
        store = self.work.store
        after: str | None = None
        while True:
            page = await store.games(GameStatus.ACTIVE, None, after, 100)
            for record in page:
                limit = record.options.get("time_limit_minutes")
                if limit is None or record.clock is not None:
                    continue  # no limit, or one the game's clock keeps
                start = next(e for e in await store.log(record.id) if e.kind == "start")
                self.deadlines[record.id] = start.created_at + limit * 60
            if len(page) < 100:
                return
            after = page[-1].id

    async def expire_due(self) -> list[str]:
        """Declare the time limit of every game whose deadline has passed."""
        now = self.work.now()
        due = [game_id for game_id, deadline in self.deadlines.items() if deadline <= now]
        for game_id in due:
            del self.deadlines[game_id]
            with contextlib.suppress(ServiceError):  # finished or gone meanwhile
                await declare_time_limit(self.work, game_id)
        return due


async def declare_time_limit(work: Work, game_id: str) -> None:
    """The game's clock: the tournament time limit has passed."""
    async with work.unit(game_id) as unit:
        session = await unit.session()
        game = session.game
        if session.record.status == GameStatus.ACTIVE and game and not game.time_expired:
            await apply_action(unit, session, Play(None, a.ExpireTime()))


async def act_if_late(unit: UnitOfWork, session: Session, seat: int) -> bool:
    """A move of a seat whose deadline has passed comes after the clock: the clock acts for
    it first (one step: its absence), and the move is judged on what follows."""
    clock = session.record.clock
    if clock is None or session.record.status != GameStatus.ACTIVE:
        return False
    state = ClockState.from_plain(clock)
    if state.holder != seat or state.deadline is None or state.deadline > unit.work.now():
        return False
    return await clock_step(unit, session)


async def clock_step(unit: UnitOfWork, session: Session) -> bool:
    """The time limit, a seated bot's move, the proxy's for an absent seat, or an absence:
    whichever is due now (under `unit`'s lock); whether one was."""
    record, game = session.record, session.game
    if record.status != GameStatus.ACTIVE or game is None or record.clock is None:
        return False
    state = ClockState.from_plain(record.clock)
    now = unit.work.now()
    if state.limit_at is not None and state.limit_at <= now and not game.time_expired:
        await apply_action(unit, session, Play(None, a.ExpireTime()))
        return True
    seat = game.seat_to_act
    if seat is None:
        return False
    bot = record.seats[seat].bot
    control = time_control(record)
    if bot is not None:
        await _play_for(unit, session, seat, BotPolicy(bot), "bot", None, None)
        return True
    if control is None:
        return False
    if state.kind == TURN and state.proxy[seat]:  # the rest of a turn it missed
        note = PlayedByProxy(seat, "turn_timeout", state.absences[seat])
        await _play_for(unit, session, seat, _proxy(control), "proxy", note, None)
        return True
    if state.deadline is None or state.deadline > now:
        return False
    await _absence(unit, session, seat, state, control)
    return True


async def _absence(
    unit: UnitOfWork, session: Session, seat: int, state: ClockState, control: TimeControl
) -> None:
    """The seat to act let its deadline pass once more: after `resign_after` absences it
    resigns; an answer owed gets its default; a turn is played by the absence policy."""
    assert session.game is not None
    absent = state.absent(seat, proxy_turn=state.kind == TURN)
    absences = absent.absences[seat]
    if absences >= control.resign_after:
        note = PlayedByProxy(seat, "absent_resigns", absences)
        play = Play(seat, a.Resign(), note=note, clock_update=lambda _: absent)
        await apply_action(unit, session, play)
    elif state.kind == ANSWER:
        note = PlayedByProxy(seat, "answer_timeout", absences)
        least = session.game.least_action(seat)
        play = Play(seat, least, kind="proxy", note=note, clock_update=lambda _: absent)
        await apply_action(unit, session, play)
    else:
        note = PlayedByProxy(seat, "turn_timeout", absences)
        await _play_for(unit, session, seat, _proxy(control), "proxy", note, absent)


async def _play_for(
    unit: UnitOfWork,
    session: Session,
    seat: int,
    policy: BotPolicy | None,
    kind: str,
    note: Event | None,
    absent: ClockState | None,
) -> None:
    """One move for `seat`: a seated bot's, or the proxy's: a bot of `policy`, or the least
    the rules allow (None)."""
    game = session.game
    assert game is not None
    if policy is None:
        action = game.least_action(seat)
    else:
        rnd = random.Random(f"{session.record.id}/{session.record.version}")
        action = seated_choice(policy, game, seat, rnd)
    update = None if absent is None else (lambda _: absent)
    play = Play(seat, action, kind=kind, note=note, clock_update=update)
    try:
        await apply_action(unit, session, play)
    except RuleViolation:  # a bot's mistake must not stall the game: the least then
        logger.exception(
            "game %s: the %s move %r was refused; playing the least instead",
            session.record.id,
            kind,
            action,
        )
        await apply_action(unit, session, replace(play, action=game.least_action(seat)))


def _proxy(control: TimeControl) -> BotPolicy | None:
    """The bot that plays for an absent seat; None: the least the rules allow."""
    return BotPolicy.ODDS if control.absence is Absence.PROXY else None
