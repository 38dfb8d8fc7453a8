"""Typed events. Each event is public, or private to one seat (`visible_to`).

Who may see an event is decided in one place, `may_see`: the engine's events, the stored ones
(api/stores/base.py) and the service's streams all ask it, and the stores' queries are held to
it by their contract tests.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


def may_see(visible_to: int | None, viewer: int | None) -> bool:
    """Whether `viewer` (a seat, or None for a spectator) may see an event private to
    `visible_to` (None: a public event)."""
    return visible_to is None or visible_to == viewer


@dataclass(frozen=True, slots=True)
class Event:
    private: ClassVar[bool] = False

    @property
    def visible_to(self) -> int | None:
        """The one seat that may see this event, or None when everyone may."""
        return getattr(self, "seat", None) if self.private else None

    def is_visible_to(self, viewer: int | None) -> bool:
        """`viewer` is a seat, or None for a spectator."""
        return may_see(self.visible_to, viewer)

    @property
    def type(self) -> str:
        return type(self).__name__

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for field in fields(self):
            data[field.name] = _plain(getattr(self, field.name))
        return data


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    players: tuple[str, ...]
    colours: tuple[str, ...]
    first_player: int
    turn_order: tuple[int, ...]
    commitment: str


@dataclass(frozen=True, slots=True)
class ObjectiveAssigned(Event):
    """The secret objective card dealt to a seat, and the objective it counts as."""

    private: ClassVar[bool] = True
    seat: int
    card: str
    objective: str


@dataclass(frozen=True, slots=True)
class ObjectiveChanged(Event):
    """A "destroy colour X" objective became its fallback."""

    private: ClassVar[bool] = True
    seat: int
    objective: str
    reason: str


@dataclass(frozen=True, slots=True)
class TerritoriesDealt(Event):
    """Owners after the deal, by territory in board order; each holds one army."""

    owners: tuple[int, ...]
    starting_armies: int


@dataclass(frozen=True, slots=True)
class ArmiesPlaced(Event):
    seat: int
    territory: str
    armies: int


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    cards: int
    reshuffle: bool


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    round: int
    reinforcements: int
    from_territories: int
    from_regions: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class CardsTraded(Event):
    seat: int
    cards: tuple[str, ...]
    armies: int
    territory_bonus: int


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    """Waiting for the defender to declare its dice."""

    seat: int
    source: str
    target: str
    dice: int
    defender: int


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    seat: int
    source: str
    target: str
    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    attacker_losses: int
    defender_losses: int


@dataclass(frozen=True, slots=True)
class TerritoryConquered(Event):
    seat: int
    source: str
    target: str
    defender: int
    min_armies: int
    max_armies: int


@dataclass(frozen=True, slots=True)
class ArmiesMoved(Event):
    seat: int
    source: str
    target: str
    armies: int
    strategic: bool


@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    seat: int
    by: int
    cards_taken: int


@dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """Public: someone drew a card. The card itself is in the private CardsReceived."""

    seat: int
    hand_size: int


@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    private: ClassVar[bool] = True
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class TimeExpired(Event):
    round: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The outcome. Objectives are revealed; the seed is revealed by whoever holds it."""

    winner: int | None
    reason: str
    ranking: tuple[tuple[int, int, int], ...]  # (rank, seat, points), best first
    objectives: tuple[str, ...]  # the objective card of each seat; empty without objectives
