"""Multiplayer ratings: OpenSkill's Weng-Lin Bradley-Terry model over partial pairings.

A rated game is a free-for-all of its accounts, rated from its final ranking, ties as the
ranking has them (`rate`). The model is the library's `BradleyTerryPart` (Weng and Lin's
Algorithm 2), not its default Plackett-Luce: in openskill 6.2 Plackett-Luce rates tied
players wrongly (a player third behind two tied winners gains as much as they do), which a
RisiKo! ranking meets often (equal points at the time limit, resigned players sharing the
last place); and in the comparison of benchmarks/rating_models.py the partial pairing orders
players by strength as well as Plackett-Luce does, and better after many games.
docs/rated-play.md gives the figures.

- A rating is a skill `mu` and its uncertainty `sigma`, starting at the model's 25 and 25/3.
- It is provisional while `sigma` is above 6.0: about a dozen games (median 13, 11 to 16,
  in the simulation of benchmarks/rating_models.py, whatever the tables' size).
- It is shown as 1500 + 48 * (mu - 25), the scale on which a difference of the model's beta
  (25/6: a 76 % chance to finish ahead) is 200 points, as in Elo; a leaderboard orders by the
  conservative `ordinal` (mu - 3 sigma), so that a few lucky games do not top it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryPart, BradleyTerryPartRating

from competition.errors import CompetitionCode, CompetitionError

MODEL = BradleyTerryPart()
PROVISIONAL_SIGMA = 6.0
DISPLAY_BASE = 1500
DISPLAY_SCALE = 48.0  # display points per unit of mu: 200 for the model's beta (25/6)


@dataclass(frozen=True, slots=True)
class Rating:
    """An account's rating in one game (and speed)."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative skill: 99.7 % likely to be below the true one (leaderboards)."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The number shown: 1500 for a newcomer."""
        return round(DISPLAY_BASE + DISPLAY_SCALE * (self.mu - MODEL.mu))


@dataclass(frozen=True, slots=True)
class Prediction:
    """Before a table starts: each player's chance to finish first, and the ranking those
    chances give (equal chances share a rank), in the order the ratings were given."""

    win: tuple[float, ...]
    ranks: tuple[int, ...]


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> tuple[Rating, ...]:
    """The ratings after a game whose players had `ratings` and finished at `ranks`
    (1 the best; equal ranks are ties), in the same order."""
    _check_table(ratings)
    if len(ranks) != len(ratings) or any(
        isinstance(rank, bool) or not isinstance(rank, int) or rank < 1 for rank in ranks
    ):
        raise CompetitionError(
            CompetitionCode.INVALID_RANKING,
            f"a ranking gives each of the {len(ratings)} players a rank of 1 or more",
        )
    teams = [[_library(rating)] for rating in ratings]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return tuple(Rating(team[0].mu, team[0].sigma) for team in rated)


def predict(ratings: Sequence[Rating]) -> Prediction:
    """The library's prediction of a table (`predict_win`, `predict_rank`)."""
    _check_table(ratings)
    teams = [[_library(rating)] for rating in ratings]
    win = MODEL.predict_win(teams)
    ranks = MODEL.predict_rank(teams)
    return Prediction(tuple(win), tuple(rank for rank, _ in ranks))


def _library(rating: Rating) -> BradleyTerryPartRating:
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)


def _check_table(ratings: Sequence[Rating]) -> None:
    if len(ratings) < 2:
        raise CompetitionError(
            CompetitionCode.INVALID_RANKING, "a rated game has at least 2 players"
        )
    for rating in ratings:
        if not (math.isfinite(rating.mu) and math.isfinite(rating.sigma) and rating.sigma > 0):
            raise CompetitionError(
                CompetitionCode.INVALID_RANKING, f"not a rating: {rating.mu}, {rating.sigma}"
            )
