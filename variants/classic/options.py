"""The options of a classic RisiKo! game: the RisiKo! mechanics' own (the defender's dice, the
protected rounds, the tournament's dice, garrison and objectives) and the end's (domain)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from domain.risiko.attack import AttackOptions
from domain.risiko.defence import DefenceOptions
from domain.risiko.objectives import ObjectiveOptions
from domain.risiko.strategic import GarrisonOptions


@dataclass(frozen=True)
class ClassicOptions(ObjectiveOptions, GarrisonOptions, AttackOptions, DefenceOptions):
    """The defaults are the basic game, except that defenders always roll their maximum unless
    `defender_dice` is DECLARE (the rulebook's basic game lets them choose; see docs/classic.md).
    `tournament()` is the "Regole da torneo"; each of its rules is also a switch of its own."""

    TOURNAMENT: ClassVar[dict[str, Any]] = {
        "defender_dice": "maximum",
        "attacker_dice_at_least_defender": True,
        "minimum_garrison": True,
        "objectives": "tournament",
    }

    @classmethod
    def tournament(cls, **overrides: Any) -> ClassicOptions:
        """The tournament's preset, with `overrides` (typed values) over it."""
        preset = cls.from_dict(cls.TOURNAMENT)
        assert isinstance(preset, ClassicOptions)
        return replace(preset, **overrides)
