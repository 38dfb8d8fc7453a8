"""Helpers for the S.P.Q.RisiKo! rule tests: games, hand-made positions past the occupation,
and short views of the state by space id."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from domain import events as e
from domain.flow import Phase
from domain.legal import LegalAction
from variants import get_variant
from variants.spqr import actions as sa
from variants.spqr.game import SpqrGame
from variants.spqr.options import SpqrOptions
from variants.spqr.ruleset import SpqrRuleset

SPQR = get_variant("spqr")
RULESET = SPQR.ruleset
assert isinstance(RULESET, SpqrRuleset)
BOARD = RULESET.board
PROVINCES: tuple[str, ...] = tuple(t.id for t in BOARD.territories if not t.is_sea)
SEAS: tuple[str, ...] = tuple(t.id for t in BOARD.territories if t.is_sea)
ISLANDS: tuple[str, ...] = tuple(p for p in PROVINCES if not BOARD.land_neighbours[BOARD.index[p]])

EventT = TypeVar("EventT", bound=e.Event)
FamilyT = TypeVar("FamilyT", bound=LegalAction)

FREE = -1
NEUTRAL = -2  # the owner value of the first neutral colour
OTHER_NEUTRAL = -3  # the second one (three players)


def new_spqr_game(
    players: int = 3, options: SpqrOptions | None = None, seed: bytes = b"spqr-rules"
) -> SpqrGame:
    game = SPQR.new_game([f"P{i}" for i in range(players)], options, seed=seed)
    assert isinstance(game, SpqrGame)
    return game


def arrange(
    game: SpqrGame,
    owners: Mapping[str, int],
    armies: Mapping[str, int] | None = None,
    *,
    others: int = NEUTRAL,
    triremes: Mapping[str, Mapping[int, int]] | None = None,
    power_centres: Iterable[str] = (),
    current: int = 0,
    phase: Phase = Phase.REINFORCE,
    round: int = 5,
    pending: int = 0,
    hands: Mapping[int, Sequence[str]] | None = None,
) -> SpqrGame:
    """Turn `game` into a position past the occupation: provinces named in `owners` go to those
    owners (a seat, or NEUTRAL), every other province to `others`, each with `armies` (default
    1); `triremes` by sea, then seat; no power centre but `power_centres`. The turn order starts
    at seat 0; `current` plays in `phase` (default: the start of its turn, nothing pending) of
    `round`. The deck is every card no hand holds."""
    armies = armies or {}
    players = len(game.players)
    for province in PROVINCES:
        index = BOARD.index[province]
        game.owner[index] = owners.get(province, others)
        game.armies[index] = armies.get(province, 1)
    game.triremes = [[0] * players for _ in BOARD.territories]
    for sea, fleet in (triremes or {}).items():
        for seat, count in fleet.items():
            game.triremes[BOARD.index[sea]][seat] = count
    game.power_centre = [0] * len(BOARD.territories)
    for province in power_centres:
        game.power_centre[BOARD.index[province]] = 1
    game.territory_count = [game.owner.count(seat) for seat in range(players)]
    game.eliminated = [count == 0 for count in game.territory_count]
    game.setup_remaining = [0] * players
    game.neutral_groups = [0] * game.neutral_count
    game.setup_claimed = game.setup_neutral_placed = False
    game.first_player = 0
    game.current = current
    game.phase = phase
    game.round = round
    game.pending_reinforcements = pending
    game.pending_triremes = game.pending_power_centres = 0
    game.trireme_disbanded = game.fleet_moved = False
    game.naval_seas, game.naval_battle = [], None
    game.sea_attacked, game.conquered_by_sea = [], []
    game.pending_conquest = None
    game.prompt_stack = []
    game.conquered_this_turn = False
    game.victory_points = [0] * players
    game.hands = [list((hands or {}).get(seat, [])) for seat in range(players)]
    held = {card for hand in game.hands for card in hand}
    game.deck = [card for card in RULESET.cards.cards if card not in held]
    game.discard = []
    return game


def position(
    owners: Mapping[str, int],
    armies: Mapping[str, int] | None = None,
    *,
    players: int = 3,
    options: SpqrOptions | None = None,
    others: int = NEUTRAL,
    triremes: Mapping[str, Mapping[int, int]] | None = None,
    power_centres: Iterable[str] = (),
    current: int = 0,
    phase: Phase = Phase.REINFORCE,
    round: int = 5,
    pending: int = 0,
    hands: Mapping[int, Sequence[str]] | None = None,
) -> SpqrGame:
    """A fresh game of `players`, arranged (see `arrange`)."""
    return arrange(
        new_spqr_game(players, options),
        owners,
        armies,
        others=others,
        triremes=triremes,
        power_centres=power_centres,
        current=current,
        phase=phase,
        round=round,
        pending=pending,
        hands=hands,
    )


def play_occupation(game: SpqrGame) -> list[e.Event]:
    """Play the initial occupation: each turn claims the first free province in board order,
    then puts a group of the first neutral colour with groups left on the next one."""
    events: list[e.Event] = []
    while game.phase is Phase.SETUP:
        seat = game.current
        if not game.setup_claimed and game.setup_remaining[seat] > 0:
            events += game.apply(seat, sa.ClaimProvince(free_provinces(game)[0]))
            continue
        colour = next(c for i, c in enumerate(game.neutral_colours) if game.neutral_groups[i])
        events += game.apply(seat, sa.PlaceNeutral(free_provinces(game)[0], colour))
    return events


def free_provinces(game: SpqrGame) -> list[str]:
    return [p for p in PROVINCES if game.owner[BOARD.index[p]] == FREE]


def armies_on(game: SpqrGame, province: str) -> int:
    return game.armies[BOARD.index[province]]


def owner_of(game: SpqrGame, province: str) -> int:
    return game.owner[BOARD.index[province]]


def fleet(game: SpqrGame, sea: str) -> list[int]:
    """The triremes on `sea`, by seat."""
    return list(game.triremes[BOARD.index[sea]])


def cards(symbol: str, count: int, first: int = 1) -> list[str]:
    """`count` card ids of `symbol` (ids are symbol_01, symbol_02, …)."""
    return [f"{symbol}_{number:02d}" for number in range(first, first + count)]


def events_of(events: Sequence[e.Event], kind: type[EventT]) -> list[EventT]:
    return [event for event in events if isinstance(event, kind)]


def the(events: Sequence[e.Event], kind: type[EventT]) -> EventT:
    """The one event of `kind` among `events`."""
    found = events_of(events, kind)
    assert len(found) == 1, (kind.__name__, events)
    return found[0]


def families(game: SpqrGame, kind: type[FamilyT]) -> list[FamilyT]:
    """The legal families of `kind` offered to the seat to act."""
    return [f for f in game.legal_actions(game.seat_to_act) if isinstance(f, kind)]
