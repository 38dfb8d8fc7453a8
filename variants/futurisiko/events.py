"""FutuRisiKo!'s own events. Seats are seat numbers, spaces and cards ids. Card ids are
public once played; a hand's cards are told only to its seat (CardDiscarded, the shared
CardsReceived)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.events import Event


@dataclass(frozen=True, slots=True)
class OrderDrawn(Event):
    """Cards were turned from the shuffled deck until one showed a playing colour: its seat
    plays first, the others clockwise (round 0: the setup). Only the colours are told: the
    cards go back into the deck, which is shuffled again."""

    round: int
    colours: tuple[str, ...]  # the two colours of each card turned, in the order turned
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FlagPlaced(Event):
    seat: int
    territory: str
    reason: str  # setup, conquest (after a battle) or occupation (a free territory)


@dataclass(frozen=True, slots=True)
class PhaseTurnStarted(Event):
    seat: int
    round: int
    phase: str
    production_points: int  # 0 outside production


@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    private: ClassVar[bool] = True
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Public: how the hand changed in the cards phase (the cards are private)."""

    seat: int
    discarded: int
    received: int
    hand_size: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: str
    card_type: str
    target: str
    against: int


@dataclass(frozen=True, slots=True)
class UnitsProduced(Event):
    seat: int
    space: str
    unit: str
    count: int
    points_left: int


@dataclass(frozen=True, slots=True)
class UnitsMoved(Event):
    seat: int
    source: str
    target: str
    unit: str
    count: int
    sea: str  # the sea of an amphibious move, else empty


@dataclass(frozen=True, slots=True)
class UnitsHit(Event):
    """Units destroyed by a naval attack (Torpedo) or a missile (CardPlayed before it)."""

    seat: int  # who fired
    by: str  # torpedo or missile
    target: str
    defender: int
    dice: tuple[int, ...]
    tanks_lost: int
    aircraft_lost: int


@dataclass(frozen=True, slots=True)
class SubmarineSunk(Event):
    seat: int
    sea: str
    owner: int


@dataclass(frozen=True, slots=True)
class BattleDeclared(Event):
    """The attacker's cards are played; the defender is asked for its own."""

    seat: int
    territory: str
    defender: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BattleFought(Event):
    seat: int
    territory: str
    defender: int
    defender_cards: tuple[str, ...]
    attacker_first: bool
    volleys: tuple[tuple[int, ...], ...]  # each volley's dice, the sides in turn
    attacker_tanks_lost: int
    attacker_aircraft_lost: int
    defender_tanks_lost: int
    defender_aircraft_lost: int
    flag_taken: bool
    attacker_won: bool


@dataclass(frozen=True, slots=True)
class UnitsRemoved(Event):
    """Units taken off the board without a hit: a seat eliminated or leaving mid-battle."""

    seat: int
    space: str
    tanks: int
    aircraft: int
    submarines: int
