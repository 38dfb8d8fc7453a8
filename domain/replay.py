"""Replaying an action log, and verifying a finished game against its seed commitment.

The log of accepted actions is the truth; the state is a fold over it. When a game ends its
seed is revealed: anyone can then rebuild the game from the seed and the log and check that
the seed matches the hash published at creation and that every event, every roll and every
shuffle, comes out the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.actions import Action
from domain.errors import RisikoError
from domain.events import Event
from domain.kernel import Kernel
from domain.rng import commitment


class VerificationError(RisikoError):
    code = "VERIFICATION_FAILED"


@dataclass(frozen=True, slots=True)
class LogEntry:
    seat: int | None
    action: Action


def replay(game: Kernel, log: Sequence[LogEntry]) -> list[list[Event]]:
    """Apply `log` to a freshly created game; the events of each entry, in order."""
    if game.seq != 0:
        raise ValueError("replay needs a freshly created game")
    return [game.apply(entry.seat, entry.action) for entry in log]


def verify_game(
    fresh_game: Kernel,
    published_commitment: str,
    log: Sequence[LogEntry],
    recorded_events: Sequence[Sequence[Mapping[str, Any]]],
) -> None:
    """Check a finished game. `fresh_game` is created from the revealed seed;
    `recorded_events[0]` are the events of the creation, then one list per log entry."""
    if commitment(fresh_game.seed) != published_commitment:
        raise VerificationError("the revealed seed does not match the published commitment")
    if len(recorded_events) != len(log) + 1:
        raise VerificationError(
            f"{len(recorded_events)} event lists for {len(log)} actions (expected one more)"
        )
    _compare(0, fresh_game.initial_events, recorded_events[0])
    for position, entry in enumerate(log, start=1):
        try:
            events = fresh_game.apply(entry.seat, entry.action)
        except RisikoError as error:
            raise VerificationError(f"action {position} is rejected on replay: {error}") from None
        _compare(position, events, recorded_events[position])
    if not fresh_game.is_over:
        raise VerificationError("the log does not reach the end of the game")


def _compare(position: int, events: Sequence[Event], recorded: Sequence[Mapping[str, Any]]) -> None:
    replayed = [event.to_dict() for event in events]
    if replayed != [dict(event) for event in recorded]:
        raise VerificationError(f"entry {position}: replayed events differ from the recorded ones")
