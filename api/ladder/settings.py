"""The ladder's settings, from the environment (prefix RISIKO_LADDER_), with their defaults."""

from __future__ import annotations

from typing import Any

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from api.clock import Absence, TimeControl
from api.ratings.records import speed_of


class LadderSettings(BaseSettings):
    """What the ladder plays and how much of it at once."""

    model_config = SettingsConfigDict(env_prefix="RISIKO_LADDER_", extra="ignore")

    enabled: bool = True
    variant: str = "classic"
    table_size: int = Field(default=4, ge=3, le=6)  # classic's best
    games_per_bot: int = Field(default=1, ge=1, le=10)  # at once
    games_at_once: int = Field(default=8, ge=1, le=1000)  # in all
    # Each game's clock: an absent bot is played for, then resigned, so it does not hold
    # its table; real-time, so the ladder's ratings are its bots' real-time ones.
    turn_seconds: float = Field(default=30.0, ge=1, le=900)
    resign_after: int = Field(default=2, ge=1, le=100)
    # What ends a game that the rules do not end soon: the tournaments' time limit and a
    # round limit (then ranked by the points, as a tournament's table is).
    time_limit_minutes: int = Field(default=30, ge=1, le=1440)
    round_limit: int | None = Field(default=12, ge=1, le=100)
    pass_seconds: float = Field(default=2.0, gt=0, le=600)  # how often the ladder pairs
    noise: float = Field(default=100.0, ge=0)  # display points (api/ladder/pairing.py)

    def time_control(self) -> dict[str, Any]:
        control = TimeControl(
            turn_seconds=self.turn_seconds,
            absence=Absence.PROXY,
            resign_after=self.resign_after,
        )
        return control.to_dict()

    @property
    def speed(self) -> str:
        return speed_of(self.time_control()).value
