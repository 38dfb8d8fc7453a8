"""The example bot's RisiKo! Più play (bots/policies.py's aggressive policy registers it for
PiuGame): an odds bot that plays its cards. It guards its fortress, plays every Rinforzi, spies
on the fullest hand, brings its hidden armies out as soon as it may, and attacks where the
exact odds (domain.odds, with the Generale's and the Maresciallo's +1) favour it, enemy
fortresses first, by sea when the flagship reaches one. When defenders declare their dice it
attacks one roll at a time, and in defence declares the most it may (the prompt's default)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from functools import lru_cache

from bots.policies import _action, register_aggressive
from domain import actions as a
from domain.flow import Phase
from domain.kernel import Kernel
from domain.odds import battle_odds
from domain.risiko.attack import MAX_DICE
from domain.risiko.defence import DefenderDice
from variants.piu import actions as pa
from variants.piu.base import PLACE_STEP
from variants.piu.game import FORTRESS_STEP, HIDDEN_STEP, PiuGame
from variants.piu.legal import (
    LegalAdmiralAttack,
    LegalChooseFortress,
    LegalClaimTerritory,
    LegalPlayDiplomat,
    LegalPlayGeneral,
    LegalPlaySpy,
    LegalWriteHiddenTerritory,
)
from variants.piu.phases import PiuPhase
from variants.piu.ruleset import (
    AMMIRAGLIO,
    DIPLOMATICO,
    GENERALE,
    MARESCIALLO,
    RINFORZI,
    SPIA,
)

WORTH = {AMMIRAGLIO: 6, GENERALE: 5, RINFORZI: 4, MARESCIALLO: 3, SPIA: 2, DIPLOMATICO: 1}
ODDS_CAP = 40  # armies beyond this barely change the odds a bot needs
GOOD_ODDS = 0.6
FORTRESS_GUARD = 6  # armies a fortress keeps even when no enemy is near


def conquest_odds(attackers: int, defenders: int, general: int, marshal: int) -> float:
    """The chance that `attackers` able to attack take a territory of `defenders`: exact up to
    ODDS_CAP armies a side; above, both sides scaled down alike (the odds of large armies
    depend on their ratio), so that a few hundred cached chains serve every battle."""
    if not general and not marshal:  # the bots' question, asked thousands of times a game
        known = _PLAIN_ODDS.get((attackers, defenders))
        if known is None:
            known = _PLAIN_ODDS[attackers, defenders] = _scaled_odds(attackers, defenders, 0, 0)
        return known
    return _scaled_odds(attackers, defenders, general, marshal)


# conquest_odds without cards, by (attackers, defenders): bounded by the armies on a board.
_PLAIN_ODDS: dict[tuple[int, int], float] = {}


def _scaled_odds(attackers: int, defenders: int, general: int, marshal: int) -> float:
    if attackers < 1:
        return 0.0
    if defenders < 1:
        return 1.0
    largest = max(attackers, defenders)
    if largest > ODDS_CAP:
        attackers = max(1, round(attackers * ODDS_CAP / largest))
        defenders = max(1, round(defenders * ODDS_CAP / largest))
    return _conquest_odds(attackers, defenders, general, marshal)


@lru_cache(maxsize=8192)
def _conquest_odds(attackers: int, defenders: int, general: int, marshal: int) -> float:
    odds = battle_odds(attackers, defenders, attacker_bonus=general, defender_bonus=marshal)
    return odds.conquest_probability


def aggressive(game: PiuGame, seat: int, rnd: random.Random) -> Iterable[a.Action]:
    prompts = game.prompts()
    if prompts:  # the defender's dice: the most it may roll
        return [prompts[0].default]
    if game.phase is Phase.SETUP:
        return [_setup(game, seat, rnd)]
    if game.phase is Phase.OCCUPY:
        assert game.pending_conquest is not None
        return [_action(a.Occupy, game.pending_conquest[3])]
    return _turn(game, seat, rnd)


def _setup(game: PiuGame, seat: int, rnd: random.Random) -> a.Action:
    board = game.board
    owner = game.owner
    if game.setup_step == PLACE_STEP:  # no family to choose from: the armies go on guard
        return _action(
            a.PlaceArmies, board.territories[_guard(game, seat, rnd)].id, game.setup_quota
        )
    family = game.legal_actions(seat)[0]

    def exposure(territory_id: str) -> tuple[int, float]:
        t = board.index[territory_id]
        around = board.land_neighbours[t]
        foreign = len(around) - [owner[n] for n in around].count(seat)
        coastal = 1 if game.ruleset.waters[t] else 0
        return foreign + coastal, rnd.random()

    def friends(territory_id: str) -> tuple[int, float]:
        t = board.index[territory_id]
        return [owner[n] for n in board.land_neighbours[t]].count(seat), rnd.random()

    if isinstance(family, LegalChooseFortress):  # the least exposed territory of the empire
        return pa.ChooseFortress(min(family.territories, key=exposure))
    if isinstance(family, LegalClaimTerritory):
        return pa.ClaimTerritory(max(family.territories, key=friends))
    if isinstance(family, LegalWriteHiddenTerritory):  # a territory of its own empire
        empire = {board.territories[t].id for t in board.region_members[game.empire[seat]]}
        mine = [t for t in family.territories if t in empire] or list(family.territories)
        return pa.WriteHiddenTerritory(rnd.choice(mine))
    assert game.setup_step not in (FORTRESS_STEP, HIDDEN_STEP)
    return _action(a.PlaceArmies, board.territories[_guard(game, seat, rnd)].id, game.setup_quota)


def _threat(game: PiuGame, seat: int, territory: int) -> int:
    """Enemy armies next to `territory` (by land)."""
    owner = game.owner
    return sum(
        game.armies[n] - 1
        for n in game.board.land_neighbours[territory]
        if owner[n] != seat and owner[n] >= 0
    )


def _guard(game: PiuGame, seat: int, rnd: random.Random) -> int:
    """Where armies go: the fortress while it is threatened, else the strongest border."""
    fortress = game.fortress[seat]
    guarded = max(FORTRESS_GUARD, _threat(game, seat, fortress) + 2)
    if fortress >= 0 and game.owner[fortress] == seat and game.armies[fortress] < guarded:
        return fortress
    owner = game.owner
    own = [t for t, o in enumerate(owner) if o == seat]
    border = [t for t in own if any(owner[n] != seat for n in game.board.land_neighbours[t])]
    if not border:
        return rnd.choice(own)
    return max(border, key=lambda t: (game.armies[t], rnd.random()))


def _front(game: PiuGame, seat: int, rnd: random.Random) -> int:
    """Where the reinforcements go in a turn: the fortress while it is threatened, else the
    territory from which they give the best odds against a neighbour (a fortress first)."""
    guarded = _guard(game, seat, rnd)
    if guarded == game.fortress[seat]:
        return guarded
    owner = game.owner
    armies = game.armies
    placed = game.pending_reinforcements
    best: tuple[float, float, float] | None = None
    chosen = guarded
    for source in (t for t, o in enumerate(owner) if o == seat):
        for target in game.board.land_neighbours[source]:
            if owner[target] == seat or not game.may_target(seat, target):
                continue
            odds = conquest_odds(armies[source] + placed - 1, armies[target], 0, 0)
            score = (odds + (1.0 if game.is_fortress(target) else 0.0), odds, rnd.random())
            if best is None or score > best:
                best, chosen = score, source
    return chosen


def _turn(game: PiuGame, seat: int, rnd: random.Random) -> Iterator[a.Action]:
    ids = game.board.territories
    if game.spied >= 0:  # the Spia saw a hand: take its best card away
        yield pa.DiscardSpiedCard(max(game.hands[game.spied], key=_worth))
    if game.hidden_armies_now(seat):
        yield pa.RevealHiddenArmies()
    while game.pending_reinforcements and game.phase is Phase.REINFORCE:
        yield _action(a.PlaceArmies, ids[_front(game, seat, rnd)].id, game.pending_reinforcements)
    if game.phase is PiuPhase.CARDS:
        yield from _cards(game, seat, rnd)
    yield from _sea_attack(game, seat)
    yield from _land_attacks(game, seat)


def _worth(card: str) -> int:
    return WORTH[card.rsplit("_", 1)[0]]


def _holds(game: PiuGame, seat: int, kind: str) -> bool:
    """Whether the seat holds a card of `kind`: without one, no family of that card is
    legal, and the bot need not list the families to know it (listing them is the costly
    part of a bot's turn)."""
    prefix = f"{kind}_"
    return any(card.startswith(prefix) for card in game.hands[seat])


def _cards(game: PiuGame, seat: int, rnd: random.Random) -> Iterator[a.Action]:
    ids = game.board.territories
    hand = game.hands[seat]
    for card in [c for c in hand if c.startswith(RINFORZI)]:
        yield pa.PlayRinforzi(card)
        yield _action(a.PlaceArmies, ids[_front(game, seat, rnd)].id, game.pending_reinforcements)
    listed = game.legal_actions(seat) if _holds(game, seat, SPIA) else []
    for family in listed:
        if isinstance(family, LegalPlaySpy):
            fullest = max(family.players, key=lambda p: (len(game.hands[p]), rnd.random()))
            if game.hands[fullest]:
                listed = []  # the game changes: listed again below
                yield pa.PlaySpy(family.cards[0], fullest)
                if game.spied >= 0:
                    yield pa.DiscardSpiedCard(max(game.hands[game.spied], key=_worth))
            break
    # A Diplomatico is worth most against the strongest neighbour of the fortress; with a
    # full hand one is played anyway (on the weakest opponent), so that new cards come.
    fortress = game.fortress[seat]
    if fortress < 0 or not _holds(game, seat, DIPLOMATICO):
        return
    for family in listed or game.legal_actions(seat):
        if isinstance(family, LegalPlayDiplomat):
            near = [
                game.owner[n]
                for n in game.board.land_neighbours[fortress]
                if game.owner[n] in family.players
            ]
            if near:
                yield pa.PlayDiplomat(family.cards[0], max(near, key=near.count))
            elif len(hand) >= game.ruleset.hand_size and len(family.players) > 1:
                weakest = min(family.players, key=lambda p: (game.armies_of(p), p))
                yield pa.PlayDiplomat(family.cards[0], weakest)
            break


def _general_for(game: PiuGame, seat: int, source: int, target: int) -> Iterator[a.Action]:
    """A Generale on an attack it may turn: a fortress, or odds between a third and 0.8."""
    if not _holds(game, seat, GENERALE):
        return
    odds = conquest_odds(game.armies[source] - 1, game.armies[target], 0, 0)
    if not (game.is_fortress(target) or 0.3 <= odds <= 0.8):
        return  # not worth a card: no need to list the families to know whether it may
    for family in game.legal_actions(seat):
        if not isinstance(family, LegalPlayGeneral):
            continue
        pair = (game.board.territories[source].id, game.board.territories[target].id)
        if pair in zip(family.sources, family.targets, strict=True):
            yield pa.PlayGeneral(family.cards[0], *pair)
        return


def _sea_attack(game: PiuGame, seat: int) -> Iterator[a.Action]:
    """The flagship against the best target it reaches: an enemy fortress first."""
    if game.phase not in (PiuPhase.CARDS, Phase.ATTACK) or game.pending_reinforcements:
        return
    if game.admiral_used or not _holds(game, seat, AMMIRAGLIO):
        return
    index = game.board.index
    best: tuple[float, str, str, int, str] | None = None
    for family in game.legal_actions(seat):
        if not isinstance(family, LegalAdmiralAttack):
            continue
        for target_id in family.targets:
            target = index[target_id]
            odds = conquest_odds(family.max_armies, game.armies[target], 0, 0)
            value = odds + (1.0 if game.is_fortress(target) else 0.0)
            if odds >= GOOD_ODDS and (best is None or value > best[0]):
                best = (value, family.source, target_id, family.max_armies, family.cards[0])
    if best is None:
        return
    _, source_id, target_id, armies, card = best
    yield from _general_for(game, seat, index[source_id], index[target_id])
    yield pa.AdmiralAttack(card, source_id, target_id, armies, 0)


def _land_attacks(game: PiuGame, seat: int) -> Iterator[a.Action]:
    """Attacks with good odds, enemy fortresses first, each decided on the board as it is."""
    ids = game.board.territories
    owner = game.owner
    armies = game.armies
    neighbours = game.board.land_neighbours
    declare = game.options.defender_dice is DefenderDice.DECLARE
    known = _PLAIN_ODDS
    while True:
        if game.phase is Phase.OCCUPY:
            assert game.pending_conquest is not None
            yield _action(a.Occupy, game.pending_conquest[3])
        choice: tuple[float, int, int] | None = None
        for source in range(len(owner)):
            if owner[source] != seat or armies[source] < 2:
                continue
            attackers = armies[source] - 1
            for target in neighbours[source]:
                if owner[target] == seat:
                    continue
                odds = known.get((attackers, armies[target]))  # conquest_odds, inlined: hot
                if odds is None:
                    odds = conquest_odds(attackers, armies[target], 0, 0)
                if odds < GOOD_ODDS or not game.may_attack(source, target):
                    continue
                value = odds + (1.0 if game.is_fortress(target) else 0.0)
                if choice is None or value > choice[0]:
                    choice = (value, source, target)
        if choice is None:
            break
        _, source, target = choice
        yield from _general_for(game, seat, source, target)
        if declare:  # one roll at a time, the defender answering each
            most = game.options.fortress_attack_dice if game.is_fortress(target) else MAX_DICE
            yield _action(a.Attack, ids[source].id, ids[target].id, min(most, armies[source] - 1))
        else:
            yield _action(a.AttackUntil, ids[source].id, ids[target].id, 3, 1)
    yield a.EndTurn()


def _registered(game: Kernel, seat: int, rnd: random.Random) -> Iterable[a.Action]:
    assert isinstance(game, PiuGame)
    return aggressive(game, seat, rnd)


register_aggressive(PiuGame, _registered)
__all__ = ["aggressive", "conquest_odds"]
