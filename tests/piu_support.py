"""Hand-made RisiKo! Più positions for the rule tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from domain import events as e
from domain.flow import Phase
from domain.legal import LegalAction
from tests.support import arrange
from variants.piu import PIU
from variants.piu.game import PiuGame
from variants.piu.options import PiuOptions
from variants.piu.phases import PiuPhase
from variants.piu.ruleset import PiuRuleset


def _ruleset() -> PiuRuleset:
    ruleset = PIU.ruleset
    assert isinstance(ruleset, PiuRuleset)
    return ruleset


RULESET = _ruleset()
BOARD = RULESET.board
LANDS = tuple(t.id for t in BOARD.lands)
# The empires and fortresses of a hand-made position, by seat.
EMPIRES = ("britannico", "francese", "germanico", "russo", "ottomano", "austro_ungarico")
FORTRESSES = ("londra", "parigi", "berlino", "mosca", "turchia", "vienna")

EventT = TypeVar("EventT", bound=e.Event)
FamilyT = TypeVar("FamilyT", bound=LegalAction)


def new_piu_game(players: int = 4, seed: bytes = b"piu", **options: Any) -> PiuGame:
    names = [f"P{n}" for n in range(players)]
    game = PIU.new_game(names, PiuOptions(**options), seed=seed)
    assert isinstance(game, PiuGame)
    return game


def position(
    owners: Mapping[str, int],
    armies: Mapping[str, int] | None = None,
    *,
    players: int = 4,
    others: int | None = None,
    current: int = 0,
    phase: Phase = PiuPhase.CARDS,
    hands: Mapping[int, list[str]] | None = None,
    pending: int = 0,
    round: int = 3,
    **options: Any,
) -> PiuGame:
    """A game under way: every land territory named in `owners` goes to that seat, the others
    to `others` (default the last seat), each with `armies` (default 1); seat n drew EMPIRES[n]
    and keeps its fortress on FORTRESSES[n] (which it need not hold: give it in `owners`)."""
    game = new_piu_game(players, b"piu", **options)
    arrange(
        game,
        owners,
        armies,
        others=others,
        current=current,
        phase=phase,
        round=round,
        pending=pending,
        hands=hands,
    )
    for sea in BOARD.seas:
        game.owner[sea.index] = -1
        game.armies[sea.index] = 0
    game.territory_count = [game.owner.count(seat) for seat in range(players)]
    game.eliminated = [False] * players
    regions = [r.id for r in BOARD.regions]
    game.empire = [regions.index(EMPIRES[seat]) for seat in range(players)]
    game.fortress = [BOARD.index[FORTRESSES[seat]] for seat in range(players)]
    game.hidden = [-1] * players
    game.setup_step = ""
    return game


def region_owned_by(seat: int, *regions: str) -> dict[str, int]:
    """`owners` for every territory of `regions`."""
    return {t: seat for r in regions for t in BOARD.region(r).territories}


def cards(kind: str, count: int, first: int = 1) -> list[str]:
    return [f"{kind}_{n:02d}" for n in range(first, first + count)]


def events_of(events: Sequence[e.Event], kind: type[EventT]) -> list[EventT]:
    return [event for event in events if isinstance(event, kind)]


def the(events: Sequence[e.Event], kind: type[EventT]) -> EventT:
    found = events_of(events, kind)
    assert len(found) == 1, (kind.__name__, events)
    return found[0]


def families(game: PiuGame, kind: type[FamilyT], seat: int | None = None) -> list[FamilyT]:
    asked = game.current if seat is None else seat
    return [f for f in game.legal_actions(asked) if isinstance(f, kind)]


def armies_on(game: PiuGame, territory: str) -> int:
    return game.armies[BOARD.index[territory]]


def owner_of(game: PiuGame, territory: str) -> int:
    return game.owner[BOARD.index[territory]]
