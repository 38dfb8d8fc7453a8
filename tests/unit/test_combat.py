"""domain/combat.py: pairwise dice with modifiers, volleys of hit dice."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from domain.combat import Modifier, Side, compare_dice, modified, pairwise_losses, volley_hits

dice = st.lists(st.integers(1, 6), min_size=1, max_size=3)
GENERALE = Modifier(Side.ATTACKER, 1, "generale")
MARESCIALLO = Modifier(Side.DEFENDER, 1, "maresciallo")


@given(dice, dice)
def test_without_modifiers_it_is_the_rule_every_saved_game_was_played_with(
    attacker: list[int], defender: list[int]
) -> None:
    assert pairwise_losses(attacker, defender) == compare_dice(attacker, defender)


def test_a_modifier_raises_the_highest_die_of_its_side_only() -> None:
    assert modified([3, 5, 1], Side.ATTACKER, [GENERALE]) == [6, 3, 1]
    assert modified([3, 5, 1], Side.DEFENDER, [GENERALE]) == [5, 3, 1]
    assert modified([3, 5], Side.ATTACKER, [Modifier(Side.ATTACKER, 1, "x", every_die=True)]) == [
        6,
        4,
    ]


def test_a_tie_won_by_the_modifier() -> None:
    assert pairwise_losses([4], [4]) == (1, 0)  # the tie goes to the defender
    assert pairwise_losses([4], [4], [GENERALE]) == (0, 1)
    assert pairwise_losses([5, 2], [4, 4], [GENERALE, MARESCIALLO]) == (1, 1)
    # A die of 6 with +1 still beats a 6 only by its modifier.
    assert pairwise_losses([6], [6], [GENERALE]) == (0, 1)


@given(dice, dice)
def test_a_modifier_never_hurts_its_side(attacker: list[int], defender: list[int]) -> None:
    plain_attacker_losses, plain_defender_losses = pairwise_losses(attacker, defender)
    attacker_losses, defender_losses = pairwise_losses(attacker, defender, [GENERALE])
    assert attacker_losses <= plain_attacker_losses
    assert defender_losses >= plain_defender_losses


def test_a_volley_counts_the_dice_on_hit_faces() -> None:
    assert volley_hits([1, 5, 6, 6, 2], frozenset({5, 6})) == 3
    assert volley_hits([], frozenset({6})) == 0
