"""Game options: the rules players choose before a game starts."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, replace
from typing import Any, ClassVar

from domain.errors import InvalidOptions


class DefenderDice(enum.Enum):
    MAXIMUM = "maximum"  # the defender always rolls as many dice as it can (up to 3)
    DECLARE = "declare"  # the defender declares its dice after the attacker, before the roll


class ObjectiveDeck(enum.Enum):
    STANDARD = "standard"
    TOURNAMENT = "tournament"


@dataclass(frozen=True, slots=True)
class GameOptions:
    """The defaults are the basic game, except that defenders always roll their maximum unless
    `defender_dice` is DECLARE (the rulebook's basic game lets them choose; see docs/classic.md).
    `tournament()` is the "Regole da torneo"; each of its rules is also a switch of its own."""

    defender_dice: DefenderDice = DefenderDice.MAXIMUM
    # "No elimination before the end of the fourth round": during rounds 1..N nobody may
    # attack the last territory of a player. 0 turns the protection off.
    protected_rounds: int = 4
    # Tournament rules, each its own switch.
    attacker_dice_at_least_defender: bool = False
    minimum_garrison: bool = False
    objectives: ObjectiveDeck = ObjectiveDeck.STANDARD
    # The game ends when the round in which the limit is reached is completed.
    time_limit_minutes: int | None = None
    round_limit: int | None = None

    # Options that a variant's rules fix: no other value is accepted, so none is offered.
    fixed: ClassVar[frozenset[str]] = frozenset()

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
        data["defender_dice"] = self.defender_dice.value
        data["objectives"] = self.objectives.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameOptions:
        values = dict(data)
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(values) - known)
        if unknown:
            raise InvalidOptions(f"unknown options: {', '.join(unknown)}")
        try:
            if "defender_dice" in values:
                values["defender_dice"] = DefenderDice(values["defender_dice"])
            if "objectives" in values:
                values["objectives"] = ObjectiveDeck(values["objectives"])
        except ValueError as error:
            raise InvalidOptions(str(error)) from None
        return cls(**values)
