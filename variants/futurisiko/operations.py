"""FutuRisiKo!'s operations: the movement (tanks, aircraft, submarines, amphibious moves),
then the combat (torpedoes, and battles of volleys wherever the seat's units meet the enemy's,
the defender answering with its cards), and the families of both."""

from __future__ import annotations

from collections.abc import Sequence

from domain import events as e
from domain.board import Territory
from domain.combat import volley_hits
from domain.errors import (
    CardNotInHand,
    InvalidAction,
    InvalidArmyCount,
    NotAdjacent,
    NotEnoughArmies,
    NotYourTurn,
    OncePerTurn,
    OptionDisabled,
    OwnTerritory,
    Truce,
    WrongKindOfSpace,
    WrongPhase,
)
from domain.flow import OpenPrompt
from domain.kernel import handles
from domain.legal import LegalAction, LegalEndTurn
from variants.futurisiko import actions as fa
from variants.futurisiko import events as fe
from variants.futurisiko.base import (
    ARMA_SEGRETA_DICE,
    BATTLE,
    FREE,
    FutuBase,
)
from variants.futurisiko.legal import (
    LegalAmphibiousMove,
    LegalBattle,
    LegalBattleCards,
    LegalMoveUnits,
    LegalPlayCard,
    LegalTorpedo,
)
from variants.futurisiko.phases import COMBAT, MOVEMENT
from variants.futurisiko.ruleset import (
    AIRCRAFT,
    ARMA_SEGRETA,
    CARD_TYPES,
    SILURO_KILLER,
    SUBMARINE,
    TANK,
    TRADIMENTO,
    TREGUA,
)


class FutuOperations(FutuBase):
    """Moves, torpedoes and battles."""

    @handles(fa.MoveUnits)
    def _move_units(self, seat: int | None, action: fa.MoveUnits) -> list[e.Event]:
        seat = self._check_turn(seat, MOVEMENT)
        source = self.board.find(action.source)
        target = self.board.find(action.target)
        unit = self._unit(action.unit)
        if target not in self.move_targets(seat, source, unit):
            self._explain_bad_move(seat, source, target, unit)
        self._check_count(seat, source, unit, action.count)
        self.forces.move(source, target, seat, unit, action.count)
        return [fe.UnitsMoved(seat, action.source, action.target, unit, action.count, "")]

    def move_targets(self, seat: int, source: int, unit: str) -> list[int]:
        """Where units of `unit` on `source` may go (the truce's limits included)."""
        reach = self.ruleset.move_reach[unit][source]
        if not self.truces:  # no truce keeps it out of anywhere
            return list(reach)
        return [target for target in reach if self._may_enter(seat, target)]

    def _may_enter(self, seat: int, space: int) -> bool:
        """A truce keeps a seat out of the other's spaces, unless it holds a Tradimento to
        break it in the battle there: one for each player it would fight so."""
        if not self.truces or self.board.territories[space].is_sea:
            return True
        enemy = self.enemy_at(space, seat)
        if enemy is None or not self.bound_by_truce(seat, enemy):
            return True
        betrayed = {enemy}
        for battle in self.battles_left():
            other = self.enemy_at(battle, seat)
            if other is not None and self.bound_by_truce(seat, other):
                betrayed.add(other)
        held = sum(self.ruleset.card(c).type == TRADIMENTO for c in self.hands[seat])
        return held >= len(betrayed)

    def _explain_bad_move(self, seat: int, source: int, target: int, unit: str) -> None:
        board = self.board
        if board.territories[source].is_sea != (unit == SUBMARINE):
            raise WrongKindOfSpace(f"there are no {unit} units to move in {self._name(source)}")
        if unit == AIRCRAFT and board.territories[target].is_sea:
            raise WrongKindOfSpace("an aircraft never ends its move on a sea area")
        if unit == SUBMARINE and not board.territories[target].is_sea:
            raise WrongKindOfSpace("a submarine moves between sea areas")
        if unit == TANK and board.territories[target].is_sea:
            raise WrongKindOfSpace("a tank reaches a territory (an amphibious move crosses a sea)")
        enemy = self.enemy_at(target, seat)
        if enemy is not None and self.bound_by_truce(seat, enemy):
            raise Truce(f"a truce keeps you out of {self._name(target)} this round")
        raise NotAdjacent(f"a {unit} cannot reach {self._name(target)} from {self._name(source)}")

    def _check_count(self, seat: int, source: int, unit: str, count: int) -> None:
        free = self.forces.unmoved(source, seat, unit)
        if free < 1:
            raise NotEnoughArmies(
                f"no {unit} of yours in {self._name(source)} may still move this turn"
            )
        if not 1 <= count <= free:
            raise InvalidArmyCount(f"1 to {free} {unit} may move, not {count}")

    @handles(fa.AmphibiousMove)
    def _amphibious_move(self, seat: int | None, action: fa.AmphibiousMove) -> list[e.Event]:
        seat = self._check_turn(seat, MOVEMENT)
        source = self.board.land(action.source)
        target = self.board.land(action.target)
        sea = self.board.sea(action.sea)
        coasts = self.board.coasts[sea]
        if source not in coasts or target not in coasts or source == target:
            raise NotAdjacent(
                f"{self._name(source)} and {self._name(target)} are not two coasts of "
                f"{self._name(sea)}"
            )
        if self.forces.unmoved(sea, seat, SUBMARINE) < 1:
            raise NotEnoughArmies(
                f"an amphibious move needs a submarine of yours in {self._name(sea)} "
                "that has not moved this turn"
            )
        if not self._may_enter(seat, target):
            raise Truce(f"a truce keeps you out of {self._name(target)} this round")
        self._check_count(seat, source, TANK, action.count)
        self.forces.move(source, target, seat, TANK, action.count)
        self._use_submarine(sea, seat)
        return [fe.UnitsMoved(seat, action.source, action.target, TANK, action.count, action.sea)]

    def _use_submarine(self, sea: int, seat: int) -> None:
        """The submarine that carried an amphibious move moves no more this turn."""
        forces = self.forces
        forces.move(sea, sea, seat, SUBMARINE, 1)

    def amphibious_targets(self, seat: int, source: int, sea: int) -> list[int]:
        return [
            target
            for target in self.board.coasts[sea]
            if target != source and self._may_enter(seat, target)
        ]

    @handles(fa.Torpedo)
    def _torpedo(self, seat: int | None, action: fa.Torpedo) -> list[e.Event]:
        seat = self._check_turn(seat, MOVEMENT, COMBAT)
        sea = self.board.sea(action.sea)
        target = self.board.land(action.target)
        if target not in self.board.coasts[sea]:
            raise NotAdjacent(f"{self._name(target)} is not on {self._name(sea)}")
        if target not in self.torpedo_targets(seat, sea):
            defender = self.enemy_at(target, seat)
            if defender is not None and self.bound_by_truce(seat, defender):
                raise Truce(f"a truce binds you to seat {defender} this round")
            raise OwnTerritory(f"no enemy tank or aircraft stands in {self._name(target)}")
        ready = self.forces.count(sea, seat, SUBMARINE) - self.fired[sea]
        if ready < 1:
            raise OncePerTurn(f"your submarines in {self._name(sea)} have all fired this turn")
        if not 1 <= action.submarines <= ready:
            raise InvalidArmyCount(f"1 to {ready} submarines may fire, not {action.submarines}")
        self._leave_movement()
        defender = self.enemy_at(target, seat)
        assert defender is not None
        self.fired[sea] += action.submarines
        dice = self._random().dice(action.submarines * self.ruleset.submarine_dice)
        hits = volley_hits(dice, self.ruleset.explosion_faces)
        tanks, aircraft = self._destroy(target, defender, hits)  # never the flag
        return [fe.UnitsHit(seat, "torpedo", action.target, defender, tuple(dice), tanks, aircraft)]

    def torpedo_targets(self, seat: int, sea: int) -> list[int]:
        targets = []
        for space in self.board.coasts[sea]:
            enemy = self.enemy_at(space, seat)
            if (
                enemy is not None
                and self.fighters(space, enemy)
                and not self.bound_by_truce(seat, enemy)
            ):
                targets.append(space)
        return targets

    @handles(fa.Battle)
    def _battle(self, seat: int | None, action: fa.Battle) -> list[e.Event]:
        seat = self._check_turn(seat, MOVEMENT, COMBAT)
        space = self.board.land(action.territory)
        if space not in self.battles_left():
            raise OwnTerritory(f"your units do not meet the enemy's in {self._name(space)}")
        defender = self.enemy_at(space, seat)
        assert defender is not None
        types = tuple(action.cards)
        cards = self._check_battle_cards(seat, types, (ARMA_SEGRETA, TRADIMENTO))
        bound = self.bound_by_truce(seat, defender)
        if bound and TRADIMENTO not in types:
            raise Truce(f"a truce binds you to seat {defender}: play a Tradimento to fight")
        if TRADIMENTO in types and not bound:
            raise InvalidAction("Tradimento breaks a truce, and none binds you to this defender")
        self._leave_movement()
        for card in cards:
            self._discard(seat, card)
        if bound:
            self.truces.remove(sorted((seat, defender)))
        events: list[e.Event] = [fe.BattleDeclared(seat, action.territory, defender, cards)]
        arma = int(ARMA_SEGRETA in types)
        prompt = OpenPrompt(defender, BATTLE, (space, arma))
        if not self.options.arma_segreta or self.resigned[defender]:
            # Nothing the defender could play, or nobody to answer: fought at once.
            return events + self._fight(prompt, ())
        self._push_prompt(prompt)
        return events

    def _check_battle_cards(
        self, seat: int, types: Sequence[str], allowed: tuple[str, ...]
    ) -> tuple[str, ...]:
        """The cards `seat` plays for `types`: allowed here, their option on, one of each type,
        held; one card of each type, the first in the hand."""
        cards = []
        for card_type in types:
            if card_type not in CARD_TYPES:
                raise InvalidAction(f"there is no card {card_type!r}: use one of {CARD_TYPES}")
            if card_type not in allowed:
                raise WrongPhase(f"a {card_type} card is not played here")
            option = TREGUA if card_type == TRADIMENTO else card_type
            if not getattr(self.options, option):
                raise OptionDisabled(f"the {card_type} card has no effect in this game's options")
            if list(types).count(card_type) > 1:
                raise OncePerTurn(f"one {card_type} card a battle")
            card = self._first_card(seat, card_type)
            if card is None:
                raise CardNotInHand(f"you hold no {card_type} card")
            cards.append(card)
        return tuple(cards)

    @handles(fa.BattleCards)
    def _battle_cards(self, seat: int | None, action: fa.BattleCards) -> list[e.Event]:
        prompt = self.open_prompt()
        if prompt is None or prompt.topic != BATTLE:
            raise WrongPhase("no battle waits for its defender")
        if seat != prompt.seat:
            raise NotYourTurn("the battle waits for its defender")
        cards = self._check_battle_cards(seat, action.cards, (ARMA_SEGRETA,))
        self._pop_prompt()
        for card in cards:
            self._discard(seat, card)
        return self._fight(prompt, cards)

    def _fight(self, prompt: OpenPrompt, defender_cards: tuple[str, ...]) -> list[e.Event]:
        """Volleys in turn until one side is gone (seed 004): the side with more aircraft
        fires first, the defender on a tie; a die per unit, two more for a standing flag;
        each explosion destroys a unit at once, the flag last."""
        space, attacker_arma = prompt.values
        attacker, defender = self.current, prompt.seat
        forces = self.forces
        attacker_first = forces.count(space, attacker, AIRCRAFT) > forces.count(
            space, defender, AIRCRAFT
        )
        arma = {attacker: attacker_arma, defender: len(defender_cards)}
        volleys, lost = self._volleys(space, attacker, defender, attacker_first, arma)
        won = self.fighters(space, attacker) > 0
        flag_taken = won and forces.owner[space] == defender
        events: list[e.Event] = [
            fe.BattleFought(
                attacker,
                self.board.territories[space].id,
                defender,
                defender_cards,
                attacker_first,
                tuple(volleys),
                lost[attacker][0],
                lost[attacker][1],
                lost[defender][0],
                lost[defender][1],
                flag_taken,
                won,
            )
        ]
        if not won:
            return events
        if flag_taken:
            forces.owner[space] = FREE
            forces.markers[space] = []
        events += self._claim(attacker, space, "conquest")
        if flag_taken and not self.is_over:
            events += self._check_elimination(defender, attacker)
        return events

    def _volleys(
        self,
        space: int,
        attacker: int,
        defender: int,
        attacker_first: bool,
        arma: dict[int, int],
    ) -> tuple[list[tuple[int, ...]], dict[int, list[int]]]:
        """The battle's volleys, each side in turn, until the attacker has no fighter left or
        the defender neither fighter nor standing flag: the dice of each volley, and each
        side's losses (tanks, aircraft). `arma`: each side's Arma Segreta cards."""
        faces = self.ruleset.explosion_faces
        flag = self.forces.owner[space] == defender
        lost = {attacker: [0, 0], defender: [0, 0]}
        volleys: list[tuple[int, ...]] = []
        attacker_fires = attacker_first
        rng = self._random()  # the action's one stream, drawn on volley after volley
        while self.fighters(space, attacker) and (self.fighters(space, defender) or flag):
            firing, hit = (attacker, defender) if attacker_fires else (defender, attacker)
            count = self.fighters(space, firing) + ARMA_SEGRETA_DICE * arma[firing]
            if not attacker_fires and flag:
                count += self.ruleset.flag_dice
            dice = rng.dice(count)
            hits = volley_hits(dice, faces)
            standing = self.fighters(space, hit)
            tanks, aircraft = self._destroy(space, hit, hits)
            if attacker_fires and hits > standing:
                flag = False
            lost[hit][0] += tanks
            lost[hit][1] += aircraft
            volleys.append(tuple(dice))
            attacker_fires = not attacker_fires
        return volleys, lost

    def _operations_actions(self, seat: int) -> list[LegalAction]:
        battles = self.battles_left()
        legal: list[LegalAction] = self._battle_actions(seat, battles)
        if self.phase is MOVEMENT:
            legal += self._movement_families(seat)
        submarines = self.forces.column(seat, SUBMARINE)
        units = self.forces.units
        fleet = [sea for sea in self.board.seas if units[sea.index][submarines]]
        if fleet:  # the seas where the seat has submarines: torpedoes, Siluro Killer
            legal += self._torpedo_families(seat, fleet)
            legal += self._siluro_families(seat, fleet)
        if not battles:
            legal.append(LegalEndTurn())
        return legal

    def _movement_families(self, seat: int) -> list[LegalAction]:
        """Every unit that has not moved, to where it may go; tanks across a sea too."""
        ids = self.board.territories
        forces = self.forces
        moved = forces.moved
        columns = [(unit, forces.column(seat, unit)) for unit in self.UNIT_KINDS]
        tanks, aircraft, submarines = (column for _, column in columns)
        static = None if self.truces else self.ruleset.move_reach_ids  # no truce: the board's
        ferries = {  # the seas where a submarine of the seat may still carry tanks
            sea.index
            for sea in self.board.seas
            if forces.units[sea.index][submarines] > moved[sea.index][submarines]
        }
        legal: list[LegalAction] = []
        for index, (here, gone) in enumerate(zip(forces.units, moved, strict=True)):
            if (  # none of the seat's units may move from here (read without slices: hot)
                here[tanks] == gone[tanks]
                and here[aircraft] == gone[aircraft]
                and here[submarines] == gone[submarines]
            ):
                continue
            for unit, column in columns:
                free = here[column] - gone[column]  # forces.unmoved, read in bulk
                if free < 1:
                    continue
                if static is not None:
                    reach = static[unit][index]
                else:
                    reach = tuple(ids[t].id for t in self.move_targets(seat, index, unit))
                if reach:
                    legal.append(LegalMoveUnits(unit, ids[index].id, reach, 1, free))
                if unit == TANK and ferries:
                    legal += self._amphibious_families(seat, index, free, ferries)
        return legal

    def _amphibious_families(
        self, seat: int, source: int, free: int, ferries: set[int]
    ) -> list[LegalAction]:
        ids = self.board.territories
        legal: list[LegalAction] = []
        for ferry in self.board.coasts[source]:
            if ferry not in ferries:
                continue
            targets = self.amphibious_targets(seat, source, ferry)
            if targets:
                reach = tuple(ids[t].id for t in targets)
                legal.append(LegalAmphibiousMove(ids[source].id, ids[ferry].id, reach, 1, free))
        return legal

    def _torpedo_families(self, seat: int, fleet: list[Territory]) -> list[LegalAction]:
        ids = self.board.territories
        units = self.forces.units
        submarines = self.forces.column(seat, SUBMARINE)
        legal: list[LegalAction] = []
        for sea in fleet:
            ready = units[sea.index][submarines] - self.fired[sea.index]
            targets = self.torpedo_targets(seat, sea.index) if ready >= 1 else []
            if targets:
                legal.append(LegalTorpedo(sea.id, tuple(ids[t].id for t in targets), 1, ready))
        return legal

    def _siluro_families(self, seat: int, fleet: list[Territory]) -> list[LegalAction]:
        if not self._playable(seat, SILURO_KILLER):
            return []
        legal: list[LegalAction] = []
        for sea in fleet:
            victims = tuple(
                other
                for other in self.forces.seats_on(sea.index)
                if other != seat and not self.bound_by_truce(seat, other)
            )
            if victims:
                legal.append(LegalPlayCard(SILURO_KILLER, (sea.id,), victims))
        return legal

    def _battle_actions(self, seat: int, battles: list[int]) -> list[LegalAction]:
        """The battles the seat must fight (`battles_left`), first: what it does at least,
        when its time is up."""
        if not battles:
            return []
        ids = self.board.territories
        arma = (ARMA_SEGRETA,) if self._playable(seat, ARMA_SEGRETA) else ()
        tradimento = self._playable(seat, TRADIMENTO)
        legal: list[LegalAction] = []
        for space in battles:
            defender = self.enemy_at(space, seat)
            assert defender is not None
            if not self.bound_by_truce(seat, defender):
                legal.append(LegalBattle(ids[space].id, arma, ""))
            elif tradimento:  # else it never got in: a truce admits only who can break it
                legal.append(LegalBattle(ids[space].id, (*arma, TRADIMENTO), TRADIMENTO))
        return legal

    def _prompt_answers(self, prompt: OpenPrompt) -> LegalAction:
        space = prompt.values[0]
        cards = (ARMA_SEGRETA,) if self._playable(prompt.seat, ARMA_SEGRETA) else ()
        return LegalBattleCards(self.board.territories[space].id, cards)
