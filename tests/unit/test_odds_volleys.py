"""The volley model of domain/odds/volleys.py (FutuRisiKo!'s explosion dice): the exact figures
of the worked model in ../shared/reference/boards-piu-futurisiko.md §6, distributions that
are distributions, and a seeded simulation of the battle written apart from the solver."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from domain.odds import volley_odds


def test_the_reference_figures_exactly() -> None:
    three_on_one = volley_odds(3, 1, exact=True)
    assert three_on_one.conquest_probability == Fraction(76286692, 173289025)
    defender_first = float(volley_odds(5, 3, exact=True).conquest_probability)
    attacker_first = float(volley_odds(5, 3, attacker_first=True, exact=True).conquest_probability)
    assert round(defender_first, 3) == 0.337
    assert round(attacker_first, 3) == 0.752


def test_one_die_against_a_lone_flag() -> None:
    """One attacker (p = 1/3) against a flag alone (2 dice): the attacker fires first and
    wins on a hit; else the flag's 2 dice miss with 4/9 and the attacker fires again.
    P = (1/3) / (1 - (2/3)(4/9)) = 9/19."""
    odds = volley_odds(1, 0, attacker_first=True, exact=True)
    assert odds.conquest_probability == Fraction(9, 19)
    assert odds.attacker_survivors == (Fraction(10, 19), Fraction(9, 19))


def simulate(attackers: int, defenders: int, attacker_first: bool, rnd: random.Random) -> bool:
    """One battle, die by die: True if the attacker conquers."""
    flag = True
    attacker_fires = attacker_first
    while attackers and (defenders or flag):
        if attacker_fires:
            hits = sum(rnd.randrange(6) < 2 for _ in range(attackers))
            taken = min(hits, defenders)
            defenders -= taken
            if hits > taken:
                flag = False
        else:
            hits = sum(rnd.randrange(6) < 2 for _ in range(defenders + 2 * flag))
            attackers = max(0, attackers - hits)
        attacker_fires = not attacker_fires
    return attackers > 0


@pytest.mark.parametrize(("attackers", "defenders", "first"), [(4, 2, False), (6, 4, True)])
def test_a_simulated_battle_agrees(attackers: int, defenders: int, first: bool) -> None:
    rnd = random.Random(f"volleys-{attackers}-{defenders}")
    battles = 20_000
    won = sum(simulate(attackers, defenders, first, rnd) for _ in range(battles))
    exact = float(volley_odds(attackers, defenders, attacker_first=first).conquest_probability)
    # 20,000 battles: a standard error below 0.0036; 5 of them is a failure by chance ~1e-6.
    assert abs(won / battles - exact) < 0.018


@settings(max_examples=40, deadline=None)
@example(attackers=11, defenders=1, flag=False, first=True)  # summed past 1 once
@given(
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=0, max_value=12),
    st.booleans(),
    st.booleans(),
)
def test_the_outcomes_are_a_distribution(
    attackers: int, defenders: int, flag: bool, first: bool
) -> None:
    if defenders == 0 and not flag:
        return
    odds = volley_odds(attackers, defenders, flag=flag, attacker_first=first)
    assert sum(odds.attacker_survivors) == pytest.approx(1.0)
    assert sum(odds.defender_survivors) == pytest.approx(1.0)
    assert odds.attacker_survivors[0] + odds.conquest_probability == pytest.approx(1.0)
    assert 0.0 <= odds.conquest_probability <= 1.0
    stronger = volley_odds(attackers + 1, defenders, flag=flag, attacker_first=first)
    assert stronger.conquest_probability >= odds.conquest_probability - 1e-12
    exact = volley_odds(attackers, defenders, flag=flag, attacker_first=first, exact=True)
    assert float(exact.conquest_probability) == pytest.approx(odds.conquest_probability)


@pytest.mark.parametrize(
    "arguments",
    [
        {"attackers": 0, "defenders": 1},
        {"attackers": 1, "defenders": -1},
        {"attackers": 1, "defenders": 0, "flag": False},
        {"attackers": 1, "defenders": 1, "hit_faces": 7},
        {"attackers": True, "defenders": 1},
    ],
)
def test_impossible_battles_are_refused(arguments: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"must be|needs"):
        volley_odds(**arguments)  # type: ignore[arg-type]
