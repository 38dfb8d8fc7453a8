"""A skirmish's own events. Seats are seat numbers; spaces are ids."""

from __future__ import annotations

from dataclasses import dataclass

from domain.events import Event


@dataclass(frozen=True, slots=True)
class SpacesDealt(Event):
    owners: tuple[int, ...]  # by space, in the board's order
    armies: int  # on each space


@dataclass(frozen=True, slots=True)
class TurnOrderDrawn(Event):
    """The order of this round, drawn by lot: the first drawn, the others clockwise."""

    round: int
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PhaseTurnStarted(Event):
    seat: int
    round: int
    phase: str
    recruit_points: int  # 0 in the battle phase


@dataclass(frozen=True, slots=True)
class Recruited(Event):
    seat: int
    space: str
    unit: str
    count: int
    points_left: int


@dataclass(frozen=True, slots=True)
class AssaultDeclared(Event):
    seat: int
    source: str
    target: str
    armies: int
    defender: int


@dataclass(frozen=True, slots=True)
class AssaultRolled(Event):
    seat: int
    source: str
    target: str
    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    modifiers: tuple[str, ...]  # "attacker+1:artillery", each applied to the highest die
    attacker_losses: int
    defender_losses: int


@dataclass(frozen=True, slots=True)
class SpaceTaken(Event):
    seat: int
    source: str
    target: str
    defender: int
    armies_moved: int
    artillery_destroyed: int


@dataclass(frozen=True, slots=True)
class Marched(Event):
    seat: int
    source: str
    target: str
    unit: str
    count: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """A round is over: how many spaces each seat holds, by seat."""

    round: int
    spaces: tuple[int, ...]
