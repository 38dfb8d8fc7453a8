"""The engine's FutuRisiKo! battles are the battles `domain.odds.volleys.volley_odds` computes:
the same position fought under many seeds gives the exact model's outcome distribution, within
sampling error (four standard deviations)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from domain.odds.volleys import volley_odds
from tests.unit.futurisiko_positions import blank, flag, of_type, put
from variants.futurisiko import actions as fa
from variants.futurisiko import events as fe
from variants.futurisiko.phases import COMBAT
from variants.futurisiko.ruleset import AIRCRAFT, TANK

BATTLES = 2000


def fought(attackers: int, defenders: int, *, attacker_first: bool) -> list[fe.BattleFought]:
    """`attackers` units against `defenders` tanks and a flag in Messico, fought once per seed;
    aircraft (one more than the defender's none) make the attacker fire first."""
    game = blank(COMBAT, arma_segreta=False)
    flag(game, "messico", 1)
    put(game, "messico", 1, TANK, defenders)
    put(game, "messico", 0, AIRCRAFT if attacker_first else TANK, attackers)
    results = []
    for seed in range(BATTLES):
        battle = game.clone()
        battle.seed = f"odds-{seed}".encode()  # the dice come from the seed and the action
        results += of_type(battle.apply(0, fa.Battle("messico")), fe.BattleFought)
    return results


def within_sampling_error(observed: int, probability: float) -> bool:
    spread = 4 * math.sqrt(BATTLES * probability * (1 - probability)) + 1
    return abs(observed - BATTLES * probability) <= spread


@pytest.mark.parametrize(
    ("attackers", "defenders", "attacker_first"),
    [(3, 1, False), (3, 1, True), (5, 3, False), (5, 3, True)],
)
def test_battles_follow_the_exact_volley_odds(
    attackers: int, defenders: int, attacker_first: bool
) -> None:
    odds = volley_odds(attackers, defenders, attacker_first=attacker_first)
    results = fought(attackers, defenders, attacker_first=attacker_first)
    assert all(result.attacker_first is attacker_first for result in results)
    conquests = sum(result.attacker_won for result in results)
    assert within_sampling_error(conquests, float(odds.conquest_probability))
    assert all(result.flag_taken == result.attacker_won for result in results)
    for left, probability in enumerate(odds.attacker_survivors):
        survivors = sum(
            attackers - result.attacker_tanks_lost - result.attacker_aircraft_lost == left
            for result in results
        )
        assert within_sampling_error(survivors, float(probability)), left


def test_the_reference_figure_is_the_model_the_engine_is_held_to() -> None:
    """Three attackers against one unit and a flag, the defender first (§6)."""
    exact = volley_odds(3, 1, attacker_first=False, exact=True).conquest_probability
    assert exact == Fraction(76286692, 173289025)
