"""The typed actions a seat (or the game clock) can submit. Territories are named by ascii id.

Every kind of action is registered by its `kind` (`register_action`): the log decodes it by
that name, and the API builds its ActionInput member from it (the member's name is the kind in
camelCase, its fields the action's, their descriptions the `doc` of each field), so a game
that brings an action of its own (in its variant's folder) needs nothing added elsewhere.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from domain.errors import InvalidAction

# Each kind of action's fields with the type its value must have: whole numbers, ids, and
# tuples of card ids (the only other kind of field).
_CHECKS: dict[type, tuple[tuple[str, type], ...]] = {}
_PLAIN: dict[str, type] = {"int": int, "str": str}


def doc(text: str, default: Any = MISSING) -> Any:
    """A field of an action (or of a legal family) with its description for clients."""
    return field(default=default, metadata={"doc": text})


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = "action"
    # For clients (the API's ActionInput): what the member does, and what its input is.
    summary: ClassVar[str] = ""
    about: ClassVar[str] = ""
    # False for what no seat submits as a move of play: the clock's, and leaving the game.
    by_seat: ClassVar[bool] = True

    def __post_init__(self) -> None:
        # Actions arrive from clients as JSON: a count must be a whole number and a territory
        # a string before any rule looks at them, so that a bad value is a clean rejection.
        checks = _CHECKS.get(type(self))
        if checks is None:
            checks = _CHECKS[type(self)] = tuple(
                (f.name, _PLAIN.get(str(f.type), tuple)) for f in fields(self)
            )
        for name, expected in checks:
            value: Any = getattr(self, name)
            exact = type(value) is expected  # no bool for an int, no list for the cards
            if exact and (expected is not tuple or all(type(item) is str for item in value)):
                continue
            if expected is int:
                wanted = "a whole number"
            elif expected is str:
                wanted = "a text id"
            else:  # the cards of a set; how many make a set is a rule (INVALID_CARD_SET)
                wanted = "a list of card ids"
            raise InvalidAction(f"{self.kind}: {name} must be {wanted}, not {value!r}")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for field_ in fields(self):
            value = getattr(self, field_.name)
            data[field_.name] = list(value) if isinstance(value, tuple) else value
        return data


ACTION_TYPES: dict[str, type[Action]] = {}
A = TypeVar("A", bound=type[Action])


def register_action(cls: A) -> A:
    """Make a kind of action known by its `kind` (apply it over @dataclass)."""
    if ACTION_TYPES.get(cls.kind, cls) is not cls:
        raise ValueError(f"two kinds of action are called {cls.kind!r}")
    ACTION_TYPES[cls.kind] = cls
    return cls


@register_action
@dataclass(frozen=True, slots=True)
class PlaceArmies(Action):
    """Put armies on an own territory: the initial placement, then the reinforcements."""

    kind: ClassVar[str] = "place_armies"
    summary: ClassVar[str] = "Place armies (setup and reinforcements)."
    about: ClassVar[str] = "Put armies on an own territory."
    territory: str = doc("An own territory's id.")
    armies: int = doc("How many armies.")


@register_action
@dataclass(frozen=True, slots=True)
class TradeCards(Action):
    """Trade a set of three cards for armies (reinforcement phase only)."""

    kind: ClassVar[str] = "trade_cards"
    summary: ClassVar[str] = "Trade a set of cards (reinforcement phase)."
    about: ClassVar[str] = "Trade three cards for armies."
    cards: tuple[str, ...] = doc("Three card ids from the hand.")


@register_action
@dataclass(frozen=True, slots=True)
class Attack(Action):
    """One roll: attack `target` from `source` with `dice` dice (1 to 3, at most armies - 1)."""

    kind: ClassVar[str] = "attack"
    summary: ClassVar[str] = "One roll of an attack."
    about: ClassVar[str] = "One roll: attack target from source with 1 to 3 dice."
    source: str = doc("The attacking territory (own, at least 2 armies).")
    target: str = doc("The attacked territory (adjacent, enemy).")
    dice: int = doc("1 to 3, at most the source's armies - 1.")


@register_action
@dataclass(frozen=True, slots=True)
class AttackUntil(Action):
    """Attack repeatedly with up to `dice` dice until conquest, or until `source` holds no
    more than `stop_at` armies, or until no further roll is allowed. Every roll is recorded."""

    kind: ClassVar[str] = "attack_until"
    summary: ClassVar[str] = "Attack until conquest or a threshold."
    about: ClassVar[str] = "Attack until conquest or until source holds stopAt armies."
    source: str = doc("The attacking territory.")
    target: str = doc("The attacked territory.")
    dice: int = doc("Most dice per roll (each roll uses what the armies allow).", 3)
    stop_at: int = doc("Stop when the source holds this many armies or fewer.", 1)


@register_action
@dataclass(frozen=True, slots=True)
class Defend(Action):
    """The defender's choice of dice, when the game lets defenders declare them."""

    kind: ClassVar[str] = "defend"
    summary: ClassVar[str] = "The defender's dice, when the game lets defenders declare."
    about: ClassVar[str] = "The defender's dice."
    dice: int = doc("1 to min(3, armies).")


@register_action
@dataclass(frozen=True, slots=True)
class Occupy(Action):
    """Move armies into the territory just conquered (at least the dice of the last roll)."""

    kind: ClassVar[str] = "occupy"
    summary: ClassVar[str] = "Move armies into a conquered territory."
    about: ClassVar[str] = "Armies moved into the territory just conquered."
    armies: int = doc("At least the dice of the last roll, at most all but one.")


@register_action
@dataclass(frozen=True, slots=True)
class StrategicMove(Action):
    """The one move of the turn between adjacent own territories. It ends the turn."""

    kind: ClassVar[str] = "strategic_move"
    summary: ClassVar[str] = "The strategic move; it ends the turn."
    about: ClassVar[str] = "The strategic move; it ends the turn."
    source: str = doc("Where the armies leave (at least one stays).")
    target: str = doc("An adjacent own territory.")
    armies: int = doc("How many armies.")


@register_action
@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end_turn"
    summary: ClassVar[str] = "true: end the turn."


# --------------------------------------------------------------------------- not by a seat


@register_action
@dataclass(frozen=True, slots=True)
class Resign(Action):
    """Leave the game (the API's leaveGame). Not among the legal actions of play."""

    kind: ClassVar[str] = "resign"
    by_seat: ClassVar[bool] = False


@register_action
@dataclass(frozen=True, slots=True)
class ExpireTime(Action):
    """Submitted by the game's clock, not by a seat: the tournament time limit has passed."""

    kind: ClassVar[str] = "expire_time"
    by_seat: ClassVar[bool] = False


def action_from_dict(data: dict[str, Any]) -> Action:
    """The inverse of `Action.to_dict`, for action logs."""
    values = dict(data)
    kind = values.pop("kind", None)
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidAction(f"unknown kind of action {kind!r}")
    for field_ in fields(cls):  # JSON has lists where actions have tuples (a set's cards)
        if str(field_.type).startswith("tuple") and isinstance(values.get(field_.name), list):
            values[field_.name] = tuple(values[field_.name])
    try:
        return cls(**values)
    except TypeError as error:
        raise InvalidAction(f"{kind}: {error}") from None
