"""Policies that choose an action for the seat to act. They read the game, never change it."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from domain import actions as a
from domain.game import Game, Phase

Policy = Callable[[Game, int, random.Random], list[a.Action]]


def random_policy(game: Game, seat: int, rnd: random.Random) -> list[a.Action]:
    """One action drawn uniformly from a uniformly chosen family of legal actions."""
    legal = game.legal_actions(seat)
    return [rnd.choice(legal).pick(rnd)]


def aggressive_policy(game: Game, seat: int, rnd: random.Random) -> list[a.Action]:
    """pyrisk's StupidAI in RisiKo! rules: reinforce border territories at random, trade the
    best card set, attack every enemy neighbour it outnumbers until conquest, move everything
    it can into conquests, never make a strategic move. Returns a batch of actions; the caller
    stops at the first one that the state no longer allows and asks again."""
    board = game.board
    ids = board.territories
    owner = game.owner
    neighbours = board.neighbours
    phase = game.phase
    if phase is Phase.DEFEND:
        assert game.pending_attack is not None
        return [a.Defend(min(3, game.armies[game.pending_attack[1]]))]
    if phase is Phase.OCCUPY:
        assert game.pending_conquest is not None
        return [a.Occupy(game.pending_conquest[3])]
    if phase is Phase.SETUP or (phase is Phase.REINFORCE and game.pending_reinforcements):
        if phase is Phase.REINFORCE:
            hand = game.hands[seat]
            if len(hand) >= 3:
                cards = game.ruleset.cards
                sets = cards.tradeable_sets(hand)
                if sets:
                    owned = frozenset(ids[t].id for t, o in enumerate(owner) if o == seat)
                    best = max(sets, key=lambda triple: sum(cards.value(triple, owned)))
                    return [a.TradeCards(best)]
            count = game.pending_reinforcements
        else:
            count = game.setup_quota
        own = [t for t, o in enumerate(owner) if o == seat]
        border = [t for t in own if any(owner[n] != seat for n in neighbours[t])] or own
        chosen = Counter(rnd.choice(border) for _ in range(count))
        return [a.PlaceArmies(ids[t].id, n) for t, n in chosen.items()]
    armies = game.armies
    for source in [t for t, o in enumerate(owner) if o == seat and armies[t] >= 2]:
        for target in neighbours[source]:
            if (
                owner[target] != seat
                and armies[source] > armies[target]
                and game.may_attack(source, target)
            ):
                return [a.AttackUntil(ids[source].id, ids[target].id, 3, 1)]
    return [a.EndTurn()]


POLICIES: dict[str, Policy] = {"random": random_policy, "aggressive": aggressive_policy}
