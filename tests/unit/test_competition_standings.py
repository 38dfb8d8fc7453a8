"""A tournament game's scores, as seed 000 gives them and the engine ranks them, and the
standings added up game by game with their tie-breaks."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.draw import lot
from competition.errors import CompetitionCode, CompetitionError
from competition.pairing import Entrant
from competition.results import GameResult, PlayerResult, Presence, from_ranking
from competition.standings import Standing, Standings
from domain import actions as a
from domain.objectives import HoldListedTerritories
from tests.competition_support import random_tables
from tests.support import BOARD
from tests.unit.test_rules_tournament import PRINTED_VALUES, SCORED, play_until_the_end, position
from variants.classic.options import ClassicOptions

SEED = b"standings"
OBJECTIVES = ("tappeto", "letto", "eurasia", "guerra_fredda")


def line(player: str, points: int, rank: int, *, objective: bool = False) -> PlayerResult:
    return PlayerResult(player, points, rank, objective)


# --------------------------------------------------------------------------- a game's result


def test_a_timed_tournament_game_scores_the_seeds_table() -> None:
    # A hand-made end position of classic RisiKo! with the tournament objectives, played to
    # the end of its round after the time limit: each player scores the printed values of the
    # territories of its objective it holds (seed 000, "Punteggi").
    game = position(SCORED, options=ClassicOptions.tournament(time_limit_minutes=60))
    game.apply(None, a.ExpireTime())
    play_until_the_end(game)
    accounts = ["anna", "bruno", "carla", "dario"]
    result = from_ranking("g1", accounts, game.ranking, objective_seat=None)
    objective_territories = {}
    for seat in range(4):
        objective = game.objective_of(seat)
        assert isinstance(objective, HoldListedTerritories)
        objective_territories[seat] = {BOARD.territories[t].id for t in objective.territories}
    for seat, account in enumerate(accounts):
        held = [
            territory
            for territory in objective_territories[seat]
            if game.owner[BOARD.index[territory]] == seat
        ]
        expected = sum(PRINTED_VALUES[territory] for territory in held)
        scored = next(p for p in result.players if p.player == account)
        assert scored.score == expected, account
    assert [p.score for p in result.players] == [10, 10, 5, 68]
    assert [p.rank for p in result.players] == [2, 2, 4, 1]
    assert not any(p.objective for p in result.players)


def test_the_objective_achieved_scores_100() -> None:
    # The engine's ranking of the game seat 3 wins by its objective (test_rules_tournament).
    ranking = ((1, 3, 100), (2, 1, 4), (3, 2, 3), (4, 0, 0))
    result = from_ranking("g", ["a", "b", "c", "d"], ranking, objective_seat=3)
    assert [(p.player, p.score, p.rank, p.objective) for p in result.players] == [
        ("a", 0, 4, False),
        ("b", 4, 2, False),
        ("c", 3, 3, False),
        ("d", 100, 1, True),
    ]


def test_an_absent_player_scores_nothing_and_one_who_resigned_keeps_its_points() -> None:
    ranking = ((1, 0, 40), (2, 1, 20), (3, 2, 12), (3, 3, 12))
    result = from_ranking(
        "g", ["a", "b", "c", "d"], ranking, objective_seat=None, resigned={2, 3}, absent={3}
    )
    assert [(p.presence, p.score) for p in result.players] == [
        (Presence.PLAYED, 40),
        (Presence.PLAYED, 20),
        (Presence.RESIGNED, 12),
        (Presence.ABSENT, 0),
    ]


@pytest.mark.parametrize(
    ("players", "reason"),
    [
        ((line("a", 3, 1),), "at least 2 players"),
        ((line("a", 3, 1), line("a", 2, 2)), "listed twice"),
        ((line("a", -1, 1), line("b", 2, 2)), "negative points"),
        ((line("a", 3, 3), line("b", 2, 1)), "rank 3"),
        ((line("a", 100, 2, objective=True), line("b", 2, 1)), "achieved its objective"),
        (
            (line("a", 100, 1, objective=True), line("b", 100, 1, objective=True)),
            "only one player",
        ),
    ],
)
def test_a_result_that_cannot_be_is_refused(players: tuple[PlayerResult, ...], reason: str) -> None:
    with pytest.raises(CompetitionError) as refused:
        GameResult("g", players)
    assert refused.value.code is CompetitionCode.INVALID_RESULT
    assert reason in refused.value.message


def test_a_ranking_that_misses_a_seat_is_refused() -> None:
    with pytest.raises(CompetitionError) as refused:
        from_ranking("g", ["a", "b", "c"], ((1, 0, 5), (2, 1, 3)), objective_seat=None)
    assert refused.value.code is CompetitionCode.INVALID_RESULT


# --------------------------------------------------------------------------- standings


def places(standings: Standings) -> list[str]:
    return [row.player for row in standings.rows()]


def test_points_come_first() -> None:
    standings = Standings(SEED)
    standings.add(GameResult("g1", (line("a", 30, 2), line("b", 40, 1), line("c", 5, 3))))
    assert places(standings) == ["b", "a", "c"]
    first = standings.rows()[0]
    assert first == Standing(1, "b", 1, 40, 0, 35, 40, lot(SEED, "b"))


def test_then_objectives_achieved() -> None:
    standings = Standings(SEED)
    standings.add(GameResult("g1", (line("a", 100, 1, objective=True), line("x", 0, 2))))
    standings.add(GameResult("g2", (line("b", 60, 1), line("y", 0, 2))))
    standings.add(GameResult("g3", (line("b", 40, 1), line("z", 0, 2))))
    assert places(standings)[:2] == ["a", "b"]  # both 100 points: a achieved its objective


def test_then_the_opponents_points() -> None:
    standings = Standings(SEED)
    standings.add(GameResult("g1", (line("a", 50, 1), line("strong", 40, 2))))
    standings.add(GameResult("g2", (line("b", 50, 1), line("weak", 10, 2))))
    standings.add(GameResult("g3", (line("strong", 30, 1), line("weak", 5, 2))))
    rows = {row.player: row for row in standings.rows()}
    assert (rows["a"].opponents_points, rows["b"].opponents_points) == (70, 15)
    assert places(standings)[:2] == ["strong", "a"]  # strong 70; a ahead of b on 50
    assert places(standings).index("a") < places(standings).index("b")


def test_then_the_best_game() -> None:
    standings = Standings(SEED)
    standings.add(GameResult("g1", (line("a", 60, 1), line("b", 40, 2))))
    standings.add(GameResult("g2", (line("b", 60, 1), line("a", 40, 2))))
    standings.add(GameResult("g3", (line("a", 10, 1), line("c", 0, 2))))
    standings.add(GameResult("g4", (line("b", 5, 1), line("d", 0, 2))))
    standings.add(GameResult("g5", (line("b", 5, 1), line("e", 0, 2))))
    rows = {row.player: row for row in standings.rows()}
    assert rows["a"].points == rows["b"].points == 110
    assert rows["a"].opponents_points == rows["b"].opponents_points == 220
    assert (rows["a"].best_game, rows["b"].best_game) == (60, 60)
    # Equal best games too: the lot decides.
    expected = sorted(["a", "b"], key=lambda player: lot(SEED, player))
    assert places(standings)[:2] == expected


def test_the_lot_decides_last_and_is_the_seeds() -> None:
    standings = Standings(SEED, ["p1", "p2", "p3", "p4"])
    assert places(standings) == sorted(["p1", "p2", "p3", "p4"], key=lambda p: lot(SEED, p))
    assert places(Standings(b"another", ["p1", "p2", "p3", "p4"])) != places(standings)
    assert len(lot(SEED, "p1")) == 64


def test_a_game_counts_once() -> None:
    standings = Standings(SEED)
    result = GameResult("g1", (line("a", 30, 1), line("b", 20, 2)))
    standings.add(result)
    before = standings.rows()
    with pytest.raises(CompetitionError) as refused:
        standings.add(result)
    assert refused.value.code is CompetitionCode.RESULT_ALREADY_COUNTED
    assert standings.rows() == before


def test_the_next_rounds_entrants_follow_the_standings() -> None:
    standings = Standings(SEED, ["a", "b", "c", "gone"])
    standings.add(GameResult("g1", (line("a", 5, 3), line("b", 50, 1), line("c", 20, 2))))
    entrants = standings.entrants({"a", "b", "c", "late"})
    assert entrants[:3] == [Entrant("b", 50), Entrant("c", 20), Entrant("a", 5)]
    assert entrants[3] == Entrant("late", 0)


# --------------------------------------------------------------------------- from scratch


def by_definition(players: list[str], results: list[GameResult]) -> dict[str, tuple[int, ...]]:
    """Each player's keys, computed from the definitions over every game at once."""
    points: Counter[str] = Counter()
    objectives: Counter[str] = Counter()
    best: defaultdict[str, int] = defaultdict(int)
    games: Counter[str] = Counter()
    for result in results:
        for p in result.players:
            points[p.player] += p.score
            objectives[p.player] += p.objective
            best[p.player] = max(best[p.player], p.score)
            games[p.player] += 1
    opponents: Counter[str] = Counter()
    for result in results:
        for p in result.players:
            opponents[p.player] += sum(points[q.player] for q in result.players if q != p)
    return {
        player: (games[player], points[player], objectives[player], opponents[player], best[player])
        for player in players
    }


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[str], list[GameResult]]:
    rnd = random.Random(draw(st.integers(0, 2**32)))
    players = [f"p{number}" for number in range(draw(st.integers(3, 30)))]
    results = []
    for round_number in range(draw(st.integers(1, 5))):
        playing = [p for p in players if rnd.random() < 0.9] or players
        if len(playing) < 3:
            continue
        sizes = [len(playing)] if len(playing) < 6 else [3] * (len(playing) // 3)
        sizes[-1] += len(playing) - sum(sizes)
        for number, table in enumerate(random_tables(playing, sizes, rnd)):
            results.append(a_game(f"r{round_number}t{number}", table, rnd))
    return players, results


def a_game(game: str, table: list[str], rnd: random.Random) -> GameResult:
    winner = rnd.random() < 0.3
    scores = [rnd.choice((0, 5, 12, 30, 86)) for _ in table]
    if winner:
        scores[0] = 100
    order = sorted(range(len(table)), key=lambda i: -scores[i])
    ranks = {i: 1 + sum(scores[j] > scores[i] for j in order) for i in order}
    presences = [
        rnd.choice([Presence.PLAYED] * 6 + [Presence.RESIGNED, Presence.ABSENT]) for _ in table
    ]
    presences[0] = Presence.PLAYED if winner else presences[0]
    return GameResult(
        game,
        tuple(
            PlayerResult(p, scores[i], ranks[i], winner and i == 0, presences[i])
            for i, p in enumerate(table)
        ),
    )


@settings(max_examples=60)
@given(tournaments(), st.integers(0, 2**32))
def test_standings_equal_a_recomputation_from_scratch(
    tournament: tuple[list[str], list[GameResult]], salt: int
) -> None:
    players, results = tournament
    incremental = Standings(SEED, players)
    shuffled = list(results)
    random.Random(salt).shuffle(shuffled)  # games end in any order
    for result in shuffled:
        incremental.add(result)
    rows = incremental.rows()
    assert rows == Standings.from_results(SEED, players, results).rows()
    expected = by_definition(players, results)
    for row in rows:
        assert (row.games, row.points, row.objectives, row.opponents_points, row.best_game) == (
            expected[row.player]
        )
    keys = [(-r.points, -r.objectives, -r.opponents_points, -r.best_game, r.lot) for r in rows]
    assert keys == sorted(keys)
    assert [row.place for row in rows] == list(range(1, len(players) + 1))
