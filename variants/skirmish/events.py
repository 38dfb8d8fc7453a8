"""A skirmish's own events. Seats are seat numbers; spaces are ids."""

from __future__ import annotations

from dataclasses import dataclass

from domain.actions import doc
from domain.events import Event, named, register_event
from domain.flow import Phase


@register_event
@dataclass(frozen=True, slots=True)
class SpacesDealt(Event):
    """The spaces dealt out at the start, the same armies on each."""

    owners: tuple[int, ...] = doc("The owning seat of each space, in the board's order.")
    armies: int = doc("The armies on each space.")


@register_event
@dataclass(frozen=True, slots=True)
class TurnOrderDrawn(Event):
    """The order of this round, drawn by lot: the first drawn, the others clockwise."""

    round: int = doc("The round, from 1.")
    order: tuple[int, ...] = doc("The seats in the order they play this round.")


@register_event
@dataclass(frozen=True, slots=True)
class PhaseTurnStarted(Event):
    """A seat's turn in a phase of the round began."""

    seat: int = doc("The seat to play.")
    round: int = doc("The round, from 1.")
    phase: str = named("The phase of the round.", Phase)
    recruit_points: int = doc("The points it may spend (muster; 0 in the battle phase).")


@register_event
@dataclass(frozen=True, slots=True)
class Recruited(Event):
    """Units recruited with muster points."""

    seat: int = doc("The recruiting seat.")
    space: str = doc("Where they appeared.")
    unit: str = doc("Their kind (army, artillery).")
    count: int = doc("How many.")
    points_left: int = doc("The recruit points left this turn.")


@register_event
@dataclass(frozen=True, slots=True)
class AssaultDeclared(Event):
    """An assault waits for the defender's dice."""

    seat: int = doc("The attacking seat.")
    source: str = doc("The space it attacks from.")
    target: str = doc("The space attacked.")
    armies: int = doc("The armies committed (the attacker's dice).")
    defender: int = doc("The defending seat.")


@register_event
@dataclass(frozen=True, slots=True)
class AssaultRolled(Event):
    """An assault's roll, each side's artillery adding to its highest die."""

    seat: int = doc("The attacking seat.")
    source: str = doc("The space it attacked from.")
    target: str = doc("The space attacked.")
    attacker_dice: tuple[int, ...] = doc("The attacker's dice, highest first.")
    defender_dice: tuple[int, ...] = doc("The defender's dice, highest first.")
    modifiers: tuple[str, ...] = doc(
        'Each applied to its side\'s highest die, as "attacker+1:artillery".'
    )
    attacker_losses: int = doc("Armies the attacker lost.")
    defender_losses: int = doc("Armies the defender lost.")


@register_event
@dataclass(frozen=True, slots=True)
class SpaceTaken(Event):
    """An assault emptied the space: the attacker's survivors move in."""

    seat: int = doc("The attacking seat.")
    source: str = doc("The space it attacked from.")
    target: str = doc("The space taken.")
    defender: int = doc("The seat that held it.")
    armies_moved: int = doc("The armies that moved in.")
    artillery_destroyed: int = doc("The defender's artillery lost there.")


@register_event
@dataclass(frozen=True, slots=True)
class Marched(Event):
    """Units marched between two own spaces."""

    seat: int = doc("The seat that moved them.")
    source: str = doc("Where they left.")
    target: str = doc("Where they arrived.")
    unit: str = doc("Their kind (army, artillery).")
    count: int = doc("How many.")


@register_event
@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """A round is over: how many spaces each seat holds, by seat."""

    round: int = doc("The round that ended.")
    spaces: tuple[int, ...] = doc("How many spaces each seat holds, by seat.")
