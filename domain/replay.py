"""Replaying an action log, and verifying a finished game against its seed commitment.

The log of accepted actions is the truth; the state is a fold over it. When a game ends its
secret is revealed: anyone can then check it against the hash published at creation
(`check_seed`), derive from it and the seats' contributions the seed the dice came from,
rebuild the game from that seed and the log, and check that every event, every roll and
every shuffle, comes out the same (`verify_game`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.actions import Action
from domain.errors import RisikoError
from domain.events import Event
from domain.kernel import Kernel
from domain.rng import commitment, derive_seed


class VerificationError(RisikoError):
    code = "VERIFICATION_FAILED"


class AllSeats(enum.Enum):
    """Every event, whoever may see it: the whole record (the golden logs)."""

    ALL = "all"


ALL_SEATS = AllSeats.ALL


@dataclass(frozen=True, slots=True)
class LogEntry:
    seat: int | None
    action: Action


def replay(game: Kernel, log: Sequence[LogEntry]) -> list[list[Event]]:
    """Apply `log` to a freshly created game; the events of each entry, in order."""
    if game.seq != 0:
        raise ValueError("replay needs a freshly created game")
    return [game.apply(entry.seat, entry.action) for entry in log]


def check_seed(
    secret: bytes,
    published_commitment: str,
    contributions: Sequence[str | None] | None,
    revealed_seed: bytes | None = None,
) -> bytes:
    """The seed a finished game's dice came from, once its revealed `secret` is checked
    against the commitment published at creation: derived from the secret and the seats'
    `contributions` in seat order, or the secret itself for a game without them (None: its
    seed was chosen, or it was played before contributions). `revealed_seed`, the seed the
    server says it used, must be that one."""
    if commitment(secret) != published_commitment:
        raise VerificationError("the revealed secret does not match the published commitment")
    seed = secret if contributions is None else derive_seed(secret, contributions)
    if revealed_seed is not None and revealed_seed != seed:
        raise VerificationError(
            "the seed the server revealed is not the one derived from its secret and the "
            "seats' contributions"
        )
    return seed


def verify_game(
    fresh_game: Kernel,
    published_commitment: str,
    log: Sequence[LogEntry],
    recorded_events: Sequence[Sequence[Mapping[str, Any]]],
    viewer: int | AllSeats | None = ALL_SEATS,
) -> None:
    """Check a finished game. `fresh_game` is created from the seed its dice came from (see
    `check_seed`), whose hash is `published_commitment` (the one its start published);
    `recorded_events[0]` are the events of the creation, then one list per log entry. With
    a `viewer` (a seat, or None for a spectator), the recorded events are those it may see,
    and only those of the replay are compared."""
    if commitment(fresh_game.seed) != published_commitment:
        raise VerificationError("the revealed seed does not match the published commitment")
    if len(recorded_events) != len(log) + 1:
        raise VerificationError(
            f"{len(recorded_events)} event lists for {len(log)} actions (expected one more)"
        )
    seen = _everything if isinstance(viewer, AllSeats) else _seen_by(viewer)
    _compare(0, seen(fresh_game.initial_events), recorded_events[0])
    for position, entry in enumerate(log, start=1):
        try:
            events = fresh_game.apply(entry.seat, entry.action)
        except RisikoError as error:
            raise VerificationError(f"action {position} is rejected on replay: {error}") from None
        _compare(position, seen(events), recorded_events[position])
    if not fresh_game.is_over:
        raise VerificationError("the log does not reach the end of the game")


def _everything(events: Sequence[Event]) -> Sequence[Event]:
    return events


def _seen_by(viewer: int | None) -> Callable[[Sequence[Event]], Sequence[Event]]:
    def seen(events: Sequence[Event]) -> Sequence[Event]:
        return [event for event in events if event.is_visible_to(viewer)]

    return seen


def _compare(position: int, events: Sequence[Event], recorded: Sequence[Mapping[str, Any]]) -> None:
    replayed = [event.to_dict() for event in events]
    if replayed != [dict(event) for event in recorded]:
        raise VerificationError(f"entry {position}: replayed events differ from the recorded ones")
