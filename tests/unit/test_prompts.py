"""Decisions owed out of turn (Game.prompts): the defender's dice, when defenders declare
them, with the default a clock would give (the most dice allowed). Along whole games: a
prompt exactly when the game waits for a seat other than the one in turn, owed by that seat,
its answers the seat's legal family, and its default an answer the game accepts."""

from __future__ import annotations

import random

from bots.policies import aggressive_policy
from domain import actions as a
from domain.flow import Phase
from domain.legal import LegalDefend
from domain.risiko.defence import DefenderDice
from variants import VARIANTS
from variants.classic.options import ClassicOptions


def test_prompts_follow_the_defence_through_whole_games() -> None:
    classic = VARIANTS["classic"]
    prompted = 0
    for seed in (b"prompt-1", b"prompt-2", b"prompt-3"):
        options = ClassicOptions(defender_dice=DefenderDice.DECLARE)
        game = classic.new_game(["A", "B", "C", "D"], options, seed=seed)
        rnd = random.Random(seed)
        for _ in range(3000):
            if game.is_over:
                break
            seat = game.seat_to_act
            assert seat is not None
            prompts = game.prompts()
            if seat != game.current:
                assert game.phase is Phase.DEFEND
                (prompt,) = prompts
                assert prompt.seat == seat
                assert game.legal_actions(seat) == [prompt.answers]
                assert isinstance(prompt.answers, LegalDefend)
                assert prompt.default == a.Defend(prompt.answers.max_dice)
                assert prompt.answers.allows(prompt.default)
                prompted += 1
                if rnd.random() < 0.5:  # the default, as a clock would give it
                    game.apply(seat, prompt.default)
                    continue
            else:
                assert prompts == []
            action = next(iter(aggressive_policy(game, seat, rnd)))
            game.apply(seat, action)
    assert prompted > 50


def test_a_game_whose_defenders_roll_the_most_owes_nothing_out_of_turn() -> None:
    for name in ("classic", "spqr"):
        game = VARIANTS[name].new_game(["A", "B", "C"], seed=b"no-prompts")
        rnd = random.Random(7)
        for _ in range(400):
            if game.is_over:
                break
            assert game.prompts() == []
            seat = game.seat_to_act
            assert seat is not None
            game.apply(seat, next(iter(aggressive_policy(game, seat, rnd))))
