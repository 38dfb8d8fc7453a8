"""The options of an S.P.Q.RisiKo! game: the victory-point target or a time limit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.errors import InvalidOptions
from domain.options import DefenderDice, GameOptions, ObjectiveDeck, option

DEFAULT_VICTORY_POINTS = 20


@dataclass(frozen=True, slots=True)
class SpqrOptions(GameOptions):
    """Chosen before the game (rules 3.1): a victory-point target, a time limit, or both
    (`round_limit` too). The garrison of 2 is a rule of this game, not a tournament option."""

    fixed: ClassVar[frozenset[str]] = frozenset({"defender_dice", "minimum_garrison", "objectives"})
    minimum_garrison: bool = option(True, "The garrison of 2 is a rule of S.P.Q.RisiKo!.")
    victory_points: int | None = option(
        DEFAULT_VICTORY_POINTS,
        "The victory points that win, claimed at the start of each turn (at least 1; null: "
        "no target, then a time or round limit ends the game).",
    )

    def __post_init__(self) -> None:
        GameOptions.__post_init__(self)
        # Rules of the game, not choices: refused here so that no game is ever created with them.
        if self.defender_dice is not DefenderDice.MAXIMUM:
            raise InvalidOptions("in S.P.Q.RisiKo! the defender always rolls the most dice")
        if not self.minimum_garrison:
            raise InvalidOptions("the garrison of 2 is a rule of S.P.Q.RisiKo!, not an option")
        if self.objectives is not ObjectiveDeck.STANDARD:
            raise InvalidOptions(
                "S.P.Q.RisiKo! has no objectives here: its tournament objectives are unknown"
            )
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
