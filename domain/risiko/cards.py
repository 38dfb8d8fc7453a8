"""RisiKo!'s cards: each seat's hand, the deck and its discards (Deck), and trading sets of
three for reinforcements, with the card a conquest earns at the end of a turn (SetTrading)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, final

from domain import actions as a
from domain import events as e
from domain.errors import CardNotInHand, WrongPhase
from domain.flow import Phase
from domain.kernel import Kernel, handles
from domain.legal import LegalTrade
from domain.risiko.turns import ClockwiseTurns
from domain.rng import DerivedRandom


class Deck(Kernel):
    """The hands (private to their seats), the deck (its top card last) and the discards."""

    _STATE: ClassVar[tuple[str, ...]] = ("hands", "deck", "discard")
    hands: list[list[str]]
    deck: list[str]
    discard: list[str]

    def _start_state(self) -> None:
        self.hands = [[] for _ in self.players]
        self.deck = []  # the top card is the last one
        self.discard = []
        super()._start_state()

    def hand(self, seat: int) -> Sequence[str]:
        return tuple(self.hands[seat])

    def deck_size(self) -> int:
        return len(self.deck)

    @final
    def _draw_card(self, seat: int) -> list[e.Event]:
        """The deck's top card to `seat`; the discards shuffled into a new deck first when the
        deck is empty (nothing when every card is in someone's hand)."""
        events: list[e.Event] = []
        if not self.deck and self.discard:
            self.deck = self.discard
            self.discard = []
            self._random().shuffle(self.deck)
            events.append(e.DeckShuffled(len(self.deck), True))
        if not self.deck:
            return events  # every card is in someone's hand
        card = self.deck.pop()
        self.hands[seat].append(card)
        hand_size = len(self.hands[seat])
        return [*events, e.CardDrawn(seat, hand_size), e.CardsReceived(seat, (card,))]


class SetTrading(Deck, ClockwiseTurns):
    """Trading a set of three cards in the reinforcements (TradeCards), and the card a seat
    that conquered draws as its turn ends.

    Hooks: `_set_offers(seat)` (the sets `seat` may trade now, each with what it is worth),
    `_redeem(seat, cards)` (refuse a set that is none, else add what it is worth)."""

    def _set_offers(self, seat: int) -> list[tuple[tuple[str, str, str], int]]:
        """Every set `seat` may trade, with the armies it is worth now."""
        raise NotImplementedError

    def _redeem(self, seat: int, cards: tuple[str, ...]) -> list[e.Event]:
        """What a set is worth, given to `seat` (InvalidCardSet, changing nothing, for cards
        that make no set): the events of the trade."""
        raise NotImplementedError

    @final
    def _first_round(self, rng: DerivedRandom) -> list[e.Event]:
        """The setup is over: the deck (with the jollies) is shuffled, and round 1 starts with
        the first seat in the order of play still playing."""
        self.deck = list(self.ruleset.cards.cards)
        rng.shuffle(self.deck)
        self.round = 1
        events: list[e.Event] = [e.DeckShuffled(len(self.deck), False)]
        first = next(seat for seat in self.turn_order if not self.resigned[seat])
        return events + self._start_turn(first)

    @final
    def _trade_families(self, seat: int) -> list[LegalTrade]:
        return [LegalTrade(triple, armies) for triple, armies in self._set_offers(seat)]

    @final
    @handles(a.TradeCards)
    def _trade_cards(self, seat: int | None, action: a.TradeCards) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is not Phase.REINFORCE:
            raise WrongPhase("cards can be traded only in the reinforcement phase")
        hand = self.hands[seat]
        for card in action.cards:
            if card not in hand:
                raise CardNotInHand(f"you do not hold the card {card!r}")
        events = self._redeem(seat, action.cards)
        for card in action.cards:
            hand.remove(card)
        self.discard.extend(action.cards)
        return events

    @final
    def _conquest_card(self, seat: int) -> list[e.Event]:
        """A card for the seat whose turn ends after a conquest."""
        return self._draw_card(seat) if self.conquered_this_turn else []
