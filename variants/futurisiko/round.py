"""FutuRisiKo!'s round: the order of play drawn from the cards, the setup's flags, then each
phase played by every seat in the round's order (the cards, the production, the operations),
and the end of a seat's part of a phase."""

from __future__ import annotations

from domain import actions as a
from domain import events as e
from domain.errors import (
    CardNotInHand,
    InvalidArmyCount,
    NotYourTerritory,
)
from domain.flow import Phase
from domain.kernel import handles
from domain.legal import LegalAction, LegalEndTurn
from domain.rng import DerivedRandom
from variants.futurisiko import actions as fa
from variants.futurisiko import events as fe
from variants.futurisiko.base import (
    FIGHTERS,
    FREE,
    FutuBase,
)
from variants.futurisiko.errors import BattlesPending
from variants.futurisiko.legal import (
    LegalPlayCard,
    LegalProduce,
)
from variants.futurisiko.phases import CARDS, COMBAT, MOVEMENT, PRODUCTION, ROUND
from variants.futurisiko.ruleset import (
    MISSILI_BALISTICI,
    SCUDO_SPAZIALE,
    SUBMARINE,
    SUPER_PRODUZIONE,
)


class FutuRound(FutuBase):
    """The deal, the setup, the phases of a round, the cards dealt, the production."""

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

    @handles(fa.PlaceFlag)
    def _place_flag(self, seat: int | None, action: fa.PlaceFlag) -> list[e.Event]:
        seat = self._check_turn(seat, Phase.SETUP)
        space = self.board.land(action.territory)
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

    def _start_round(self) -> list[e.Event]:
        reason = self._limit_reached()
        if reason is not None:
            return self._finish(None, reason)
        self.round += 1
        self.shields = [0] * len(self.players)
        self.truces = []
        self._reshuffle_discards()
        cards, order = self._draw_order(self._random(), self.active_seats())
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
        if self.prompt_stack:
            return []  # the battle waits for its defender; the turn goes on once answered
        events: list[e.Event] = []
        for space in self.battles_left():  # its units withdraw from battles never fought
            events += self._remove_units(seat, space, kinds=FIGHTERS)
        return events + self._advance(seat)

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
                self._random().shuffle(self.draw_pile)
            if not self.draw_pile:
                break
            received.append(self.draw_pile.pop())
        hand.extend(received)
        if received:
            events.append(e.CardsReceived(seat, tuple(received)))
        events.append(fe.CardsDealt(seat, 1 if discard else 0, len(received), len(hand)))
        return events

    @handles(fa.ReceiveCards)
    def _receive_cards(self, seat: int | None, action: fa.ReceiveCards) -> list[e.Event]:
        seat = self._check_turn(seat, CARDS)
        if action.discard and action.discard not in self.hands[seat]:
            raise CardNotInHand(f"{action.discard!r} is not in your hand")
        return self._deal_cards(seat, action.discard) + self._advance(seat)

    @handles(fa.Produce)
    def _produce(self, seat: int | None, action: fa.Produce) -> list[e.Event]:
        seat = self._check_turn(seat, PRODUCTION)
        space = self.board.find(action.space)
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

    def _production_spaces(self, seat: int, unit: str, own: list[int] | None = None) -> list[int]:
        """Where `seat` may build units of `unit` (`own`: its territories, when known)."""
        own = self.forces.held_by(seat) if own is None else own
        if unit != SUBMARINE:
            return own
        coasts = self.board.coasts
        return sorted({sea for space in own for sea in coasts[space]})

    def _producible(self, seat: int, unit: str) -> int:
        """What the points left and the box's supply allow."""
        in_box = self.ruleset.supply[unit] - self.forces.units_of(seat, unit)
        return min(in_box, self.points_left // self.ruleset.costs[unit])

    @handles(a.EndTurn)
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

    def _production_actions(self, seat: int) -> list[LegalAction]:
        ids = self.board.territories
        own = self.forces.held_by(seat)
        legal: list[LegalAction] = []
        for unit in self.UNIT_KINDS:
            high = self._producible(seat, unit)
            spaces = self._production_spaces(seat, unit, own) if high >= 1 else []
            if spaces:
                legal.append(LegalProduce(unit, tuple(ids[s].id for s in spaces), 1, high))
        if self._playable(seat, SUPER_PRODUZIONE):
            legal.append(LegalPlayCard(SUPER_PRODUZIONE, ("",), (-1,)))
        if self._playable(seat, SCUDO_SPAZIALE) and not self.shields[seat]:
            legal.append(LegalPlayCard(SCUDO_SPAZIALE, ("",), (-1,)))
        playable = self._playable(seat, MISSILI_BALISTICI)
        targets = self.missile_targets(seat) if playable else []
        if targets:
            reach = tuple(ids[s].id for s in targets)
            legal.append(LegalPlayCard(MISSILI_BALISTICI, reach, (-1,)))
        legal.append(LegalEndTurn())
        return legal
