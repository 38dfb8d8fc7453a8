"""Tests of domain.odds against hand-known values, a brute force and a Monte Carlo run."""

from __future__ import annotations

import functools
import itertools
import json
import math
import random
from dataclasses import fields
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.combat import compare_dice
from domain.odds import BattleOdds, TieRule, battle_odds, roll_outcomes
from domain.odds import pairwise as odds

# --------------------------------------------------------------------------- single rolls


def _table(a: int, d: int, **kwargs: Any) -> dict[tuple[int, int], Fraction]:
    return {
        (o.attacker_losses, o.defender_losses): o.probability for o in roll_outcomes(a, d, **kwargs)
    }


@pytest.mark.parametrize(
    ("a", "d", "kwargs", "expected"),
    [
        (1, 1, {}, {(0, 1): Fraction(15, 36), (1, 0): Fraction(21, 36)}),
        (
            3,
            2,
            {},
            {
                (0, 2): Fraction(2890, 7776),
                (1, 1): Fraction(2611, 7776),
                (2, 0): Fraction(2275, 7776),
            },
        ),
        (3, 1, {}, {(0, 1): Fraction(855, 1296), (1, 0): Fraction(441, 1296)}),
        (2, 1, {}, {(0, 1): Fraction(125, 216), (1, 0): Fraction(91, 216)}),
        (1, 2, {}, {(0, 1): Fraction(55, 216), (1, 0): Fraction(161, 216)}),
        (
            2,
            2,
            {},
            {
                (0, 2): Fraction(295, 1296),
                (1, 1): Fraction(420, 1296),
                (2, 0): Fraction(581, 1296),
            },
        ),
        # RisiKo! 3 vs 3 (published table).
        (
            3,
            3,
            {},
            {
                (0, 3): Fraction(6420, 46656),
                (1, 2): Fraction(10017, 46656),
                (2, 1): Fraction(12348, 46656),
                (3, 0): Fraction(17871, 46656),
            },
        ),
        # A tie removes nobody: 6 ties out of 36.
        (
            1,
            1,
            {"tie_rule": TieRule.NO_LOSS},
            {(0, 1): Fraction(15, 36), (0, 0): Fraction(6, 36), (1, 0): Fraction(15, 36)},
        ),
        # +1 on the attacker's die: the attacker wins whenever a >= d (21 of 36).
        (1, 1, {"attacker_bonus": 1}, {(0, 1): Fraction(21, 36), (1, 0): Fraction(15, 36)}),
        # +1 on the defender's die: the attacker needs a >= d + 2 (10 of 36).
        (1, 1, {"defender_bonus": 1}, {(0, 1): Fraction(10, 36), (1, 0): Fraction(26, 36)}),
        # Both bonuses on 1 vs 1 cancel out.
        (
            1,
            1,
            {"attacker_bonus": 1, "defender_bonus": 1},
            {(0, 1): Fraction(15, 36), (1, 0): Fraction(21, 36)},
        ),
    ],
)
def test_roll_outcomes_hand_known_values(
    a: int, d: int, kwargs: dict[str, Any], expected: dict[tuple[int, int], Fraction]
) -> None:
    assert _table(a, d, **kwargs) == expected


@pytest.mark.parametrize("tie_rule", list(TieRule))
@pytest.mark.parametrize("bonuses", [(0, 0), (1, 0), (0, 1), (1, 1)])
@pytest.mark.parametrize(("a", "d"), list(itertools.product(range(1, 4), repeat=2)))
def test_roll_outcomes_are_a_distribution(
    a: int, d: int, bonuses: tuple[int, int], tie_rule: TieRule
) -> None:
    outcomes = roll_outcomes(
        a, d, tie_rule=tie_rule, attacker_bonus=bonuses[0], defender_bonus=bonuses[1]
    )
    assert sum(o.probability for o in outcomes) == 1
    assert all(o.probability > 0 for o in outcomes)
    pairs = min(a, d)
    for o in outcomes:
        assert isinstance(o.probability, Fraction)
        if tie_rule is TieRule.DEFENDER_WINS:
            assert o.attacker_losses + o.defender_losses == pairs
        else:
            assert o.attacker_losses + o.defender_losses <= pairs
    keys = [(o.attacker_losses, o.defender_losses) for o in outcomes]
    assert keys == sorted(set(keys))


# --------------------------------------------------------------------------- brute force

Params = tuple[int, int, bool, int, int, int]  # max dice a/d, no_loss, bonus a/d, stop_at


@functools.cache
def _brute_roll(
    a: int, d: int, no_loss: bool, bonus_a: int, bonus_d: int
) -> dict[tuple[int, int], Fraction]:
    """Loss distribution of one roll, by enumerating both hands of dice."""
    counts: dict[tuple[int, int], int] = {}
    for attack in itertools.product(range(1, 7), repeat=a):
        for defence in itertools.product(range(1, 7), repeat=d):
            att = sorted(attack)[::-1]
            dfn = sorted(defence)[::-1]
            att[0] += bonus_a
            dfn[0] += bonus_d
            lost_a = lost_d = 0
            for k in range(min(a, d)):
                if att[k] > dfn[k]:
                    lost_d += 1
                elif att[k] < dfn[k] or not no_loss:  # a tie costs the attacker
                    lost_a += 1
            counts[lost_a, lost_d] = counts.get((lost_a, lost_d), 0) + 1
    return {k: Fraction(v, 6 ** (a + d)) for k, v in counts.items()}


@functools.cache
def _brute_end(i: int, j: int, params: Params) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of the final (attackers, defenders) from state (i, j)."""
    max_a, max_d, no_loss, bonus_a, bonus_d, stop_at = params
    if j == 0 or i <= stop_at:
        return {(i, j): Fraction(1)}
    roll = _brute_roll(min(max_a, i), min(max_d, j), no_loss, bonus_a, bonus_d)
    leave = 1 - roll.get((0, 0), Fraction(0))
    result: dict[tuple[int, int], Fraction] = {}
    for (x, y), p in roll.items():
        if x == y == 0:
            continue
        for end, q in _brute_end(i - x, j - y, params).items():
            result[end] = result.get(end, Fraction(0)) + p * q / leave
    return result


@pytest.mark.parametrize("stop_at", [0, 1, 2])
@pytest.mark.parametrize(("max_a", "max_d"), list(itertools.product(range(1, 4), repeat=2)))
@pytest.mark.parametrize("bonuses", [(0, 0), (1, 0), (0, 1), (1, 1)])
@pytest.mark.parametrize("tie_rule", list(TieRule))
def test_battle_odds_matches_brute_force(
    tie_rule: TieRule, bonuses: tuple[int, int], max_a: int, max_d: int, stop_at: int
) -> None:
    params: Params = (max_a, max_d, tie_rule is TieRule.NO_LOSS, *bonuses, stop_at)
    for attackers in range(5):
        for defenders in range(1, 5):
            ends = _brute_end(attackers, defenders, params)
            result = battle_odds(
                attackers,
                defenders,
                max_attacker_dice=max_a,
                max_defender_dice=max_d,
                tie_rule=tie_rule,
                attacker_bonus=bonuses[0],
                defender_bonus=bonuses[1],
                stop_at=stop_at,
            )
            att = [sum(p for (i, _), p in ends.items() if i == k) for k in range(attackers + 1)]
            dfn = [sum(p for (_, j), p in ends.items() if j == k) for k in range(defenders + 1)]
            exp_att = sum(p * (attackers - i) for (i, _), p in ends.items())
            exp_dfn = sum(p * (defenders - j) for (_, j), p in ends.items())
            assert (result.attackers, result.defenders) == (attackers, defenders)
            assert result.conquest_probability == pytest.approx(float(dfn[0]), abs=1e-12)
            assert result.attacker_survivors == pytest.approx([float(p) for p in att], abs=1e-12)
            assert result.defender_survivors == pytest.approx([float(p) for p in dfn], abs=1e-12)
            assert result.expected_attacker_losses == pytest.approx(float(exp_att), abs=1e-12)
            assert result.expected_defender_losses == pytest.approx(float(exp_dfn), abs=1e-12)


# --------------------------------------------------------------------------- Monte Carlo


def _simulate(
    rng: random.Random, attackers: int, defenders: int, tie_rule: TieRule, bonus_a: int
) -> tuple[int, int]:
    while attackers > 0 and defenders > 0:
        att = sorted((rng.randint(1, 6) for _ in range(min(3, attackers))), reverse=True)
        dfn = sorted((rng.randint(1, 6) for _ in range(min(3, defenders))), reverse=True)
        att[0] += bonus_a
        for x, y in zip(att, dfn, strict=False):
            if x > y:
                defenders -= 1
            elif x < y or tie_rule is TieRule.DEFENDER_WINS:
                attackers -= 1
    return attackers, defenders


@pytest.mark.parametrize(
    ("tie_rule", "bonus_a"), [(TieRule.DEFENDER_WINS, 0), (TieRule.NO_LOSS, 1)]
)
def test_battle_odds_agrees_with_monte_carlo(tie_rule: TieRule, bonus_a: int) -> None:
    rng = random.Random(20240601)
    trials = 20_000
    result = battle_odds(5, 5, tie_rule=tie_rule, attacker_bonus=bonus_a)
    ends = [_simulate(rng, 5, 5, tie_rule, bonus_a) for _ in range(trials)]

    p = result.conquest_probability
    observed = sum(1 for _, d in ends if d == 0) / trials
    assert abs(observed - p) <= 4 * math.sqrt(p * (1 - p) / trials)

    mean = result.expected_attacker_losses
    variance = sum(q * (5 - k - mean) ** 2 for k, q in enumerate(result.attacker_survivors))
    observed_mean = sum(5 - a for a, _ in ends) / trials
    assert abs(observed_mean - mean) <= 4 * math.sqrt(variance / trials)

    for k, q in enumerate(result.defender_survivors):
        observed_q = sum(1 for _, d in ends if d == k) / trials
        assert abs(observed_q - q) <= 4 * math.sqrt(q * (1 - q) / trials) + 1e-9


# --------------------------------------------------------------------------- properties

_settings = st.fixed_dictionaries(
    {
        "max_attacker_dice": st.integers(1, 3),
        "max_defender_dice": st.integers(1, 3),
        "tie_rule": st.sampled_from(TieRule),
        "attacker_bonus": st.integers(0, 1),
        "defender_bonus": st.integers(0, 1),
        "stop_at": st.integers(0, 3),
    }
)


@settings(max_examples=200, deadline=None)
@given(attackers=st.integers(0, 12), defenders=st.integers(1, 12), kwargs=_settings)
def test_distributions_are_consistent(
    attackers: int, defenders: int, kwargs: dict[str, Any]
) -> None:
    result = battle_odds(attackers, defenders, **kwargs)
    stop_at = kwargs["stop_at"]
    assert len(result.attacker_survivors) == attackers + 1
    assert len(result.defender_survivors) == defenders + 1
    assert math.fsum(result.attacker_survivors) == pytest.approx(1.0, abs=1e-12)
    assert math.fsum(result.defender_survivors) == pytest.approx(1.0, abs=1e-12)
    assert all(p >= 0 for p in result.attacker_survivors + result.defender_survivors)
    assert 0.0 <= result.conquest_probability <= 1.0
    assert result.conquest_probability == result.defender_survivors[0]
    # A conquest always leaves more than stop_at attackers, and every other end at most stop_at.
    above = math.fsum(result.attacker_survivors[stop_at + 1 :])
    assert result.conquest_probability == pytest.approx(above, abs=1e-12)
    if attackers <= stop_at:
        assert result.attacker_survivors[attackers] == 1.0
        assert result.defender_survivors[defenders] == 1.0
        assert result.expected_attacker_losses == result.expected_defender_losses == 0.0


@settings(max_examples=200, deadline=None)
@given(attackers=st.integers(0, 12), defenders=st.integers(1, 12), kwargs=_settings)
def test_conquest_is_monotonic(attackers: int, defenders: int, kwargs: dict[str, Any]) -> None:
    base = battle_odds(attackers, defenders, **kwargs).conquest_probability
    more_attackers = battle_odds(attackers + 1, defenders, **kwargs).conquest_probability
    more_defenders = battle_odds(attackers, defenders + 1, **kwargs).conquest_probability
    assert more_attackers >= base - 1e-12
    assert more_defenders <= base + 1e-12


def test_large_battle_runs() -> None:
    result = battle_odds(100, 100)
    assert 0.0 < result.conquest_probability < 1.0
    assert math.fsum(result.attacker_survivors) == pytest.approx(1.0, abs=1e-9)
    assert math.fsum(result.defender_survivors) == pytest.approx(1.0, abs=1e-9)


def test_no_attackers_means_no_battle() -> None:
    result = battle_odds(0, 3)
    assert result.attacker_survivors == (1.0,)
    assert result.defender_survivors == (0.0, 0.0, 0.0, 1.0)
    assert result.conquest_probability == 0.0


def test_to_dict_is_json_ready() -> None:
    result = battle_odds(3, 2)
    data = result.to_dict()
    assert list(data) == [f.name for f in fields(BattleOdds)]
    assert data["attacker_survivors"] == list(result.attacker_survivors)
    assert json.loads(json.dumps(data)) == data


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "kwargs",
    [
        {"attackers": -1},
        {"defenders": 0},
        {"attackers": 2.0},
        {"defenders": True},
        {"max_attacker_dice": 0},
        {"max_attacker_dice": 4},
        {"max_defender_dice": 0},
        {"max_defender_dice": 4},
        {"attacker_bonus": 2},
        {"attacker_bonus": -1},
        {"defender_bonus": 2},
        {"stop_at": -1},
        {"tie_rule": "no_loss"},
    ],
)
def test_battle_odds_rejects_invalid_arguments(kwargs: dict[str, Any]) -> None:
    arguments: dict[str, Any] = {"attackers": 3, "defenders": 2, **kwargs}
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        battle_odds(**arguments)


@pytest.mark.parametrize(
    ("a", "d", "kwargs"),
    [(0, 1, {}), (4, 1, {}), (1, 0, {}), (1, 4, {}), (1, 1, {"defender_bonus": 2})],
)
def test_roll_outcomes_rejects_invalid_arguments(a: int, d: int, kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="must be"):
        roll_outcomes(a, d, **kwargs)


def test_a_roll_that_never_removes_anybody_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    stuck = (odds.RollOutcome(0, 0, Fraction(1)),)
    monkeypatch.setattr(odds, "_roll_outcomes", lambda *_: stuck)
    odds._transitions.cache_clear()  # made from the real rolls by earlier tests
    with pytest.raises(ValueError, match="endless"):
        battle_odds(2, 2, tie_rule=TieRule.NO_LOSS)


# --------------------------------------------------------------------------- naval combat


@functools.cache
def _brute_naval_end(i: int, j: int, params: Params) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of the final (attackers, defenders) of a S.P.Q.RisiKo! naval
    combat from state (i, j): a roll that removes nobody ends the battle where it is."""
    max_a, max_d, no_loss, bonus_a, bonus_d, stop_at = params
    if j == 0 or i <= stop_at:
        return {(i, j): Fraction(1)}
    result: dict[tuple[int, int], Fraction] = {}
    roll = _brute_roll(min(max_a, i), min(max_d, j), no_loss, bonus_a, bonus_d)
    for (x, y), p in roll.items():
        ends = {(i, j): Fraction(1)} if x == y == 0 else _brute_naval_end(i - x, j - y, params)
        for end, q in ends.items():
            result[end] = result.get(end, Fraction(0)) + p * q
    return result


def _naval(attackers: int, defenders: int, **kwargs: Any) -> BattleOdds:
    return battle_odds(
        attackers, defenders, tie_rule=TieRule.NO_LOSS, stop_on_no_loss=True, **kwargs
    )


def _both_afloat(result: BattleOdds) -> float:
    """P(the battle ends with both sides still holding units), for stop_at=0: a roll never
    removes the last unit of both sides at once, so the three ends are disjoint."""
    return 1.0 - result.conquest_probability - result.attacker_survivors[0]


@pytest.mark.parametrize("stop_at", [0, 1])
@pytest.mark.parametrize(("max_a", "max_d"), list(itertools.product(range(1, 4), repeat=2)))
@pytest.mark.parametrize("bonuses", [(0, 0), (1, 0), (0, 1)])
@pytest.mark.parametrize("tie_rule", list(TieRule))
def test_naval_battle_odds_match_brute_force(
    tie_rule: TieRule, bonuses: tuple[int, int], max_a: int, max_d: int, stop_at: int
) -> None:
    params: Params = (max_a, max_d, tie_rule is TieRule.NO_LOSS, *bonuses, stop_at)
    for attackers in range(7):
        for defenders in range(1, 7):
            ends = _brute_naval_end(attackers, defenders, params)
            assert sum(ends.values()) == 1
            result = battle_odds(
                attackers,
                defenders,
                max_attacker_dice=max_a,
                max_defender_dice=max_d,
                tie_rule=tie_rule,
                attacker_bonus=bonuses[0],
                defender_bonus=bonuses[1],
                stop_at=stop_at,
                stop_on_no_loss=True,
            )
            att = [sum(p for (i, _), p in ends.items() if i == k) for k in range(attackers + 1)]
            dfn = [sum(p for (_, j), p in ends.items() if j == k) for k in range(defenders + 1)]
            exp_att = sum(p * (attackers - i) for (i, _), p in ends.items())
            exp_dfn = sum(p * (defenders - j) for (_, j), p in ends.items())
            assert (result.attackers, result.defenders) == (attackers, defenders)
            assert result.conquest_probability == pytest.approx(float(dfn[0]), abs=1e-12)
            assert result.attacker_survivors == pytest.approx([float(p) for p in att], abs=1e-12)
            assert result.defender_survivors == pytest.approx([float(p) for p in dfn], abs=1e-12)
            assert result.expected_attacker_losses == pytest.approx(float(exp_att), abs=1e-12)
            assert result.expected_defender_losses == pytest.approx(float(exp_dfn), abs=1e-12)


def _simulate_naval(rng: random.Random, attackers: int, defenders: int) -> tuple[int, int]:
    """One naval combat rolled with the engine's own dice comparison."""
    while attackers > 0 and defenders > 0:
        att = [rng.randint(1, 6) for _ in range(min(3, attackers))]
        dfn = [rng.randint(1, 6) for _ in range(min(3, defenders))]
        lost_a, lost_d = compare_dice(att, dfn, defender_wins_ties=False)
        if lost_a == lost_d == 0:
            break
        attackers -= lost_a
        defenders -= lost_d
    return attackers, defenders


@pytest.mark.parametrize(("attackers", "defenders"), [(3, 3), (6, 4), (2, 5)])
def test_naval_battle_odds_agree_with_monte_carlo(attackers: int, defenders: int) -> None:
    rng = random.Random(20240715)
    trials = 20_000
    result = _naval(attackers, defenders)
    ends = [_simulate_naval(rng, attackers, defenders) for _ in range(trials)]

    def close(observed: int, q: float) -> bool:
        return abs(observed / trials - q) <= 4 * math.sqrt(q * (1 - q) / trials) + 1e-9

    assert close(sum(1 for _, d in ends if d == 0), result.conquest_probability)
    assert close(sum(1 for a, d in ends if a and d), _both_afloat(result))
    for k, q in enumerate(result.attacker_survivors):
        assert close(sum(1 for a, _ in ends if a == k), q)
    for k, q in enumerate(result.defender_survivors):
        assert close(sum(1 for _, d in ends if d == k), q)


def test_a_naval_battle_can_end_with_both_sides_afloat() -> None:
    naval = _naval(3, 3)
    repeated = battle_odds(3, 3, tie_rule=TieRule.NO_LOSS)
    assert _both_afloat(naval) > 0.1
    assert _both_afloat(repeated) == pytest.approx(0.0, abs=1e-12)
    # The stalled rolls' mass ends in place: fewer conquests than when ties are rolled again.
    assert naval.conquest_probability < repeated.conquest_probability


def test_naval_one_against_one_by_hand() -> None:
    # One roll: the attacker wins 15/36, the defender 15/36, and a tie (6/36) ends it.
    result = _naval(1, 1)
    assert result.conquest_probability == pytest.approx(15 / 36, abs=1e-15)
    assert result.attacker_survivors == pytest.approx((15 / 36, 21 / 36), abs=1e-15)
    assert result.defender_survivors == pytest.approx((15 / 36, 21 / 36), abs=1e-15)
    assert _both_afloat(result) == pytest.approx(1 / 6, abs=1e-15)


@settings(max_examples=100, deadline=None)
@given(attackers=st.integers(0, 12), defenders=st.integers(1, 12), kwargs=_settings)
def test_stop_on_no_loss_changes_nothing_when_the_defender_wins_ties(
    attackers: int, defenders: int, kwargs: dict[str, Any]
) -> None:
    kwargs = {**kwargs, "tie_rule": TieRule.DEFENDER_WINS}
    assert battle_odds(attackers, defenders, stop_on_no_loss=True, **kwargs) == battle_odds(
        attackers, defenders, **kwargs
    )


@settings(max_examples=200, deadline=None)
@given(attackers=st.integers(0, 12), defenders=st.integers(1, 12), kwargs=_settings)
def test_naval_distributions_are_consistent(
    attackers: int, defenders: int, kwargs: dict[str, Any]
) -> None:
    result = battle_odds(attackers, defenders, stop_on_no_loss=True, **kwargs)
    assert len(result.attacker_survivors) == attackers + 1
    assert len(result.defender_survivors) == defenders + 1
    assert math.fsum(result.attacker_survivors) == pytest.approx(1.0, abs=1e-12)
    assert math.fsum(result.defender_survivors) == pytest.approx(1.0, abs=1e-12)
    assert all(p >= 0 for p in result.attacker_survivors + result.defender_survivors)
    assert result.conquest_probability == result.defender_survivors[0]
    # A conquest always leaves more than stop_at attackers.
    above = math.fsum(result.attacker_survivors[kwargs["stop_at"] + 1 :])
    assert result.conquest_probability <= above + 1e-12


def test_a_naval_roll_that_never_removes_anybody_ends_the_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stuck = (odds.RollOutcome(0, 0, Fraction(1)),)
    monkeypatch.setattr(odds, "_roll_outcomes", lambda *_: stuck)
    odds._transitions.cache_clear()  # made from the real rolls by earlier tests
    result = _naval(2, 2)
    assert result.attacker_survivors == (0.0, 0.0, 1.0)
    assert result.defender_survivors == (0.0, 0.0, 1.0)
    assert result.conquest_probability == 0.0


@pytest.mark.parametrize("value", [1, 0, None, "yes"])
def test_stop_on_no_loss_must_be_a_boolean(value: object) -> None:
    with pytest.raises(ValueError, match="stop_on_no_loss must be a boolean"):
        battle_odds(3, 2, stop_on_no_loss=value)  # type: ignore[arg-type]
