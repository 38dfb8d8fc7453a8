"""How a round's players split into tables: every table full, within the rule's sizes, as
few short tables as possible, then as near the preferred size as possible."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.errors import CompetitionCode, CompetitionError
from competition.tables import CLASSIC_TOURNAMENT, TableRule

CLASSIC_SIZES = {
    3: (3,),
    4: (4,),
    5: (5,),
    6: (3, 3),
    7: (4, 3),
    8: (4, 4),
    9: (5, 4),
    10: (5, 5),
    11: (4, 4, 3),
    12: (4, 4, 4),
    13: (5, 4, 4),
    14: (5, 5, 4),
    15: (5, 5, 5),
    16: (4, 4, 4, 4),
    17: (5, 4, 4, 4),
    19: (5, 5, 5, 4),
    23: (5, 5, 5, 4, 4),  # no short table: three of 5 rather than one of 3
    1000: (4,) * 250,
    1001: (5,) + (4,) * 249,
}


@pytest.mark.parametrize(("players", "sizes"), sorted(CLASSIC_SIZES.items()))
def test_the_classic_tournament_tables(players: int, sizes: tuple[int, ...]) -> None:
    assert CLASSIC_TOURNAMENT.sizes(players) == sizes


@pytest.mark.parametrize(
    ("rule", "players", "sizes"),
    [
        (TableRule(3, 4, 6), 6, (6,)),  # no short table beats two of 3
        (TableRule(3, 4, 6), 7, (4, 3)),
        (TableRule(3, 4, 6), 10, (5, 5)),  # the extra players spread, not (6, 4)
        (TableRule(3, 5, 6), 13, (5, 5, 3)),  # one short table, not two (5, 4, 4)
        (TableRule(4, 4, 4), 12, (4, 4, 4)),
        (TableRule(3, 3, 6), 7, (4, 3)),
    ],
)
def test_other_rules(rule: TableRule, players: int, sizes: tuple[int, ...]) -> None:
    assert rule.sizes(players) == sizes


def best_by_enumeration(rule: TableRule, players: int) -> tuple[int, int] | None:
    """(short tables, distance from the preferred size) of the best of all the splits."""
    best = None
    for tables in range(1, players // rule.minimum + 1):
        allowed = range(rule.minimum, rule.maximum + 1)
        for sizes in itertools.combinations_with_replacement(allowed, tables):
            if sum(sizes) == players:
                short = sum(size < rule.preferred for size in sizes)
                cost = (short, sum(abs(size - rule.preferred) for size in sizes))
                best = cost if best is None or cost < best else best
    return best


@st.composite
def rules(draw: st.DrawFn) -> TableRule:
    minimum = draw(st.integers(2, 5))
    preferred = draw(st.integers(minimum, 6))
    return TableRule(minimum, preferred, draw(st.integers(preferred, 7)))


@given(rules(), st.integers(0, 40))
def test_the_split_is_the_best_of_every_possible_split(rule: TableRule, players: int) -> None:
    best = best_by_enumeration(rule, players)
    if best is None:
        with pytest.raises(CompetitionError) as refused:
            rule.sizes(players)
        assert refused.value.code in {
            CompetitionCode.TOO_FEW_PLAYERS,
            CompetitionCode.TABLES_IMPOSSIBLE,
        }
        return
    sizes = rule.sizes(players)
    assert sum(sizes) == players
    assert all(rule.minimum <= size <= rule.maximum for size in sizes)
    assert list(sizes) == sorted(sizes, reverse=True)
    short = sum(size < rule.preferred for size in sizes)
    assert (short, sum(abs(size - rule.preferred) for size in sizes)) == best


def test_too_few_players_for_one_table() -> None:
    with pytest.raises(CompetitionError) as refused:
        CLASSIC_TOURNAMENT.sizes(2)
    assert refused.value.code is CompetitionCode.TOO_FEW_PLAYERS
    assert "2 players" in refused.value.message


def test_a_count_no_full_tables_can_seat() -> None:
    with pytest.raises(CompetitionError) as refused:
        TableRule(4, 4, 4).sizes(6)
    assert refused.value.code is CompetitionCode.TABLES_IMPOSSIBLE


@pytest.mark.parametrize(("minimum", "preferred", "maximum"), [(3, 2, 5), (3, 6, 5), (1, 1, 4)])
def test_a_rule_out_of_order_is_refused(minimum: int, preferred: int, maximum: int) -> None:
    with pytest.raises(CompetitionError) as refused:
        TableRule(minimum, preferred, maximum)
    assert refused.value.code is CompetitionCode.INVALID_TABLE_RULE
