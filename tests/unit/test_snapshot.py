"""A snapshot is a cache: restored, it continues exactly the game it was taken of."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.policies import POLICIES
from domain.actions import Action
from domain.errors import SnapshotFormatError
from domain.risiko.defence import DefenderDice
from tests.support import classic, new_game
from variants import get_variant
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions

CLASSIC = get_variant("classic")
NAMES = ["A", "B", "C", "D"]


def step(game: ClassicGame, rnd: random.Random) -> tuple[int, Action]:
    seat = game.seat_to_act
    assert seat is not None
    action = next(iter(POLICIES["aggressive"](game, seat, rnd)))
    return seat, action


@settings(max_examples=25, deadline=None)
@given(
    seed=st.binary(min_size=1, max_size=8),
    before=st.integers(0, 400),
    declare=st.booleans(),
)
def test_a_restored_snapshot_continues_the_same_game(
    seed: bytes, before: int, declare: bool
) -> None:
    options = ClassicOptions(
        defender_dice=DefenderDice.DECLARE if declare else DefenderDice.MAXIMUM
    )
    game = classic(CLASSIC.new_game(NAMES, options, seed=seed))
    rnd = random.Random(seed)
    for _ in range(before):
        if game.is_over:
            break
        seat, action = step(game, rnd)
        game.apply(seat, action)
    snapshot = json.loads(json.dumps(game.snapshot()))  # it survives JSON
    copy = CLASSIC.new_game(NAMES, options, seed=seed)
    copy.restore(snapshot)
    assert copy.snapshot() == game.snapshot()
    for _ in range(150):
        if game.is_over:
            break
        seat, action = step(game, rnd)
        assert [e.to_dict() for e in game.apply(seat, action)] == [
            e.to_dict() for e in copy.apply(seat, action)
        ]
    assert copy.snapshot() == game.snapshot()


def test_a_snapshot_shares_nothing_with_the_game() -> None:
    game = classic(CLASSIC.new_game(NAMES, seed=b"x"))
    snapshot = game.snapshot()
    snapshot["armies"][0] = 99
    snapshot["hands"][0].append("jolly_1")
    assert game.armies[0] != 99
    assert "jolly_1" not in game.hands[0]


def test_a_snapshot_of_another_format_is_refused() -> None:
    game = new_game(3, seed=b"format")
    snapshot = game.snapshot()
    assert snapshot["format"] == ClassicGame.SNAPSHOT_FORMAT
    for other in (None, ClassicGame.SNAPSHOT_FORMAT + 1):
        stale = {**snapshot, "format": other}
        with pytest.raises(SnapshotFormatError):
            new_game(3, seed=b"format").restore(stale)
    without = {key: value for key, value in snapshot.items() if key != "format"}
    with pytest.raises(SnapshotFormatError):  # as written before formats existed
        new_game(3, seed=b"format").restore(without)
