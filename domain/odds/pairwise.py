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
  defenders remaining)``, which only ever decrease.

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
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import lru_cache

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


@lru_cache(maxsize=128)  # at most 9 dice pairs x 2 tie rules x 4 bonuses
def _roll_outcomes(
    attacker_dice: int,
    defender_dice: int,
    tie_rule: TieRule,
    attacker_bonus: int,
    defender_bonus: int,
) -> tuple[RollOutcome, ...]:
    counts: dict[tuple[int, int], int] = {}
    for dice in itertools.product(range(1, 7), repeat=attacker_dice + defender_dice):
        attack = sorted(dice[:attacker_dice], reverse=True)
        defence = sorted(dice[attacker_dice:], reverse=True)
        attack[0] += attacker_bonus
        defence[0] += defender_bonus
        attacker_losses = defender_losses = 0
        for a, d in zip(attack, defence, strict=False):
            if a > d:
                defender_losses += 1
            elif a < d or tie_rule is TieRule.DEFENDER_WINS:
                attacker_losses += 1
        key = (attacker_losses, defender_losses)
        counts[key] = counts.get(key, 0) + 1
    total = 6 ** (attacker_dice + defender_dice)
    return tuple(
        RollOutcome(losses[0], losses[1], Fraction(count, total))
        for losses, count in sorted(counts.items())
    )


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

    transitions = {
        (a, d): _transitions(a, d, tie_rule, attacker_bonus, defender_bonus, stop_on_no_loss)
        for a in range(1, max_attacker_dice + 1)
        for d in range(1, max_defender_dice + 1)
    }
    # mass[i][j]: probability of ever being in state (i attackers, j defenders remaining).
    # Every transition decreases i, or keeps i and decreases j, so visiting rows by
    # decreasing i and, within a row, columns by decreasing j is a topological order.
    mass = [[0.0] * (defenders + 1) for _ in range(attackers + 1)]
    mass[attackers][defenders] = 1.0
    attacker_end = [0.0] * (attackers + 1)
    defender_end = [0.0] * (defenders + 1)
    for i in range(attackers, -1, -1):
        row = mass[i]
        fighting = i > stop_at
        a = min(max_attacker_dice, i)
        for j in range(defenders, -1, -1):
            p = row[j]
            if p == 0.0:
                continue
            if j == 0 or not fighting:
                attacker_end[i] += p
                defender_end[j] += p
                continue
            leaving, p_end = transitions[a, min(max_defender_dice, j)]
            if p_end:  # stop_on_no_loss: a roll that removed nobody ends the battle here
                attacker_end[i] += p * p_end
                defender_end[j] += p * p_end
            for dx, dy, q in leaving:
                mass[i - dx][j - dy] += p * q

    return BattleOdds(
        attackers=attackers,
        defenders=defenders,
        conquest_probability=defender_end[0],
        attacker_survivors=tuple(attacker_end),
        defender_survivors=tuple(defender_end),
        expected_attacker_losses=math.fsum(p * (attackers - k) for k, p in enumerate(attacker_end)),
        expected_defender_losses=math.fsum(p * (defenders - k) for k, p in enumerate(defender_end)),
    )
