"""S.P.Q.RisiKo!'s own events. A neutral army is named by its colour; where an event names
an owner by seat, -1 is neutral."""

from __future__ import annotations

from dataclasses import dataclass

from domain.actions import doc
from domain.events import Event, register_event


@register_event
@dataclass(frozen=True, slots=True)
class ProvinceClaimed(Event):
    """A seat claimed a free province in the initial occupation."""

    seat: int = doc("The claiming seat.")
    province: str = doc("The province.")
    armies: int = doc("The legionaries placed there.")


@register_event
@dataclass(frozen=True, slots=True)
class NeutralPlaced(Event):
    """A group of neutral legionaries; `seat` placed it (-1: the setup itself, Italia)."""

    seat: int = doc("The seat that placed it (-1: the setup itself).")
    province: str = doc("The province.")
    colour: str = doc("The neutral colour's id.")
    armies: int = doc("The legionaries placed.")


@register_event
@dataclass(frozen=True, slots=True)
class VictoryPointsScored(Event):
    """Claimed at the start of the seat's own turn: 1 each for the largest empire, the most
    provinces and the most sea areas, and 1 per power centre held."""

    seat: int = doc("The scoring seat.")
    empire: int = doc("For the largest empire (0 or 1).")
    provinces: int = doc("For the most provinces (0 or 1).")
    seas: int = doc("For the most sea areas (0 or 1).")
    power_centres: int = doc("For the power centres held.")
    total: int = doc("The points scored this turn.")


@register_event
@dataclass(frozen=True, slots=True)
class SetRewards(Event):
    """What a traded set gives besides legionaries, to be placed during the reinforcements."""

    seat: int = doc("The seat that traded the set.")
    triremes: int = doc("Triremes to place.")
    power_centres: int = doc("Power centres to place.")


@register_event
@dataclass(frozen=True, slots=True)
class RewardsForfeited(Event):
    """Triremes or power centres of a set that were not placed before the reinforcements
    ended (a player need not use every benefit of a set)."""

    seat: int = doc("The seat that forfeited them.")
    triremes: int = doc("Triremes not placed.")
    power_centres: int = doc("Power centres not placed.")


@register_event
@dataclass(frozen=True, slots=True)
class PowerCentrePlaced(Event):
    """A power centre built on a province."""

    seat: int = doc("The seat that placed it.")
    province: str = doc("The province.")


@register_event
@dataclass(frozen=True, slots=True)
class TriremesPlaced(Event):
    """Triremes put on a sea area: built from `legionaries` of `province`, or (province None)
    won with cards."""

    seat: int = doc("The seat whose triremes they are.")
    sea: str = doc("The sea area.")
    triremes: int = doc("How many triremes.")
    province: str | None = doc("The province that built them; null: won with cards.")
    legionaries: int = doc("The legionaries they were built from (0: won with cards).")


@register_event
@dataclass(frozen=True, slots=True)
class TriremeDisbanded(Event):
    """A trireme disbanded: its crew lands as legionaries on a coastal province."""

    seat: int = doc("The seat whose trireme it was.")
    sea: str = doc("The sea area it left.")
    province: str = doc("The province its crew landed on.")
    legionaries: int = doc("The legionaries landed.")


@register_event
@dataclass(frozen=True, slots=True)
class FleetMoved(Event):
    """Triremes moved between two sea areas."""

    seat: int = doc("The seat that moved them.")
    source: str = doc("The sea area they left.")
    target: str = doc("The sea area they reached.")
    triremes: int = doc("How many triremes.")


@register_event
@dataclass(frozen=True, slots=True)
class NavalDiceRolled(Event):
    """One roll of a naval combat. `over`: the battle has ended (a roll removed nothing, or
    a side has no triremes left); otherwise the attacker may roll again."""

    seat: int = doc("The attacking seat.")
    sea: str = doc("The sea area fought over.")
    opponent: int = doc("The defending seat.")
    attacker_dice: tuple[int, ...] = doc("The attacker's dice, highest first.")
    defender_dice: tuple[int, ...] = doc("The defender's dice, highest first.")
    attacker_losses: int = doc("Triremes the attacker lost.")
    defender_losses: int = doc("Triremes the defender lost.")
    over: bool = doc("The battle has ended.")


@register_event
@dataclass(frozen=True, slots=True)
class SeaAttackLaunched(Event):
    """Legionaries sail from a coastal province to attack another across a sea area."""

    seat: int = doc("The attacking seat.")
    source: str = doc("The province they sail from.")
    target: str = doc("The province attacked.")
    sea: str = doc("The sea area crossed.")
    legionaries: int = doc("The legionaries aboard.")
    defender: int = doc("The defending seat (-1: neutral).")


@register_event
@dataclass(frozen=True, slots=True)
class TriremesSunk(Event):
    """An eliminated player's triremes leave the board."""

    seat: int = doc("The eliminated seat.")
    triremes: int = doc("How many triremes.")
