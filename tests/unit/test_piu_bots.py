"""The bots in a RisiKo! Più game whose defenders declare their dice: the example bot
(variants/piu/bot.py, through bots.policies), the server's seated bots (bots/seated.py) and
the proxy of an absent seat (the least action) each answer the defender's prompt with dice the
prompt allows, and play whole games to their end."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bots.policies import aggressive_policy
from bots.seated import BotPolicy, seated_choice
from domain import actions as a
from domain.errors import RuleViolation
from domain.legal import LegalDefend
from domain.risiko.defence import DefenderDice
from tests.piu_support import new_piu_game

DECLARE = DefenderDice.DECLARE


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_example_bot_attacks_one_roll_at_a_time_and_answers_with_the_most_dice(
    players: int,
) -> None:
    game = new_piu_game(players, seed=f"bots-{players}".encode(), defender_dice=DECLARE)
    rnd = random.Random(players)
    kinds: Counter[str] = Counter()
    for _ in range(5000):
        if game.is_over:
            break
        seat = game.seat_to_act
        assert seat is not None
        prompts = game.prompts()
        for action in aggressive_policy(game, seat, rnd):
            families = game.legal_actions(seat)
            assert any(family.allows(action) for family in families), (action, families)
            if prompts:
                assert action == prompts[0].default  # the most it may roll
            game.apply(seat, action)
            kinds[action.kind] += 1
            if game.is_over or game.seat_to_act != seat:
                break
    assert game.is_over, kinds
    assert kinds["defend"] > 0, kinds
    assert kinds["attack"] > 0, kinds
    assert kinds["attack_until"] == 0


@pytest.mark.parametrize("policy", [BotPolicy.ODDS, BotPolicy.RANDOM, None], ids=str)
def test_seated_bots_and_the_proxy_answer_the_defenders_prompt(policy: BotPolicy | None) -> None:
    """Every seat is a seated bot of `policy`; or, with None, an odds bot whose answers are
    the proxy's (an absent defender: the least action, the prompt's default). Each answer is
    one the prompt allows, and the odds bot, like the proxy, declares every die it may."""
    game = new_piu_game(3, seed=b"seated", defender_dice=DECLARE, round_limit=40)
    answered = 0
    for step in range(20000):
        seat = game.seat_to_act
        if seat is None:
            break
        prompts = game.prompts()
        if policy is None and prompts:
            action = game.least_action(seat)
        else:
            action = seated_choice(policy or BotPolicy.ODDS, game, seat, random.Random(step))
        if prompts:
            (prompt,) = prompts
            assert prompt.seat == seat
            assert isinstance(prompt.answers, LegalDefend)
            assert isinstance(action, a.Defend), action
            assert prompt.answers.allows(action), action
            if policy is not BotPolicy.RANDOM:
                assert action == prompt.default
            answered += 1
        try:
            game.apply(seat, action)
        except RuleViolation as refused:  # the service would play the least: never here
            raise AssertionError(f"step {step}: {action!r} refused: {refused}") from None
    assert game.is_over
    assert answered > 10
