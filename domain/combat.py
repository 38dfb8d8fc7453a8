"""Combat, in the two ways the games roll it, with modifiers.

- Pairwise dice (classic RisiKo!, S.P.Q.RisiKo!, RisiKo! Più): highest against highest, the loser
  of each pair loses one unit, a tie to the defender (or to nobody, at sea in S.P.Q.RisiKo!).
  A modifier adds to a die for the length of an attack (RisiKo! Più's Generale: +1 on the
  attacker's highest die; the Maresciallo the same for the defender).
- Volleys of hit dice (FutuRisiKo!): each die that shows a hit face destroys one unit.

An engagement is rolled step by step by the game that owns it: each step is one roll, and the
game decides whether another follows (a conquest, a threshold, a roll that removed nothing).
The odds of both models are in `domain.odds`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum


def compare_dice(
    attacker: Sequence[int], defender: Sequence[int], *, defender_wins_ties: bool = True
) -> tuple[int, int]:
    """(attacker losses, defender losses) for two rolls. Scores are never added, only compared
    in order of size; a tie goes to the defender (or, with `defender_wins_ties=False`, costs
    nobody anything, as in S.P.Q.RisiKo! naval combat)."""
    return compare_sorted_dice(
        sorted(attacker, reverse=True),
        sorted(defender, reverse=True),
        defender_wins_ties=defender_wins_ties,
    )


def compare_sorted_dice(
    attacker: Sequence[int], defender: Sequence[int], *, defender_wins_ties: bool = True
) -> tuple[int, int]:
    """`compare_dice` for rolls already sorted highest first (DerivedRandom.roll's): the
    engine's path, which compares every roll of every attack."""
    attacker_losses = defender_losses = 0
    for attack_die, defence_die in zip(attacker, defender, strict=False):
        if attack_die > defence_die:
            defender_losses += 1
        elif attack_die < defence_die or defender_wins_ties:
            attacker_losses += 1
    return attacker_losses, defender_losses


class Side(StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


@dataclass(frozen=True, slots=True)
class Modifier:
    """`amount` added to the `side`'s highest die (or to every die of it, `every_die`), for as
    long as the game keeps the modifier; `source` names what gives it, for the events."""

    side: Side
    amount: int
    source: str
    every_die: bool = False

    def apply(self, dice: list[int]) -> None:
        """Change `dice`, sorted highest first, in place."""
        if not dice:
            return
        if self.every_die:
            for position in range(len(dice)):
                dice[position] += self.amount
        else:
            dice[0] += self.amount


def modified(dice: Sequence[int], side: Side, modifiers: Iterable[Modifier]) -> list[int]:
    """`dice` sorted highest first, with every modifier of `side` applied."""
    result = sorted(dice, reverse=True)
    for modifier in modifiers:
        if modifier.side is side:
            modifier.apply(result)
    return result


def pairwise_losses(
    attacker: Sequence[int],
    defender: Sequence[int],
    modifiers: Iterable[Modifier] = (),
    *,
    defender_wins_ties: bool = True,
) -> tuple[int, int]:
    """(attacker losses, defender losses) for two rolls, after the modifiers. Without modifiers
    it is exactly `compare_dice`, the rule every saved game was played with."""
    kept = tuple(modifiers)
    if not kept:
        return compare_dice(attacker, defender, defender_wins_ties=defender_wins_ties)
    return compare_dice(
        modified(attacker, Side.ATTACKER, kept),
        modified(defender, Side.DEFENDER, kept),
        defender_wins_ties=defender_wins_ties,
    )


def volley_hits(dice: Sequence[int], hit_faces: frozenset[int]) -> int:
    """How many dice of a volley show a hit face (FutuRisiKo!'s explosion, two faces of six)."""
    return sum(1 for die in dice if die in hit_faces)
