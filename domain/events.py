"""Typed events: what happened in a game, as the engine tells it.

Every kind of event is registered (`register_event`, over the dataclass), as every kind of
action is: it says what it tells (its docstring and each field's `doc`), and who may read it
(`readers`): everyone, or only the seat that one of its own fields names
(`private_to("seat")`). The log stores an event as `to_dict()`, the seat that may read it
beside it, and reads it back with `from_dict`; the API makes a GraphQL type of each kind the
games it serves register, so a game that brings events of its own, in its folder, needs
nothing written anywhere else.

Who may see an event is decided in one place, `may_see`, from the readers each kind declares:
the engine's events, the stored ones (api/stores/base.py) and the service's streams all ask
it, and the stores' queries are held to it by their contract tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Self, TypeVar

from domain.actions import doc


def readable_by(viewer: int | None) -> tuple[int | None, ...]:
    """The marks (`visible_to`) of the events `viewer` (a seat, or None for a spectator) may
    see: the public ones (None) and those private to the viewer's own seat. The stores' queries
    are built from it, so they cannot decide otherwise than `may_see`."""
    return (None,) if viewer is None else (None, viewer)


def may_see(visible_to: int | None, viewer: int | None) -> bool:
    """Whether `viewer` may see an event private to `visible_to` (None: a public event)."""
    return visible_to in readable_by(viewer)


@dataclass(frozen=True, slots=True)
class Readers:
    """Who may read an event: everyone, or only the seat its field `seat_field` names."""

    seat_field: str | None = None

    @property
    def private(self) -> bool:
        return self.seat_field is not None

    def reader(self, event: Event) -> int | None:
        """The one seat that may read `event`, or None when everyone may."""
        if self.seat_field is None:
            return None
        seat: int = getattr(event, self.seat_field)
        return seat


PUBLIC = Readers()


def private_to(field_name: str) -> Readers:
    """Readers of an event that only the seat its field `field_name` names may read."""
    return Readers(field_name)


def added(text: str) -> Any:
    """A field added after events of its kind were first stored: None in those, and left out
    of the stored data while it is None, so that they read back exactly as they were written."""
    return field(default=None, metadata={"doc": text, "added": True})


def entries(text: str, entry: type) -> Any:
    """A field holding tuples of a fixed shape: `entry`, a dataclass, names, types and
    describes their parts, in order, for clients (the game builds plain tuples, stored as
    lists)."""
    return field(metadata={"doc": text, "entry": entry})


def named(text: str, values: object) -> Any:
    """A text field whose value is one of `values` (an enum of the domain, or the declared
    phases): clients see it as that enum."""
    return field(metadata={"doc": text, "values": values})


@dataclass(frozen=True, slots=True)
class _Slot:
    """How one field of a kind of event is stored."""

    name: str
    added: bool  # left out of the stored data while None
    tupled: bool  # a tuple, stored as a list (of lists)


_SLOTS: dict[type[Event], tuple[_Slot, ...]] = {}


def _slots(cls: type[Event]) -> tuple[_Slot, ...]:
    known = _SLOTS.get(cls)
    if known is None:
        known = _SLOTS[cls] = tuple(
            _Slot(f.name, bool(f.metadata.get("added")), str(f.type).startswith("tuple"))
            for f in fields(cls)
        )
    return known


@dataclass(frozen=True, slots=True)
class Event:
    readers: ClassVar[Readers] = PUBLIC

    @property
    def visible_to(self) -> int | None:
        """The one seat that may see this event, or None when everyone may."""
        return self.readers.reader(self)

    @property
    def private(self) -> bool:
        return self.readers.private

    def is_visible_to(self, viewer: int | None) -> bool:
        """`viewer` is a seat, or None for a spectator."""
        return may_see(self.visible_to, viewer)

    @property
    def type(self) -> str:
        return type(self).__name__

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for slot in _slots(type(self)):
            value = getattr(self, slot.name)
            if value is None and slot.added:
                continue
            data[slot.name] = _plain(value)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """The inverse of `to_dict` (its `type` chose the class); TypeError for data of
        another shape."""
        values = {key: value for key, value in data.items() if key != "type"}
        for slot in _slots(cls):
            if slot.tupled and slot.name in values:
                values[slot.name] = _tupled(values[slot.name])
        return cls(**values)


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _tupled(value: object) -> object:
    if isinstance(value, list):
        return tuple(_tupled(item) for item in value)
    return value


EVENT_TYPES: list[type[Event]] = []
E = TypeVar("E", bound=type[Event])


def register_event(cls: E) -> E:
    """Make a kind of event known (apply it over @dataclass): the log reads it back by its
    name, and the API shows it as a type of its own. It must say what it tells (a docstring,
    and `doc` on every field), and its readers must name a field of its own."""
    described = cls.__doc__ or ""
    if not described or described.startswith(f"{cls.__name__}("):  # dataclass's signature
        raise TypeError(f"event {cls.__name__} has no docstring")
    names = [f.name for f in fields(cls)]
    undescribed = [f.name for f in fields(cls) if not f.metadata.get("doc")]
    if undescribed:
        raise TypeError(f"event {cls.__name__}: no doc for {', '.join(undescribed)}")
    seat_field = cls.readers.seat_field
    if seat_field is not None and seat_field not in names:
        raise TypeError(f"event {cls.__name__} is private to a field it does not have")
    if cls not in EVENT_TYPES:
        EVENT_TYPES.append(cls)
    return cls


# --------------------------------------------------------------------------- shapes of entries


@dataclass(frozen=True, slots=True)
class RegionBonus:
    """The armies a region held whole adds to a turn's reinforcements."""

    region: str = doc("The region's id.")
    armies: int = doc("The armies it adds.")


@dataclass(frozen=True, slots=True)
class Placing:
    """A seat's place in the final ranking; seats tied on points share a rank."""

    rank: int = doc("Its rank, from 1.")
    seat: int = doc("The seat.")
    points: int = doc("Its points (territories held, victory points…, by the game).")


# --------------------------------------------------------------------------- the events


@register_event
@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The game began: its players, who plays first and the order of play."""

    players: tuple[str, ...] = doc("The players' names, by seat.")
    colours: tuple[str, ...] = doc("The players' colour ids, by seat.")
    first_player: int = doc("The seat the dice chose to play first.")
    turn_order: tuple[int, ...] = doc("The seats in the order they play.")
    commitment: str = doc("SHA-256 of the seed the dice come from (hex).")


@register_event
@dataclass(frozen=True, slots=True)
class ObjectiveAssigned(Event):
    """The secret objective card dealt to a seat, and the objective it counts as."""

    readers: ClassVar[Readers] = private_to("seat")
    seat: int = doc("The seat dealt the card.")
    card: str = doc("The objective card's id.")
    objective: str = doc("The objective it counts as (its fallback's, if it names the seat).")


@register_event
@dataclass(frozen=True, slots=True)
class ObjectiveChanged(Event):
    """A "destroy colour X" objective became its fallback."""

    readers: ClassVar[Readers] = private_to("seat")
    seat: int = doc("The seat whose objective changed.")
    objective: str = doc("The objective it counts as now.")
    reason: str = doc("Why, in words.")


@register_event
@dataclass(frozen=True, slots=True)
class TerritoriesDealt(Event):
    """Owners after the deal, by territory in board order; each holds one army."""

    owners: tuple[int, ...] = doc("The owning seat of each territory, in the board's order.")
    starting_armies: int = doc("The armies each player places in all, those dealt included.")


@register_event
@dataclass(frozen=True, slots=True)
class ArmiesPlaced(Event):
    """Armies placed on an own territory: in the setup, or as reinforcements."""

    seat: int = doc("The seat that placed them.")
    territory: str = doc("The territory's id.")
    armies: int = doc("How many armies.")


@register_event
@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """The deck of territory cards was shuffled: at the start, or from the discards."""

    cards: int = doc("The cards in the deck now.")
    reshuffle: bool = doc("The discards were shuffled into a new deck (false: the first deck).")


@register_event
@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A seat's turn began, with the reinforcements it gets."""

    seat: int = doc("The seat to play.")
    round: int = doc("The round, from 1.")
    reinforcements: int = doc("The armies it places this turn, before any card is traded.")
    from_territories: int = doc("Those it gets for the territories it holds.")
    from_regions: tuple[tuple[str, int], ...] = entries(
        "Those it gets for each region it holds whole.", RegionBonus
    )


@register_event
@dataclass(frozen=True, slots=True)
class CardsTraded(Event):
    """A seat traded a set of cards for armies."""

    seat: int = doc("The seat that traded them.")
    cards: tuple[str, ...] = doc("The cards of the set (public once traded).")
    armies: int = doc("The armies the set gives.")
    territory_bonus: int = doc("Armies more for cards showing territories the seat holds.")


@register_event
@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    """Waiting for the defender to declare its dice."""

    seat: int = doc("The attacking seat.")
    source: str = doc("The attacking territory.")
    target: str = doc("The attacked territory.")
    dice: int = doc("The attacker's dice.")
    defender: int = doc("The defending seat, which is to declare its dice.")


@register_event
@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    """One roll of an attack, and what each side lost."""

    seat: int = doc("The attacking seat.")
    source: str = doc("The attacking territory.")
    target: str = doc("The attacked territory.")
    attacker_dice: tuple[int, ...] = doc("The attacker's dice, highest first.")
    defender_dice: tuple[int, ...] = doc("The defender's dice, highest first.")
    attacker_losses: int = doc("Armies the attacker lost.")
    defender_losses: int = doc("Armies the defender lost.")


@register_event
@dataclass(frozen=True, slots=True)
class TerritoryConquered(Event):
    """An attack emptied the target: it is the attacker's, and armies move in."""

    seat: int = doc("The conquering seat.")
    source: str = doc("The territory it attacked from.")
    target: str = doc("The territory conquered.")
    defender: int = doc("The seat that held it (-1: neutral armies).")
    min_armies: int = doc("The fewest armies that move in (the dice of the last roll).")
    max_armies: int = doc("The most armies that may move in.")


@register_event
@dataclass(frozen=True, slots=True)
class ArmiesMoved(Event):
    """Armies moved between two territories of one seat."""

    seat: int = doc("The seat that moved them.")
    source: str = doc("Where they left.")
    target: str = doc("Where they arrived.")
    armies: int = doc("How many armies.")
    strategic: bool = doc("The turn's strategic move (false: moving into a conquest).")


@register_event
@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    """A seat lost its last territory: it is out of the game."""

    seat: int = doc("The seat eliminated.")
    by: int = doc("The seat that eliminated it.")
    cards_taken: int = doc("The cards of its hand that went to the seat that eliminated it.")


@register_event
@dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    """A seat left the game under way (leaveGame, or the clock after too many absences)."""

    seat: int = doc("The seat that resigned.")


@register_event
@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """Public: someone drew a card. The card itself is in the private CardsReceived."""

    seat: int = doc("The seat that drew it.")
    hand_size: int = doc("The cards in its hand now.")


@register_event
@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    """To the receiving seat alone: the cards its hand received."""

    readers: ClassVar[Readers] = private_to("seat")
    seat: int = doc("The seat that received them.")
    cards: tuple[str, ...] = doc("The cards' ids.")


@register_event
@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """A seat's turn ended."""

    seat: int = doc("The seat whose turn ended.")


@register_event
@dataclass(frozen=True, slots=True)
class TimeExpired(Event):
    """The game's time limit passed: the game ends with the round under way."""

    round: int = doc("The round under way.")


@register_event
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The outcome. Objectives are revealed; the seed is revealed by whoever holds it."""

    winner: int | None = doc("The winning seat; null when the game ended without a winner.")
    reason: str = doc(
        "Why it ended: objective, victory_points, territories, empires, last_player, "
        "time_limit or round_limit."
    )
    ranking: tuple[tuple[int, int, int], ...] = entries("Every seat's place, best first.", Placing)
    objectives: tuple[str, ...] = doc(
        "The objective card of each seat, by seat; empty in games without objectives."
    )
