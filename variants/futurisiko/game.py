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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from domain import actions as a
from domain import events as e
from domain.actions import doc
from domain.cards import Card
from domain.combat import volley_hits
from domain.errors import (
    BattlesPending,
    CardNotInHand,
    InvalidAction,
    InvalidArmyCount,
    NotAdjacent,
    NotEnoughArmies,
    NotYourTerritory,
    NotYourTurn,
    OncePerTurn,
    OptionDisabled,
    OwnTerritory,
    Truce,
    UnknownTerritory,
    WrongKindOfSpace,
    WrongPhase,
)
from domain.flow import OpenPrompt, Phase
from domain.forces import Forces
from domain.kernel import Handler, Kernel
from domain.legal import LegalAction, LegalEndTurn
from domain.rng import DerivedRandom
from domain.views import SpaceView, StateView
from variants.futurisiko import actions as fa
from variants.futurisiko import events as fe
from variants.futurisiko.legal import (
    LegalAmphibiousMove,
    LegalBattle,
    LegalBattleCards,
    LegalMoveUnits,
    LegalPlaceFlag,
    LegalPlayCard,
    LegalProduce,
    LegalReceiveCards,
    LegalTorpedo,
)
from variants.futurisiko.options import AIRCRAFT_FIRST, FutuOptions
from variants.futurisiko.phases import CARDS, COMBAT, MOVEMENT, PRODUCTION, ROUND
from variants.futurisiko.ruleset import (
    AIRCRAFT,
    ARMA_SEGRETA,
    CARD_TYPES,
    FLAG,
    MISSILI_BALISTICI,
    SCUDO_SPAZIALE,
    SILURO_KILLER,
    SUBMARINE,
    SUPER_PRODUZIONE,
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


class FutuGame(Kernel):
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

    _STATE = (
        "seq",
        "eliminated",
        "resigned",
        "round",
        "current",
        "prompt_stack",
        "time_expired",
        "winner",
        "end_reason",
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
        self._random = DerivedRandom(self.seed, 0)

    def _bind_handlers(self) -> dict[type[a.Action], Handler]:
        return {
            fa.PlaceFlag: self._place_flag,
            fa.ReceiveCards: self._receive_cards,
            fa.Produce: self._produce,
            fa.PlayCard: self._play_card,
            fa.MoveUnits: self._move_units,
            fa.AmphibiousMove: self._amphibious_move,
            fa.Torpedo: self._torpedo,
            fa.Battle: self._battle,
            fa.BattleCards: self._battle_cards,
            a.EndTurn: self._end_turn,
            a.Resign: self._resign,
        }

    def apply(self, seat: int | None, action: a.Action) -> list[e.Event]:
        # One stream of randomness per action (its sequence number): dice and shuffles.
        self._random = DerivedRandom(self.seed, self.seq + 1)
        return super().apply(seat, action)

    # ------------------------------------------------------------------ reads

    @property
    def turn_order(self) -> tuple[int, ...]:
        return tuple(self.order)

    @property
    def turn_key(self) -> tuple[int, ...]:
        return (self.round, self.phase_position)

    def space_views(self) -> list[SpaceView]:
        return self.forces.views([t.id for t in self.board.territories])

    def territories_held(self, seat: int) -> int:
        return len(self.forces.held_by(seat))

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

    def enemy_at(self, space: int, seat: int) -> int | None:
        """The other seat with units or a flag on `space`, if any."""
        owner = self.forces.owner[space]
        if owner not in (FREE, seat):
            return owner
        for other in self.forces.seats_on(space):
            if other != seat:
                return other
        return None

    def fighters(self, space: int, seat: int) -> int:
        return sum(self.forces.count(space, seat, kind) for kind in FIGHTERS)

    def battles_left(self) -> list[int]:
        """Territories where the seat in turn's units meet the enemy's: each a battle it must
        fight before its turn ends."""
        if self.phase not in (MOVEMENT, COMBAT):
            return []
        seat = self.current
        return [
            land.index
            for land in self.board.lands
            if self.fighters(land.index, seat) and self.enemy_at(land.index, seat) is not None
        ]

    def bound_by_truce(self, seat: int, other: int) -> bool:
        return sorted((seat, other)) in self.truces

    def aircraft_reach(self, source: int) -> list[int]:
        """Territories two steps away at most, over territories and seas (the board wraps
        east-west in its data: the Pacific touches both the Americas and Asia)."""
        neighbours = self.board.neighbours
        reach = set(neighbours[source])
        for middle in neighbours[source]:
            reach.update(neighbours[middle])
        territories = self.board.territories
        return sorted(s for s in reach if s != source and not territories[s].is_sea)

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

    # ------------------------------------------------------------------ the deal and the setup

    def _deal(self, rng: DerivedRandom) -> list[e.Event]:
        self.draw_pile = [card.id for card in self.ruleset.deck]
        rng.shuffle(self.draw_pile)
        seats = list(range(len(self.players)))
        cards, order = self._draw_order(rng, seats)
        self.order = order
        self.phase = Phase.SETUP
        self.current = order[0]
        return [
            e.GameStarted(self.players, self.colours, order[0], tuple(order), self.commitment),
            fe.OrderDrawn(0, cards, tuple(order)),
            fe.PhaseTurnStarted(self.current, 0, Phase.SETUP.value, 0),
        ]

    def _draw_order(
        self, rng: DerivedRandom, seats: list[int]
    ) -> tuple[tuple[str, ...], list[int]]:
        """Shuffle the deck, turn cards until one shows a playing colour, shuffle again: the
        seat of that colour plays first, the others clockwise. In rules revision 1 a card
        showing two playing colours gave the one in its first corner, which the card data
        makes the earlier colour of the table (nero never played first at six); from
        revision 2 the lot picks either, as likely each, so every seated colour is as likely
        to be drawn (docs/futurisiko.md, "The order of play")."""
        rng.shuffle(self.draw_pile)
        colour_seat = {self.colours[seat]: seat for seat in seats}
        turned: list[str] = []
        first = None
        for card_id in reversed(self.draw_pile):
            colours = self.ruleset.card(card_id).colours
            turned += colours
            found = [colour_seat[c] for c in colours if c in colour_seat]
            if found:
                fair = self.rules_revision >= 2 and len(found) > 1
                first = found[rng.below(len(found))] if fair else found[0]
                break
        if first is None:  # no card left shows a playing colour: the lot decides
            first = seats[rng.below(len(seats))]
        rng.shuffle(self.draw_pile)
        ordered = sorted(seats)
        at = ordered.index(first)
        return tuple(turned), ordered[at:] + ordered[:at]

    def _place_flag(self, seat: int | None, action: fa.PlaceFlag) -> list[e.Event]:
        seat = self._check_turn(seat, Phase.SETUP)
        space = self._land(action.territory)
        if self.forces.owner[space] != FREE:
            raise NotYourTerritory(f"{self._name(space)} already has a flag")
        events = self._put_flag(seat, space, "setup")
        return events + self._next_setup(seat)

    def _next_setup(self, seat: int) -> list[e.Event]:
        events: list[e.Event] = [e.TurnEnded(seat)]
        free = [land for land in self.board.lands if self.forces.owner[land.index] == FREE]
        playing = [s for s in self.order if s in self.active_seats()]
        position = self.order.index(seat)
        following = [s for s in self.order[position + 1 :] if s in playing]
        if not free:
            return events + self._start_round()
        if following:
            self.current = following[0]
        elif self.options.fill_board and free and playing:
            candidates = [s for s in playing if self.flags_left(s)]
            if candidates:
                self.current = candidates[0]
            else:
                return events + self._start_round()
        else:
            return events + self._start_round()
        return [*events, fe.PhaseTurnStarted(self.current, 0, Phase.SETUP.value, 0)]

    # ------------------------------------------------------------------ the round

    def _start_round(self) -> list[e.Event]:
        limit = self.options.round_limit
        if limit is not None and self.round >= limit:
            return self._finish(None, "round_limit")
        self.round += 1
        self.shields = [0] * len(self.players)
        self.truces = []
        self._reshuffle_discards()
        cards, order = self._draw_order(self._random, self.active_seats())
        self.order = order
        events: list[e.Event] = [fe.OrderDrawn(self.round, cards, tuple(order))]
        position = 0 if self.round > 1 else 1  # no cards phase in the first round
        return events + self._begin(order[0], position)

    def _begin(self, seat: int, position: int) -> list[e.Event]:
        self.current = seat
        self.phase_position = position
        self.phase = ROUND.phases[position]
        self.played = []
        self.points_left = 0
        if self.phase is PRODUCTION:
            self.points_left = self.production_points(seat)
        if self.phase is MOVEMENT:
            self.forces.new_turn()
            self.fired = [0] * len(self.fired)
        events: list[e.Event] = [
            fe.PhaseTurnStarted(seat, self.round, self.phase.value, self.points_left)
        ]
        if self.phase is CARDS and not self.hands[seat]:
            # Nothing to discard or play (a public fact: hand sizes are public): dealt at once.
            return events + self._deal_cards(seat, "") + self._advance(seat)
        return events

    def _advance(self, seat: int) -> list[e.Event]:
        """`seat` has played its part of this phase: the next seat in the round's order plays
        it, or the next phase begins, or the next round."""
        events: list[e.Event] = [e.TurnEnded(seat)]
        playing = set(self.active_seats())
        position = self.order.index(seat)
        following = [s for s in self.order[position + 1 :] if s in playing]
        if following:
            return events + self._begin(following[0], self.phase_position)
        first = [s for s in self.order if s in playing]
        next_position = ROUND.following(self.phase_position)
        if next_position is not None and first:
            return events + self._begin(first[0], next_position)
        return events + self._start_round()

    def _leave_turn(self, seat: int) -> list[e.Event]:
        events: list[e.Event] = []
        for space in self.battles_left():  # its units withdraw from battles never fought
            events += self._remove_units(seat, space, kinds=FIGHTERS)
        return events + self._advance(seat)

    # ------------------------------------------------------------------ the cards phase

    def _reshuffle_discards(self) -> None:
        self.draw_pile = self.discard_pile + self.draw_pile
        self.discard_pile = []

    def _deal_cards(self, seat: int, discard: str) -> list[e.Event]:
        hand = self.hands[seat]
        events: list[e.Event] = []
        if discard:
            hand.remove(discard)
            self.discard_pile.append(discard)
            events.append(fe.CardDiscarded(seat, discard))
        due = self.production_points(seat) // 3 - len(hand)
        received: list[str] = []
        for _ in range(max(0, due)):
            if not self.draw_pile:
                self.draw_pile = self.discard_pile
                self.discard_pile = []
                self._random.shuffle(self.draw_pile)
            if not self.draw_pile:
                break
            received.append(self.draw_pile.pop())
        hand.extend(received)
        if received:
            events.append(e.CardsReceived(seat, tuple(received)))
        events.append(fe.CardsDealt(seat, 1 if discard else 0, len(received), len(hand)))
        return events

    def _receive_cards(self, seat: int | None, action: fa.ReceiveCards) -> list[e.Event]:
        seat = self._check_turn(seat, CARDS)
        if action.discard and action.discard not in self.hands[seat]:
            raise CardNotInHand(f"{action.discard!r} is not in your hand")
        return self._deal_cards(seat, action.discard) + self._advance(seat)

    # ------------------------------------------------------------------ production

    def _produce(self, seat: int | None, action: fa.Produce) -> list[e.Event]:
        seat = self._check_turn(seat, PRODUCTION)
        space = self._space(action.space)
        unit = self._unit(action.unit)
        if space not in self._production_spaces(seat, unit):
            where = "a sea area next to an own territory" if unit == SUBMARINE else "own"
            raise NotYourTerritory(f"a {unit} is built on {where}, not {self._name(space)}")
        high = self._producible(seat, unit)
        if not 1 <= action.count <= high:
            raise InvalidArmyCount(f"1 to {high} {unit} may be built now, not {action.count}")
        self.forces.add(space, seat, unit, action.count)
        self.points_left -= action.count * self.ruleset.costs[unit]
        return [fe.UnitsProduced(seat, action.space, unit, action.count, self.points_left)]

    def _production_spaces(self, seat: int, unit: str) -> list[int]:
        own = self.forces.held_by(seat)
        if unit != SUBMARINE:
            return own
        coasts = self.board.coasts
        return sorted({sea for space in own for sea in coasts[space]})

    def _producible(self, seat: int, unit: str) -> int:
        """What the points left and the box's supply allow."""
        in_box = self.ruleset.supply[unit] - self.forces.units_of(seat, unit)
        return min(in_box, self.points_left // self.ruleset.costs[unit])

    # ------------------------------------------------------------------ cards outside battles

    def _play_card(self, seat: int | None, action: fa.PlayCard) -> list[e.Event]:
        if seat is None or seat != self.current:
            raise NotYourTurn("it is not your turn")
        card_type = action.card
        if card_type not in CARD_TYPES:
            raise InvalidAction(f"there is no card {card_type!r}: use one of {CARD_TYPES}")
        card = self._first_card(seat, card_type)
        if card is None:
            raise CardNotInHand(f"you hold no {card_type} card")
        phases = {
            SUPER_PRODUZIONE: (PRODUCTION,),
            SCUDO_SPAZIALE: (PRODUCTION,),
            MISSILI_BALISTICI: (PRODUCTION,),
            SILURO_KILLER: (MOVEMENT, COMBAT),
            TREGUA: (CARDS,),
        }.get(card_type)
        if phases is None:
            raise WrongPhase(f"a {card_type} card is played before the dice of a battle")
        if not getattr(self.options, card_type):
            raise OptionDisabled(f"the {card_type} card has no effect in this game's options")
        if self.phase not in phases:
            raise WrongPhase(f"a {card_type} card is played in the {phases[-1].value} phase")
        if card_type in self.played:
            raise OncePerTurn(f"one {card_type} card a turn")
        effect = {
            SUPER_PRODUZIONE: self._super_produzione,
            SCUDO_SPAZIALE: self._scudo_spaziale,
            MISSILI_BALISTICI: self._missili_balistici,
            SILURO_KILLER: self._siluro_killer,
            TREGUA: self._tregua,
        }[card_type]
        events = effect(seat, action)  # checks everything before it changes anything
        self._discard(seat, card)
        self.played.append(card_type)
        played = fe.CardPlayed(seat, card, card_type, action.target, action.against)
        return [played, *events]

    def _no_target(self, action: fa.PlayCard) -> None:
        if action.target or action.against != -1:
            raise InvalidAction("this card aims at nothing: leave target and against empty")

    def _super_produzione(self, seat: int, action: fa.PlayCard) -> list[e.Event]:
        self._no_target(action)
        self.points_left += self.production_points(seat)  # the round's points, doubled
        return []

    def _scudo_spaziale(self, seat: int, action: fa.PlayCard) -> list[e.Event]:
        self._no_target(action)
        if self.shields[seat]:
            raise OncePerTurn("your Scudo Spaziale is already raised this round")
        self.shields[seat] = 1
        return []

    def _missili_balistici(self, seat: int, action: fa.PlayCard) -> list[e.Event]:
        target = self._land(action.target)
        if action.against != -1:
            raise InvalidAction("Missili Balistici aims at a territory: leave against at -1")
        if target not in self.missile_targets(seat):
            raise NotAdjacent(
                f"{self._name(target)} is not an enemy territory with units within two steps"
            )
        defender = self.enemy_at(target, seat)
        assert defender is not None
        if self.shields[defender]:  # the shield stops this missile, and is spent
            self.shields[defender] = 0
            return [fe.UnitsHit(seat, "missile", action.target, defender, (), 0, 0)]
        dice = self._random.dice(MISSILE_DICE)
        hits = volley_hits(dice, self.ruleset.explosion_faces)
        tanks, aircraft = self._destroy(target, defender, hits)
        return [fe.UnitsHit(seat, "missile", action.target, defender, tuple(dice), tanks, aircraft)]

    def _siluro_killer(self, seat: int, action: fa.PlayCard) -> list[e.Event]:
        sea = self._sea(action.target)
        if not self.forces.count(sea, seat, SUBMARINE):
            raise NotEnoughArmies(f"you have no submarine in {self._name(sea)}")
        victim = action.against
        if not 0 <= victim < len(self.players) or victim == seat:
            raise InvalidAction(f"seat {victim} is not an enemy")
        if not self.forces.count(sea, victim, SUBMARINE):
            raise NotEnoughArmies(f"seat {victim} has no submarine in {self._name(sea)}")
        if self.bound_by_truce(seat, victim):
            raise Truce(f"a truce binds you to seat {victim} this round")
        self._leave_movement()
        self.forces.remove(sea, victim, SUBMARINE, 1)
        return [fe.SubmarineSunk(seat, action.target, victim)]

    def _tregua(self, seat: int, action: fa.PlayCard) -> list[e.Event]:
        other = action.against
        if action.target:
            raise InvalidAction("Tregua aims at a seat: leave target empty")
        if other == seat or other not in self.active_seats():
            raise InvalidAction(f"seat {other} is not an opponent still playing")
        if self.bound_by_truce(seat, other):
            raise OncePerTurn(f"a truce already binds you to seat {other}")
        self.truces.append(sorted((seat, other)))
        return []

    # ------------------------------------------------------------------ movement

    def _move_units(self, seat: int | None, action: fa.MoveUnits) -> list[e.Event]:
        seat = self._check_turn(seat, MOVEMENT)
        source = self._space(action.source)
        target = self._space(action.target)
        unit = self._unit(action.unit)
        if target not in self.move_targets(seat, source, unit):
            self._explain_bad_move(seat, source, target, unit)
        self._check_count(seat, source, unit, action.count)
        self.forces.move(source, target, seat, unit, action.count)
        return [fe.UnitsMoved(seat, action.source, action.target, unit, action.count, "")]

    def move_targets(self, seat: int, source: int, unit: str) -> list[int]:
        """Where units of `unit` on `source` may go (the truce's limits included)."""
        board = self.board
        if board.territories[source].is_sea != (unit == SUBMARINE):
            return []
        if unit == TANK:
            reach = list(board.land_neighbours[source])
        elif unit == AIRCRAFT:
            reach = self.aircraft_reach(source)
        else:
            reach = list(board.sea_neighbours[source])
        return [target for target in reach if self._may_enter(seat, target)]

    def _may_enter(self, seat: int, space: int) -> bool:
        """A truce keeps a seat out of the other's spaces, unless it holds a Tradimento to
        break it in the battle there: one for each player it would fight so."""
        if self.board.territories[space].is_sea:
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

    def _amphibious_move(self, seat: int | None, action: fa.AmphibiousMove) -> list[e.Event]:
        seat = self._check_turn(seat, MOVEMENT)
        source = self._land(action.source)
        target = self._land(action.target)
        sea = self._sea(action.sea)
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

    # ------------------------------------------------------------------ combat

    def _leave_movement(self) -> None:
        """The first combat action ends the movement: no unit moves after it."""
        if self.phase is MOVEMENT:
            self.phase = COMBAT

    def _torpedo(self, seat: int | None, action: fa.Torpedo) -> list[e.Event]:
        seat = self._check_turn(seat, MOVEMENT, COMBAT)
        sea = self._sea(action.sea)
        target = self._land(action.target)
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
        dice = self._random.dice(action.submarines * self.ruleset.submarine_dice)
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

    def _battle(self, seat: int | None, action: fa.Battle) -> list[e.Event]:
        seat = self._check_turn(seat, MOVEMENT, COMBAT)
        space = self._land(action.territory)
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

    def _discard(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.discard_pile.append(card)

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
        defender_arma = len(defender_cards)
        faces = self.ruleset.explosion_faces
        flag = forces.owner[space] == defender
        attacker_first = forces.count(space, attacker, AIRCRAFT) > forces.count(
            space, defender, AIRCRAFT
        )
        lost = {attacker: [0, 0], defender: [0, 0]}
        volleys: list[tuple[int, ...]] = []
        attacker_fires = attacker_first
        while self.fighters(space, attacker) and (self.fighters(space, defender) or flag):
            if attacker_fires:
                count = self.fighters(space, attacker) + ARMA_SEGRETA_DICE * attacker_arma
                dice = self._random.dice(count)
                hits = volley_hits(dice, faces)
                standing = self.fighters(space, defender)
                tanks, aircraft = self._destroy(space, defender, hits)
                if hits > standing:
                    flag = False
            else:
                count = self.fighters(space, defender) + ARMA_SEGRETA_DICE * defender_arma
                count += self.ruleset.flag_dice if flag else 0
                dice = self._random.dice(count)
                tanks, aircraft = self._destroy(space, attacker, volley_hits(dice, faces))
            side = lost[defender if attacker_fires else attacker]  # who was hit
            side[0] += tanks
            side[1] += aircraft
            volleys.append(tuple(dice))
            attacker_fires = not attacker_fires
        won = self.fighters(space, attacker) > 0
        flag_taken = won and forces.owner[space] == defender
        ids = self.board.territories
        events: list[e.Event] = [
            fe.BattleFought(
                attacker,
                ids[space].id,
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

    def _destroy(self, space: int, seat: int, hits: int) -> tuple[int, int]:
        """Remove up to `hits` tanks and aircraft of `seat` on `space` in the order of the
        `losses` option; (tanks lost, aircraft lost). Flags and submarines are never hit."""
        order = (AIRCRAFT, TANK) if self.options.losses == AIRCRAFT_FIRST else (TANK, AIRCRAFT)
        lost = {TANK: 0, AIRCRAFT: 0}
        for kind in order:
            count = min(hits, self.forces.count(space, seat, kind))
            if count:
                self.forces.remove(space, seat, kind, count)
            lost[kind] = count
            hits -= count
        return lost[TANK], lost[AIRCRAFT]

    # ------------------------------------------------------------------ flags, the end of a turn

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

    def _end_turn(self, seat: int | None, action: a.EndTurn) -> list[e.Event]:
        seat = self._check_turn(seat, PRODUCTION, MOVEMENT, COMBAT)
        if self.phase is PRODUCTION:
            return self._advance(seat)
        pending = self.battles_left()
        if pending:
            names = ", ".join(self._name(space) for space in pending)
            raise BattlesPending(f"fight the battles first: {names}")
        events: list[e.Event] = []
        for land in self.board.lands:  # free territories where its units stand alone
            if self.fighters(land.index, seat):
                events += self._claim(seat, land.index, "occupation")
        if self.is_over:
            return events
        return events + self._advance(seat)

    # ------------------------------------------------------------------ legal actions

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

    def _first_card(self, seat: int, card_type: str) -> str | None:
        """The first card of `card_type` in the hand (cards of a type are alike)."""
        cards = sorted(c for c in self.hands[seat] if self.ruleset.card(c).type == card_type)
        return cards[0] if cards else None

    def _playable(self, seat: int, card_type: str) -> bool:
        """`seat` holds a card of `card_type`, its option is on, none was played this turn."""
        option = TREGUA if card_type == TRADIMENTO else card_type
        return (
            self._first_card(seat, card_type) is not None
            and card_type not in self.played
            and bool(getattr(self.options, option))
        )

    def _production_actions(self, seat: int) -> list[LegalAction]:
        ids = self.board.territories
        legal: list[LegalAction] = []
        for unit in self.UNIT_KINDS:
            high = self._producible(seat, unit)
            spaces = self._production_spaces(seat, unit)
            if high >= 1 and spaces:
                legal.append(LegalProduce(unit, tuple(ids[s].id for s in spaces), 1, high))
        if self._playable(seat, SUPER_PRODUZIONE):
            legal.append(LegalPlayCard(SUPER_PRODUZIONE, ("",), (-1,)))
        if self._playable(seat, SCUDO_SPAZIALE) and not self.shields[seat]:
            legal.append(LegalPlayCard(SCUDO_SPAZIALE, ("",), (-1,)))
        targets = self.missile_targets(seat)
        if self._playable(seat, MISSILI_BALISTICI) and targets:
            reach = tuple(ids[s].id for s in targets)
            legal.append(LegalPlayCard(MISSILI_BALISTICI, reach, (-1,)))
        legal.append(LegalEndTurn())
        return legal

    def _operations_actions(self, seat: int) -> list[LegalAction]:
        ids = self.board.territories
        forces = self.forces
        legal: list[LegalAction] = self._battle_actions(seat)
        if self.phase is MOVEMENT:
            for space in ids:
                for unit in self.UNIT_KINDS:
                    free = forces.unmoved(space.index, seat, unit)
                    if free < 1:
                        continue
                    targets = self.move_targets(seat, space.index, unit)
                    if targets:
                        reach = tuple(ids[t].id for t in targets)
                        legal.append(LegalMoveUnits(unit, space.id, reach, 1, free))
                    if unit != TANK:
                        continue
                    for ferry in self.board.coasts[space.index]:
                        if forces.unmoved(ferry, seat, SUBMARINE) < 1:
                            continue
                        targets = self.amphibious_targets(seat, space.index, ferry)
                        if targets:
                            reach = tuple(ids[t].id for t in targets)
                            family = LegalAmphibiousMove(space.id, ids[ferry].id, reach, 1, free)
                            legal.append(family)
        for sea in self.board.seas:
            ready = forces.count(sea.index, seat, SUBMARINE) - self.fired[sea.index]
            targets = self.torpedo_targets(seat, sea.index) if ready >= 1 else []
            if targets:
                legal.append(LegalTorpedo(sea.id, tuple(ids[t].id for t in targets), 1, ready))
        if self._playable(seat, SILURO_KILLER):
            for sea in self.board.seas:
                if not forces.count(sea.index, seat, SUBMARINE):
                    continue
                victims = tuple(
                    other
                    for other in forces.seats_on(sea.index)
                    if other != seat and not self.bound_by_truce(seat, other)
                )
                if victims:
                    legal.append(LegalPlayCard(SILURO_KILLER, (sea.id,), victims))
        if not self.battles_left():
            legal.append(LegalEndTurn())
        return legal

    def _battle_actions(self, seat: int) -> list[LegalAction]:
        """The battles the seat must fight, first: what it does at least, when its time is up."""
        ids = self.board.territories
        arma = (ARMA_SEGRETA,) if self._playable(seat, ARMA_SEGRETA) else ()
        tradimento = self._playable(seat, TRADIMENTO)
        legal: list[LegalAction] = []
        for space in self.battles_left():
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

    # ------------------------------------------------------------------ checks

    def _check_turn(self, seat: int | None, *phases: Phase) -> int:
        if seat is None or seat != self.current:
            raise NotYourTurn("it is not your turn")
        if self.phase not in phases:
            raise WrongPhase(f"this is the {self.phase.value} phase")
        return seat

    def _name(self, space: int) -> str:
        return self.board.territories[space].name

    def _space(self, space_id: str) -> int:
        index = self.board.index.get(space_id)
        if index is None:
            raise UnknownTerritory(f"there is no space {space_id!r}")
        return index

    def _land(self, space_id: str) -> int:
        space = self._space(space_id)
        if self.board.territories[space].is_sea:
            raise WrongKindOfSpace(f"{self._name(space)} is a sea area, not a territory")
        return space

    def _sea(self, space_id: str) -> int:
        space = self._space(space_id)
        if not self.board.territories[space].is_sea:
            raise WrongKindOfSpace(f"{self._name(space)} is a territory, not a sea area")
        return space

    def _unit(self, unit: str) -> str:
        if unit not in self.UNIT_KINDS:
            raise InvalidAction(f"unknown unit {unit!r}: use one of {self.UNIT_KINDS}")
        return unit
