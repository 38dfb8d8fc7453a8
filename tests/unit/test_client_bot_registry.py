"""The Python client finds a game's bot by what the game plays (the actions the server lists in
Variant.actionKinds), never by the game's name: the most knowing bot of a name that knows
every action it needs."""

from __future__ import annotations

import pytest
from risiko_client.bots import (
    BOTS,
    OddsBot,
    PiuOddsBot,
    RandomBot,
    SpqrOddsBot,
    bot_class,
    make_bot,
)

from api.graphql.catalogue import _action_kinds
from variants import VARIANTS, Variant


def kinds(variant: Variant) -> frozenset[str]:
    return frozenset(_action_kinds(variant))


@pytest.mark.parametrize(
    ("variant", "odds"),
    [("classic", OddsBot), ("spqr", SpqrOddsBot), ("piu", PiuOddsBot), ("futurisiko", None)],
)
def test_each_game_gets_the_bot_that_knows_its_actions(variant: str, odds: type | None) -> None:
    played = kinds(VARIANTS[variant])
    assert bot_class("random", played) is RandomBot
    if odds is None:
        with pytest.raises(ValueError, match="no bot 'odds' plays this game"):
            bot_class("odds", played)
    else:
        assert bot_class("odds", played) is odds
        assert isinstance(make_bot("odds", played, seed=3), odds)


def test_a_game_of_its_own_actions_gets_the_random_bot_only() -> None:
    from variants.skirmish import VARIANT

    played = kinds(VARIANT)
    assert bot_class("random", played) is RandomBot
    with pytest.raises(ValueError, match=r"known: random\)"):
        bot_class("odds", played)


def test_every_bot_needs_only_actions_some_game_has() -> None:
    served = set().union(*(kinds(v) for v in VARIANTS.values()))
    for classes in BOTS.values():
        for cls in classes:
            assert cls.plays <= served, cls
