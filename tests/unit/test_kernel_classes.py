"""Every game plays by its own rules and options: defaults without options, refuses others'."""

from __future__ import annotations

import pytest

from domain.errors import InvalidOptions
from domain.ruleset import Ruleset
from variants import VARIANTS

NAMES = ["Anna", "Bruno", "Carla"]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_game_without_options_gets_its_own_defaults(name: str) -> None:
    variant = VARIANTS[name]
    game = variant.game_class(variant.ruleset, NAMES, seed=b"s")
    assert type(game.options) is variant.options_class
    assert game.options == variant.options_class()


OWN_RULES = sorted(n for n, v in VARIANTS.items() if v.game_class.RULESET_CLASS is not Ruleset)


@pytest.mark.parametrize("name", OWN_RULES)
def test_a_game_refuses_the_rules_and_options_of_another(name: str) -> None:
    game_class = VARIANTS[name].game_class
    others = [v for n, v in VARIANTS.items() if n != name]
    for other in others:
        with pytest.raises(InvalidOptions, match="plays by"):
            game_class(other.ruleset, NAMES, seed=b"s")
        if not isinstance(other.options(), game_class.OPTIONS_CLASS):
            with pytest.raises(InvalidOptions, match="takes"):
                game_class(VARIANTS[name].ruleset, NAMES, other.options(), seed=b"s")
