"""FutuRisiKo!'s state and the facts its parts share (the round, the cards, the operations):
who stands where, whose flags hold which territory, the truces, the cards in hand, the losses a
hit inflicts. The game is these parts composed: variants/futurisiko/game.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from domain import events as e
from domain.cards import Card
from domain.errors import (
    InvalidAction,
    NotYourTurn,
    WrongPhase,
)
from domain.flow import Phase
from domain.forces import Forces
from domain.kernel import Kernel
from domain.views import SpaceView
from variants.futurisiko import events as fe
from variants.futurisiko.options import AIRCRAFT_FIRST, FutuOptions
from variants.futurisiko.phases import COMBAT, MOVEMENT
from variants.futurisiko.ruleset import (
    AIRCRAFT,
    FLAG,
    SUBMARINE,
    TANK,
    TRADIMENTO,
    TREGUA,
    FutuRuleset,
)

FREE = -1
BATTLE = "battle"  # the topic of the defender's prompt
MISSILE_DICE = 3  # Missili Balistici (placeholder)
ARMA_SEGRETA_DICE = 2  # extra dice in every volley (placeholder)
FIGHTERS = (TANK, AIRCRAFT)  # the units of a land battle (submarines stay at sea)


class FutuBase(Kernel):
    """The state of a game of FutuRisiKo!, and what every part of it reads."""

    ruleset: FutuRuleset
    options: FutuOptions
    forces: Forces
    order: list[int]  # this round's order of play (the setup's, before the first round)
    phase_position: int  # the round phase being played (ROUND.phases)
    points_left: int  # production points of the seat producing
    draw_pile: list[str]  # card ids, the top last
    discard_pile: list[str]
    hands: list[list[str]]  # card ids by seat
    fired: list[int]  # by space: submarines of the seat in turn that have fired this turn
    played: list[str]  # card types played by the seat in turn this turn (one of each)
    shields: list[int]  # by seat: 1 while a Scudo Spaziale is raised (this round)
    truces: list[list[int]]  # pairs of seats bound by a Tregua this round

    _STATE: ClassVar[tuple[str, ...]] = (
        "forces",
        "order",
        "phase_position",
        "points_left",
        "draw_pile",
        "discard_pile",
        "hands",
        "fired",
        "played",
        "shields",
        "truces",
    )

    def _start_state(self) -> None:
        spaces = len(self.board.territories)
        self.forces = Forces(spaces, len(self.players), self.UNIT_KINDS)
        self.order = []
        self.phase_position = 0
        self.points_left = 0
        self.draw_pile = []
        self.discard_pile = []
        self.hands = [[] for _ in self.players]
        self.fired = [0] * spaces
        self.played = []
        self.shields = [0] * len(self.players)
        self.truces = []

    @property
    def turn_order(self) -> tuple[int, ...]:
        return tuple(self.order)

    @property
    def turn_key(self) -> tuple[int, ...]:
        return (self.round, self.phase_position)

    def space_views(self) -> list[SpaceView]:
        return self.forces.views([t.id for t in self.board.territories])

    def territories_held(self, seat: int) -> int:
        return self.forces.owner.count(seat)

    def armies_of(self, seat: int) -> int:
        return self.forces.units_of(seat, TANK)

    def hand(self, seat: int) -> Sequence[str]:
        return tuple(self.hands[seat])

    def card_face(self, card_id: str) -> Card:
        """A card shows its type and two colours (no territory): the ruleset's deck, not the
        classic cards' table, which is empty here."""
        card = self.ruleset.card(card_id)
        return Card(card.id, card.type, None, card.colours)

    def deck_size(self) -> int:
        return len(self.draw_pile)

    def points(self, seat: int) -> int:
        """Territories held at the end."""
        return self.territories_held(seat)

    def production_points(self, seat: int) -> int:
        """One point per own flag on the board."""
        return self.territories_held(seat)

    def flags_left(self, seat: int) -> int:
        return self.ruleset.supply[FLAG] - self.territories_held(seat)

    def enemy_at(self, space: int, seat: int) -> int | None:
        """The other seat with units or a flag on `space`, if any."""
        forces = self.forces
        owner = forces.owner[space]
        if owner != FREE and owner != seat:
            return owner
        row = forces.units[space]
        width = len(forces.kinds)
        if sum(row) == sum(row[seat * width : (seat + 1) * width]):  # the seat's alone, if any
            return None
        for other in range(forces.seats):
            if other != seat and any(row[other * width : (other + 1) * width]):
                return other
        return None

    def fighters(self, space: int, seat: int) -> int:
        forces = self.forces
        row = forces.units[space]
        offsets = forces.offsets
        base = seat * len(offsets)  # forces.column, inlined: the hottest read of the game
        return row[base + offsets[TANK]] + row[base + offsets[AIRCRAFT]]

    def battles_left(self) -> list[int]:
        """Territories where the seat in turn's units meet the enemy's: each a battle it must
        fight before its turn ends."""
        if self.phase not in (MOVEMENT, COMBAT):
            return []
        seat = self.current
        forces = self.forces
        owner, units = forces.owner, forces.units
        tanks, aircraft, submarines = (forces.column(seat, k) for k in (TANK, AIRCRAFT, SUBMARINE))
        battles = []
        for land in self.ruleset.land_indices:
            row = units[land]
            fighting = row[tanks] + row[aircraft]
            if not fighting:
                continue
            holder = owner[land]
            # enemy_at(land, seat) is not None, read in bulk: another seat's flag or units
            if holder not in (FREE, seat) or sum(row) > fighting + row[submarines]:
                battles.append(land)
        return battles

    def bound_by_truce(self, seat: int, other: int) -> bool:
        return bool(self.truces) and sorted((seat, other)) in self.truces

    def aircraft_reach(self, source: int) -> list[int]:
        """Territories two steps away at most, over territories and seas (the board wraps
        east-west in its data: the Pacific touches both the Americas and Asia)."""
        return list(self.ruleset.aircraft_reach[source])

    def missile_targets(self, seat: int) -> list[int]:
        """Enemy territories with tanks or aircraft within two steps of an own territory."""
        own = self.forces.held_by(seat)
        reach: set[int] = set()
        for space in own:
            reach.update(self.aircraft_reach(space))
        return sorted(
            space
            for space in reach
            if (enemy := self.enemy_at(space, seat)) is not None
            and self.fighters(space, enemy)
            and not self.bound_by_truce(seat, enemy)
        )

    def _check_turn(self, seat: int | None, *phases: Phase) -> int:
        if seat is None or seat != self.current:
            raise NotYourTurn("it is not your turn")
        if self.phase not in phases:
            raise WrongPhase(f"this is the {self.phase.value} phase")
        return seat

    def _name(self, space: int) -> str:
        return self.board.territories[space].name

    def _unit(self, unit: str) -> str:
        if unit not in self.UNIT_KINDS:
            raise InvalidAction(f"unknown unit {unit!r}: use one of {self.UNIT_KINDS}")
        return unit

    def _first_card(self, seat: int, card_type: str) -> str | None:
        """The first card of `card_type` in the hand (cards of a type are alike)."""
        types = self.ruleset.card_types
        return min((c for c in self.hands[seat] if types[c] == card_type), default=None)

    def _playable(self, seat: int, card_type: str) -> bool:
        """`seat` holds a card of `card_type`, its option is on, none was played this turn."""
        option = TREGUA if card_type == TRADIMENTO else card_type
        if card_type in self.played or not getattr(self.options, option):
            return False
        types = self.ruleset.card_types
        return any(types[card] == card_type for card in self.hands[seat])

    def _discard(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.discard_pile.append(card)

    def _destroy(self, space: int, seat: int, hits: int) -> tuple[int, int]:
        """Remove up to `hits` tanks and aircraft of `seat` on `space` in the order of the
        `losses` option; (tanks lost, aircraft lost). Flags and submarines are never hit."""
        forces = self.forces
        if self.options.losses == AIRCRAFT_FIRST:
            aircraft = min(hits, forces.count(space, seat, AIRCRAFT))
            tanks = min(hits - aircraft, forces.count(space, seat, TANK))
        else:
            tanks = min(hits, forces.count(space, seat, TANK))
            aircraft = min(hits - tanks, forces.count(space, seat, AIRCRAFT))
        for kind, count in ((TANK, tanks), (AIRCRAFT, aircraft)):
            if count:
                forces.remove(space, seat, kind, count)
        return tanks, aircraft

    def _put_flag(self, seat: int, space: int, reason: str) -> list[e.Event]:
        self.forces.owner[space] = seat
        self.forces.markers[space] = [FLAG]
        events: list[e.Event] = [fe.FlagPlaced(seat, self.board.territories[space].id, reason)]
        if self.territories_held(seat) >= self.ruleset.victory_territories:
            events += self._finish(seat, "territories")
        return events

    def _claim(self, seat: int, space: int, reason: str) -> list[e.Event]:
        """`seat` alone on a free territory puts its flag there, while it has flags left."""
        if self.forces.owner[space] != FREE or not self.flags_left(seat) or self.is_over:
            return []
        return self._put_flag(seat, space, reason)

    def _check_elimination(self, seat: int, by: int) -> list[e.Event]:
        """A seat with no flag left on the board is out: its units leave the board."""
        if self.forces.held_by(seat) or self.eliminated[seat]:
            return []
        events: list[e.Event] = []
        for space in range(len(self.board.territories)):
            events += self._remove_units(seat, space, kinds=self.UNIT_KINDS)
        self.eliminated[seat] = True
        self.discard_pile += self.hands[seat]
        self.hands[seat] = []
        events.append(e.PlayerEliminated(seat, by, 0))
        active = self.active_seats()
        if len(active) <= 1:
            events += self._finish(active[0] if active else None, "last_player")
        return events

    def _remove_units(self, seat: int, space: int, *, kinds: Sequence[str]) -> list[e.Event]:
        counts = {kind: self.forces.count(space, seat, kind) for kind in self.UNIT_KINDS}
        if not any(counts[kind] for kind in kinds):
            return []
        for kind in kinds:
            self.forces.remove(space, seat, kind, counts[kind])
        return [
            fe.UnitsRemoved(
                seat,
                self.board.territories[space].id,
                counts[TANK] if TANK in kinds else 0,
                counts[AIRCRAFT] if AIRCRAFT in kinds else 0,
                counts[SUBMARINE] if SUBMARINE in kinds else 0,
            )
        ]

    def _leave_movement(self) -> None:
        """The first combat action ends the movement: no unit moves after it."""
        if self.phase is MOVEMENT:
            self.phase = COMBAT
