"""A round's tables: the first drawn from the seed, the later ones Swiss-like with repeated
opponents avoided while avoidable (checked against an exhaustive search), seats varied."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.errors import CompetitionCode, CompetitionError
from competition.pairing import Entrant, Seating, seat_round
from competition.tables import CLASSIC_TOURNAMENT, TableRule
from tests.competition_support import least_repeats, random_tables, repeats, spread

SEED = b"tournament seed"


def players(count: int) -> list[str]:
    return [f"p{number:02d}" for number in range(count)]


def entrants(names: Sequence[str], points: Sequence[int] | None = None) -> list[Entrant]:
    return [Entrant(name, 0 if points is None else points[i]) for i, name in enumerate(names)]


def seated(seating: Seating) -> list[str]:
    return [player for table in seating.tables for player in table]


# --------------------------------------------------------------------------- round 1


@given(st.integers(3, 60), st.binary(min_size=1, max_size=32))
def test_round_one_seats_every_player_once_at_tables_the_rule_allows(
    count: int, seed: bytes
) -> None:
    names = players(count)
    seating = seat_round(seed, 1, entrants(names), [], CLASSIC_TOURNAMENT)
    assert sorted(seated(seating)) == names
    assert tuple(len(table) for table in seating.tables) == CLASSIC_TOURNAMENT.sizes(count)
    assert (seating.round, seating.repeats, seating.spread) == (1, 0, 0)


def test_round_one_is_the_seeds_draw_whatever_the_order_of_the_list() -> None:
    names = players(20)
    first = seat_round(SEED, 1, entrants(names), [], CLASSIC_TOURNAMENT)
    again = seat_round(SEED, 1, entrants(list(reversed(names))), [], CLASSIC_TOURNAMENT)
    other = seat_round(b"another seed", 1, entrants(names), [], CLASSIC_TOURNAMENT)
    assert first == again
    assert first.tables != other.tables
    assert seated(first) != names  # shuffled, not in the order of the ids


def test_round_one_draws_anew_each_round_number() -> None:
    names = players(12)
    one = seat_round(SEED, 1, entrants(names), [], CLASSIC_TOURNAMENT)
    assert seat_round(SEED, 1, entrants(names), [], CLASSIC_TOURNAMENT) == one
    # The round's stream is keyed by its number: round 2 of the same seed draws other ties.
    history = [one.tables]
    two = seat_round(SEED, 2, entrants(names), history, CLASSIC_TOURNAMENT)
    assert two.tables != one.tables


# --------------------------------------------------------------------------- later rounds


def test_a_later_round_seats_the_standings_together() -> None:
    # Round 1 sat the columns of a 4x4 grid; the standings run along its rows, whose players
    # never met: each row of the standings is a table, the best first.
    names = players(16)
    columns = [[names[row * 4 + column] for row in range(4)] for column in range(4)]
    points = [100 - number for number in range(16)]
    seating = seat_round(SEED, 2, entrants(names, points), [columns], CLASSIC_TOURNAMENT)
    assert [set(table) for table in seating.tables] == [
        set(names[i : i + 4]) for i in (0, 4, 8, 12)
    ]
    assert (seating.repeats, seating.spread) == (0, 12)


def affine_plane(
    order: int, multiply: Sequence[Sequence[int]], add: Sequence[Sequence[int]]
) -> list[list[list[str]]]:
    """The order + 1 parallel classes of lines of the affine plane over a field of `order`
    elements: every two points on exactly one line, so each class is a round of tables in
    which nobody meets anyone of the other classes' tables again."""
    name = {(x, y): f"p{x * order + y:02d}" for x in range(order) for y in range(order)}
    classes = [[[name[x, y] for y in range(order)] for x in range(order)]]  # x = c
    for slope in range(order):
        lines = []
        for intercept in range(order):
            lines.append(
                [name[x, add[multiply[slope][x]][intercept]] for x in range(order)]
            )  # y = slope x + intercept
        classes.append(lines)
    return classes


GF3_ADD = [[(a + b) % 3 for b in range(3)] for a in range(3)]
GF3_MUL = [[(a * b) % 3 for b in range(3)] for a in range(3)]
GF4_ADD = [[a ^ b for b in range(4)] for a in range(4)]
GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]


@pytest.mark.parametrize(
    ("order", "multiply", "add"), [(3, GF3_MUL, GF3_ADD), (4, GF4_MUL, GF4_ADD)]
)
@pytest.mark.parametrize("standings", ["by id", "by the first round's tables", "reversed"])
def test_the_last_round_without_repeats_is_found(
    order: int, multiply: list[list[int]], add: list[list[int]], standings: str
) -> None:
    # After `order` rounds of an affine plane exactly one seating without repeats is left:
    # the last parallel class. The search finds it, whatever the standings.
    classes = affine_plane(order, multiply, add)
    history, last = classes[:-1], classes[-1]
    assert repeats(last, history) == 0
    names = sorted(p for table in last for p in table)
    if standings == "by the first round's tables":
        names = [p for table in history[0] for p in table]
    elif standings == "reversed":
        names.reverse()
    rule = TableRule(order, order, order)
    seating = seat_round(SEED, order + 1, entrants(names), history, rule)
    assert seating.repeats == 0
    assert sorted(sorted(table) for table in seating.tables) == sorted(sorted(t) for t in last)


@st.composite
def small_rounds(draw: st.DrawFn) -> tuple[list[str], list[list[list[str]]], list[int], TableRule]:
    rule = draw(st.sampled_from([CLASSIC_TOURNAMENT, TableRule(3, 3, 4), TableRule(3, 4, 4)]))
    count = draw(st.integers(6, 12))
    names = players(count)
    rnd = random.Random(draw(st.integers(0, 2**32)))
    history = [random_tables(names, rule.sizes(count), rnd) for _ in range(draw(st.integers(1, 3)))]
    points = sorted((rnd.randrange(0, 200) for _ in names), reverse=True)
    return names, history, points, rule


@settings(max_examples=60)
@given(small_rounds())
def test_no_repeats_while_avoidable(
    case: tuple[list[str], list[list[list[str]]], list[int], TableRule],
) -> None:
    names, history, points, rule = case
    seating = seat_round(SEED, len(history) + 1, entrants(names, points), history, rule)
    assert sorted(seated(seating)) == names
    assert seating.repeats == repeats(seating.tables, history)
    assert seating.spread == spread(seating.tables, dict(zip(names, points, strict=True)))
    least = least_repeats(names, rule.sizes(len(names)), history)
    assert seating.repeats >= least
    if least == 0:
        assert seating.repeats == 0


def test_forced_repeats_are_as_few_as_possible() -> None:
    # Round 1's five cannot sit at three tables without two pairs meeting again, nor either
    # four without one: 2 + 1 + 1.
    names = players(13)
    first = [names[:5], names[5:9], names[9:]]
    seating = seat_round(SEED, 2, entrants(names), [first], CLASSIC_TOURNAMENT)
    assert seating.repeats == least_repeats(names, (5, 4, 4), [first]) == 4


@settings(max_examples=15)
@given(st.integers(8, 40), st.integers(2, 5), st.integers(0, 2**32))
def test_a_later_round_is_deterministic(count: int, rounds: int, salt: int) -> None:
    names = players(count)
    rnd = random.Random(salt)
    history = [random_tables(names, CLASSIC_TOURNAMENT.sizes(count), rnd) for _ in range(rounds)]
    points = sorted((rnd.randrange(0, 300) for _ in names), reverse=True)
    first = seat_round(SEED, rounds + 1, entrants(names, points), history, CLASSIC_TOURNAMENT)
    again = seat_round(SEED, rounds + 1, entrants(names, points), history, CLASSIC_TOURNAMENT)
    assert first == again
    assert sorted(seated(first)) == names
    assert tuple(len(table) for table in first.tables) == CLASSIC_TOURNAMENT.sizes(count)


def test_late_entries_and_withdrawals_are_who_plays_this_round() -> None:
    names = players(12)
    first = seat_round(SEED, 1, entrants(names), [], CLASSIC_TOURNAMENT)
    playing = [*names[2:], "late-1", "late-2", "late-3"]  # two withdrew, three came in late
    second = seat_round(SEED, 2, entrants(playing), [first.tables], CLASSIC_TOURNAMENT)
    assert sorted(seated(second)) == sorted(playing)
    assert second.repeats == least_repeats(playing, (5, 4, 4), [first.tables])


# --------------------------------------------------------------------------- seats


def test_a_table_of_four_over_four_rounds_sits_each_player_at_each_seat_once() -> None:
    names = players(4)
    rule = TableRule(4, 4, 4)
    history: list[tuple[tuple[str, ...], ...]] = []
    for round_number in range(1, 5):
        seating = seat_round(SEED, round_number, entrants(names), history, rule)
        history.append(seating.tables)
    for name in names:
        assert sorted(tables[0].index(name) for tables in history) == [0, 1, 2, 3]


def places(history: Sequence[Sequence[Sequence[str]]], name: str) -> Counter[int]:
    return Counter(table.index(name) for tables in history for table in tables if name in table)


def excess(history: Sequence[Sequence[Sequence[str]]], names: Sequence[str]) -> int:
    """Sittings at a place the player had already sat at, over all the players."""
    return sum(count - 1 for name in names for count in places(history, name).values())


def test_seats_are_balanced_over_the_rounds() -> None:
    # Tables of 4 and 5 over four rounds: the tables are made for the standings, so a player
    # may meet at its table someone whose only free place is its own; still nobody sits at a
    # place three times, and far fewer twice than if each table's order were drawn.
    names = players(40)
    history: list[tuple[tuple[str, ...], ...]] = []
    points = dict.fromkeys(names, 0)
    rnd = random.Random(7)
    for round_number in range(1, 5):
        order = sorted(names, key=lambda name: (-points[name], name))
        seating = seat_round(
            SEED, round_number, [Entrant(n, points[n]) for n in order], history, CLASSIC_TOURNAMENT
        )
        history.append(seating.tables)
        for table in seating.tables:
            for name in table:
                points[name] += rnd.choice((0, 20, 40, 100))
    assert max(max(places(history, name).values()) for name in names) == 2
    drawn = [[rnd.sample(table, len(table)) for table in tables] for tables in history]
    assert excess(history, names) * 2 < excess(drawn, names)


# --------------------------------------------------------------------------- bad input


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(CompetitionError) as refused:
        seat_round(SEED, 2, entrants(["a", "b", "c", "a"]), [], CLASSIC_TOURNAMENT)
    assert refused.value.code is CompetitionCode.DUPLICATE_PLAYER


@pytest.mark.parametrize("round_number", [0, -1, 1 << 32])
def test_rounds_are_numbered_from_one(round_number: int) -> None:
    with pytest.raises(CompetitionError) as refused:
        seat_round(SEED, round_number, entrants(players(4)), [], CLASSIC_TOURNAMENT)
    assert refused.value.code is CompetitionCode.INVALID_ROUND


def test_too_few_players_for_a_round() -> None:
    with pytest.raises(CompetitionError) as refused:
        seat_round(SEED, 1, entrants(players(2)), [], CLASSIC_TOURNAMENT)
    assert refused.value.code is CompetitionCode.TOO_FEW_PLAYERS
