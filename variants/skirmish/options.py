"""The options of a skirmish: a round limit (on by default, so every game ends), or a time
limit; and how much artillery a space may hold."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.errors import InvalidOptions
from domain.options import GameOptions, option
from domain.risiko.options import played_off

DEFAULT_ROUND_LIMIT = 8


@dataclass(frozen=True)
class SkirmishOptions(GameOptions):
    """A skirmish's round limit is on by default, so that every game ends."""

    # Stored with every game before they were the rules': none of classic RisiKo!'s options.
    RETIRED: ClassVar[Mapping[str, Any]] = played_off()
    round_limit: int | None = option(
        DEFAULT_ROUND_LIMIT, "The game ends after this round; the spaces held decide."
    )
    artillery_limit: int | None = option(
        None, "The most artillery pieces a seat may have on one space (null: no limit)."
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.artillery_limit is not None and self.artillery_limit < 1:
            raise InvalidOptions("artillery_limit must be at least 1 when it is set")
