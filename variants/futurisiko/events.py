"""FutuRisiKo!'s own events. Seats are seat numbers, spaces and cards ids. Card ids are
public once played; a hand's cards are told only to its seat (CardDiscarded, the shared
CardsReceived)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.actions import doc
from domain.events import Event, Readers, named, private_to, register_event
from domain.flow import Phase


@register_event
@dataclass(frozen=True, slots=True)
class OrderDrawn(Event):
    """Cards were turned from the shuffled deck until one showed a playing colour: its seat
    plays first, the others clockwise (round 0: the setup). Only the colours are told: the
    cards go back into the deck, which is shuffled again."""

    round: int = doc("The round this order is for (0: the setup).")
    colours: tuple[str, ...] = doc("The two colours of each card turned, in the order turned.")
    order: tuple[int, ...] = doc("The seats in the order they play this round.")


@register_event
@dataclass(frozen=True, slots=True)
class FlagPlaced(Event):
    """A seat's flag went up on a territory, which it holds from now on."""

    seat: int = doc("The seat whose flag it is.")
    territory: str = doc("The territory.")
    reason: str = doc(
        "setup, conquest (after a battle) or occupation (a free territory moved into)."
    )


@register_event
@dataclass(frozen=True, slots=True)
class PhaseTurnStarted(Event):
    """A seat's turn in a phase of the round began."""

    seat: int = doc("The seat to play.")
    round: int = doc("The round (0: the setup).")
    phase: str = named("The phase of the round.", Phase)
    production_points: int = doc("The points it may spend (production; 0 in the other phases).")


@register_event
@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    """To the discarding seat alone: the card it discarded in the cards phase."""

    readers: ClassVar[Readers] = private_to("seat")
    seat: int = doc("The seat that discarded it.")
    card: str = doc("The card's id.")


@register_event
@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Public: how the hand changed in the cards phase (the cards are private)."""

    seat: int = doc("The seat dealt cards.")
    discarded: int = doc("The cards it discarded (0 or 1).")
    received: int = doc("The cards it received.")
    hand_size: int = doc("The cards in its hand now.")


@register_event
@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card played outside a battle (its effect follows, in the events after it)."""

    seat: int = doc("The seat that played it.")
    card: str = doc("The card's id.")
    card_type: str = doc("Its type (super_produzione, missili_balistici, tregua...).")
    target: str = doc("The space it aims at, or empty.")
    against: int = doc("The seat it aims at, or -1.")


@register_event
@dataclass(frozen=True, slots=True)
class UnitsProduced(Event):
    """Units bought with production points."""

    seat: int = doc("The producing seat.")
    space: str = doc("Where the units appeared.")
    unit: str = doc("Their kind (tank, aircraft, submarine).")
    count: int = doc("How many.")
    points_left: int = doc("The production points left this turn.")


@register_event
@dataclass(frozen=True, slots=True)
class UnitsMoved(Event):
    """Units moved from one space to another."""

    seat: int = doc("The seat that moved them.")
    source: str = doc("Where they left.")
    target: str = doc("Where they arrived.")
    unit: str = doc("Their kind (tank, aircraft, submarine).")
    count: int = doc("How many.")
    sea: str = doc("The sea of an amphibious move, else empty.")


@register_event
@dataclass(frozen=True, slots=True)
class UnitsHit(Event):
    """Units destroyed by a naval attack (Torpedo) or a missile (CardPlayed before it)."""

    seat: int = doc("The seat that fired.")
    by: str = doc("torpedo or missile.")
    target: str = doc("The space hit.")
    defender: int = doc("The seat whose units were hit.")
    dice: tuple[int, ...] = doc("The dice rolled (none when nothing was there to hit).")
    tanks_lost: int = doc("Tanks destroyed.")
    aircraft_lost: int = doc("Aircraft destroyed.")


@register_event
@dataclass(frozen=True, slots=True)
class SubmarineSunk(Event):
    """A submarine sunk by a Siluro Killer."""

    seat: int = doc("The seat that played the card.")
    sea: str = doc("The sea it was in.")
    owner: int = doc("The seat whose submarine it was.")


@register_event
@dataclass(frozen=True, slots=True)
class BattleDeclared(Event):
    """The attacker's cards are played; the defender is asked for its own."""

    seat: int = doc("The attacking seat.")
    territory: str = doc("The territory attacked.")
    defender: int = doc("The defending seat.")
    cards: tuple[str, ...] = doc("The cards the attacker played for the battle.")


@register_event
@dataclass(frozen=True, slots=True)
class BattleFought(Event):
    """A battle's volleys, fired by the sides in turn until one has no unit left there."""

    seat: int = doc("The attacking seat.")
    territory: str = doc("The territory fought over.")
    defender: int = doc("The defending seat.")
    defender_cards: tuple[str, ...] = doc("The cards the defender played for the battle.")
    attacker_first: bool = doc("The attacker fired the first volley.")
    volleys: tuple[tuple[int, ...], ...] = doc("Each volley's dice, the sides firing in turn.")
    attacker_tanks_lost: int = doc("Tanks the attacker lost.")
    attacker_aircraft_lost: int = doc("Aircraft the attacker lost.")
    defender_tanks_lost: int = doc("Tanks the defender lost.")
    defender_aircraft_lost: int = doc("Aircraft the defender lost.")
    flag_taken: bool = doc("The defender's flag fell.")
    attacker_won: bool = doc("The attacker has units left there and the defender none.")


@register_event
@dataclass(frozen=True, slots=True)
class UnitsRemoved(Event):
    """Units taken off the board without a hit: a seat eliminated or leaving mid-battle."""

    seat: int = doc("The seat whose units they were.")
    space: str = doc("Where they stood.")
    tanks: int = doc("Tanks removed.")
    aircraft: int = doc("Aircraft removed.")
    submarines: int = doc("Submarines removed.")
