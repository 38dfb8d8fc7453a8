"""Game options: the rules players choose before a game starts.

The base options hold what every game has: its end by a round limit or a time limit. A shared
mechanic declares its own options beside it (domain/risiko: `DefenceOptions`, `AttackOptions`,
`GarrisonOptions`, `ObjectiveOptions`), and a game's options class in its folder lists the
mechanics' it plays with and adds its own.

Each option is a field declared with `option(default, description)`: the description is what
a client is told the option does (the catalogue, the API's option types), so an option
without one cannot be registered (`GameOptions.check_declared`, which `Variant` runs when a
game is declared). Plain values in and out (`to_dict`, `from_dict`): enums by value, the rest
as they are. An option a game had once and dropped (its rules fixed it) is `RETIRED`: a game
stored with it still loads, and a client may restate its one value.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any, ClassVar

from domain.errors import InvalidOptions

DOC = "doc"
OFF = "off"


def option(default: Any, description: str, *, off: Any = MISSING) -> Any:
    """An option's field: its default and what it does, for clients; `off`, the value a game
    without this option plays as (shown for it where every game's options are shown)."""
    metadata = {DOC: description} if off is MISSING else {DOC: description, OFF: off}
    return field(default=default, metadata=metadata)


# The plain types an option may have (its GraphQL type follows from it), besides enums.
PLAIN_TYPES = (bool, int, str)


@dataclass(frozen=True)
class GameOptions:
    """What every game has: it ends after a round limit or once a time limit has passed."""

    # The game ends when the round in which the limit is reached is completed.
    time_limit_minutes: int | None = option(
        None, "A time limit in minutes; the round in which it expires is the last."
    )
    round_limit: int | None = option(None, "The game ends after this round; the ranking decides.")

    # Options this game once had and its rules now fix, with the one value they may have.
    RETIRED: ClassVar[Mapping[str, Any]] = {}
    # The "Regole da torneo" of the games that have them, as plain values (a client's
    # `tournament: true`); none in the others.
    TOURNAMENT: ClassVar[Mapping[str, Any]] = {}

    def __post_init__(self) -> None:
        for name in ("time_limit_minutes", "round_limit"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise InvalidOptions(f"{name} must be at least 1 when it is set")

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
        return cls().to_dict()

    @classmethod
    def tournament_overrides(cls) -> dict[str, Any]:
        """The "Regole da torneo" as the plain values that differ from this game's defaults
        (what a client's `tournament: true` stands for); InvalidOptions in a game without."""
        if not cls.TOURNAMENT:
            raise InvalidOptions("this game has no tournament rules")
        plain = cls().to_dict()
        return {name: value for name, value in cls.TOURNAMENT.items() if plain[name] != value}

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for name, value in data.items():
            if isinstance(value, enum.Enum):
                data[name] = value.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameOptions:
        """The options of plain values (an enum's by value); InvalidOptions for an unknown
        option, a value of the wrong type, or a retired option's other value."""
        known = {f.name for f in fields(cls)}
        hints = option_types(cls)
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name in known:
                values[name] = _typed_value(name, hints[name], value)
            elif name in cls.RETIRED:
                if value != cls.RETIRED[name]:
                    fixed = cls.RETIRED[name]
                    raise InvalidOptions(f"the rules of this game fix {name} at {fixed!r}")
            else:
                raise InvalidOptions(f"unknown option: {name}")
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
