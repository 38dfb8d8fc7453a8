"""Classic RisiKo! (Editrice Giochi): the RisiKo! mechanics of domain/risiko composed, with
the setup of three armies a turn, secret objectives and the tournament rules as options.
The choices where the rule texts are silent or ambiguous are in docs/classic.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain import events as e
from domain.actions import doc
from domain.flow import Phase
from domain.legal import LegalAction, LegalEndTurn
from domain.risiko.cards import SetTrading
from domain.risiko.defence import DeclaredDefence
from domain.risiko.objectives import ObjectiveDeck, SecretObjectives
from domain.risiko.placement import Placement
from domain.risiko.strategic import StrategicMove
from domain.rng import DerivedRandom
from domain.views import StateView
from variants.classic.options import ClassicOptions

SETUP_ARMIES_PER_TURN = 3


@dataclass(frozen=True, slots=True)
class ClassicState(StateView):
    """Classic RisiKo!'s own state, beyond the board and the players."""

    name: ClassVar[str] = "ClassicState"
    first_player: int = doc("The seat the dice chose to play first; play goes clockwise.")
    setup_quota: int = doc("Armies the seat in turn places in this setup turn; 0 after it.")
    reinforcements_left: int = doc("Reinforcements the seat in turn still has to place.")
    conquered_this_turn: bool = doc(
        "The seat in turn has conquered a territory this turn: it draws a card at its end."
    )
    time_expired: bool = doc("The time limit has passed: the game ends with this round.")


class ClassicGame(SecretObjectives, SetTrading, StrategicMove, DeclaredDefence, Placement):
    """A game of classic RisiKo!. Create it with the players' names; it deals and starts the
    setup at once."""

    RULES_REVISIONS: ClassVar[Mapping[int, str]] = {1: "The rules as first played."}
    STATE_VIEW: ClassVar[type[StateView]] = ClassicState
    OPTIONS_CLASS = ClassicOptions
    # 2: the attack waiting for the defender's dice is a prompt on the kernel's stack.
    SNAPSHOT_FORMAT: ClassVar[int] = 2
    # A player who leaves is out at once: the attack waiting on it as a defender goes ahead
    # with the default answer, against a departed player.
    LEAVES_BEFORE_ANSWERING: ClassVar[bool] = True
    options: ClassicOptions

    # ------------------------------------------------------------------ reads

    def state_view(self) -> StateView:
        return ClassicState(
            self.turn_order,
            self.first_player,
            self.setup_quota if self.phase is Phase.SETUP else 0,
            self.pending_reinforcements,
            self.conquered_this_turn,
            self.time_expired,
        )

    def points(self, seat: int) -> int:
        """Ranking points: tournament scoring with tournament objectives (the objective's
        territories held, or the full award for a completed objective); otherwise the number
        of territories held."""
        if self.options.objectives is ObjectiveDeck.TOURNAMENT:
            return self._objective_points(seat)
        return self.territory_count[seat]

    def _turn_actions(self, seat: int) -> list[LegalAction]:
        if self.phase is Phase.SETUP:
            return [self._place_family(seat, self.setup_quota)]
        if self.phase is Phase.OCCUPY:
            return [self._occupy_family()]
        legal: list[LegalAction] = []
        if self.phase is Phase.REINFORCE:
            legal += self._trade_families(seat)
            if self.pending_reinforcements:
                legal.append(self._place_family(seat, self.pending_reinforcements))
                return legal
        legal += self._attack_families(seat)
        legal += self._move_families(seat)
        legal.append(LegalEndTurn())
        return legal

    # ------------------------------------------------------------------ the setup

    def _deal(self, rng: DerivedRandom) -> list[e.Event]:
        n = len(self.players)
        events = self._draw_first_player(rng)
        events += self._deal_objectives(rng)
        # The 42 territory cards, jolly removed, dealt one at a time from the dealer's right,
        # anticlockwise: the reverse of the playing order, starting with the last player.
        territory_cards = [c.id for c in self.ruleset.cards.cards.values() if c.territory]
        rng.shuffle(territory_cards)
        receivers = tuple(reversed(self.turn_order))
        for i, card_id in enumerate(territory_cards):
            seat = receivers[i % n]
            territory = self.board.index[card_id]
            self.owner[territory] = seat
            self.armies[territory] = 1
            self.territory_count[seat] += 1
        starting = self.ruleset.starting_armies[n]
        for seat in range(n):
            self.setup_remaining[seat] = starting - self.territory_count[seat]
        events.append(e.TerritoriesDealt(tuple(self.owner), starting))
        self.current = self.first_player
        self.setup_quota = min(SETUP_ARMIES_PER_TURN, self.setup_remaining[self.current])
        if self.setup_quota == 0:  # never: every seat has armies to place after the deal
            events += self._next_setup_turn(rng)
        return events

    def _next_setup_turn(self, rng: DerivedRandom) -> list[e.Event]:
        order = self.turn_order
        position = order.index(self.current)
        for step in range(1, len(order) + 1):
            seat = order[(position + step) % len(order)]
            if self.setup_remaining[seat] > 0:
                self.current = seat
                self.setup_quota = min(SETUP_ARMIES_PER_TURN, self.setup_remaining[seat])
                return []
        return self._first_round(rng)  # everyone has placed everything

    # ------------------------------------------------------------------ the turn

    def _start_turn(self, seat: int) -> list[e.Event]:
        self.current = seat
        self.phase = Phase.REINFORCE
        self.conquered_this_turn = False
        total, from_territories, regions = self.reinforcements_for(seat)
        self.pending_reinforcements = total
        events: list[e.Event] = [e.TurnStarted(seat, self.round, total, from_territories, regions)]
        return events + self._check_victory()

    def _closing_turn(self, seat: int) -> list[e.Event]:
        return self._conquest_card(seat)

    def _set_offers(self, seat: int) -> list[tuple[tuple[str, str, str], int]]:
        cards = self.ruleset.cards
        owned = self._owned_ids(seat)
        offers = []
        for triple in cards.tradeable_sets(self.hands[seat]):
            set_armies, bonus = cards.value(triple, owned)
            offers.append((triple, set_armies + bonus))
        return offers

    def _redeem(self, seat: int, cards: tuple[str, ...]) -> list[e.Event]:
        armies, bonus = self.ruleset.cards.value(cards, self._owned_ids(seat))
        self.pending_reinforcements += armies + bonus
        return [e.CardsTraded(seat, tuple(cards), armies, bonus)]

    def _owned_ids(self, seat: int) -> frozenset[str]:
        owner = self.owner
        return frozenset(t.id for t in self.board.territories if owner[t.index] == seat)

    # ------------------------------------------------------------------ victory

    def _after_battle(self, seat: int, target: int) -> list[e.Event]:
        # Losing armies never completes an objective: only a conquest can.
        if self.owner[target] == seat:
            return self._check_victory()
        return []

    def _after_armies_changed(self, seat: int) -> list[e.Event]:
        """Armies placed or moved without a conquest: only objectives that count armies can
        be completed by that."""
        if self.objective_of(seat).counts_armies:
            return self._check_victory()
        return []

    def _after_elimination(self, loser: int, winner: int) -> list[e.Event]:
        return self._objectives_fall_back(loser, winner)

    def _moved(self, seat: int) -> list[e.Event]:
        events = self._check_victory()
        if self.phase is Phase.OVER:
            return events
        return events + self._end_turn(seat)
