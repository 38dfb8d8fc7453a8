"""Hand-made FutuRisiKo! positions for the rule tests: a game of three on an empty board, at the
phase and turn a test needs, with scripted dice where the dice decide what a test checks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import pytest

from domain.actions import Action
from domain.errors import RuleViolation
from domain.events import Event
from domain.flow import Phase
from domain.forces import Forces
from domain.rng import DerivedRandom
from variants.futurisiko import FUTURISIKO as VARIANT
from variants.futurisiko.game import FutuGame
from variants.futurisiko.phases import COMBAT, MOVEMENT, PRODUCTION, ROUND
from variants.futurisiko.ruleset import FLAG

E = TypeVar("E", bound=Event)
HIT = 6  # an explosion face (rules.json: 5 and 6)
MISS = 1


def new(players: int = 3, seed: bytes = b"futurisiko", **options: object) -> FutuGame:
    game = VARIANT.new_game([f"P{n}" for n in range(players)], VARIANT.options(options), seed=seed)
    assert isinstance(game, FutuGame)
    return game


def blank(phase: Phase = MOVEMENT, seat: int = 0, players: int = 3, **options: object) -> FutuGame:
    """A game in round 2 with nothing on the board, `seat` playing `phase`, the order 0, 1…"""
    game = new(players, b"futurisiko", **options)
    game.forces = Forces(len(game.board.territories), players, game.UNIT_KINDS)
    game.round = 2
    game.order = list(range(players))
    game.current = seat
    game.phase = phase
    game.phase_position = ROUND.phases.index(MOVEMENT if phase is COMBAT else phase)
    game.points_left = game.production_points(seat) if phase is PRODUCTION else 0
    return game


def at(game: FutuGame, space: str) -> int:
    return game.board.index[space]


def put(game: FutuGame, space: str, seat: int, kind: str, count: int = 1) -> None:
    game.forces.add(at(game, space), seat, kind, count)


def flag(game: FutuGame, space: str, seat: int) -> None:
    game.forces.owner[at(game, space)] = seat
    game.forces.markers[at(game, space)] = [FLAG]


def count(game: FutuGame, space: str, seat: int, kind: str) -> int:
    return game.forces.count(at(game, space), seat, kind)


def give(game: FutuGame, seat: int, *card_types: str) -> list[str]:
    """Put a card of each type, from the draw pile, in the seat's hand."""
    cards = []
    for card_type in card_types:
        card = next(c for c in game.draw_pile if game.ruleset.card(c).type == card_type)
        game.draw_pile.remove(card)
        game.hands[seat].append(card)
        cards.append(card)
    return cards


def script_dice(monkeypatch: pytest.MonkeyPatch, *faces: int) -> list[int]:
    """The next dice show `faces`, in order, then every die misses; the list empties as dice
    are rolled (shuffles stay as the seed makes them)."""
    remaining = list(faces)

    def dice(self: DerivedRandom, count: int) -> list[int]:
        taken = [remaining.pop(0) if remaining else MISS for _ in range(count)]
        return sorted(taken, reverse=True)

    monkeypatch.setattr(DerivedRandom, "dice", dice)
    return remaining


def assert_rejected(game: FutuGame, seat: int | None, action: Action, code: str) -> None:
    """The action raises the rule violation `code` and changes nothing at all."""
    before = game.snapshot()
    with pytest.raises(RuleViolation) as excinfo:
        game.apply(seat, action)
    assert excinfo.value.code == code, excinfo.value.message
    assert game.snapshot() == before


def of_type(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [event for event in events if isinstance(event, kind)]
