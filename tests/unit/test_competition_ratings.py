"""Ratings: the library's own figures for hand-made rankings, ties as the ranking has them,
the provisional mark, the displayed number and the prediction of a table."""

from __future__ import annotations

import itertools
import math

import pytest
from openskill.models import BradleyTerryPart

from competition.errors import CompetitionCode, CompetitionError
from competition.ratings import PROVISIONAL_SIGMA, Rating, predict, rate

NEW = Rating()
LIBRARY = BradleyTerryPart()


def library_rate(ratings: list[Rating], ranks: list[int]) -> list[tuple[float, float]]:
    teams = [[LIBRARY.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    return [(t[0].mu, t[0].sigma) for t in LIBRARY.rate(teams, ranks=[float(x) for x in ranks])]


HAND_MADE = [
    ([NEW] * 4, [1, 2, 3, 4]),
    ([NEW] * 4, [1, 1, 3, 4]),  # two winners tied
    ([NEW] * 4, [1, 2, 2, 4]),
    ([NEW] * 5, [5, 4, 3, 2, 1]),
    ([NEW] * 6, [1, 2, 3, 4, 5, 6]),
    ([Rating(30, 4), NEW, Rating(20, 6)], [3, 1, 1]),  # the favourite last behind a tie
    ([Rating(31.2, 2.5), Rating(18.0, 7.5), Rating(25.0, 1.0), Rating(40.0, 3.3)], [2, 4, 1, 3]),
]


@pytest.mark.parametrize(("ratings", "ranks"), HAND_MADE)
def test_a_game_is_rated_as_the_library_rates_it(ratings: list[Rating], ranks: list[int]) -> None:
    rated = rate(ratings, ranks)
    assert [(r.mu, r.sigma) for r in rated] == library_rate(ratings, ranks)


def test_the_figures_of_a_first_game() -> None:
    # Pinned: a new version of the library that rated differently would change every
    # account's rating; it is noticed here, not in production.
    rated = rate([NEW] * 4, [1, 2, 3, 4])
    assert [round(r.mu, 6) for r in rated] == [27.635389, 25.878463, 24.121537, 22.364611]
    assert {round(r.sigma, 6) for r in rated} == {8.065901}
    rated = rate([Rating(30, 4), NEW, Rating(20, 6)], [3, 1, 1])
    assert [round(r.mu, 6) for r in rated] == [28.912644, 26.633732, 21.598955]


def test_tied_players_of_equal_ratings_are_rated_alike_and_better_ranks_gain_more() -> None:
    # Every ranking of five new players, ties included: a player ranked better than another
    # ends higher; tied players end equal.
    for ranks in itertools.product(range(1, 6), repeat=5):
        rated = rate([NEW] * 5, list(ranks))
        for i, j in itertools.combinations(range(5), 2):
            if ranks[i] < ranks[j]:
                assert rated[i].mu > rated[j].mu, ranks
            elif ranks[i] == ranks[j]:
                assert rated[i] == rated[j], ranks


def test_a_newcomer_is_provisional_and_shown_at_1500() -> None:
    assert NEW.provisional
    assert NEW.display == 1500
    assert NEW.ordinal == pytest.approx(0.0)
    assert not Rating(25.0, PROVISIONAL_SIGMA).provisional
    assert Rating(25.0, PROVISIONAL_SIGMA + 1e-9).provisional
    assert Rating(25.0 + 25 / 6, 2.0).display == 1700  # a beta above: 200 points


def test_a_newcomer_among_settled_players_is_settled_after_eight_games() -> None:
    # Against three settled players, finishing first, second, third and last in turn.
    settled = Rating(25.0, 4.0)
    rating = NEW
    provisional = []
    for game in range(12):
        place = game % 4 + 1
        ranks = [place, *(rank for rank in (1, 2, 3, 4) if rank != place)]
        rating = rate([rating, settled, settled, settled], ranks)[0]
        provisional.append(rating.provisional)
    assert provisional == [True] * 7 + [False] * 5


def test_the_prediction_of_a_table_is_the_librarys() -> None:
    ratings = [Rating(20, 3), Rating(30, 2), NEW, Rating(30, 2)]
    prediction = predict(ratings)
    teams = [[LIBRARY.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    assert list(prediction.win) == LIBRARY.predict_win(teams)
    assert list(prediction.ranks) == [rank for rank, _ in LIBRARY.predict_rank(teams)]
    assert prediction.ranks == (4, 1, 3, 1)
    assert math.isclose(sum(prediction.win), 1.0)


@pytest.mark.parametrize(
    ("ratings", "ranks"),
    [
        ([NEW], [1]),
        ([NEW, NEW], [1]),
        ([NEW, NEW], [0, 1]),
        ([NEW, NEW], [True, 2]),
        ([NEW, Rating(math.nan, 1.0)], [1, 2]),
        ([NEW, Rating(25.0, 0.0)], [1, 2]),
    ],
)
def test_a_ranking_that_cannot_be_rated_is_refused(ratings: list[Rating], ranks: list[int]) -> None:
    with pytest.raises(CompetitionError) as refused:
        rate(ratings, ranks)
    assert refused.value.code is CompetitionCode.INVALID_RANKING
