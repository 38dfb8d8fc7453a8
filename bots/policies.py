"""Policies that choose an action for the seat to act. They read the game, never change it."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar, cast

from domain import actions as a
from domain.flow import Phase
from domain.kernel import Kernel
from domain.risiko.attack import PairwiseAttack
from domain.risiko.cards import SetTrading
from domain.risiko.placement import Placement

Policy = Callable[[Kernel, int, random.Random], Iterable[a.Action]]
ActionT = TypeVar("ActionT", bound=a.Action)

# Actions are immutable values, so a bot may propose the same object again: building one (and
# checking its fields, as for an action from a client) cost more than a dict look-up, and a
# game proposes the same few thousand over and over. Bounded by the boards' territories.
_ACTIONS: dict[tuple[object, ...], a.Action] = {}


def _action(cls: type[ActionT], *args: object) -> ActionT:
    """`cls(*args)`, shared between the proposals that are equal."""
    key = (cls, *args)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = cls(*args)
    assert isinstance(action, cls)
    return action


def random_policy(game: Kernel, seat: int, rnd: random.Random) -> list[a.Action]:
    """One action drawn uniformly from a uniformly chosen family of legal actions."""
    legal = game.legal_actions(seat)
    return [rnd.choice(legal).pick(rnd)]


_OWN_AGGRESSIVE: dict[type[Kernel], Policy] = {}
# The aggressive policy of each class of game, found once (`_aggressive_for`).
_AGGRESSIVE: dict[type[Kernel], Policy] = {}


def register_aggressive(game_class: type[Kernel], policy: Policy) -> None:
    """A game whose turn the classic bot cannot play brings its own aggressive policy (in its
    variant's folder: variants/<name>/bot.py) and registers it here."""
    _OWN_AGGRESSIVE[game_class] = policy
    _AGGRESSIVE.pop(game_class, None)


def aggressive_policy(game: Kernel, seat: int, rnd: random.Random) -> Iterable[a.Action]:
    """pyrisk's StupidAI in RisiKo! rules: reinforce border territories at random, trade the
    best card set, attack every enemy neighbour it outnumbers until conquest, move everything
    it can into conquests, never make a strategic move. Returns a batch of actions; the caller
    stops at the first one that the state no longer allows, or when another seat must act,
    and asks again. A variant may register its own (`register_aggressive`)."""
    policy = _AGGRESSIVE.get(type(game))
    if policy is None:
        policy = _AGGRESSIVE[type(game)] = _aggressive_for(type(game))
    return policy(game, seat, rnd)


def _aggressive_for(game_class: type[Kernel]) -> Policy:
    """A game's own registered policy; else, for a game composed of the RisiKo! mechanics of
    placing armies, trading sets and attacking (domain/risiko: classic RisiKo!), StupidAI's;
    else the random policy."""
    own = _OWN_AGGRESSIVE.get(game_class)
    if own is not None:
        return own
    parts = (Placement, SetTrading, PairwiseAttack)
    if all(issubclass(game_class, part) for part in parts):
        return cast(Policy, _risiko_turn)
    return random_policy


class RisikoGame(Placement, SetTrading, PairwiseAttack):
    """The type of a game `_aggressive_for` plays StupidAI's turn in, for the checker."""


def _risiko_turn(game: RisikoGame, seat: int, rnd: random.Random) -> Iterable[a.Action]:
    """pyrisk's StupidAI, in a game of the RisiKo! mechanics."""
    phase = game.phase
    if phase is Phase.DEFEND:
        prompt = game.open_prompt()
        assert prompt is not None
        return [_action(a.Defend, min(3, game.armies[prompt.values[1]]))]
    if phase is Phase.OCCUPY:
        assert game.pending_conquest is not None
        return [_action(a.Occupy, game.pending_conquest[3])]
    if phase is Phase.SETUP:
        return _border_placements(game, seat, rnd, game.setup_quota)
    if phase is Phase.REINFORCE and game.pending_reinforcements:
        trade = _best_trade(game, seat)
        if trade is not None:
            return [trade]
        return _border_placements(game, seat, rnd, game.pending_reinforcements)
    return land_attacks(game, seat)


def _best_trade(game: RisikoGame, seat: int) -> a.TradeCards | None:
    """The tradeable set of the seat's hand worth the most armies, if it holds one."""
    hand = game.hands[seat]
    if len(hand) < 3:
        return None
    cards = game.ruleset.cards
    sets = cards.tradeable_sets(hand)
    if not sets:
        return None
    ids = game.board.territories
    owned = frozenset(ids[t].id for t, o in enumerate(game.owner) if o == seat)
    return a.TradeCards(max(sets, key=lambda triple: sum(cards.value(triple, owned))))


def _border_placements(
    game: RisikoGame, seat: int, rnd: random.Random, count: int
) -> list[a.Action]:
    """`count` armies on the seat's border territories (all of its own when it has no
    border), one army at a time at random; one action per territory chosen."""
    owner = game.owner
    neighbours = game.board.neighbours
    own = [t for t, o in enumerate(owner) if o == seat]
    others = set(range(len(owner)))
    others.difference_update(own)
    border = [t for t in own if not others.isdisjoint(neighbours[t])] or own
    chosen = Counter(rnd.choices(border, k=count))  # in the order first chosen, as placed
    ids = game.board.territories
    return [_action(a.PlaceArmies, ids[t].id, n) for t, n in chosen.items()]


def land_attacks(game: PairwiseAttack, seat: int) -> Iterator[a.Action]:
    """Like pyrisk's StupidAI, a generator: each attack across a land border is decided on the
    board as it is when the previous one is over; then the turn ends."""
    ids = game.board.territories
    owner = game.owner
    armies = game.armies
    neighbours = game.board.land_neighbours  # S.P.Q.RisiKo!: no attack across a sea area here
    declare = game.defenders_declare()
    may_attack = game.may_attack
    occupy = Phase.OCCUPY
    territories = range(len(owner))
    attacked = True
    while attacked:  # until no own territory outnumbers an enemy neighbour any more
        attacked = False
        for source in territories:  # live ownership: a conquest can attack at once
            # With fewer than 2 armies it outnumbers no enemy (each holds at least 1).
            if owner[source] != seat or armies[source] < 2:
                continue
            for target in neighbours[source]:
                if (
                    owner[target] != seat
                    and armies[source] > armies[target]
                    and may_attack(source, target)
                ):
                    attacked = True
                    if declare:  # one roll at a time, the defender answering each
                        yield _action(
                            a.Attack, ids[source].id, ids[target].id, min(3, armies[source] - 1)
                        )
                    else:
                        yield _action(a.AttackUntil, ids[source].id, ids[target].id, 3, 1)
                    # The state changes only at a yield, so the conquest that this attack may
                    # have left to occupy is occupied here, before the next neighbour is read.
                    if game.phase is occupy:
                        assert game.pending_conquest is not None
                        yield _action(a.Occupy, game.pending_conquest[3])
    if game.phase is Phase.OCCUPY:
        assert game.pending_conquest is not None
        yield _action(a.Occupy, game.pending_conquest[3])
    yield _action(a.EndTurn)


POLICIES: dict[str, Policy] = {"random": random_policy, "aggressive": aggressive_policy}
