"""RisiKo! Più's own events. What a seat keeps secret (the hidden armies' territory, what its
Spia saw, the card it lost, its standing orders) is in private events, seen by that seat alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.events import Event


@dataclass(frozen=True, slots=True)
class EmpiresDrawn(Event):
    """The empire each seat drew (a region id, by seat), one army on each of its territories;
    `owners` by space in board order (-1: free, and every sea area)."""

    empires: tuple[str, ...]
    owners: tuple[int, ...]
    starting_armies: int


@dataclass(frozen=True, slots=True)
class FortressPlaced(Event):
    seat: int
    territory: str


@dataclass(frozen=True, slots=True)
class TerritoryClaimed(Event):
    seat: int
    territory: str


@dataclass(frozen=True, slots=True)
class HiddenTerritoryWritten(Event):
    """Public: the seat has written its territory (which one: HiddenTerritoryChosen)."""

    player: int


@dataclass(frozen=True, slots=True)
class HiddenTerritoryChosen(Event):
    private: ClassVar[bool] = True
    seat: int
    territory: str


@dataclass(frozen=True, slots=True)
class HiddenArmiesRevealed(Event):
    seat: int
    territory: str
    armies: int


@dataclass(frozen=True, slots=True)
class RinforziPlayed(Event):
    """The `step`-th Rinforzi of the track's cycle (1 to 12), worth `armies`."""

    seat: int
    card: str
    step: int
    armies: int


@dataclass(frozen=True, slots=True)
class SpyPlayed(Event):
    seat: int
    card: str
    player: int


@dataclass(frozen=True, slots=True)
class SpyBlocked(Event):
    """The spied player's Spia blocked the Spia: both are discarded."""

    seat: int  # the spied player, who blocked
    card: str
    spy: int


@dataclass(frozen=True, slots=True)
class SpyReport(Event):
    """What the Spia saw: every card of the spied hand (to the spying seat alone)."""

    private: ClassVar[bool] = True
    seat: int
    player: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SpiedCardDiscarded(Event):
    """Public: the spying seat discarded one card of the spied hand (which: CardLost)."""

    seat: int
    player: int


@dataclass(frozen=True, slots=True)
class CardLost(Event):
    """To the spied seat alone: the card its hand lost to a Spia."""

    private: ClassVar[bool] = True
    seat: int
    card: str
    by: int


@dataclass(frozen=True, slots=True)
class TruceImposed(Event):
    """Neither attacks the other until `seat`'s next turn starts."""

    seat: int
    card: str
    player: int


@dataclass(frozen=True, slots=True)
class TrucesEnded(Event):
    """The truces `seat` imposed end as its turn starts."""

    seat: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GeneralPlayed(Event):
    seat: int
    card: str
    source: str
    target: str


@dataclass(frozen=True, slots=True)
class MarshalPlayed(Event):
    """The defender's Maresciallo: +1 on its highest die for this attack."""

    seat: int
    card: str
    territory: str


@dataclass(frozen=True, slots=True)
class FlagshipSailed(Event):
    """An Ammiraglio: `armies` loaded on the flagship from `source` against `target`."""

    seat: int
    card: str
    source: str
    target: str
    armies: int


@dataclass(frozen=True, slots=True)
class FlagshipUnloaded(Event):
    """The flagship's survivors land: on the target conquered, or back on the source."""

    seat: int
    territory: str
    armies: int


@dataclass(frozen=True, slots=True)
class FortressFallen(Event):
    """`seat`'s fortress fell to `by`, who takes its banner and the banners it held."""

    seat: int
    by: int
    territory: str
    banners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StandingOrdersSet(Event):
    private: ClassVar[bool] = True
    seat: int
    marshal: str
    spy: str
