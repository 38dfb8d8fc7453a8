"""The tournament commands' inputs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from api.stores.base import Admits


@dataclass(frozen=True, slots=True)
class CreateTournament:
    name: str
    rounds: int
    registration_closes_at: float  # seconds since the epoch
    variant: str = "classic"
    table_size: int = 4  # the size the tables are cut to; 3 and 5 fill in
    time_limit_minutes: int = 60  # each game's time limit (the tournament rules' option)
    clock: dict[str, Any] | None = None  # each game's time control, plain (api/clock.py)
    round_limit: int | None = None  # each game's round limit (the games' own option)
    options: dict[str, Any] | None = None  # the game's tournament options chosen (plain)
    start_automatically: bool = False  # each next round starts once the last one's games end
    admits: Admits = Admits.ANYONE


# Bounds of a tournament's settings.
MAX_ROUNDS = 20
MAX_NAME = 80
TIME_LIMITS = (1, 24 * 60)  # minutes
MAX_ROUND_LIMIT = 100  # a game's rounds: far beyond what a timed tournament game plays
TABLE_SIZES = (3, 6)
