"""S.P.Q.RisiKo!'s own events. A neutral army is named by its colour; where an event names
an owner by seat, -1 is neutral."""

from __future__ import annotations

from dataclasses import dataclass

from domain.events import Event


@dataclass(frozen=True, slots=True)
class ProvinceClaimed(Event):
    seat: int
    province: str
    armies: int


@dataclass(frozen=True, slots=True)
class NeutralPlaced(Event):
    """A group of neutral legionaries; `seat` placed it (-1: the setup itself, Italia)."""

    seat: int
    province: str
    colour: str
    armies: int


@dataclass(frozen=True, slots=True)
class VictoryPointsScored(Event):
    """Claimed at the start of the seat's own turn: 1 each for the largest empire, the most
    provinces and the most sea areas, and 1 per power centre held."""

    seat: int
    empire: int
    provinces: int
    seas: int
    power_centres: int
    total: int


@dataclass(frozen=True, slots=True)
class SetRewards(Event):
    """What a traded set gives besides legionaries, to be placed during the reinforcements."""

    seat: int
    triremes: int
    power_centres: int


@dataclass(frozen=True, slots=True)
class RewardsForfeited(Event):
    """Triremes or power centres of a set that were not placed before the reinforcements
    ended (a player need not use every benefit of a set)."""

    seat: int
    triremes: int
    power_centres: int


@dataclass(frozen=True, slots=True)
class PowerCentrePlaced(Event):
    seat: int
    province: str


@dataclass(frozen=True, slots=True)
class TriremesPlaced(Event):
    """Triremes put on a sea area: built from `legionaries` of `province`, or (province None)
    won with cards."""

    seat: int
    sea: str
    triremes: int
    province: str | None
    legionaries: int


@dataclass(frozen=True, slots=True)
class TriremeDisbanded(Event):
    seat: int
    sea: str
    province: str
    legionaries: int


@dataclass(frozen=True, slots=True)
class FleetMoved(Event):
    seat: int
    source: str
    target: str
    triremes: int


@dataclass(frozen=True, slots=True)
class NavalDiceRolled(Event):
    """One roll of a naval combat. `over`: the battle has ended (a roll removed nothing, or
    a side has no triremes left); otherwise the attacker may roll again."""

    seat: int
    sea: str
    opponent: int
    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    over: bool


@dataclass(frozen=True, slots=True)
class SeaAttackLaunched(Event):
    seat: int
    source: str
    target: str
    sea: str
    legionaries: int
    defender: int


@dataclass(frozen=True, slots=True)
class TriremesSunk(Event):
    """An eliminated player's triremes leave the board."""

    seat: int
    triremes: int
