"""The options of a skirmish: a round limit (on by default, so every game ends)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.errors import InvalidOptions
from domain.options import DefenderDice, GameOptions, ObjectiveDeck, option

DEFAULT_ROUND_LIMIT = 8


@dataclass(frozen=True, slots=True)
class SkirmishOptions(GameOptions):
    fixed: ClassVar[frozenset[str]] = frozenset(
        {
            "defender_dice",
            "protected_rounds",
            "attacker_dice_at_least_defender",
            "minimum_garrison",
            "objectives",
            "time_limit_minutes",
        }
    )
    protected_rounds: int = option(0, "None in a skirmish.")
    round_limit: int | None = option(
        DEFAULT_ROUND_LIMIT, "The game ends after this round; the spaces held decide."
    )

    def __post_init__(self) -> None:
        GameOptions.__post_init__(self)
        if (
            self.defender_dice is not DefenderDice.MAXIMUM
            or self.protected_rounds
            or self.attacker_dice_at_least_defender
            or self.minimum_garrison
            or self.objectives is not ObjectiveDeck.STANDARD
            or self.time_limit_minutes is not None
        ):
            raise InvalidOptions("a skirmish sets only its round_limit")
