"""RisiKo! Più's cards outside battles: the hand drawn up to three after the reinforcements,
then Rinforzi, Spia (with the spied hand's discard) and Diplomatico in the cards step; the
hidden armies, which come out once a game, in turn or out of it; each seat's standing orders
for the cards played out of turn."""

from __future__ import annotations

from typing import final

from domain import events as e
from domain.errors import (
    CardNotInHand,
    InvalidAction,
    NotYourTerritory,
    NotYourTurn,
    OptionDisabled,
    WrongPhase,
)
from domain.flow import Phase
from domain.kernel import handles
from domain.legal import LegalAction
from variants.piu import actions as pa
from variants.piu import events as pe
from variants.piu.base import PiuBase
from variants.piu.errors import OncePerGame
from variants.piu.legal import (
    LegalPlayDiplomat,
    LegalPlayRinforzi,
    LegalPlaySpy,
    LegalRevealHiddenArmies,
    LegalStandingOrders,
)
from variants.piu.phases import PiuPhase
from variants.piu.ruleset import DIPLOMATICO, RINFORZI, SPIA


class PiuCards(PiuBase):
    """The cards played in the cards step, the hidden armies, the standing orders."""

    @final
    def _draw_cards(self, seat: int) -> list[e.Event]:
        """Step 2: the hand drawn up to three; then the cards may be played."""
        self.phase = PiuPhase.CARDS
        events: list[e.Event] = []
        while len(self.hands[seat]) < self.ruleset.hand_size:
            drawn = self._draw_card(seat)
            if not drawn:
                break
            events += drawn
        return events

    @final
    def _card_families(self, seat: int) -> list[LegalAction]:
        """The cards of the cards step `seat` may play now."""
        hand = self.hands[seat]
        legal: list[LegalAction] = []
        rinforzi = self._cards_of(hand, RINFORZI)
        if rinforzi:
            value = self.ruleset.rinforzi_value(self.rinforzi_played)
            legal.append(LegalPlayRinforzi(rinforzi, value))
        opponents = tuple(s for s in self.active_seats() if s != seat)
        spies = self._cards_of(hand, SPIA)
        if spies and opponents:
            legal.append(LegalPlaySpy(spies, opponents))
        diplomats = self._cards_of(hand, DIPLOMATICO)
        untouched = tuple(s for s in opponents if [seat, s] not in self.truces)
        if diplomats and untouched:
            legal.append(LegalPlayDiplomat(diplomats, untouched))
        return legal

    def _out_of_turn_actions(self, seat: int) -> list[LegalAction]:
        """To every seat still playing but the one in turn, once the setup is over, what it
        may do out of turn: its standing orders, its hidden armies."""
        if not self._plays_out_of_turn(seat):
            return []
        return [*self._hidden_families(seat), self._orders_family()]

    @final
    def _hidden_families(self, seat: int) -> list[LegalAction]:
        hidden = self.hidden_armies_now(seat)
        if not hidden:
            return []
        return [LegalRevealHiddenArmies(self.board.territories[self.hidden[seat]].id, hidden)]

    @final
    def _orders_family(self) -> LegalAction:
        return LegalStandingOrders(pa.MARSHAL_ORDERS, pa.SPY_ORDERS)

    @final
    def _in_cards_step(self, seat: int | None, what: str) -> int:
        seat = self._check_turn(seat)
        if self.phase is not PiuPhase.CARDS:
            raise WrongPhase(f"{what} is played after the reinforcements, before any attack")
        self._check_no_spy_owed()
        return seat

    # ------------------------------------------------------------------ hidden armies

    @final
    @handles(pa.RevealHiddenArmies)
    def _reveal_hidden_armies(
        self, seat: int | None, action: pa.RevealHiddenArmies
    ) -> list[e.Event]:
        if seat is None or not self._plays_out_of_turn(seat):
            raise NotYourTurn(
                "the hidden armies come out for a player still in the game, after the setup"
            )
        if seat == self.current:  # in its own turn, not in the middle of a step
            if self.phase is Phase.OCCUPY:
                raise WrongPhase("move armies into the conquered territory first")
            self._check_no_spy_owed()
        if self.hidden_used[seat]:
            raise OncePerGame("your hidden armies have already come out")
        territory = self.hidden[seat]
        if self.owner[territory] != seat:
            name = self.board.territories[territory].name
            raise NotYourTerritory(f"the hidden armies come out only while you hold {name}")
        armies = self._hidden_armies_size()
        if not armies:
            raise OptionDisabled("this game is played without hidden armies")
        self.hidden_used[seat] = True
        self.armies[territory] += armies
        return [pe.HiddenArmiesRevealed(seat, self.board.territories[territory].id, armies)]

    @final
    def _hidden_armies_size(self) -> int:
        size = self.options.hidden_armies
        return self.ruleset.rinforzi_value(self.rinforzi_played) if size is None else size

    @final
    def hidden_armies_now(self, seat: int) -> int:
        """How many hidden armies `seat` may bring out now (0: none)."""
        territory = self.hidden[seat]
        if self.hidden_used[seat] or territory < 0 or self.owner[territory] != seat:
            return 0
        return self._hidden_armies_size()

    # ------------------------------------------------------------------ the cards step

    @final
    @handles(pa.PlayRinforzi)
    def _play_rinforzi(self, seat: int | None, action: pa.PlayRinforzi) -> list[e.Event]:
        seat = self._in_cards_step(seat, "a Rinforzi card")
        self._card(seat, action.card, RINFORZI)
        rules = self.ruleset
        step = self.rinforzi_played % len(rules.rinforzi_track) + 1
        armies = rules.rinforzi_value(self.rinforzi_played)
        self._discard(seat, action.card)
        self.rinforzi_played += 1
        self.pending_reinforcements += armies
        return [pe.RinforziPlayed(seat, action.card, step, armies)]

    @final
    @handles(pa.PlaySpy)
    def _play_spy(self, seat: int | None, action: pa.PlaySpy) -> list[e.Event]:
        seat = self._in_cards_step(seat, "a Spia")
        self._card(seat, action.card, SPIA)
        player = self._opponent(seat, action.player)
        self._discard(seat, action.card)
        events: list[e.Event] = [pe.SpyPlayed(seat, action.card, player)]
        blockers = self._cards_of(self.hands[player], SPIA)
        if blockers and self.spy_orders[player] == pa.SPY_BLOCK:
            self._discard(player, blockers[0])
            return [*events, pe.SpyBlocked(player, blockers[0], seat)]
        hand = tuple(self.hands[player])
        if hand:
            self.spied = player
        return [*events, pe.SpyReport(seat, player, hand)]

    @final
    @handles(pa.DiscardSpiedCard)
    def _discard_spied_card(self, seat: int | None, action: pa.DiscardSpiedCard) -> list[e.Event]:
        seat = self._check_turn(seat)
        player = self.spied
        if player < 0:
            raise WrongPhase("no Spia is waiting for a discard")
        if action.card not in self.hands[player]:
            raise CardNotInHand(f"{self.players[player]} does not hold {action.card!r}")
        self._discard(player, action.card)
        self.spied = -1
        return [pe.SpiedCardDiscarded(seat, player), pe.CardLost(player, action.card, seat)]

    @final
    @handles(pa.PlayDiplomat)
    def _play_diplomat(self, seat: int | None, action: pa.PlayDiplomat) -> list[e.Event]:
        seat = self._in_cards_step(seat, "a Diplomatico")
        self._card(seat, action.card, DIPLOMATICO)
        player = self._opponent(seat, action.player)
        if [seat, player] in self.truces:
            raise InvalidAction(f"you already have a truce with {self.players[player]}")
        self._discard(seat, action.card)
        self.truces.append([seat, player])
        return [pe.TruceImposed(seat, action.card, player)]

    # ------------------------------------------------------------------ standing orders

    @final
    @handles(pa.SetStandingOrders)
    def _set_standing_orders(self, seat: int | None, action: pa.SetStandingOrders) -> list[e.Event]:
        if seat is None or not 0 <= seat < len(self.players):
            raise NotYourTurn("only a seat of the game sets its orders")
        if not self._plays_out_of_turn(seat):
            raise WrongPhase("orders are set by a player still in the game, after the setup")
        if action.marshal not in pa.MARSHAL_ORDERS:
            raise InvalidAction(f"marshal: one of {', '.join(pa.MARSHAL_ORDERS)}")
        if action.spy not in pa.SPY_ORDERS:
            raise InvalidAction(f"spy: one of {', '.join(pa.SPY_ORDERS)}")
        self.marshal_orders[seat] = action.marshal
        self.spy_orders[seat] = action.spy
        return [pe.StandingOrdersSet(seat, action.marshal, action.spy)]
