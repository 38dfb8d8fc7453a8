"""Helpers to build games and hand-made positions for the rule tests."""

from __future__ import annotations

import copy
import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import pytest

from domain import events as e
from domain.actions import Action, PlaceArmies
from domain.board import Board
from domain.errors import RuleViolation
from domain.flow import Phase
from domain.kernel import Kernel
from domain.legal import LegalAction
from domain.rng import DerivedRandom
from domain.ruleset import Ruleset
from variants import get_variant
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions

CLASSIC = get_variant("classic")
K = TypeVar("K", bound=Kernel)


class Arrangeable(Protocol):
    """What a hand-made position sets: the state of the RisiKo! mechanics (domain/risiko)
    that classic RisiKo! and RisiKo! Più compose."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def board(self) -> Board: ...
    @property
    def ruleset(self) -> Ruleset: ...

    owner: list[int]
    armies: list[int]
    territory_count: list[int]
    eliminated: list[bool]
    setup_remaining: list[int]
    setup_quota: int
    current: int
    phase: Phase
    round: int
    pending_reinforcements: int
    prompt_stack: list[list[Any]]
    pending_conquest: tuple[int, int, int, int] | None
    conquered_this_turn: bool
    hands: list[list[str]]
    deck: list[str]
    discard: list[str]


G = TypeVar("G", bound=Arrangeable)
BOARD = CLASSIC.ruleset.board


def new_game(
    players: int = 4, options: ClassicOptions | None = None, seed: bytes = b"test-seed"
) -> ClassicGame:
    return classic(CLASSIC.new_game([f"P{i}" for i in range(players)], options, seed=seed))


def classic(game: Kernel) -> ClassicGame:
    """A game of the engine's base rules (what `Variant.new_game` gives as a `Kernel`)."""
    assert isinstance(game, ClassicGame)
    return game


def arrange(
    game: G,
    owners: Mapping[str, int],
    armies: Mapping[str, int] | None = None,
    *,
    others: int | None = None,
    current: int = 0,
    phase: Phase = Phase.ATTACK,
    round: int = 5,
    pending: int = 0,
    hands: Mapping[int, list[str]] | None = None,
) -> G:
    """Turn `game` into a hand-made position: territories named in `owners` go to those seats,
    every other territory to `others` (default: the last seat), each with `armies` (default 1).
    The setup is skipped: the deck is the full deck, `current` plays in `phase` of `round`."""
    rest = len(game.players) - 1 if others is None else others
    armies = armies or {}
    for territory in game.board.territories:
        game.owner[territory.index] = owners.get(territory.id, rest)
        game.armies[territory.index] = armies.get(territory.id, 1)
    game.territory_count = [game.owner.count(seat) for seat in range(len(game.players))]
    game.eliminated = [count == 0 for count in game.territory_count]
    game.setup_remaining = [0] * len(game.players)
    game.setup_quota = 0
    game.current = current
    game.phase = phase
    game.round = round
    game.pending_reinforcements = pending
    game.prompt_stack = []
    game.pending_conquest = None
    game.conquered_this_turn = False
    game.hands = [list((hands or {}).get(seat, [])) for seat in range(len(game.players))]
    held = {card for hand in game.hands for card in hand}
    game.deck = [card for card in game.ruleset.cards.cards if card not in held]
    game.discard = []
    return game


def finish_setup(game: ClassicGame) -> ClassicGame:
    """Play the initial placement: every quota on the seat's first territory."""
    while game.phase is Phase.SETUP:
        seat = game.current
        first = next(t.id for t in game.board.territories if game.owner[t.index] == seat)
        game.apply(seat, PlaceArmies(first, game.setup_quota))
    return game


def assert_rejected(game: Kernel, seat: int | None, action: Action, code: str) -> None:
    """The action raises the rule violation `code` and changes nothing at all."""
    before = game.snapshot()
    with pytest.raises(RuleViolation) as excinfo:
        game.apply(seat, action)
    assert excinfo.value.code == code
    assert game.snapshot() == before


def force_dice(monkeypatch: pytest.MonkeyPatch, *values: int) -> list[int]:
    """Make the next dice `values` (attacker's, then defender's, roll by roll). The returned
    list empties as dice are rolled; rolling more than given raises IndexError. Every way the
    engine may ask `DerivedRandom` for dice (one die, a handful, a whole roll) is patched."""
    remaining = list(values)

    def die(self: DerivedRandom) -> int:
        return remaining.pop(0)

    def dice(self: DerivedRandom, count: int) -> list[int]:
        return sorted((remaining.pop(0) for _ in range(count)), reverse=True)

    def roll(self: DerivedRandom, attacker: int, defender: int) -> tuple[list[int], list[int]]:
        return dice(self, attacker), dice(self, defender)

    monkeypatch.setattr(DerivedRandom, "die", die)
    monkeypatch.setattr(DerivedRandom, "dice", dice)
    monkeypatch.setattr(DerivedRandom, "roll", roll)
    return remaining


def armies_on(game: ClassicGame, territory: str) -> int:
    return game.armies[BOARD.index[territory]]


def owner_of(game: ClassicGame, territory: str) -> int:
    return game.owner[BOARD.index[territory]]


def of_type(events: Sequence[e.Event], kind: type[e.Event]) -> list[e.Event]:
    return [event for event in events if isinstance(event, kind)]


# Attributes that never change during a game: shared by clones, left out of state copies.
SHARED = (
    "ruleset",
    "board",
    "options",
    "players",
    "colours",
    "seed",
    "commitment",
    "initial_events",
)
_ATOMS = (int, str, bool, float, bytes, type(None), enum.Enum)


def _copy(value: object) -> object:
    """A deep copy, quick for the lists of numbers and strings a game is made of."""
    if isinstance(value, list):
        return [item if isinstance(item, _ATOMS) else _copy(item) for item in value]
    if isinstance(value, tuple):
        return tuple(item if isinstance(item, _ATOMS) else _copy(item) for item in value)
    if isinstance(value, _ATOMS):
        return value
    return copy.deepcopy(value)


def state(game: Kernel) -> dict[str, Any]:
    """Every public attribute of the game that can change, copied. Independent of the
    engine's own `snapshot`, so that it also sees attributes the engine forgets to list."""
    return {
        name: _copy(value)
        for name, value in vars(game).items()
        if not name.startswith("_") and name not in SHARED
    }


def clone(game: K) -> K:
    """An independent copy of `game` by deepcopy, sharing only what never changes."""
    memo: dict[int, Any] = {id(getattr(game, name)): getattr(game, name) for name in SHARED}
    return copy.deepcopy(game, memo)


def assert_offered_actions_apply(
    game: Kernel,
    moves: Iterable[tuple[int | None, Action, list[LegalAction]]],
    every: int,
    offset: int,
) -> None:
    """Along a game played by `moves`: every extreme member of every offered family, and its
    ready action (the API's `input`), is allowed by it, and applies to a copy of the game at
    one step in `every` (each costs a copy)."""
    for index, (seat, action, legal) in enumerate(moves):
        for family in legal:
            assert family.allows(family.pick(random.Random(index))), family
            for bound in [*family.bounds(), family.ready()]:
                assert family.allows(bound), (family, bound)
                if index % every == offset:
                    clone(game).apply(seat, bound)
        game.apply(seat, action)
