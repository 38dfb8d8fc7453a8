"""Game options: the rules players choose before a game starts.

Each option is a field of a game's options class, declared with `option(default, description)`:
the description is what a client is told the option does (the catalogue, the API's option
types), so an option without one cannot be registered (`GameOptions.check_declared`, which
`Variant` runs when a game is declared). Plain values in and out (`to_dict`, `from_dict`):
enums by value, the rest as they are.
"""

from __future__ import annotations

import enum
import types
import typing
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, ClassVar

from domain.errors import InvalidOptions

DOC = "doc"


def option(default: Any, description: str) -> Any:
    """An option's field: its default and what it does, for clients."""
    return field(default=default, metadata={DOC: description})


class DefenderDice(enum.Enum):
    """How many dice a defender rolls."""

    MAXIMUM = "maximum"  # the defender always rolls as many dice as it can (up to 3)
    DECLARE = "declare"  # the defender declares its dice after the attacker, before the roll


class ObjectiveDeck(enum.Enum):
    """Which deck of secret objectives is dealt."""

    STANDARD = "standard"
    TOURNAMENT = "tournament"


# The plain types an option may have (its GraphQL type follows from it), besides enums.
PLAIN_TYPES = (bool, int, str)


@dataclass(frozen=True, slots=True)
class GameOptions:
    """The defaults are the basic game, except that defenders always roll their maximum unless
    `defender_dice` is DECLARE (the rulebook's basic game lets them choose; see docs/classic.md).
    `tournament()` is the "Regole da torneo"; each of its rules is also a switch of its own."""

    defender_dice: DefenderDice = option(
        DefenderDice.MAXIMUM,
        "MAXIMUM: defenders always roll min(3, armies); DECLARE: the defender declares its "
        "dice after the attacker, before the roll.",
    )
    protected_rounds: int = option(
        4, "No player may be eliminated before the end of this round (0: off)."
    )
    attacker_dice_at_least_defender: bool = option(
        False, "Tournament: no attack with fewer dice than the defender."
    )
    minimum_garrison: bool = option(
        False,
        "Tournament: a voluntary move leaves at least 2 armies on a territory that borders "
        "an enemy.",
    )
    objectives: ObjectiveDeck = option(
        ObjectiveDeck.STANDARD,
        "STANDARD secret objectives or the 16 TOURNAMENT objectives with points.",
    )
    time_limit_minutes: int | None = option(
        None, "Tournament time limit; the round in which it expires is completed."
    )
    round_limit: int | None = option(None, "The game ends after this round; the ranking decides.")

    # Options that a variant's rules fix: no other value is accepted, so none is offered.
    fixed: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def check_declared(cls) -> None:
        """Refuse (TypeError) an options class with an option that is not described, or of a
        type no client can send: every option is shown to clients as it is declared."""
        hints = option_types(cls)
        for field_ in fields(cls):
            if not str(field_.metadata.get(DOC, "")).strip():
                raise TypeError(
                    f"{cls.__name__}.{field_.name}: declare it with option(default, description)"
                )
            value_type(hints[field_.name], f"{cls.__name__}.{field_.name}")

    @classmethod
    def settable(cls) -> dict[str, Any]:
        """The options players may choose, with their defaults, as plain values."""
        return {name: value for name, value in cls().to_dict().items() if name not in cls.fixed}

    @classmethod
    def tournament_overrides(cls) -> dict[str, Any]:
        """The "Regole da torneo" as the plain values that differ from this variant's
        defaults (what a client's `tournament: true` stands for)."""
        plain = cls().to_dict()
        preset = GameOptions.tournament().to_dict()
        return {name: value for name, value in preset.items() if plain.get(name) != value}

    @classmethod
    def tournament(cls, **overrides: Any) -> GameOptions:
        preset = cls(
            defender_dice=DefenderDice.MAXIMUM,
            attacker_dice_at_least_defender=True,
            minimum_garrison=True,
            objectives=ObjectiveDeck.TOURNAMENT,
        )
        return replace(preset, **overrides)

    def __post_init__(self) -> None:
        if self.protected_rounds < 0:
            raise InvalidOptions("protected_rounds must be 0 or more")
        for name in ("time_limit_minutes", "round_limit"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise InvalidOptions(f"{name} must be at least 1 when it is set")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for name, value in data.items():
            if isinstance(value, enum.Enum):
                data[name] = value.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameOptions:
        """The options of plain values (an enum's by value); InvalidOptions for an unknown
        option or a value of the wrong type."""
        values = dict(data)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise InvalidOptions(f"unknown options: {', '.join(unknown)}")
        hints = option_types(cls)
        for name, value in values.items():
            values[name] = _typed_value(name, hints[name], value)
        return cls(**values)


def _typed_value(name: str, hint: Any, value: Any) -> Any:
    """A plain value as the option's type, or InvalidOptions."""
    kind = value_type(hint, name)
    if value is None and is_optional(hint):
        return None
    if issubclass(kind, enum.Enum):
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(str(member.value) for member in kind)
            raise InvalidOptions(f"{name} is one of {allowed}, not {value!r}") from None
    if type(value) is not kind:  # no bool for an int, no text for a number
        raise InvalidOptions(f"{name} must be a {kind.__name__}, not {value!r}")
    return value


_TYPES: dict[type[GameOptions], dict[str, Any]] = {}


def option_types(cls: type[GameOptions]) -> dict[str, Any]:
    """Each option's declared type (the annotations are strings here), read once per class."""
    known = _TYPES.get(cls)
    if known is None:
        known = _TYPES[cls] = typing.get_type_hints(cls)
    return known


def value_type(hint: Any, where: str) -> type:
    """The type of an option's values (`int` for `int | None`), or TypeError for a type no
    client can send."""
    arguments = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in arguments:
        rest = [argument for argument in arguments if argument is not type(None)]
        if len(rest) == 1:
            hint = rest[0]
    if isinstance(hint, type) and (hint in PLAIN_TYPES or issubclass(hint, enum.Enum)):
        return hint
    raise TypeError(f"{where}: an option is a bool, an int, a str or an enum, not {hint!r}")


def is_optional(hint: Any) -> bool:
    """Whether an option's type takes None (no limit, the rules' own value)."""
    return type(None) in typing.get_args(hint)
