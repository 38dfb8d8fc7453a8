"""Every card a game deals shows its face (`Kernel.card_face`: what it is, the territory or
colours it shows): the API builds each seat's hand from it, in every game's own cards."""

from __future__ import annotations

import random

import pytest

from bots.policies import aggressive_policy
from domain.errors import RuleViolation
from domain.kernel import Kernel
from variants import VARIANTS

NAMES = ["Anna", "Bruno", "Carla"]
MAX_ACTIONS = 1500


def faces_while_played(game: Kernel, rnd: random.Random) -> set[str]:
    """Play with the aggressive bot, reading every card of every hand after each action (it
    must have a face, of its own id); the ids of the cards held on the way."""
    held: set[str] = set()
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        seat = game.seat_to_act
        assert seat is not None
        try:
            game.apply(seat, next(iter(aggressive_policy(game, seat, rnd))))
        except RuleViolation as refused:
            raise AssertionError(f"the bot's first proposal is refused: {refused}") from None
        for each in range(len(game.players)):
            for card_id in game.hand(each):
                face = game.card_face(card_id)
                assert face.id == card_id
                assert face.symbol
                held.add(card_id)
    return held


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_card_held_shows_its_face(name: str) -> None:
    variant = VARIANTS[name]
    game = variant.new_game(NAMES, seed=f"faces-{name}".encode())
    held = faces_while_played(game, random.Random(name))
    assert held or not game.deck_size(), f"{name}: no card was dealt"
