"""The bots the server seats at a table, and the proxy that plays for an absent seat.

A seated bot decides on what that seat's client would see, and nothing else: a `SeatView` is
made of the seat's legal actions and the public board (owners and armies), so a bot can no
more peek at a hand, the deck or an objective than a person's client can. Its action then
takes the same write path as a person's. The odds bot is the client package's example OddsBot
(client/risiko_client/bots.py) on the server's side: exact odds of conquest, in every game.
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from domain import actions as a
from domain.kernel import Kernel
from domain.legal import (
    LegalAction,
    LegalAttack,
    LegalAttackUntil,
    LegalOccupy,
    LegalPlace,
    LegalTrade,
)
from domain.odds import battle_odds
from domain.views import ARMY


class BotPolicy(enum.StrEnum):
    ODDS = "odds"  # attacks when the odds of conquest reach 60 %, reinforces where they are best
    RANDOM = "random"  # a legal family at random, a member of it at random


@dataclass(frozen=True, slots=True)
class SeatView:
    """What a seat's own client sees of the game, as a bot needs it."""

    seat: int
    families: Sequence[LegalAction]
    owners: Mapping[str, int | None]
    armies: Mapping[str, int]
    land_neighbours: Mapping[str, Sequence[str]]


def seat_view(game: Kernel, seat: int) -> SeatView:
    """The seat's observation (domain/observation.py), as the generic policies read it."""
    seen = game.observe(seat)
    spaces = seen.spaces
    ids = [territory.id for territory in game.board.territories]
    neighbours = game.board.land_neighbours
    return SeatView(
        seat,
        seen.legal,
        {space.id: space.owner for space in spaces},
        {space.id: space.count(ARMY) for space in spaces},
        {ids[t]: [ids[n] for n in neighbours[t]] for t in range(len(ids))},
    )


THRESHOLD = 0.6


@functools.lru_cache(maxsize=4096)
def conquest(attackers: int, defenders: int) -> float:
    """P(conquest) of `attackers` able to attack against `defenders`, to the end."""
    if attackers < 1 or defenders < 1:
        return 1.0 if defenders < 1 else 0.0
    return battle_odds(attackers, defenders).conquest_probability


def odds_policy(view: SeatView, rnd: random.Random) -> a.Action:
    """Moves every army it may into a conquest, trades its richest set, reinforces the
    territory with the best odds against a neighbour, attacks when the odds of conquest reach
    THRESHOLD, and ends its turn; any other decision (an answer, a game's own step) takes the
    ready member of the first family: every die in defence, all it may."""
    families = view.families
    occupy = [f for f in families if isinstance(f, LegalOccupy)]
    if occupy:
        return occupy[0].ready()  # every army it may move in
    trades = [f for f in families if isinstance(f, LegalTrade)]
    if trades:
        return max(trades, key=lambda family: family.armies).ready()
    places = [f for f in families if isinstance(f, LegalPlace)]
    if places:
        return _place(view, places[0])
    attacks = [f for f in families if isinstance(f, LegalAttackUntil | LegalAttack)]
    attack = _best_attack(view, attacks)
    if attack is not None:
        return attack
    for family in families:
        if family.kind == a.EndTurn.kind:
            return family.ready()
    return families[0].ready()


def _place(view: SeatView, family: LegalPlace) -> a.Action:
    placed = family.max_armies
    best, best_score = family.territories[0], (-1.0, -(10**6))
    for territory in family.territories:
        for neighbour in view.land_neighbours.get(territory, ()):
            if view.owners.get(neighbour) in (view.seat, None):
                continue
            attackers = view.armies[territory] + placed - 1
            score = (conquest(attackers, view.armies[neighbour]), attackers)
            if score > best_score:
                best, best_score = territory, score
    return a.PlaceArmies(best, placed)


def _best_attack(
    view: SeatView, families: Sequence[LegalAttackUntil | LegalAttack]
) -> a.Action | None:
    best: LegalAttackUntil | LegalAttack | None = None
    best_p = 0.0
    for family in families:
        p = conquest(view.armies[family.source] - 1, view.armies[family.target])
        if p > best_p:
            best, best_p = family, p
    if best is None or best_p < THRESHOLD:
        return None
    return best.ready()  # every die, to conquest (AttackUntil: stop at the lowest)


def random_policy(view: SeatView, rnd: random.Random) -> a.Action:
    return rnd.choice(view.families).pick(rnd)


SEATED: dict[BotPolicy, Callable[[SeatView, random.Random], a.Action]] = {
    BotPolicy.ODDS: odds_policy,
    BotPolicy.RANDOM: random_policy,
}


Decide = Callable[[Kernel, int, random.Random], a.Action]
_OWN_ODDS: dict[type[Kernel], Decide] = {}


def register_seated(game_class: type[Kernel], decide: Decide) -> None:
    """A game whose board a SeatView cannot describe (units of several kinds) brings its own
    play for the odds bot (in its variant's folder). It reads the game, so it must read only
    what the seat's client sees: the board, whose units are public, the phase, and the seat's
    own legal actions (its own cards among them); never another hand, the deck or an
    objective. The game's tests hold this: the same choice whatever the others hold."""
    _OWN_ODDS[game_class] = decide


def seated_choice(policy: BotPolicy, game: Kernel, seat: int, rnd: random.Random) -> a.Action:
    """The action of a bot of `policy` at `seat`, decided on the seat's view only."""
    own = _OWN_ODDS.get(type(game)) if policy is BotPolicy.ODDS else None
    if own is not None:
        return own(game, seat, rnd)
    return SEATED[policy](seat_view(game, seat), rnd)
