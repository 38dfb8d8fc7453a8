"""What the rating store keeps (api/stores/ratings.py):

- a history entry per account, game and (variant, speed): the account's rating before and
  after the game, numbered from 1 in the account's rated games of that variant and speed
  (`number`: the version under which it is written; the latest entry is the rating);
- a rated game: the table as it finished (accounts, ranks) and their ratings before it, fixed
  by whoever first claimed the game (one write keyed by the game id), and whether every
  account's entry is written (`done`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from competition.ratings import Rating

# A game whose every turn is timed at most this long (a time per turn), or whose time bank is
# at most this long, is played at one sitting: real-time. Longer, or with no clock at all
# (nobody is hurried: a player may take days), it is correspondence.
REAL_TIME_TURN_SECONDS = 15 * 60
REAL_TIME_BANK_SECONDS = 3 * 60 * 60


class Speed(enum.StrEnum):
    """A rated game's pace, fixed at its creation; ratings are kept per variant and speed."""

    REAL_TIME = "real-time"
    CORRESPONDENCE = "correspondence"


def speed_of(time_control: dict[str, Any] | None) -> Speed:
    """The speed of a game with this time control (api/clock.TimeControl's plain form)."""
    control = time_control or {}
    turn, bank = control.get("turn_seconds"), control.get("bank_seconds")
    if turn is not None and turn <= REAL_TIME_TURN_SECONDS:
        return Speed.REAL_TIME
    if bank is not None and bank <= REAL_TIME_BANK_SECONDS:
        return Speed.REAL_TIME
    return Speed.CORRESPONDENCE


@dataclass(frozen=True, slots=True)
class Standing:
    """An account's rating in one variant and speed, after `games` rated games (0: none yet,
    a newcomer's default rating)."""

    rating: Rating = field(default_factory=Rating)
    games: int = 0


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    account: str
    variant: str
    speed: str  # a Speed value
    number: int  # the account's rated games of this variant and speed, this one included
    game: str
    at: float  # when the game ended
    bot: bool  # the account is a bot's (leaderboards keep people and bots apart)
    before: Rating
    after: Rating

    @property
    def standing(self) -> Standing:
        return Standing(self.after, self.number)


@dataclass(frozen=True, slots=True)
class RatedSeat:
    account: str
    bot: bool
    rank: int  # in the engine's final ranking, 1 the best; equal ranks tie
    before: Standing  # as the game's claim found it


@dataclass(frozen=True, slots=True)
class RatedGame:
    game: str
    variant: str
    speed: str
    at: float
    seats: tuple[RatedSeat, ...]
    done: bool = False

    def to_plain(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "speed": self.speed,
            "at": self.at,
            "seats": [
                [
                    s.account,
                    s.bot,
                    s.rank,
                    s.before.rating.mu,
                    s.before.rating.sigma,
                    s.before.games,
                ]
                for s in self.seats
            ],
        }

    @classmethod
    def from_plain(cls, game: str, data: dict[str, Any], done: bool) -> RatedGame:
        seats = tuple(
            RatedSeat(str(a), bool(b), int(r), Standing(Rating(float(mu), float(sg)), int(n)))
            for a, b, r, mu, sg, n in data["seats"]
        )
        return cls(game, str(data["variant"]), str(data["speed"]), float(data["at"]), seats, done)


@dataclass(frozen=True, slots=True)
class RatingRow:
    """An account's current rating in one variant and speed, as leaderboards read it (a
    projection of its latest history entry)."""

    account: str
    variant: str
    speed: str
    rating: Rating
    games: int
    bot: bool
    at: float  # when its latest rated game ended

    @classmethod
    def of(cls, entry: HistoryEntry) -> RatingRow:
        return cls(
            entry.account,
            entry.variant,
            entry.speed,
            entry.after,
            entry.number,
            entry.bot,
            entry.at,
        )
