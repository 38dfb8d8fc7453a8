"""What each game lets players choose is declared in its options class: the base holds only
what every game has (its round and time limits), a mechanic its own (domain/risiko), a game
its own; every option declared is one a value changes. Options a game once stored and its
rules now fix (`RETIRED`) still load, with their one value, so stored games and clients that
restate them keep working."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from domain.errors import InvalidOptions
from domain.options import GameOptions
from domain.risiko.defence import DefenderDice
from domain.risiko.objectives import ObjectiveDeck
from variants import VARIANTS, Variant
from variants.classic.options import ClassicOptions
from variants.skirmish import VARIANT as SKIRMISH

GAMES = {**VARIANTS, "skirmish": SKIRMISH}

# What the engine stored for a new game of each variant before the options were split (the
# rows, the create entries and the golden logs hold these): they load as they were.
STORED_BEFORE: dict[str, dict[str, Any]] = {
    "classic": {
        "defender_dice": "maximum",
        "protected_rounds": 4,
        "attacker_dice_at_least_defender": False,
        "minimum_garrison": False,
        "objectives": "standard",
        "time_limit_minutes": None,
        "round_limit": None,
    },
    "spqr": {
        "defender_dice": "maximum",
        "protected_rounds": 4,
        "attacker_dice_at_least_defender": False,
        "minimum_garrison": True,
        "objectives": "standard",
        "time_limit_minutes": None,
        "round_limit": None,
        "victory_points": 20,
    },
    "piu": {
        "defender_dice": "maximum",
        "protected_rounds": 0,
        "attacker_dice_at_least_defender": False,
        "minimum_garrison": False,
        "objectives": "standard",
        "time_limit_minutes": None,
        "round_limit": None,
        "starting_armies": None,
        "hidden_armies": None,
        "fortress_attack_dice": 3,
    },
    "futurisiko": {
        "defender_dice": "maximum",
        "protected_rounds": 0,
        "attacker_dice_at_least_defender": False,
        "minimum_garrison": False,
        "objectives": "standard",
        "time_limit_minutes": None,
        "round_limit": None,
        "fill_board": False,
        "losses": "tanks_first",
        "super_produzione": True,
        "missili_balistici": True,
        "scudo_spaziale": True,
        "arma_segreta": True,
        "siluro_killer": True,
        "tregua": True,
    },
    "skirmish": {
        "defender_dice": "maximum",
        "protected_rounds": 0,
        "attacker_dice_at_least_defender": False,
        "minimum_garrison": False,
        "objectives": "standard",
        "time_limit_minutes": None,
        "round_limit": 8,
    },
}


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


def test_the_base_options_are_what_every_game_has() -> None:
    assert [f.name for f in fields(GameOptions)] == ["time_limit_minutes", "round_limit"]
    for variant in GAMES.values():
        assert issubclass(variant.options_class, GameOptions)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_option_a_game_declares_takes_another_value(name: str) -> None:
    variant = GAMES[name]
    for option, default in variant.options_class.settable().items():
        others = [accepted(variant, option, value) for value in alternatives(option, default)]
        assert any(others), option


@pytest.mark.parametrize("name", sorted(GAMES))
def test_what_a_game_stored_before_loads_as_it_was(name: str) -> None:
    options = GAMES[name].options_class
    stored = STORED_BEFORE[name]
    loaded = options.from_dict(stored)
    assert loaded == options()  # every game stored its defaults; a newer option takes its own
    kept = {k: v for k, v in stored.items() if k not in options.RETIRED}
    assert kept == {k: v for k, v in loaded.to_dict().items() if k in kept}
    for retired, value in options.RETIRED.items():
        assert stored[retired] == value
        assert retired not in loaded.to_dict()


@pytest.mark.parametrize("name", sorted(set(GAMES) - {"classic"}))
def test_a_retired_option_takes_only_the_value_the_rules_fix(name: str) -> None:
    variant = GAMES[name]
    assert variant.options_class.RETIRED, name
    for retired, value in variant.options_class.RETIRED.items():
        assert accepted(variant, retired, value)  # restated, as a client may
        for other in alternatives(retired, value):
            assert not accepted(variant, retired, other), (retired, other)


def test_the_spqr_rules_fix_the_defence_the_garrison_and_the_objectives() -> None:
    assert dict(VARIANTS["spqr"].options_class.RETIRED) == {
        "defender_dice": "maximum",
        "minimum_garrison": True,
        "objectives": "standard",
    }
    assert ClassicOptions.RETIRED == {}


def test_an_unknown_option_or_a_value_of_the_wrong_type_is_refused() -> None:
    classic = VARIANTS["classic"]
    for given in (
        {"victory_points": 10},
        {"round_limit": True},
        {"round_limit": "3"},
        {"protected_rounds": 2.5},
        {"minimum_garrison": 1},
        {"defender_dice": "sometimes"},
        {"objectives": None},
    ):
        with pytest.raises(InvalidOptions):
            classic.options(given)


def test_the_tournament_preset_is_what_differs_from_the_basic_game() -> None:
    assert ClassicOptions.tournament_overrides() == {
        "attacker_dice_at_least_defender": True,
        "minimum_garrison": True,
        "objectives": "tournament",
    }
    assert (
        ClassicOptions.from_dict(
            {**ClassicOptions().to_dict(), **ClassicOptions.tournament_overrides()}
        )
        == ClassicOptions.tournament()
    )


@pytest.mark.parametrize("name", sorted(set(GAMES) - {"classic"}))
def test_a_game_without_tournament_rules_refuses_the_preset(name: str) -> None:
    with pytest.raises(InvalidOptions, match="no tournament rules"):
        GAMES[name].options_class.tournament_overrides()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_ends_by_a_time_limit_as_by_a_round_limit(name: str) -> None:
    """The base options are every game's: each plays a time limit out (the clock declares
    it; the round under way is the last)."""
    from domain import actions as a

    variant = GAMES[name]
    options = variant.options({"time_limit_minutes": 30})
    players = [f"P{i}" for i in range(variant.ruleset.min_players)]
    game = variant.new_game(players, options, seed=b"time")
    assert a.ExpireTime in game.action_types
    events = game.apply(None, a.ExpireTime())
    assert [event.type for event in events] == ["TimeExpired"]
    assert game.time_expired
