"""Exact odds of a battle fought in volleys of hit dice (FutuRisiKo!'s explosion dice).

Every unit of the side that fires rolls one die, which hits on `hit_faces` faces of 6 (the
explosion: 2 faces, p = 1/3); a volley's hits are Binomial(dice, p). While the defender's
flag stands it adds `flag_dice` dice to the defender's volleys. The sides fire in turn until
one has nothing left: the attacker's hits remove defending units, and once none is left one
more hit takes the flag (hits beyond the units in the same volley do); the defender's hits
remove attacking units. The attack conquers when no defending unit and no flag remain, and
fails when no attacker remains (the worked model of ../shared boards-piu-futurisiko.md §6).

The state is (attackers, defenders, flag standing, who fires next). Every hit lowers
attackers + defenders + flag; a volley that misses only passes the turn, so two misses in a
row come back to the same state: that 2-cycle is summed as a geometric series, and a single
pass over the states by decreasing attackers + defenders + flag is exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

# Floats for speed, fractions for exact tables; the arithmetic is the same.
Number = float | Fraction


@dataclass(frozen=True, slots=True)
class VolleyOdds:
    attackers: int
    defenders: int
    conquest_probability: Number
    attacker_survivors: tuple[Number, ...]  # P(k attackers left), k = 0…
    defender_survivors: tuple[Number, ...]  # P(k defending units left), k = 0…


def _hits(dice: int, p: Number, one: Number) -> list[Number]:
    """P(h hits) for h = 0…dice: Binomial(dice, p)."""
    q = one - p
    return [math.comb(dice, h) * p**h * q ** (dice - h) for h in range(dice + 1)]


def volley_odds(
    attackers: int,
    defenders: int,
    *,
    flag: bool = True,
    attacker_first: bool = False,
    hit_faces: int = 2,
    flag_dice: int = 2,
    exact: bool = False,
) -> VolleyOdds:
    """Odds of a volley battle to the end. `attacker_first`: who fires the first volley (in
    FutuRisiKo! the side with more aircraft, a tie to the defender). `exact`: fractions
    instead of floats (slower; for tests and tables)."""
    _check_volleys(attackers, defenders, flag, hit_faces, flag_dice)
    one: Number = Fraction(1) if exact else 1.0
    p: Number = Fraction(hit_faces, 6) if exact else hit_faces / 6
    zero = one - one
    table: dict[int, list[Number]] = {}

    def hits(dice: int) -> list[Number]:
        if dice not in table:
            table[dice] = _hits(dice, p, one)
        return table[dice]

    # incoming[(a, d, f, attacker_fires)]: mass arriving from states with more in play.
    incoming: dict[tuple[int, int, int, bool], Number] = {
        (attackers, defenders, int(flag), attacker_first): one
    }
    attacker_end = [zero] * (attackers + 1)
    defender_end = [zero] * (defenders + 1)
    conquered = zero
    states = sorted(
        {(a, d, f) for a in range(1, attackers + 1) for d in range(defenders + 1) for f in (0, 1)},
        key=lambda s: -(s[0] + s[1] + s[2]),
    )
    for a, d, f in states:
        into_attack = incoming.pop((a, d, f, True), zero)
        into_defence = incoming.pop((a, d, f, False), zero)
        if not into_attack and not into_defence:
            continue
        if d == 0 and not f:  # nothing left to defend: conquered
            attacker_end[a] += into_attack + into_defence
            defender_end[0] += into_attack + into_defence
            conquered += into_attack + into_defence
            continue
        arrivals = (into_attack, into_defence)
        failed = _volley(incoming, (a, d, f), arrivals, hits(a), hits(d + flag_dice * f), one)
        attacker_end[0] += failed
        defender_end[d] += failed
    if not exact:  # sums of floats may end a rounding error past 1: a probability is not
        conquered = _probability(conquered)
        attacker_end = [_probability(x) for x in attacker_end]
        defender_end = [_probability(x) for x in defender_end]
    return VolleyOdds(attackers, defenders, conquered, tuple(attacker_end), tuple(defender_end))


def _volley(
    incoming: dict[tuple[int, int, int, bool], Number],
    state: tuple[int, int, int],
    arrivals: tuple[Number, Number],
    attack: list[Number],
    defence: list[Number],
    one: Number,
) -> Number:
    """The volleys of `state` (a attackers, d defenders, f a standing flag), reached firing
    and answering by `arrivals`: what leaves it goes to `incoming`; what ends the attack here
    (every attacker lost) is returned."""
    a, d, f = state
    into_attack, into_defence = arrivals
    zero = one - one
    both_miss = attack[0] * defence[0]
    # Visits of each half of the 2-cycle: arrivals plus what the other half's miss sends.
    firing = (into_attack + into_defence * defence[0]) / (one - both_miss)
    answering = (into_defence + into_attack * attack[0]) / (one - both_miss)
    for h, q in enumerate(attack[1:], start=1):
        key = (a, max(0, d - h), f if h <= d else 0, False)
        incoming[key] = incoming.get(key, zero) + firing * q
    failed = zero
    for h, q in enumerate(defence[1:], start=1):
        if h >= a:  # every attacker lost: the attack fails here
            failed += answering * q
            continue
        key = (a - h, d, f, True)
        incoming[key] = incoming.get(key, zero) + answering * q
    return failed


def _check_volleys(
    attackers: int, defenders: int, flag: bool, hit_faces: int, flag_dice: int
) -> None:
    """ValueError for an argument of `volley_odds` out of its range or of another type."""
    for name, value, low in (
        ("attackers", attackers, 1),
        ("defenders", defenders, 0),
        ("hit_faces", hit_faces, 1),
        ("flag_dice", flag_dice, 0),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if hit_faces > 6:
        raise ValueError(f"hit_faces must be at most 6, got {hit_faces}")
    if defenders == 0 and not flag:
        raise ValueError("a battle needs a defending unit or a standing flag")


def _probability(value: Number) -> Number:
    return min(max(value, 0.0), 1.0)
