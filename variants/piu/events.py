"""RisiKo! Più's own events. What a seat keeps secret (the hidden armies' territory, what its
Spia saw, the card it lost, its standing orders) is in private events, seen by that seat alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.actions import doc
from domain.events import Event, Readers, private_to, register_event


@register_event
@dataclass(frozen=True, slots=True)
class EmpiresDrawn(Event):
    """The empire each seat drew (a region id, by seat), one army on each of its territories;
    `owners` by space in board order (-1: free, and every sea area)."""

    empires: tuple[str, ...] = doc("The region id of each seat's empire, by seat.")
    owners: tuple[int, ...] = doc("The owning seat of each space, in the board's order (-1: none).")
    starting_armies: int = doc("The armies each player places in all, those drawn included.")


@register_event
@dataclass(frozen=True, slots=True)
class FortressPlaced(Event):
    """A seat put its fortress on one of its territories (the setup)."""

    seat: int = doc("The seat whose fortress it is.")
    territory: str = doc("The territory.")


@register_event
@dataclass(frozen=True, slots=True)
class TerritoryClaimed(Event):
    """A seat claimed a free territory in the setup, with one army."""

    seat: int = doc("The claiming seat.")
    territory: str = doc("The territory.")


@register_event
@dataclass(frozen=True, slots=True)
class HiddenTerritoryWritten(Event):
    """Public: the seat has written its territory (which one: HiddenTerritoryChosen)."""

    player: int = doc("The seat that wrote it.")


@register_event
@dataclass(frozen=True, slots=True)
class HiddenTerritoryChosen(Event):
    """To the seat alone: the territory it wrote for its hidden armies."""

    readers: ClassVar[Readers] = private_to("seat")
    seat: int = doc("The seat that wrote it.")
    territory: str = doc("The territory written.")


@register_event
@dataclass(frozen=True, slots=True)
class HiddenArmiesRevealed(Event):
    """A seat's hidden armies came out on the territory it had written."""

    seat: int = doc("The seat whose armies they are.")
    territory: str = doc("The territory it had written.")
    armies: int = doc("The armies placed there.")


@register_event
@dataclass(frozen=True, slots=True)
class RinforziPlayed(Event):
    """The `step`-th Rinforzi of the track's cycle (1 to 12), worth `armies`."""

    seat: int = doc("The seat that played it.")
    card: str = doc("The card's id.")
    step: int = doc("Its place on the track's cycle, 1 to 12.")
    armies: int = doc("The armies it gives.")


@register_event
@dataclass(frozen=True, slots=True)
class SpyPlayed(Event):
    """A seat played a Spia on another's hand."""

    seat: int = doc("The spying seat.")
    card: str = doc("The card's id.")
    player: int = doc("The seat spied on.")


@register_event
@dataclass(frozen=True, slots=True)
class SpyBlocked(Event):
    """The spied player's Spia blocked the Spia: both are discarded."""

    seat: int = doc("The spied seat, which blocked.")
    card: str = doc("The blocking card's id.")
    spy: int = doc("The spying seat.")


@register_event
@dataclass(frozen=True, slots=True)
class SpyReport(Event):
    """What the Spia saw: every card of the spied hand (to the spying seat alone)."""

    readers: ClassVar[Readers] = private_to("seat")
    seat: int = doc("The spying seat.")
    player: int = doc("The seat spied on.")
    cards: tuple[str, ...] = doc("Every card of its hand.")


@register_event
@dataclass(frozen=True, slots=True)
class SpiedCardDiscarded(Event):
    """Public: the spying seat discarded one card of the spied hand (which: CardLost)."""

    seat: int = doc("The spying seat.")
    player: int = doc("The seat whose card was discarded.")


@register_event
@dataclass(frozen=True, slots=True)
class CardLost(Event):
    """To the spied seat alone: the card its hand lost to a Spia."""

    readers: ClassVar[Readers] = private_to("seat")
    seat: int = doc("The seat that lost it.")
    card: str = doc("The card's id.")
    by: int = doc("The spying seat.")


@register_event
@dataclass(frozen=True, slots=True)
class TruceImposed(Event):
    """Neither attacks the other until `seat`'s next turn starts."""

    seat: int = doc("The seat that played the Diplomatico.")
    card: str = doc("The card's id.")
    player: int = doc("The seat bound by the truce.")


@register_event
@dataclass(frozen=True, slots=True)
class TrucesEnded(Event):
    """The truces `seat` imposed end as its turn starts."""

    seat: int = doc("The seat that had imposed them.")
    players: tuple[int, ...] = doc("The seats they bound.")


@register_event
@dataclass(frozen=True, slots=True)
class GeneralPlayed(Event):
    """A Generale: +1 on the attacker's highest die for the attack it names."""

    seat: int = doc("The attacking seat.")
    card: str = doc("The card's id.")
    source: str = doc("The attacking territory.")
    target: str = doc("The attacked territory.")


@register_event
@dataclass(frozen=True, slots=True)
class MarshalPlayed(Event):
    """The defender's Maresciallo: +1 on its highest die for this attack."""

    seat: int = doc("The defending seat.")
    card: str = doc("The card's id.")
    territory: str = doc("The territory defended.")


@register_event
@dataclass(frozen=True, slots=True)
class FlagshipSailed(Event):
    """An Ammiraglio: `armies` loaded on the flagship from `source` against `target`."""

    seat: int = doc("The attacking seat.")
    card: str = doc("The card's id.")
    source: str = doc("The territory the armies sailed from.")
    target: str = doc("The territory attacked.")
    armies: int = doc("The armies aboard.")


@register_event
@dataclass(frozen=True, slots=True)
class FlagshipUnloaded(Event):
    """The flagship's survivors land: on the target conquered, or back on the source."""

    seat: int = doc("The seat whose armies they are.")
    territory: str = doc("Where they land.")
    armies: int = doc("How many.")


@register_event
@dataclass(frozen=True, slots=True)
class FortressFallen(Event):
    """`seat`'s fortress fell to `by`, who takes its banner and the banners it held."""

    seat: int = doc("The seat whose fortress fell.")
    by: int = doc("The conquering seat.")
    territory: str = doc("The fortress's territory.")
    banners: tuple[int, ...] = doc("The banners taken, by the seat each belongs to.")


@register_event
@dataclass(frozen=True, slots=True)
class StandingOrdersSet(Event):
    """To the seat alone: its orders for the cards it plays out of turn."""

    readers: ClassVar[Readers] = private_to("seat")
    seat: int = doc("The seat.")
    marshal: str = doc("When its Maresciallo defends: always, fortress or never.")
    spy: str = doc("Whether its Spia blocks a Spia: block or let_through.")
