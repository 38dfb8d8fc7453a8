"""The server's odds bot at a FutuRisiKo! table plays the game, and decides on what its seat
may see: the same choice whatever the other seats hold and however the deck lies."""

from __future__ import annotations

import random
from collections import Counter

from bots.seated import BotPolicy, seated_choice
from domain import actions as a
from domain.errors import RuleViolation
from tests.unit.futurisiko_positions import new
from variants.futurisiko.game import FutuGame


def choose(game: FutuGame, seat: int, step: int) -> a.Action:
    return seated_choice(BotPolicy.ODDS, game, seat, random.Random(step))


def others_and_deck_changed(game: FutuGame, seat: int, rnd: random.Random) -> FutuGame:
    """A copy where the cards the seat cannot see (the others' hands, the draw pile) are dealt
    anew among the same places, each hand keeping its size."""
    other = game.clone()
    assert isinstance(other, FutuGame)
    hidden = [card for s, hand in enumerate(other.hands) if s != seat for card in hand]
    hidden += other.draw_pile
    rnd.shuffle(hidden)
    for s, hand in enumerate(other.hands):
        if s != seat:
            other.hands[s] = [hidden.pop() for _ in hand]
    other.draw_pile = hidden
    return other


def test_the_odds_bot_plays_a_whole_game_and_never_peeks() -> None:
    game = new(3, seed=b"seated")
    kinds: Counter[str] = Counter()
    rnd = random.Random(0)
    checked = 0
    for step in range(6000):
        seat = game.seat_to_act
        if seat is None:
            break
        action = choose(game, seat, step)
        if any(hand for s, hand in enumerate(game.hands) if s != seat):
            twin = others_and_deck_changed(game, seat, rnd)
            assert choose(twin, seat, step) == action, (step, action)
            checked += 1
        try:
            game.apply(seat, action)
        except RuleViolation as refused:  # the service would play the least: never here
            raise AssertionError(f"step {step}: {action!r} refused: {refused}") from None
        kinds[action.kind] += 1
    assert game.is_over, kinds
    assert checked > 100  # hands were in play for most of the game
    for kind in ("place_flag", "produce", "move_units", "battle", "end_turn"):
        assert kinds[kind] > 0, kinds
