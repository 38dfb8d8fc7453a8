"""Comparing dice: highest against highest, second against second, third against third."""

from __future__ import annotations

from collections.abc import Sequence


def compare_dice(
    attacker: Sequence[int], defender: Sequence[int], *, defender_wins_ties: bool = True
) -> tuple[int, int]:
    """(attacker losses, defender losses) for two rolls. Scores are never added, only compared
    in order of size; a tie goes to the defender (or, with `defender_wins_ties=False`, costs
    nobody anything, as in S.P.Q.RisiKo! naval combat)."""
    attacker_losses = defender_losses = 0
    for attack_die, defence_die in zip(
        sorted(attacker, reverse=True), sorted(defender, reverse=True), strict=False
    ):
        if attack_die > defence_die:
            defender_losses += 1
        elif attack_die < defence_die or defender_wins_ties:
            attacker_losses += 1
    return attacker_losses, defender_losses
