"""The aggressive bot's FutuRisiKo! play (bots/policies.py's aggressive policy, registered for
FutuGame): flags where free land is near, every card that helps played at once, tanks and some
aircraft on the front, free territories taken one tank each, enemy territories attacked where
it outnumbers them, every submarine firing, every battle fought. It chooses among the legal
families only, one action at a time, on the board as it is. The server's odds bot plays a
FutuRisiKo! seat as this one does (`seated`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TypeVar

from bots.policies import register_aggressive
from bots.seated import register_seated
from domain import actions as a
from domain.flow import Phase
from domain.kernel import Kernel
from domain.legal import LegalAction
from variants.futurisiko import actions as fa
from variants.futurisiko.game import FREE, FutuGame
from variants.futurisiko.legal import (
    LegalBattle,
    LegalBattleCards,
    LegalMoveUnits,
    LegalPlaceFlag,
    LegalPlayCard,
    LegalProduce,
    LegalTorpedo,
)
from variants.futurisiko.phases import CARDS, PRODUCTION
from variants.futurisiko.ruleset import (
    AIRCRAFT,
    MISSILI_BALISTICI,
    SCUDO_SPAZIALE,
    SUPER_PRODUZIONE,
    TANK,
)

F = TypeVar("F", bound=LegalAction)
AIRCRAFT_SHARE = 0.3  # of the production points, spent on aircraft (they fire first)


def aggressive(game: Kernel, seat: int, rnd: random.Random) -> Iterable[a.Action]:
    assert isinstance(game, FutuGame)
    families = game.legal_actions(seat)
    if game.prompt_stack:  # a battle asks for the defender's cards: play what helps
        answer = families[0]
        assert isinstance(answer, LegalBattleCards)
        return [fa.BattleCards(answer.cards)]
    if game.phase is Phase.SETUP:
        return [_place_flag(game, _only(families, LegalPlaceFlag), rnd)]
    if game.phase is CARDS:
        return [fa.ReceiveCards("")]
    if game.phase is PRODUCTION:
        return [_production(game, seat, families, rnd)]
    return [_operations(game, seat, families)]


def _only(families: list[LegalAction], kind: type[F]) -> F:
    return next(family for family in families if isinstance(family, kind))


def _place_flag(game: FutuGame, family: LegalPlaceFlag, rnd: random.Random) -> a.Action:
    """Where the most free land lies next door, to spread from."""
    board = game.board

    def free_neighbours(territory: str) -> tuple[int, float]:
        around = board.land_neighbours[board.index[territory]]
        return sum(game.forces.owner[n] == FREE for n in around), rnd.random()

    return fa.PlaceFlag(max(family.territories, key=free_neighbours))


def _production(
    game: FutuGame, seat: int, families: list[LegalAction], rnd: random.Random
) -> a.Action:
    for family in families:
        if isinstance(family, LegalPlayCard):
            card_type = family.card
            if card_type in (SUPER_PRODUZIONE, SCUDO_SPAZIALE):
                return family.ready()
            if card_type == MISSILI_BALISTICI:  # at the target with the most units
                return fa.PlayCard(family.card, max(family.targets, key=_units(game, seat)))
    produce = {f.unit: f for f in families if isinstance(f, LegalProduce)}
    if AIRCRAFT in produce and rnd.random() < AIRCRAFT_SHARE:
        return _build(produce[AIRCRAFT], _front(game, seat), 1, rnd)
    if TANK in produce:
        return _build(produce[TANK], _front(game, seat), produce[TANK].max_count, rnd)
    return a.EndTurn()


def _units(game: FutuGame, seat: int) -> Callable[[str], int]:
    """The enemy's tanks and aircraft on a territory."""

    def units(territory: str) -> int:
        space = game.board.index[territory]
        enemy = game.enemy_at(space, seat)
        return game.fighters(space, enemy) if enemy is not None else 0

    return units


def _build(family: LegalProduce, front: set[str], count: int, rnd: random.Random) -> a.Action:
    spaces = [space for space in family.spaces if space in front] or list(family.spaces)
    return fa.Produce(rnd.choice(spaces), family.unit, count)


def _front(game: FutuGame, seat: int) -> set[str]:
    """Own territories next to land that is not its own."""
    ids = game.board.territories
    owner = game.forces.owner
    return {
        ids[space].id
        for space, holder in enumerate(owner)
        if holder == seat and _on_front(game, seat, space)
    }


def _on_front(game: FutuGame, seat: int, space: int) -> bool:
    """Whether `space` is the seat's own and next to land that is not its own."""
    owner = game.forces.owner
    if owner[space] != seat:
        return False
    return any(owner[n] != seat for n in game.board.land_neighbours[space])


def _operations(game: FutuGame, seat: int, families: list[LegalAction]) -> a.Action:
    moves = [f for f in families if isinstance(f, LegalMoveUnits) and f.unit in (TANK, AIRCRAFT)]
    for move_family in moves:
        move = _move(game, seat, move_family)
        if move is not None:
            return move
    for family in families:
        if isinstance(family, LegalTorpedo):
            return family.ready()
        if isinstance(family, LegalBattle):
            return fa.Battle(family.territory, family.cards)
    return a.EndTurn()


def _move(game: FutuGame, seat: int, family: LegalMoveUnits) -> a.Action | None:
    """Tanks: one to each free, empty territory next door, then all the others at the weakest
    enemy next door when they are as many (a flag counts as two units; with the box's tanks all
    on the board, at any enemy), else from behind to the front. Aircraft: where its own
    units already fight."""
    strength = _strengths(game, seat, family)
    if family.unit == AIRCRAFT:
        return _aircraft_move(game, seat, family, strength)
    return _tank_move(game, seat, family, strength)


def _strengths(game: FutuGame, seat: int, family: LegalMoveUnits) -> dict[str, int | None]:
    """Each target's defence: the enemy's units there (a flag counting two), -1 for a free
    territory, None for one of its own."""
    board = game.board
    owner = game.forces.owner
    strength: dict[str, int | None] = {}
    for target in family.targets:
        space = board.index[target]
        enemy = game.enemy_at(space, seat)
        if enemy is None:
            strength[target] = -1 if owner[space] == FREE else None
            continue
        flag = 2 if owner[space] == enemy else 0
        strength[target] = game.fighters(space, enemy) + flag
    return strength


def _aircraft_move(
    game: FutuGame, seat: int, family: LegalMoveUnits, strength: dict[str, int | None]
) -> a.Action | None:
    """Every aircraft to the first enemy territory where its own units already fight."""
    fights = [t for t, s in strength.items() if s is not None and s >= 0]
    fights = [t for t in fights if game.fighters(game.board.index[t], seat)]
    if fights:
        return fa.MoveUnits(family.source, fights[0], AIRCRAFT, family.max_count)
    return None


def _tank_move(
    game: FutuGame, seat: int, family: LegalMoveUnits, strength: dict[str, int | None]
) -> a.Action | None:
    """One tank to a free, empty territory; else all of them at the weakest enemy they
    match (any, once the box's tanks are all out); else towards the front."""
    board = game.board
    forces = game.forces
    source = board.index[family.source]
    here = forces.count(source, seat, TANK) + forces.count(source, seat, AIRCRAFT)
    weakest = min(((s, t) for t, s in strength.items() if s is not None and s >= 0), default=None)
    free = [t for t, s in strength.items() if s == -1 and not game.fighters(board.index[t], seat)]
    if free and (here > 1 or forces.owner[source] != seat):
        return fa.MoveUnits(family.source, free[0], TANK, 1)
    if weakest is not None and (
        family.max_count >= weakest[0]
        or forces.units_of(seat, TANK) >= game.ruleset.supply[TANK] - 2  # all out
    ):
        return fa.MoveUnits(family.source, weakest[1], TANK, family.max_count)
    return _to_front(game, seat, family)


def _to_front(game: FutuGame, seat: int, family: LegalMoveUnits) -> a.Action | None:
    """Every tank from an own territory behind the front to the first front territory next
    door."""
    index = game.board.index
    source = index[family.source]
    if game.forces.owner[source] == seat and not _on_front(game, seat, source):
        ahead = [t for t in family.targets if _on_front(game, seat, index[t])]
        if ahead:
            return fa.MoveUnits(family.source, ahead[0], TANK, family.max_count)
    return None


def seated(game: Kernel, seat: int, rnd: random.Random) -> a.Action:
    """The server's odds bot at a FutuRisiKo! table plays as this one: a SeatView (owners and
    armies) cannot describe tanks, aircraft and submarines. What it reads is public (the
    units, the flags, the phase) or the seat's own (its legal actions, its cards among them)."""
    return next(iter(aggressive(game, seat, rnd)))


register_aggressive(FutuGame, aggressive)
register_seated(FutuGame, seated)
