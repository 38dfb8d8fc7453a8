"""A skirmish: the small game made to prove the kernel (variants/skirmish/README.md).

It uses what the kernel offers and classic RisiKo! does not: forces of two kinds of unit
(`domain.forces`), a turn order drawn again every round, a round of two phases that every seat
plays in turn (`domain.flow`), an answer owed out of turn on the prompt stack, and dice with
modifiers (`domain.combat`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain import actions as a
from domain import events as e
from domain.actions import doc
from domain.combat import Modifier, Side, pairwise_losses
from domain.errors import (
    InvalidAction,
    InvalidArmyCount,
    InvalidDice,
    NotAdjacent,
    NotEnoughArmies,
    NotYourTerritory,
    NotYourTurn,
    OwnTerritory,
    UnknownTerritory,
    WrongPhase,
)
from domain.flow import OpenPrompt, Phase, drawn_order, next_in_order
from domain.forces import Forces
from domain.kernel import Kernel, handles
from domain.legal import LegalAction, LegalEndTurn
from domain.rng import DerivedRandom
from domain.views import ARMY, SpaceView, StateView
from variants.skirmish import actions as sa
from variants.skirmish import events as se
from variants.skirmish.errors import ArtilleryLimit
from variants.skirmish.legal import LegalAssault, LegalHoldGround, LegalMarch, LegalRecruit
from variants.skirmish.options import SkirmishOptions
from variants.skirmish.phases import BATTLE, MUSTER, ROUND
from variants.skirmish.ruleset import SkirmishRuleset

ARTILLERY = "artillery"
COST = {ARMY: 1, ARTILLERY: 2}  # recruit points per unit
MAX_ASSAULT_ARMIES = 3
MAX_DEFENCE_DICE = 2
ASSAULT = "assault"  # the topic of the defender's prompt
ORDER = b"/order"  # the salt of the stream the order of play is drawn from


@dataclass(frozen=True, slots=True)
class SkirmishState(StateView):
    """A skirmish's own state: the round's order (drawn every round) and the muster."""

    name: ClassVar[str] = "SkirmishState"
    recruit_points: int = doc("Recruit points the seat mustering has left; 0 in the battle.")


class SkirmishGame(Kernel):
    RULES_REVISIONS: ClassVar[Mapping[int, str]] = {1: "The rules as first played."}
    UNIT_KINDS = (ARMY, ARTILLERY)
    RULESET_CLASS = SkirmishRuleset
    OPTIONS_CLASS = SkirmishOptions
    ruleset: SkirmishRuleset
    options: SkirmishOptions
    forces: Forces
    order: list[int]  # this round's order of play
    phase_position: int  # the round phase being played (ROUND.phases)
    points_left: int  # recruit points of the seat mustering

    _STATE: ClassVar[tuple[str, ...]] = (
        "forces",
        "order",
        "phase_position",
        "points_left",
    )

    def _start_state(self) -> None:
        spaces = len(self.board.territories)
        self.forces = Forces(spaces, len(self.players), self.UNIT_KINDS)
        self.order = []
        self.phase_position = 0
        self.points_left = 0

    # ------------------------------------------------------------------ reads

    @property
    def turn_order(self) -> tuple[int, ...]:
        return tuple(self.order)

    @property
    def turn_key(self) -> tuple[int, ...]:
        return (self.round, self.phase_position)  # a seat's muster and battle: two turns

    STATE_VIEW = SkirmishState

    def state_view(self) -> StateView:
        return SkirmishState(self.turn_order, self.points_left)

    def space_views(self) -> list[SpaceView]:
        return self.forces.views([t.id for t in self.board.territories])

    def territories_held(self, seat: int) -> int:
        return len(self.forces.held_by(seat))

    def armies_of(self, seat: int) -> int:
        return self.forces.units_of(seat, ARMY)

    def armies_to_place(self) -> int:
        return self.points_left if self.phase is MUSTER else 0

    def points(self, seat: int) -> int:
        """Spaces held at the end."""
        return self.territories_held(seat)

    def recruit_points(self, seat: int) -> int:
        """What a seat's muster pays: 2, and 1 for each space it holds."""
        return 2 + self.territories_held(seat)

    # ------------------------------------------------------------------ the round

    def _deal(self, rng: DerivedRandom) -> list[e.Event]:
        seats = len(self.players)
        spaces = list(range(len(self.board.territories)))
        rng.shuffle(spaces)
        armies = self.ruleset.armies_per_space
        for position, space in enumerate(spaces):
            seat = position % seats
            self.forces.owner[space] = seat
            self.forces.add(space, seat, ARMY, armies)
        self.order = list(drawn_order(self._random(ORDER), range(seats)))
        events: list[e.Event] = [
            e.GameStarted(
                self.players, self.colours, self.order[0], tuple(self.order), self.commitment
            ),
            se.SpacesDealt(tuple(self.forces.owner), armies),
        ]
        self.round = 1
        events.append(se.TurnOrderDrawn(self.round, tuple(self.order)))
        return events + self._begin(self.order[0], 0)

    def _begin(self, seat: int, position: int) -> list[e.Event]:
        self.current = seat
        self.phase_position = position
        self.phase = ROUND.phases[position]
        points = 0
        if self.phase is MUSTER:
            points = self.points_left = self.recruit_points(seat)
        else:
            self.points_left = 0
            self.forces.new_turn()
        return [se.PhaseTurnStarted(seat, self.round, self.phase.value, points)]

    def _advance(self, seat: int) -> list[e.Event]:
        """`seat` has played its part of this phase: the next seat in the round's order plays
        it, or the next phase begins, or the next round with a new order."""
        events: list[e.Event] = [e.TurnEnded(seat)]
        playing = [
            not (gone or left) for gone, left in zip(self.eliminated, self.resigned, strict=True)
        ]
        following, wrapped = next_in_order(self.order, seat, playing)
        if following is not None and not wrapped:
            return events + self._begin(following, self.phase_position)
        position = ROUND.following(self.phase_position)
        if position is not None:
            first = next(s for s in self.order if playing[s])
            return events + self._begin(first, position)
        spaces = tuple(len(self.forces.held_by(s)) for s in range(len(self.players)))
        events.append(se.RoundEnded(self.round, spaces))
        reason = self._limit_reached()
        if reason is not None:
            return events + self._finish(None, reason)
        self.round += 1
        self.order = list(drawn_order(self._random(ORDER), self.active_seats()))
        events.append(se.TurnOrderDrawn(self.round, tuple(self.order)))
        return events + self._begin(self.order[0], 0)

    def _leave_turn(self, seat: int) -> list[e.Event]:
        if self.prompt_stack:
            return []  # the assault waits for its defender; the turn goes on once answered
        return self._advance(seat)

    # ------------------------------------------------------------------ legal actions

    def _turn_actions(self, seat: int) -> list[LegalAction]:
        ids = self.board.territories
        forces = self.forces
        own = forces.held_by(seat)
        if self.phase is MUSTER:
            return self._recruit_families(seat, own)
        legal: list[LegalAction] = []
        neighbours = self.board.land_neighbours
        for source in own:
            armies = forces.count(source, seat, ARMY)
            for target in neighbours[source]:
                if forces.owner[target] == seat:
                    continue
                high = min(MAX_ASSAULT_ARMIES, armies - 1)
                if high >= 1:
                    legal.append(LegalAssault(ids[source].id, ids[target].id, 1, high))
        for source in own:
            for unit in self.UNIT_KINDS:
                free = forces.unmoved(source, seat, unit)
                if unit == ARMY:
                    free = min(free, forces.count(source, seat, ARMY) - 1)
                if free < 1:
                    continue
                for target in neighbours[source]:
                    if forces.owner[target] == seat:
                        most = min(free, self._room(target, seat, unit, free))
                        if most >= 1:
                            legal.append(LegalMarch(ids[source].id, ids[target].id, unit, 1, most))
        legal.append(LegalEndTurn())
        return legal

    def _recruit_families(self, seat: int, own: list[int]) -> list[LegalAction]:
        """Each kind of unit the points left pay for, on the own spaces with room for it
        (spaces grouped by the most they may take)."""
        ids = self.board.territories
        legal: list[LegalAction] = []
        for unit, cost in COST.items():
            affordable = self.points_left // cost
            if affordable < 1:
                continue
            by_most: dict[int, list[str]] = {}
            for space in own:
                most = min(affordable, self._room(space, seat, unit, affordable))
                if most >= 1:
                    by_most.setdefault(most, []).append(ids[space].id)
            for most, spaces in by_most.items():
                legal.append(LegalRecruit(unit, tuple(spaces), 1, most))
        return legal

    def _room(self, space: int, seat: int, unit: str, wanted: int) -> int:
        """How many more units of `unit` of `seat` `space` may take (`wanted`, without a
        limit): the artillery limit is the one rule of it."""
        limit = self.options.artillery_limit
        if unit != ARTILLERY or limit is None:
            return wanted
        return max(0, limit - self.forces.count(space, seat, ARTILLERY))

    def _check_room(self, space: int, seat: int, unit: str, count: int) -> None:
        room = self._room(space, seat, unit, count)
        if count > room:
            name = self.board.territories[space].name
            raise ArtilleryLimit(f"{name} has room for {room} more {unit}, not {count}")

    def _prompt_answers(self, prompt: OpenPrompt) -> LegalAction:
        source, target, _ = prompt.values
        defending = self.forces.count(target, prompt.seat, ARMY)
        ids = self.board.territories
        return LegalHoldGround(ids[source].id, ids[target].id, 1, min(MAX_DEFENCE_DICE, defending))

    # ------------------------------------------------------------------ actions

    def _check_turn(self, seat: int | None, phase: Phase) -> int:
        if seat is None or seat != self.current:
            raise NotYourTurn("it is not your turn")
        if self.phase is not phase:
            raise WrongPhase(f"this is the {self.phase.value} phase")
        return seat

    def _space(self, space_id: str) -> int:
        index = self.board.index.get(space_id)
        if index is None:
            raise UnknownTerritory(f"there is no space {space_id!r}")
        return index

    def _own_space(self, seat: int, space_id: str) -> int:
        index = self._space(space_id)
        if self.forces.owner[index] != seat:
            raise NotYourTerritory(f"{self.board.territories[index].name} is not yours")
        return index

    def _unit(self, unit: str) -> str:
        if unit not in self.UNIT_KINDS:
            raise InvalidAction(f"unknown unit {unit!r}: use one of {list(self.UNIT_KINDS)}")
        return unit

    @handles(sa.Recruit)
    def _recruit(self, seat: int | None, action: sa.Recruit) -> list[e.Event]:
        seat = self._check_turn(seat, MUSTER)
        space = self._own_space(seat, action.space)
        unit = self._unit(action.unit)
        affordable = self.points_left // COST[unit]
        if not 1 <= action.count <= affordable:
            raise InvalidArmyCount(
                f"{self.points_left} points pay for 1 to {affordable} {unit}, not {action.count}"
            )
        self._check_room(space, seat, unit, action.count)
        self.forces.add(space, seat, unit, action.count)
        self.points_left -= action.count * COST[unit]
        events: list[e.Event] = [
            se.Recruited(seat, action.space, unit, action.count, self.points_left)
        ]
        if self.points_left == 0:
            events += self._advance(seat)
        return events

    @handles(sa.Assault)
    def _assault(self, seat: int | None, action: sa.Assault) -> list[e.Event]:
        seat = self._check_turn(seat, BATTLE)
        source = self._own_space(seat, action.source)
        target = self._space(action.target)
        names = self.board.territories
        defender = self.forces.owner[target]
        if defender == seat:
            raise OwnTerritory(f"{names[target].name} is yours")
        if target not in self.board.land_neighbours[source]:
            raise NotAdjacent(f"{names[source].name} does not border {names[target].name}")
        armies = self.forces.count(source, seat, ARMY)
        high = min(MAX_ASSAULT_ARMIES, armies - 1)
        if high < 1:
            raise NotEnoughArmies(f"{names[source].name} needs 2 armies to assault")
        if not 1 <= action.armies <= high:
            raise InvalidArmyCount(f"commit 1 to {high} armies, not {action.armies}")
        events: list[e.Event] = [
            se.AssaultDeclared(seat, action.source, action.target, action.armies, defender)
        ]
        prompt = OpenPrompt(defender, ASSAULT, (source, target, action.armies))
        if self.resigned[defender]:  # nobody will answer: the most dice, at once
            return events + self._resolve(prompt, self._prompt_answers(prompt).ready())
        self._push_prompt(prompt)
        return events

    @handles(sa.HoldGround)
    def _hold_ground(self, seat: int | None, action: sa.HoldGround) -> list[e.Event]:
        prompt = self.open_prompt()
        if prompt is None or prompt.topic != ASSAULT:
            raise WrongPhase("no assault waits for an answer")
        if seat != prompt.seat:
            raise NotYourTurn("the assault waits for its defender")
        family = self._prompt_answers(prompt)
        assert isinstance(family, LegalHoldGround)
        if not family.allows(action):
            raise InvalidDice(f"roll {family.min_dice} to {family.max_dice} dice")
        self._pop_prompt()
        return self._resolve(prompt, action)

    def _resolve(self, prompt: OpenPrompt, answer: a.Action) -> list[e.Event]:
        assert isinstance(answer, sa.HoldGround)
        source, target, committed = prompt.values
        attacker, defender = self.current, prompt.seat
        forces = self.forces
        modifiers = []
        if forces.count(source, attacker, ARTILLERY):
            modifiers.append(Modifier(Side.ATTACKER, 1, ARTILLERY))
        if forces.count(target, defender, ARTILLERY):
            modifiers.append(Modifier(Side.DEFENDER, 1, ARTILLERY))
        attack_dice, defence_dice = self._random().roll(committed, answer.dice)
        attacker_losses, defender_losses = pairwise_losses(attack_dice, defence_dice, modifiers)
        forces.remove(source, attacker, ARMY, attacker_losses)
        forces.remove(target, defender, ARMY, defender_losses)
        ids = self.board.territories
        events: list[e.Event] = [
            se.AssaultRolled(
                attacker,
                ids[source].id,
                ids[target].id,
                tuple(attack_dice),
                tuple(defence_dice),
                tuple(f"{m.side.value}+{m.amount}:{m.source}" for m in modifiers),
                attacker_losses,
                defender_losses,
            )
        ]
        if forces.count(target, defender, ARMY):
            return events
        # Taken: the defender's artillery there is lost, the assault's survivors move in.
        destroyed = forces.count(target, defender, ARTILLERY)
        forces.clear(target, defender)
        forces.owner[target] = attacker
        survivors = committed - attacker_losses
        forces.move(source, target, attacker, ARMY, survivors, free=True)
        events.append(
            se.SpaceTaken(attacker, ids[source].id, ids[target].id, defender, survivors, destroyed)
        )
        if not forces.held_by(defender):
            self.eliminated[defender] = True
            events.append(e.PlayerEliminated(defender, attacker, 0))
            active = self.active_seats()
            if len(active) <= 1:
                events += self._finish(active[0] if active else None, "last_player")
        return events

    @handles(sa.March)
    def _march(self, seat: int | None, action: sa.March) -> list[e.Event]:
        seat = self._check_turn(seat, BATTLE)
        source = self._own_space(seat, action.source)
        target = self._own_space(seat, action.target)
        unit = self._unit(action.unit)
        names = self.board.territories
        if target not in self.board.land_neighbours[source]:
            raise NotAdjacent(f"{names[source].name} does not border {names[target].name}")
        free = self.forces.unmoved(source, seat, unit)
        if unit == ARMY:
            free = min(free, self.forces.count(source, seat, ARMY) - 1)
        if not 1 <= action.count <= free:
            raise InvalidArmyCount(
                f"1 to {free} {unit} may march from {names[source].name}, not {action.count}"
            )
        self._check_room(target, seat, unit, action.count)
        self.forces.move(source, target, seat, unit, action.count)
        return [se.Marched(seat, action.source, action.target, unit, action.count)]

    @handles(a.EndTurn)
    def _end_turn(self, seat: int | None, action: a.EndTurn) -> list[e.Event]:
        seat = self._check_turn(seat, BATTLE)
        return self._advance(seat)
