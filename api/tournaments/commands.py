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
    time_limit: int = 3600  # each game's, in seconds
    clock: dict[str, Any] | None = None  # each game's time control, plain (api/clock.py)
    admits: Admits = Admits.ANYONE


# Bounds of a tournament's settings.
MAX_ROUNDS = 20
MAX_NAME = 80
TIME_LIMITS = (60, 24 * 3600)
TABLE_SIZES = (3, 6)
