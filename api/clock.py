"""Turn clocks: how long a seat may take to act, and who acts for it when it does not.

A game created with a time control gives the seat to act a deadline: a time per turn, or a
bank per player with an increment per turn (Fischer), and a time of its own for an answer
owed out of turn (a prompt: declared defence dice, …), during which the turn's own time stands
still. When a deadline passes, the game's absence policy acts for the seat through the same
write path as a person: a bot plays the turn (`proxy`), or the turn ends with the least the
rules allow (`minimal`); an answer gets its default. After `resign_after` absences in a row
the player resigns. The clock's state is a projection of the log kept in the game's row, so
it survives restarts and is the same on every instance; the row's `deadline` says when the
game next needs the clock (the earliest of the seat's deadline, the tournament time limit,
and "now" when a bot is to act), and any instance may act on it: the version check of the
write path lets one of them through.

None of this is a rule of any game, so none of it is in the domain: the engine only tells
who is to act (`seat_to_act`, `open_prompt`) and which turn is under way (`turn_key`).
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, replace
from typing import Any

from domain.actions import doc
from domain.errors import InvalidOptions
from domain.events import Event, register_event
from domain.kernel import Kernel

TURN, ANSWER = "turn", "answer"
MAX_SECONDS = 30 * 24 * 3600.0  # correspondence games: up to a month per turn


class Absence(enum.StrEnum):
    """What the clock does for a seat whose time has run out."""

    PROXY = "proxy"  # the server's odds bot plays the seat's turn
    MINIMAL = "minimal"  # the turn ends with the least the rules allow


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A game's time control, chosen at creation. No turn time and no bank: no clock."""

    turn_seconds: float | None = None
    bank_seconds: float | None = None
    increment_seconds: float = 0.0
    answer_seconds: float = 60.0
    absence: Absence = Absence.PROXY
    resign_after: int = 3

    def __post_init__(self) -> None:
        if self.turn_seconds is not None and self.bank_seconds is not None:
            raise InvalidOptions("choose a time per turn or a time bank, not both")
        for name in ("turn_seconds", "bank_seconds", "answer_seconds"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= MAX_SECONDS:
                raise InvalidOptions(f"{name} must be 1 to {MAX_SECONDS:g} seconds")
        if not 0 <= self.increment_seconds <= MAX_SECONDS:
            raise InvalidOptions(f"increment_seconds must be 0 to {MAX_SECONDS:g} seconds")
        if self.increment_seconds and self.bank_seconds is None:
            raise InvalidOptions("an increment goes with a time bank (bank_seconds)")
        if not 1 <= self.resign_after <= 100:
            raise InvalidOptions("resign_after must be 1 to 100 absences")

    @property
    def timed(self) -> bool:
        return self.turn_seconds is not None or self.bank_seconds is not None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "absence": self.absence.value}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TimeControl:
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptions(f"unknown time control fields: {', '.join(unknown)}")
        values = dict(data)
        try:
            if "absence" in values:
                values["absence"] = Absence(values["absence"])
        except ValueError:
            choices = ", ".join(a.value for a in Absence)
            raise InvalidOptions(f"absence is one of {choices}") from None
        return cls(**values)


@register_event
@dataclass(frozen=True, slots=True)
class ClockChanged(Event):
    """The seat to act, or its deadline, changed (public)."""

    seat: int | None = doc("The seat whose time runs; null: nobody's (the game is over).")
    kind: str | None = doc("turn (its turn) or answer (an answer owed out of turn); null: none.")
    deadline: float | None = doc("When its time runs out, in seconds since the epoch; null: none.")
    banks: tuple[float, ...] = doc("Each seat's time bank in seconds, in games with banks.")


@register_event
@dataclass(frozen=True, slots=True)
class PlayedByProxy(Event):
    """The next actions of this entry were played for `seat` by the clock (public)."""

    seat: int = doc("The seat played for.")
    reason: str = doc("turn_timeout, answer_timeout or absent_resigns.")
    absences: int = doc("Its absences in a row, this one included.")


@dataclass(frozen=True, slots=True)
class ClockState:
    """Where a game's clock stands, kept as plain data in the game's row."""

    holder: int | None = None  # the seat to act
    kind: str | None = None  # TURN or ANSWER
    deadline: float | None = None  # the holder's (timed games)
    turn: tuple[int, ...] | None = None  # the game's turn_key when this turn began
    turn_seat: int | None = None
    prompt: Any = None  # the open prompt, as plain data, while one is answered
    paused: float | None = None  # the turn's time left while a prompt is answered
    banks: tuple[float, ...] = ()
    absences: tuple[int, ...] = ()  # timeouts in a row, per seat
    proxy: tuple[bool, ...] = ()  # seats whose turn the proxy plays until it ends
    limit_at: float | None = None  # the tournament time limit

    @classmethod
    def start(cls, control: TimeControl | None, seats: int, limit_at: float | None) -> ClockState:
        bank = control.bank_seconds if control is not None else None
        return cls(
            banks=(bank,) * seats if bank is not None else (),
            absences=(0,) * seats,
            proxy=(False,) * seats,
            limit_at=limit_at,
        )

    def to_plain(self) -> dict[str, Any]:
        plain = asdict(self)
        for name in ("turn", "banks", "absences", "proxy"):
            if plain[name] is not None:
                plain[name] = list(plain[name])
        return plain

    @classmethod
    def from_plain(cls, plain: dict[str, Any]) -> ClockState:
        turn = plain.get("turn")
        return cls(
            holder=plain.get("holder"),
            kind=plain.get("kind"),
            deadline=plain.get("deadline"),
            turn=None if turn is None else tuple(turn),
            turn_seat=plain.get("turn_seat"),
            prompt=plain.get("prompt"),
            paused=plain.get("paused"),
            banks=tuple(plain.get("banks", ())),
            absences=tuple(plain.get("absences", ())),
            proxy=tuple(plain.get("proxy", ())),
            limit_at=plain.get("limit_at"),
        )

    def follow(self, control: TimeControl | None, game: Kernel, now: float) -> ClockState:
        """The clock after a change of the game, at `now`: a new turn gets its time (and the
        turn that ended banks what it left, plus the increment), a new prompt gets its answer
        time while the turn's time stands still, and the turn resumes when it is answered."""
        if game.is_over:
            return self._stopped()
        turn, turn_seat = game.turn_key, game.current
        new_turn = turn != self.turn or turn_seat != self.turn_seat
        left, banks, proxy = self._time_left(control, turn_seat, new_turn, now)
        moved = replace(self, turn=turn, turn_seat=turn_seat, banks=banks, proxy=proxy)
        prompt = game.prompt_stack[-1] if game.prompt_stack else None
        if prompt is not None:
            return moved._answering(prompt, control, left, now)
        if not new_turn and self.kind == TURN:
            deadline = self.deadline  # the turn goes on: its deadline, as it was
        else:
            deadline = None if left is None else now + left
        return replace(
            moved, holder=turn_seat, kind=TURN, deadline=deadline, prompt=None, paused=None
        )

    def _stopped(self) -> ClockState:
        """The clock of a game that is over: nobody's time runs."""
        return replace(
            self,
            holder=None,
            kind=None,
            deadline=None,
            turn=None,
            turn_seat=None,
            prompt=None,
            paused=None,
            proxy=(False,) * len(self.proxy),
        )

    def _time_left(
        self, control: TimeControl | None, turn_seat: int, new_turn: bool, now: float
    ) -> tuple[float | None, tuple[float, ...], tuple[bool, ...]]:
        """The time the turn under way has left (a new turn: its own), and the banks and the
        proxy's turns after the turn that ended."""
        banks, proxy = list(self.banks), list(self.proxy)
        left = self.paused if self.kind == ANSWER else _left(self.deadline, now)
        if new_turn:
            if self.turn_seat is not None:
                proxy[self.turn_seat] = False  # the proxy plays one turn at a time
                if banks and left is not None and control is not None:
                    banks[self.turn_seat] = max(0.0, left) + control.increment_seconds
            left = None
            if control is not None and control.timed:
                left = control.turn_seconds if control.turn_seconds else banks[turn_seat]
        return left, tuple(banks), tuple(proxy)

    def _answering(
        self, prompt: Any, control: TimeControl | None, left: float | None, now: float
    ) -> ClockState:
        """The clock while `prompt` waits for its answer: the answer's own time (the same
        deadline for the same prompt), the turn's time standing still."""
        same = self.kind == ANSWER and self.prompt == prompt
        deadline = None
        if control is not None and control.timed:
            deadline = self.deadline if same else now + control.answer_seconds
        return replace(
            self,
            holder=int(prompt[0]),
            kind=ANSWER,
            deadline=deadline,
            prompt=prompt,
            paused=None if left is None else max(0.0, left),
        )

    def acted(self, seat: int) -> ClockState:
        """The seat acted itself: it is present again."""
        if seat >= len(self.absences) or (not self.absences[seat] and not self.proxy[seat]):
            return self
        absences, proxy = list(self.absences), list(self.proxy)
        absences[seat], proxy[seat] = 0, False
        return replace(self, absences=tuple(absences), proxy=tuple(proxy))

    def absent(self, seat: int, *, proxy_turn: bool) -> ClockState:
        """The seat's time ran out once more; with `proxy_turn`, the proxy plays the rest of
        its turn."""
        absences, proxy = list(self.absences), list(self.proxy)
        absences[seat] += 1
        proxy[seat] = proxy[seat] or proxy_turn
        return replace(self, absences=tuple(absences), proxy=tuple(proxy))

    def shown(self) -> tuple[Any, ...]:
        """What a ClockChanged event tells: a change of it is announced."""
        return (self.holder, self.kind, self.deadline, self.banks)

    def changed_event(self) -> ClockChanged:
        return ClockChanged(self.holder, self.kind, self.deadline, self.banks)

    def due_at(self, bots: tuple[bool, ...], now: float) -> float | None:
        """When the game next needs the clock: at once when a bot or the proxy is to act,
        else at the holder's deadline or the time limit, whichever comes first."""
        if self.holder is not None and (
            bots[self.holder] or (self.kind == TURN and self.proxy[self.holder])
        ):
            return now
        moments = [t for t in (self.deadline, self.limit_at) if t is not None]
        return min(moments) if moments else None


def _left(deadline: float | None, now: float) -> float | None:
    return None if deadline is None else deadline - now
