"""The example bot's S.P.Q.RisiKo! play (bots/policies.py's aggressive policy registers it for
SpqrGame): the occupation, the steps of a turn at sea, then the classic land attacks."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import TypeVar

from bots.policies import land_attacks, register_aggressive
from domain import actions as a
from domain.flow import Phase
from domain.kernel import Kernel
from domain.legal import LegalAction
from variants.spqr import actions as sa
from variants.spqr.game import STEP, SpqrGame
from variants.spqr.legal import (
    LegalClaimProvince,
    LegalNavalBattle,
    LegalPlaceNeutral,
    LegalPlacePowerCentre,
    LegalPlaceTrireme,
    LegalSeaAttack,
)
from variants.spqr.phases import SpqrPhase

Family = TypeVar("Family", bound=LegalAction)


def aggressive(game: SpqrGame, seat: int, rnd: random.Random) -> Iterable[a.Action]:
    """The same bot in S.P.Q.RisiKo!: claim provinces next to its own, neutrals away from
    them; trade the set worth the most legionaries, place what it gives, reinforce borders;
    build a trireme where one more gives the naval superiority a sea attack needs; move and
    fight at sea only when clearly superior; sea-attack, then land-attack, whatever it
    outnumbers. Every decision is made on the board as it is at that moment, and each step
    checks that the turn has not gone past it, so a fresh call resumes the turn anywhere."""
    if game.phase is Phase.SETUP:
        return _spqr_occupation(game, seat, rnd)
    if game.phase is Phase.OCCUPY:
        assert game.pending_conquest is not None
        return [a.Occupy(game.pending_conquest[3])]
    return _spqr_turn(game, seat, rnd)


def _spqr_occupation(game: SpqrGame, seat: int, rnd: random.Random) -> list[a.Action]:
    """One action at a time: the province to claim, then the neutral group to place."""
    board = game.board
    owner = game.owner

    def own_neighbours(province: str) -> tuple[int, float]:
        mine = sum(owner[n] == seat for n in board.land_neighbours[board.index[province]])
        return mine, rnd.random()  # ties broken at random

    for family in game.legal_actions(seat):
        if isinstance(family, LegalClaimProvince):
            return [sa.ClaimProvince(max(family.provinces, key=own_neighbours))]
        if isinstance(family, LegalPlaceNeutral):
            return [sa.PlaceNeutral(min(family.provinces, key=own_neighbours), family.colours[0])]
    raise AssertionError("the occupation offers nothing to do")


def _spqr_turn(game: SpqrGame, seat: int, rnd: random.Random) -> Iterator[a.Action]:
    """A turn in the order of its steps: cards and reinforcements, the navy, sea attacks,
    land attacks, the end of the turn."""
    yield from _spqr_reinforce(game, seat, rnd)
    yield from _spqr_navy(game, seat)
    yield from _spqr_sea_attacks(game, seat)
    yield from land_attacks(game, seat)  # the classic land attacks, then the end of the turn


def _until(game: SpqrGame, step: Phase) -> bool:
    """Whether the turn has not gone past `step` (the steps come in a fixed order)."""
    return game.phase in STEP and STEP[game.phase] <= STEP[step]


def _families(game: SpqrGame, seat: int, kind: type[Family]) -> list[Family]:
    """The legal families of one kind: what the rules allow now, for the rarer decisions."""
    return [family for family in game.legal_actions(seat) if isinstance(family, kind)]


def _spare(game: SpqrGame, province: int) -> int:
    """The legionaries that may leave `province`: 2 stay if it borders an enemy, else 1."""
    land = game.board.land_neighbours[province]
    exposed = any(game.owner[n] != game.owner[province] for n in land)
    return game.armies[province] - (2 if exposed else 1)


def _spqr_reinforce(game: SpqrGame, seat: int, rnd: random.Random) -> Iterator[a.Action]:
    ruleset = game.ruleset
    index = game.board.index
    ids = game.board.territories
    owner = game.owner
    while game.phase is Phase.REINFORCE and ruleset.tradeable_sets(game.hands[seat]):
        sets = ruleset.tradeable_sets(game.hands[seat])
        yield a.TradeCards(max(sets, key=lambda cards: ruleset.set_value(cards).legionaries))
    # What a set gave is placed at once (it is lost at the end of the turn): a power centre
    # on the strongest site, a trireme where the fleet is already the largest.
    while game.pending_power_centres and _until(game, SpqrPhase.NAVAL_REINFORCE):
        sites = _families(game, seat, LegalPlacePowerCentre)
        if not sites:
            break
        yield sa.PlacePowerCentre(max(sites[0].provinces, key=lambda p: game.armies[index[p]]))
    while game.pending_triremes and _until(game, SpqrPhase.NAVAL_REINFORCE):
        seas = _families(game, seat, LegalPlaceTrireme)
        if not seas:
            break
        yield sa.PlaceTrireme(max(seas[0].seas, key=lambda s: game.triremes[index[s]][seat]))
    if game.pending_reinforcements:  # on border provinces, one legionary at a time at random
        own = [p for p, o in enumerate(owner) if o == seat]
        land = game.board.land_neighbours
        border = [p for p in own if any(owner[n] != seat for n in land[p])] or own
        chosen: dict[int, int] = {}
        for province in rnd.choices(border, k=game.pending_reinforcements):
            chosen[province] = chosen.get(province, 0) + 1
        for province, count in chosen.items():
            yield a.PlaceArmies(ids[province].id, count)


def _spqr_navy(game: SpqrGame, seat: int) -> Iterator[a.Action]:
    """The turn's steps at sea: build triremes, move a fleet, fight naval battles."""
    yield from _build_triremes(game, seat)
    yield from _move_fleet(game, seat)
    yield from _naval_battles(game, seat)


def _rivals(game: SpqrGame, seat: int, sea: int) -> int:
    """The largest fleet of another player on `sea`."""
    return max(n for s, n in enumerate(game.triremes[sea]) if s != seat)


def _build_triremes(game: SpqrGame, seat: int) -> Iterator[a.Action]:
    """One trireme more on a sea where it gives superiority over a province's defender, from a
    coastal province that can still outnumber that province after paying for it."""
    if not _until(game, SpqrPhase.NAVAL_REINFORCE) or game.pending_reinforcements:
        return
    board = game.board
    fleet = game.triremes
    owner = game.owner
    cost = game.ruleset.legionaries_per_trireme
    for source in [p for p, o in enumerate(owner) if o == seat]:
        for sea in board.coasts[source]:
            if (game.armies[source] - 1) // cost < 1:
                break
            force = _spare(game, source) - cost
            mine = fleet[sea][seat]
            for target in board.coasts[sea]:
                holder = owner[target]
                theirs = fleet[sea][holder] if holder >= 0 else 0
                if holder != seat and theirs == mine and force > game.armies[target]:
                    yield sa.BuildTrireme(board.territories[source].id, board.territories[sea].id)
                    break


def _move_fleet(game: SpqrGame, seat: int) -> Iterator[a.Action]:
    """Most of a fleet into a neighbouring sea where it is at least twice the largest rival
    fleet, to fight it there."""
    if not _until(game, SpqrPhase.NAVAL_MOVE) or game.fleet_moved:
        return
    fleet = game.triremes
    moves = [
        (sea, other)
        for sea in range(len(fleet))
        if fleet[sea][seat] >= 3
        for other in game.board.sea_neighbours[sea]
        if fleet[sea][seat] - 1 >= 2 * _rivals(game, seat, other) > 0
    ]
    if moves:
        sea, other = moves[0]
        ids = game.board.territories
        yield sa.MoveFleet(ids[sea].id, ids[other].id, fleet[sea][seat] - 1)


def _naval_battles(game: SpqrGame, seat: int) -> Iterator[a.Action]:
    """A combat begins only at twice the enemy fleet, and goes on while still stronger; an
    ongoing combat first."""
    fleet = game.triremes

    def worth_it(battle: LegalNavalBattle) -> bool:
        ships = fleet[game.board.index[battle.sea]]
        mine, theirs = ships[seat], ships[battle.opponent]
        return mine > theirs if battle.ongoing else mine >= 2 * theirs

    while any(fleet[sea][seat] and _rivals(game, seat, sea) for sea in range(len(fleet))):
        battles = [b for b in _families(game, seat, LegalNavalBattle) if worth_it(b)]
        if not battles:
            break
        battle = max(battles, key=lambda b: b.ongoing)
        yield sa.NavalBattle(battle.sea, battle.opponent, battle.max_dice)


def _spqr_sea_attacks(game: SpqrGame, seat: int) -> Iterator[a.Action]:
    """Every sea attack the rules allow (naval superiority) whose force outnumbers the
    defenders, the largest margin first."""
    index = game.board.index
    armies = game.armies
    while any(ships[seat] for ships in game.triremes) and _until(game, SpqrPhase.SEA_ATTACK):
        attacks = [
            attack
            for attack in _families(game, seat, LegalSeaAttack)
            if attack.max_legionaries > armies[index[attack.target]]
        ]
        if not attacks:
            return
        best = max(attacks, key=lambda s: s.max_legionaries - armies[index[s.target]])
        yield sa.SeaAttack(best.source, best.target, best.sea, best.max_legionaries)


def _registered(game: Kernel, seat: int, rnd: random.Random) -> Iterable[a.Action]:
    assert isinstance(game, SpqrGame)
    return aggressive(game, seat, rnd)


register_aggressive(SpqrGame, _registered)
