"""Time controls, a game's clock, seated bots and a seat's own stream, as the schema shows them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import strawberry

from api.clock import Absence as DomainAbsence
from api.clock import ClockState
from api.clock import TimeControl as DomainTimeControl
from api.graphql.ids import to_global_id
from api.seat_stream import Notice
from api.seat_stream import NoticeKind as DomainNoticeKind
from api.stores.base import GameRecord
from bots.seated import BotPolicy as DomainBotPolicy

# The service's own enums, as they are (Strawberry marks the class itself, as in enums.py).
for _enum, _name, _description in (
    (
        DomainAbsence,
        "AbsencePolicy",
        "What the clock does for a seat whose time has run out: PROXY, the server's odds bot "
        "plays its turn; MINIMAL, the turn ends with the least the rules allow.",
    ),
    (
        DomainBotPolicy,
        "BotPolicy",
        "How a bot the server seats plays: ODDS attacks when its odds of conquest reach 60 %; "
        "RANDOM plays a legal action at random.",
    ),
    (DomainNoticeKind, "SeatNoticeKind", "What a seat's stream tells."),
):
    strawberry.enum(_enum, name=_name, description=_description)


def iso(moment: float | None) -> str | None:
    return None if moment is None else datetime.fromtimestamp(moment, UTC).isoformat()


@strawberry.input(
    description="A game's clock: a time per turn, or a time bank per player with an "
    "increment per turn; omitted, the game has no clock and waits for every seat."
)
class TimeControlInput:
    turn_seconds: float | None = strawberry.field(
        default=None, description="Time for each turn (1 s to 30 days)."
    )
    bank_seconds: float | None = strawberry.field(
        default=None, description="Each player's time bank, instead of a time per turn."
    )
    increment_seconds: float = strawberry.field(
        default=0.0, description="Added to the bank after each turn (with bankSeconds)."
    )
    answer_seconds: float = strawberry.field(
        default=60.0,
        description="Time to answer a decision owed out of turn (a prompt); the turn's own "
        "time stands still meanwhile.",
    )
    absence: DomainAbsence = strawberry.field(
        default=DomainAbsence.PROXY, description="What the clock does when time runs out."
    )
    resign_after: int = strawberry.field(
        default=3, description="Absences in a row after which the player resigns (1 to 100)."
    )

    def to_plain(self) -> dict[str, Any]:
        return {
            "turn_seconds": self.turn_seconds,
            "bank_seconds": self.bank_seconds,
            "increment_seconds": self.increment_seconds,
            "answer_seconds": self.answer_seconds,
            "absence": self.absence.value,
            "resign_after": self.resign_after,
        }


@strawberry.type(description="The time control a game was created with.")
class TimeControl:
    turn_seconds: float | None = strawberry.field(description="Time for each turn.")
    bank_seconds: float | None = strawberry.field(description="Each player's starting bank.")
    increment_seconds: float = strawberry.field(description="Added to a bank after each turn.")
    answer_seconds: float = strawberry.field(description="Time to answer a prompt.")
    absence: DomainAbsence = strawberry.field(description="What happens when time runs out.")
    resign_after: int = strawberry.field(description="Absences in a row before resigning.")


def time_control_type(record: GameRecord) -> TimeControl | None:
    return time_control_of(record.time_control)


def time_control_of(plain: dict[str, Any] | None) -> TimeControl | None:
    """A time control kept as plain data (a game's, a tournament's games'), as shown."""
    if plain is None:
        return None
    control = DomainTimeControl.from_dict(plain)
    return TimeControl(
        turn_seconds=control.turn_seconds,
        bank_seconds=control.bank_seconds,
        increment_seconds=control.increment_seconds,
        answer_seconds=control.answer_seconds,
        absence=control.absence,
        resign_after=control.resign_after,
    )


@strawberry.type(description="Where a game's clock stands.")
class Clock:
    seat: int | None = strawberry.field(description="The seat whose time runs.")
    kind: str | None = strawberry.field(
        description="`turn`, or `answer` while a prompt is answered (the turn's time stands still)."
    )
    deadline: str | None = strawberry.field(
        description="When the seat's time runs out (ISO 8601, UTC); null without a time control."
    )
    banks: list[float] = strawberry.field(
        description="Each seat's bank at the start of its current or last turn, in seconds "
        "(time banks only)."
    )
    absences: list[int] = strawberry.field(
        description="Each seat's timeouts in a row (the player resigns at resignAfter)."
    )
    time_limit_at: str | None = strawberry.field(
        description="When the tournament time limit expires, until it is declared."
    )


def clock_type(record: GameRecord) -> Clock | None:
    if record.clock is None:
        return None
    state = ClockState.from_plain(record.clock)
    return Clock(
        seat=state.holder,
        kind=state.kind,
        deadline=iso(state.deadline) if record.time_control is not None else None,
        banks=list(state.banks),
        absences=list(state.absences),
        time_limit_at=iso(state.limit_at),
    )


@strawberry.type(description="Something that concerns a seat, in one of its games.")
class SeatNotice:
    game_id: strawberry.ID = strawberry.field(description="The game (its global id).")
    seat: int = strawberry.field(description="The seat it concerns.")
    kind: DomainNoticeKind = strawberry.field(description="What happened.")
    version: int = strawberry.field(description="The game's version (for expectedVersion).")
    deadline: str | None = strawberry.field(
        description="When the seat's time runs out, in a timed game (ISO 8601, UTC)."
    )


def seat_notice(notice: Notice) -> SeatNotice:
    return SeatNotice(
        game_id=strawberry.ID(to_global_id("Game", notice.game_id)),
        seat=notice.seat,
        kind=notice.kind,
        version=notice.version,
        deadline=iso(notice.deadline),
    )
