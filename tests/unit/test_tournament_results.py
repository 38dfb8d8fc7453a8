"""A finished table's result as the tournament counts it (api/tournaments/games.py
`result_of`): the game's end that is its objective achieved is the one its variant declares,
and an absent player, whose seat the clock's proxy played, achieves nothing and scores 0."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest

from api.read_models import Session
from api.stores.base import GameStatus
from api.tournaments.games import result_of
from competition.results import Presence

RANKING = [(1, 0, 12), (2, 2, 7), (3, 1, 3)]


def finished(variant: str, end_reason: str, winner: int = 0) -> Session:
    """A finished game of three seats, as much of it as `result_of` reads."""
    seats = [SimpleNamespace(account_id=f"account-{seat}") for seat in range(3)]
    record = SimpleNamespace(id="g", variant=variant, status=GameStatus.FINISHED, seats=seats)
    game = SimpleNamespace(
        ranking=RANKING, winner=winner, end_reason=end_reason, resigned=[False, True, False]
    )
    return cast(Session, SimpleNamespace(record=record, game=game, last_event=0))


@pytest.mark.parametrize(
    ("variant", "end_reason", "achieved"),
    [
        ("classic", "objective", True),
        ("classic", "time_limit", False),
        ("spqr", "victory_points", True),
        ("spqr", "objective", False),
        ("spqr", "round_limit", False),
    ],
)
def test_the_objective_achieved_is_the_end_the_game_declares(
    variant: str, end_reason: str, achieved: bool
) -> None:
    result = result_of(finished(variant, end_reason))
    assert result is not None
    assert [line.objective for line in result.players] == [achieved, False, False]
    assert [line.points for line in result.players] == [12, 3, 7]
    assert [line.presence for line in result.players] == [
        Presence.PLAYED,
        Presence.RESIGNED,
        Presence.PLAYED,
    ]


def test_an_absent_winner_achieves_nothing_and_scores_nothing() -> None:
    result = result_of(finished("classic", "objective"), absent={0})
    assert result is not None
    winner = result.players[0]
    assert (winner.presence, winner.objective, winner.rank, winner.score) == (
        Presence.ABSENT,
        False,
        1,
        0,
    )
