"""Each game's own state view (Kernel.state_view) says what its state holds."""

from __future__ import annotations

import random

from bots.policies import aggressive_policy
from tests.spqr_support import new_spqr_game
from tests.support import new_game
from variants.classic.game import ClassicState
from variants.skirmish import VARIANT as SKIRMISH
from variants.skirmish.game import SkirmishGame, SkirmishState
from variants.spqr.game import SpqrState


def test_classic() -> None:
    game = new_game(4)
    view = game.state_view()
    assert view == ClassicState(
        game.turn_order, game.first_player, game.setup_quota, 0, False, False
    )


def test_spqr_along_a_game() -> None:
    game = new_spqr_game(3)
    rnd = random.Random(2)
    for _ in range(3000):
        if game.is_over:
            break
        view = game.state_view()
        assert isinstance(view, SpqrState)
        assert view.victory_points == tuple(game.victory_points)
        assert view.neutral_groups_left == tuple(game.neutral_groups)
        battle = game.naval_battle
        assert view.naval_combat_sea == (
            None if battle is None else game.board.territories[battle[0]].id
        )
        seat = game.seat_to_act
        assert seat is not None
        for action in aggressive_policy(game, seat, rnd):
            game.apply(seat, action)
            break


def test_skirmish_shows_the_rounds_order_and_the_muster() -> None:
    game = SKIRMISH.new_game(["A", "B", "C"], seed=b"view")
    assert isinstance(game, SkirmishGame)
    assert game.state_view() == SkirmishState(tuple(game.order), game.points_left)
    assert game.points_left > 0
