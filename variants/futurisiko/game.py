"""FutuRisiKo! (Editrice Giochi 1992, seed 004) on the kernel: tanks, aircraft and submarines,
flags that mark the territories held, production, movement then combat, explosion dice.

A round: the order of play is drawn from the cards, then every seat plays the cards phase (not
in the first round), then every seat produces, then every seat plays its operations (movement,
then combat), each phase in the round's order. The choices where the rules are silent, and
the cards' placeholder effects, are in docs/futurisiko.md.

Owners: `forces.owner[space]` is the seat whose flag stands on a territory, -1 for none (a
free territory, every sea area). Between two turns a territory holds the units of one seat at
most, that seat's flag or none; during a seat's operations its units may stand where the
enemy's do, and the battles it must fight there restore that.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain.actions import doc
from domain.flow import Phase
from domain.legal import LegalAction
from domain.views import StateView
from variants.futurisiko.base import ARMA_SEGRETA_DICE, BATTLE, FIGHTERS, FREE, MISSILE_DICE
from variants.futurisiko.cards import FutuCards
from variants.futurisiko.legal import (
    LegalPlaceFlag,
    LegalPlayCard,
    LegalReceiveCards,
)
from variants.futurisiko.operations import FutuOperations
from variants.futurisiko.options import FutuOptions
from variants.futurisiko.phases import CARDS, COMBAT, MOVEMENT, PRODUCTION
from variants.futurisiko.round import FutuRound
from variants.futurisiko.ruleset import (
    AIRCRAFT,
    FLAG,
    SUBMARINE,
    TANK,
    TREGUA,
    FutuRuleset,
)

__all__ = [
    "ARMA_SEGRETA_DICE",
    "BATTLE",
    "FIGHTERS",
    "FREE",
    "MISSILE_DICE",
    "FutuGame",
    "FutuState",
]


@dataclass(frozen=True, slots=True)
class FutuState(StateView):
    """FutuRisiKo!'s own state, public to all."""

    name: ClassVar[str] = "FutuRisiKoState"
    production_points: tuple[int, ...] = doc(
        "Production points by seat: one per own flag on the board (what the next production pays)."
    )
    points_left: int = doc("Production points the seat producing has left; 0 in other phases.")
    flags_left: tuple[int, ...] = doc("Flags each seat still has in its box.")
    hand_sizes: tuple[int, ...] = doc("How many cards each seat holds.")
    moved_spaces: tuple[str, ...] = doc(
        "What the seat in turn has moved this turn: the spaces where moved units stand..."
    )
    moved_kinds: tuple[str, ...] = doc("...the kind of each of those stacks...")
    moved_counts: tuple[int, ...] = doc("...and how many units of it have moved.")
    battles_left: tuple[str, ...] = doc(
        "Territories where the seat in turn must still fight (its units meet the enemy's)."
    )
    shields: tuple[int, ...] = doc("Seats with a Scudo Spaziale raised this round.")
    truces: tuple[int, ...] = doc("Truces of this round (Tregua), as pairs of seats in a row.")
    unit_costs: tuple[int, ...] = doc(
        "What a unit of each kind costs in production points, in Variant.unitKinds' order."
    )


class FutuGame(FutuOperations, FutuCards, FutuRound):
    RULES_REVISIONS: ClassVar[Mapping[int, str]] = {
        1: "The rules as first played: of a drawn card's two colours, the one in its first "
        "corner decided who played first.",
        2: "Fair order of play: a drawn card showing two playing colours gives one of them by "
        "lot, so every seated colour is as likely to play first.",
    }
    UNIT_KINDS = (TANK, AIRCRAFT, SUBMARINE)
    MARKER_KINDS = (FLAG,)
    STATE_VIEW = FutuState
    SNAPSHOT_FORMAT = 1
    RULESET_CLASS = FutuRuleset
    OPTIONS_CLASS = FutuOptions

    def state_view(self) -> StateView:
        seats = range(len(self.players))
        spaces, kinds, counts = [], [], []
        if self.phase in (MOVEMENT, COMBAT):
            forces = self.forces
            for space, territory in enumerate(self.board.territories):
                for kind in self.UNIT_KINDS:
                    moved = forces.count(space, self.current, kind) - forces.unmoved(
                        space, self.current, kind
                    )
                    if moved:
                        spaces.append(territory.id)
                        kinds.append(kind)
                        counts.append(moved)
        ids = self.board.territories
        return FutuState(
            self.turn_order,
            tuple(self.production_points(seat) for seat in seats),
            self.points_left if self.phase is PRODUCTION else 0,
            tuple(self.flags_left(seat) for seat in seats),
            tuple(len(hand) for hand in self.hands),
            tuple(spaces),
            tuple(kinds),
            tuple(counts),
            tuple(ids[space].id for space in self.battles_left()),
            tuple(seat for seat in seats if self.shields[seat]),
            tuple(seat for pair in self.truces for seat in pair),
            tuple(self.ruleset.costs[kind] for kind in self.UNIT_KINDS),
        )

    def _turn_actions(self, seat: int) -> list[LegalAction]:
        if self.phase is Phase.SETUP:
            free = tuple(land.id for land in self.board.lands if self.forces.owner[land.index] < 0)
            return [LegalPlaceFlag(free)]
        if self.phase is CARDS:
            legal: list[LegalAction] = [LegalReceiveCards(tuple(sorted(set(self.hands[seat]))))]
            others = tuple(
                s for s in self.active_seats() if s != seat and not self.bound_by_truce(seat, s)
            )
            if self._playable(seat, TREGUA) and others:
                legal.append(LegalPlayCard(TREGUA, ("",), others))
            return legal
        if self.phase is PRODUCTION:
            return self._production_actions(seat)
        return self._operations_actions(seat)
