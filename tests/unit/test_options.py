"""What each variant lets players choose is declared with its options (`fixed`), and the
declaration is held to the rules: a fixed option refuses every other value, a settable one
accepts at least one."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidOptions
from domain.options import DefenderDice, GameOptions, ObjectiveDeck
from variants import VARIANTS, Variant


def alternatives(name: str, default: Any) -> list[Any]:
    if isinstance(default, bool):
        return [not default]
    if name == "defender_dice":
        return [d.value for d in DefenderDice if d.value != default]
    if name == "objectives":
        return [d.value for d in ObjectiveDeck if d.value != default]
    if name == "losses":  # FutuRisiKo!: which unit a hit takes first
        return ["aircraft_first"]
    if default is None:
        return [1, 30]
    return [default - 1, default + 1]


def accepted(variant: Variant, name: str, value: Any) -> bool:
    try:
        variant.options({name: value})
    except InvalidOptions:
        return False
    return True


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fixed_options_refuse_any_other_value_and_settable_ones_take_one(variant: str) -> None:
    chosen = VARIANTS[variant]
    options = chosen.options_class
    defaults = options().to_dict()
    assert options.fixed <= set(defaults)
    assert set(options.settable()) == set(defaults) - options.fixed
    for name, default in defaults.items():
        others = [accepted(chosen, name, value) for value in alternatives(name, default)]
        if name in options.fixed:
            assert not any(others), name
        else:
            assert any(others), name


def test_the_spqr_rules_fix_the_defence_the_garrison_and_the_objectives() -> None:
    assert VARIANTS["spqr"].options_class.fixed == {
        "defender_dice",
        "minimum_garrison",
        "objectives",
    }
    assert VARIANTS["classic"].options_class.fixed == frozenset()


def test_the_tournament_preset_is_what_differs_from_the_basic_game() -> None:
    assert GameOptions.tournament_overrides() == {
        "attacker_dice_at_least_defender": True,
        "minimum_garrison": True,
        "objectives": "tournament",
    }
    assert (
        GameOptions.from_dict({**GameOptions().to_dict(), **GameOptions.tournament_overrides()})
        == GameOptions.tournament()
    )
