"""The one write every action takes, a seat's, a seated bot's or the clock's: applied to a
copy of the game, which validates everything before it changes anything, then committed with
the clock that follows it (api/clock.py), in the unit of work the caller holds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from api.clock import ClockState, TimeControl
from api.read_models import Session
from api.service_errors import ServiceError
from api.stores.base import GameRecord, GameStatus, RecordedEvent
from api.unit_of_work import Change, UnitOfWork
from domain import actions as a
from domain.errors import ErrorCode
from domain.events import Event
from domain.kernel import Kernel

ClockUpdate = Callable[[ClockState], ClockState]


@dataclass(frozen=True, slots=True)
class Submitted:
    """An action's answer: the version it made and the events its seat may see."""

    version: int
    events: tuple[RecordedEvent, ...]  # only those the caller may see
    # The game just after the action, for an answer that shows it without reading it again;
    # None for an answer repeated from the idempotency store.
    session: Session | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Play:
    """An action to apply for `seat` (None: the clock's own) and how it is logged. `key`: its
    clientMutationId; `kind`: the log entry's kind when not the action's own (proxy, bot);
    `note`: an event that comes first (who played it); `clock_update`: what the move changes
    in the clock (default: the seat is present)."""

    seat: int | None
    action: a.Action
    key: str | None = None
    kind: str | None = None
    note: Event | None = None
    clock_update: ClockUpdate | None = None


async def apply_action(unit: UnitOfWork, session: Session, play: Play) -> Submitted:
    """Apply `play` to the game `session` shows and commit it (under `unit`'s lock)."""
    record = session.record
    if record.status == GameStatus.LOBBY or session.game is None:
        raise ServiceError(ErrorCode.GAME_NOT_STARTED, "the game has not started")
    if record.status == GameStatus.FINISHED:
        raise ServiceError(ErrorCode.GAME_OVER, "the game is over")
    # The action is applied to a clone: readers keep seeing the committed game until the
    # store has accepted the new one, and a failed append leaves the cache as it was.
    game = session.game.clone()
    events = game.apply(play.seat, play.action)  # a RuleViolation goes to the client as it is
    kind = play.kind or _entry_kind(play.action)
    if play.note is not None:
        events = [play.note, *events]
    updated = _after(record, game)
    if updated.clock is not None:
        update = _clock_update(play, kind)
        updated, told = follow_clock(updated, game, unit.work.now(), update)
        events = [*events, *told]
    change = Change(updated, kind, play.seat, play.action.to_dict(), events, game, play.key)
    committed = await unit.commit(session, change)
    seen = tuple(e for e in committed.events if e.is_visible_to(play.seat))
    return Submitted(committed.record.version, seen, committed.session)


def _entry_kind(action: a.Action) -> str:
    return {a.Resign: "resign", a.ExpireTime: "expire"}.get(type(action), "action")


def _after(record: GameRecord, game: Kernel) -> GameRecord:
    """The row's status, and outcome at the end, after `game`'s change."""
    if not game.is_over:
        return replace(record, status=GameStatus.ACTIVE)
    outcome: dict[str, Any] = {
        "winner": game.winner,
        "reason": game.end_reason,
        "ranking": [{"rank": r, "seat": s, "points": p} for r, s, p in game.ranking],
    }
    return replace(record, status=GameStatus.FINISHED, winner=game.winner, outcome=outcome)


def _clock_update(play: Play, kind: str) -> ClockUpdate:
    """What `play` changes in the clock: the time limit is declared, once; a seat's own
    action shows it present; the clock's own moves say what they change."""
    if isinstance(play.action, a.ExpireTime):
        return lambda state: replace(state, limit_at=None)
    if play.clock_update is not None:
        return play.clock_update
    seat = play.seat
    if seat is not None and kind == "action":
        return lambda state: state.acted(seat)
    return lambda state: state


def follow_clock(
    record: GameRecord, game: Kernel, now: float, update: ClockUpdate
) -> tuple[GameRecord, list[Event]]:
    """The clock after `game`'s change: the row's new clock state and deadline, and a
    ClockChanged event when what the clock shows changed."""
    assert record.clock is not None
    before = ClockState.from_plain(record.clock)
    control = time_control(record)
    after = update(before).follow(control, game, now)
    told: list[Event] = []
    if control is not None and control.timed and after.shown() != before.shown():
        told.append(after.changed_event())
    deadline = None if game.is_over else after.due_at(bots(record), now)
    return replace(record, clock=after.to_plain(), deadline=deadline), told


def time_control(record: GameRecord) -> TimeControl | None:
    if record.time_control is None:
        return None
    return TimeControl.from_dict(record.time_control)


def bots(record: GameRecord) -> tuple[bool, ...]:
    """Which seats a bot the server plays holds."""
    return tuple(seat.bot is not None for seat in record.seats)
