"""The options of an S.P.Q.RisiKo! game: the victory-point target or a time limit."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.errors import InvalidOptions
from domain.options import option
from domain.risiko.attack import AttackOptions
from domain.risiko.options import played_off

DEFAULT_VICTORY_POINTS = 20


@dataclass(frozen=True)
class SpqrOptions(AttackOptions):
    """Chosen before the game (rules 3.1): a victory-point target, a time limit, or both
    (`round_limit` too). The garrison of 2 is a rule of this game, not a tournament option."""

    # Stored with every game before they were the rules': the defender rolls the most dice,
    # the garrison of 2 stands, no objectives are dealt.
    RETIRED: ClassVar[Mapping[str, Any]] = played_off(AttackOptions, minimum_garrison=True)
    victory_points: int | None = option(
        DEFAULT_VICTORY_POINTS,
        "The victory points that win, claimed at the start of each turn (at least 1; null: "
        "no target, then a time or round limit ends the game).",
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.victory_points is not None and self.victory_points < 1:
            raise InvalidOptions("victory_points must be at least 1 when it is set")
        if (
            self.victory_points is None
            and self.time_limit_minutes is None
            and self.round_limit is None
        ):
            raise InvalidOptions(
                "a game without a victory_points target needs a time_limit_minutes or round_limit"
            )
