"""Exact battle probabilities for RisiKo! attacks with pairwise dice (classic, S.P.Q.RisiKo!).

Two levels are computed, both exactly (no sampling):

* :func:`roll_outcomes` -- the distribution of losses of a single roll of ``a`` attacking
  dice against ``d`` defending dice, by enumerating all ``6 ** (a + d)`` outcomes with
  :class:`fractions.Fraction` arithmetic.  Each side sorts its dice in descending order and
  the highest dice are compared pairwise, ``min(a, d)`` pairs; the loser of each pair loses
  one army.  On a tie the defender wins the pair (:attr:`TieRule.DEFENDER_WINS`, classic
  rules) or nobody loses (:attr:`TieRule.NO_LOSS`, S.P.Q.RisiKo! naval combat).  A bonus of
  1 (RisiKo! Piu cards) is added to that side's single highest die before comparing.

* :func:`battle_odds` -- the outcome of an attack carried on until conquest or exhaustion,
  by propagating probability mass (as floats) over the states ``(attackers remaining,
  defenders remaining)``, which only ever decrease: no sampling, no truncation. The states
  where both sides roll all their dice move alike, so they go one anti-diagonal at a time
  through numpy (a correlation per number of armies a roll removes); the few others, where a
  side has fewer dice, in plain Python. 1000 against 1000 takes about 10 ms.

Convention for ``attackers``: it is the number of armies *able to attack*, i.e. the
attacking territory holds ``attackers + 1`` armies, one of which must stay behind (the
convention of the published odds tables).  At each roll the attacker throws
``min(max_attacker_dice, attackers remaining)`` dice and the defender
``min(max_defender_dice, defenders remaining)`` dice.  The attack ends with a conquest
when no defender remains, and otherwise stops when the attackers remaining drop to
``stop_at`` or below (``stop_at=0``: fight to exhaustion).  A roll that removes nobody
(possible only with ``TieRule.NO_LOSS``) is simply repeated, so it is accounted for
exactly by conditioning on leaving the state.

S.P.Q.RisiKo! naval combat between triremes in a sea area: pass ``tie_rule=TieRule.NO_LOSS``
and ``stop_on_no_loss=True``, with ``attackers`` = *all* the attacking triremes (there is no
garrison at sea, so every trireme can fight) and the defender's usual 3 dice.  The attacker
may roll again only while each roll removes at least one trireme: the probability mass of a
roll that removes nobody *ends* the battle in the current state instead of being repeated,
so a naval battle can end with both sides still afloat.  With ``TieRule.DEFENDER_WINS``
every compared pair removes an army, so ``stop_on_no_loss`` is meaningless there but
harmless: it changes nothing.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections import Counter
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

__all__ = ["BattleOdds", "RollOutcome", "TieRule", "battle_odds", "roll_outcomes"]

_MAX_DICE = 3


class TieRule(enum.Enum):
    """Who loses an army when the compared dice of a pair are equal."""

    DEFENDER_WINS = "defender_wins"
    NO_LOSS = "no_loss"


@dataclass(frozen=True, slots=True)
class RollOutcome:
    """One possible result of a single roll, with its exact probability."""

    attacker_losses: int
    defender_losses: int
    probability: Fraction


@dataclass(frozen=True, slots=True)
class BattleOdds:
    """Distribution of the end of an attack carried on until conquest or exhaustion.

    ``attacker_survivors[k]`` is the probability that ``k`` attacking armies (of the
    ``attackers`` able to attack) remain at the end; ``defender_survivors[k]`` the
    probability that ``k`` defending armies remain.
    """

    attackers: int
    defenders: int
    conquest_probability: float
    attacker_survivors: tuple[float, ...]
    defender_survivors: tuple[float, ...]
    expected_attacker_losses: float
    expected_defender_losses: float

    def to_dict(self) -> dict[str, object]:
        """JSON-ready dictionary whose keys are exactly the field names."""
        result: dict[str, object] = {}
        for field in fields(self):
            value = getattr(self, field.name)
            result[field.name] = list(value) if isinstance(value, tuple) else value
        return result


def _check_int(name: str, value: object, low: int, high: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bounds = f">= {low}" if high is None else f"between {low} and {high}"
        raise ValueError(f"{name} must be {bounds}, got {value}")


def _check_tie_rule(tie_rule: object) -> None:
    if not isinstance(tie_rule, TieRule):
        raise ValueError(f"tie_rule must be a TieRule, got {tie_rule!r}")


def roll_outcomes(
    attacker_dice: int,
    defender_dice: int,
    *,
    tie_rule: TieRule = TieRule.DEFENDER_WINS,
    attacker_bonus: int = 0,
    defender_bonus: int = 0,
) -> tuple[RollOutcome, ...]:
    """Exact loss distribution of one roll, sorted by (attacker_losses, defender_losses).

    Only outcomes with a non-zero probability are listed; the probabilities sum to 1.
    """
    _check_int("attacker_dice", attacker_dice, 1, _MAX_DICE)
    _check_int("defender_dice", defender_dice, 1, _MAX_DICE)
    _check_tie_rule(tie_rule)
    _check_int("attacker_bonus", attacker_bonus, 0, 1)
    _check_int("defender_bonus", defender_bonus, 0, 1)
    return _roll_outcomes(attacker_dice, defender_dice, tie_rule, attacker_bonus, defender_bonus)


@lru_cache(maxsize=3)
def _sorted_rolls(dice: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every roll of `dice` dice sorted highest first, with how many of the 6**dice give it."""
    counts = Counter(
        tuple(sorted(roll, reverse=True)) for roll in itertools.product(range(1, 7), repeat=dice)
    )
    return tuple(counts.items())


@lru_cache(maxsize=128)  # at most 9 dice pairs x 2 tie rules x 4 bonuses
def _roll_outcomes(
    attacker_dice: int,
    defender_dice: int,
    tie_rule: TieRule,
    attacker_bonus: int,
    defender_bonus: int,
) -> tuple[RollOutcome, ...]:
    # Each side's roll only matters sorted: 56 sorted rolls of 3 dice instead of 216 rolls,
    # weighted by how many rolls give each (a fresh process pays this once per pair of dice).
    counts: dict[tuple[int, int], int] = {}
    defender_wins_ties = tie_rule is TieRule.DEFENDER_WINS
    for attack, attack_ways in _sorted_rolls(attacker_dice):
        attack = (attack[0] + attacker_bonus, *attack[1:])
        for defence, defence_ways in _sorted_rolls(defender_dice):
            defence = (defence[0] + defender_bonus, *defence[1:])
            attacker_losses = defender_losses = 0
            for a, d in zip(attack, defence, strict=False):
                if a > d:
                    defender_losses += 1
                elif a < d or defender_wins_ties:
                    attacker_losses += 1
            key = (attacker_losses, defender_losses)
            counts[key] = counts.get(key, 0) + attack_ways * defence_ways
    total = 6 ** (attacker_dice + defender_dice)
    return tuple(
        RollOutcome(losses[0], losses[1], Fraction(count, total))
        for losses, count in sorted(counts.items())
    )


@lru_cache(maxsize=256)  # asked for every pair of dice of every battle: convert once
def _transitions(
    attacker_dice: int,
    defender_dice: int,
    tie_rule: TieRule,
    attacker_bonus: int,
    defender_bonus: int,
    stop_on_no_loss: bool,
) -> tuple[tuple[tuple[int, int, float], ...], float]:
    """The rolls that remove somebody, as (attacker_losses, defender_losses, probability),
    and the probability that the battle ends in the current state.

    Without ``stop_on_no_loss`` a roll that removes nobody is repeated: the probabilities
    are conditioned on somebody losing and the battle never ends in place.  With it, such a
    roll ends the battle: the probabilities are unconditioned and its mass is returned.
    """
    outcomes = _roll_outcomes(
        attacker_dice, defender_dice, tie_rule, attacker_bonus, defender_bonus
    )
    p_stay = sum(
        (o.probability for o in outcomes if o.attacker_losses == o.defender_losses == 0),
        Fraction(0),
    )
    leaving = [o for o in outcomes if o.attacker_losses or o.defender_losses]
    if stop_on_no_loss:
        return (
            tuple((o.attacker_losses, o.defender_losses, float(o.probability)) for o in leaving),
            float(p_stay),
        )
    if p_stay == 1:
        raise ValueError("a roll that can never remove an army makes the attack endless")
    return (
        tuple(
            (o.attacker_losses, o.defender_losses, float(o.probability / (1 - p_stay)))
            for o in leaving
        ),
        0.0,
    )


def battle_odds(
    attackers: int,
    defenders: int,
    *,
    max_attacker_dice: int = 3,
    max_defender_dice: int = 3,
    tie_rule: TieRule = TieRule.DEFENDER_WINS,
    attacker_bonus: int = 0,
    defender_bonus: int = 0,
    stop_at: int = 0,
    stop_on_no_loss: bool = False,
) -> BattleOdds:
    """Odds of an attack carried on until conquest, exhaustion or ``stop_at``.

    ``attackers`` counts the armies able to attack (the territory holds one more).
    The attack stops without conquest as soon as ``attackers remaining <= stop_at``.

    ``stop_on_no_loss`` (S.P.Q.RisiKo! naval combat, with ``TieRule.NO_LOSS``): a roll
    that removes nobody ends the battle where it is, instead of being repeated, so both
    sides may survive.  For naval combat ``attackers`` is every attacking trireme (no
    garrison at sea).  With ``TieRule.DEFENDER_WINS`` it changes nothing, since every roll
    then removes at least one army.
    """
    _check_battle(
        attackers,
        defenders,
        max_attacker_dice,
        max_defender_dice,
        tie_rule,
        attacker_bonus,
        defender_bonus,
        stop_at,
        stop_on_no_loss,
    )
    transitions = {
        (a, d): _transitions(a, d, tie_rule, attacker_bonus, defender_bonus, stop_on_no_loss)
        for a in range(1, max_attacker_dice + 1)
        for d in range(1, max_defender_dice + 1)
    }
    most = (max_attacker_dice, max_defender_dice)
    first = max(max_attacker_dice, stop_at + 1)
    mass, ended = _interior(attackers, defenders, first, most[1], transitions[most])
    attacker_end = [0.0] * (attackers + 1)
    defender_end = [0.0] * (defenders + 1)
    _edges(mass, transitions, most, first, stop_at, attacker_end, defender_end)
    _interior_ends(mass, ended, stop_at, attacker_end, defender_end)
    # Sums of floats may end a rounding error outside [0, 1]: a probability may not.
    attacker_end = [min(max(p, 0.0), 1.0) for p in attacker_end]
    defender_end = [min(max(p, 0.0), 1.0) for p in defender_end]
    return BattleOdds(
        attackers=attackers,
        defenders=defenders,
        conquest_probability=defender_end[0],
        attacker_survivors=tuple(attacker_end),
        defender_survivors=tuple(defender_end),
        expected_attacker_losses=math.fsum(p * (attackers - k) for k, p in enumerate(attacker_end)),
        expected_defender_losses=math.fsum(p * (defenders - k) for k, p in enumerate(defender_end)),
    )


def _check_battle(
    attackers: int,
    defenders: int,
    max_attacker_dice: int,
    max_defender_dice: int,
    tie_rule: TieRule,
    attacker_bonus: int,
    defender_bonus: int,
    stop_at: int,
    stop_on_no_loss: bool,
) -> None:
    """ValueError for an argument of `battle_odds` out of its range or of another type."""
    _check_int("attackers", attackers, 0)
    _check_int("defenders", defenders, 1)
    _check_int("max_attacker_dice", max_attacker_dice, 1, _MAX_DICE)
    _check_int("max_defender_dice", max_defender_dice, 1, _MAX_DICE)
    _check_tie_rule(tie_rule)
    _check_int("attacker_bonus", attacker_bonus, 0, 1)
    _check_int("defender_bonus", defender_bonus, 0, 1)
    _check_int("stop_at", stop_at, 0)
    if not isinstance(stop_on_no_loss, bool):
        raise ValueError(f"stop_on_no_loss must be a boolean, got {stop_on_no_loss!r}")


Transition = tuple[tuple[tuple[int, int, float], ...], float]


def _interior(
    attackers: int, defenders: int, first: int, most_d: int, full: Transition
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any] | None]:
    """The probability of ever being in each state, by (i + j, i): i attackers and j
    defenders remaining, and (with `stop_on_no_loss`) of the battle ending in it. Every roll
    lowers i + j, so the states of one i + j depend only on higher ones, and those with all
    the dice on both sides (the interior: i >= first, j >= the defender's most dice) all move
    alike: one row at a time is one numpy correlation per number of armies lost. `full`:
    the rolls of the interior."""
    mass = np.zeros((attackers + defenders + 1, attackers + 1))
    mass[attackers + defenders, attackers] = 1.0
    leaving, interior_end = full
    taps: dict[int, dict[int, float]] = {}
    for lost_a, lost_d, q in leaving:
        taps.setdefault(lost_a + lost_d, {})[lost_a] = q
    spreads = [
        (
            lost,
            min(row),
            max(row),
            np.array([row.get(n, 0.0) for n in range(min(row), max(row) + 1)]),
        )
        for lost, row in taps.items()
    ]
    ended = np.zeros_like(mass) if interior_end else None  # a roll that removed nobody
    for total in range(attackers + defenders, first + most_d - 1, -1):
        low = max(first, total - defenders)
        high = min(attackers, total - most_d)
        if low > high:
            continue
        source = mass[total, low : high + 1]
        if ended is not None:
            ended[total, low : high + 1] += source * interior_end
        for lost, fewest, most, kernel in spreads:
            mass[total - lost, low - most : high - fewest + 1] += np.correlate(
                source, kernel, "full"
            )
    return mass, ended


def _edges(
    mass: np.ndarray[Any, Any],
    transitions: dict[tuple[int, int], Transition],
    most: tuple[int, int],
    first: int,
    stop_at: int,
    attacker_end: list[float],
    defender_end: list[float],
) -> None:
    """The states outside the interior that still fight (fewer dice on a side), in pure
    Python by decreasing i + j (none of them leads back into the interior), adding where they
    end to `attacker_end` and `defender_end`."""
    attackers, defenders = len(attacker_end) - 1, len(defender_end) - 1
    most_a, most_d = most
    edge_i = [i for i in range(stop_at + 1, min(first, attackers + 1)) for _ in range(defenders)]
    edge_j = [
        j for _ in range(stop_at + 1, min(first, attackers + 1)) for j in range(1, defenders + 1)
    ]
    for i in range(first, attackers + 1):
        for j in range(1, min(most_d, defenders + 1)):
            edge_i.append(i)
            edge_j.append(j)
    order = sorted(range(len(edge_i)), key=lambda n: -(edge_i[n] + edge_j[n]))
    rows = [edge_i[n] + edge_j[n] for n in order]
    columns = [edge_i[n] for n in order]
    reached = mass[rows, columns].tolist() if order else []
    extra: dict[tuple[int, int], float] = {}
    for n, p in zip(order, reached, strict=True):
        i, j = edge_i[n], edge_j[n]
        p += extra.pop((i, j), 0.0)
        if p == 0.0:
            continue
        moves, p_end = transitions[min(most_a, i), min(most_d, j)]
        if p_end:  # stop_on_no_loss: a roll that removed nobody ends the battle here
            attacker_end[i] += p * p_end
            defender_end[j] += p * p_end
        for lost_a, lost_d, q in moves:
            ti, tj = i - lost_a, j - lost_d
            if tj == 0 or ti <= stop_at:
                attacker_end[ti] += p * q
                defender_end[tj] += p * q
            else:
                extra[ti, tj] = extra.get((ti, tj), 0.0) + p * q


def _interior_ends(
    mass: np.ndarray[Any, Any],
    ended: np.ndarray[Any, Any] | None,
    stop_at: int,
    attacker_end: list[float],
    defender_end: list[float],
) -> None:
    """Where the interior ended (stop_at reached, or no defender left, or with
    `stop_on_no_loss` a roll that removed nobody), added to the ends."""
    attackers, defenders = len(attacker_end) - 1, len(defender_end) - 1
    for i in range(min(stop_at, attackers) + 1):
        column = mass[i : i + defenders + 1, i].tolist()
        attacker_end[i] += math.fsum(column)
        for j, p in enumerate(column):
            defender_end[j] += p
    if stop_at < attackers:
        conquered = mass[range(stop_at + 1, attackers + 1), range(stop_at + 1, attackers + 1)]
        for n, p in enumerate(conquered.tolist()):
            attacker_end[stop_at + 1 + n] += p
        defender_end[0] += float(conquered.sum())
    if ended is not None:
        for i, p in enumerate(ended.sum(axis=0).tolist()):
            attacker_end[i] += p
        by_defenders = np.lib.stride_tricks.as_strided(
            ended,
            shape=(defenders + 1, attackers + 1),
            strides=(ended.strides[0], ended.strides[0] + ended.strides[1]),
            writeable=False,
        )
        for j, p in enumerate(by_defenders.sum(axis=1).tolist()):
            defender_end[j] += p
