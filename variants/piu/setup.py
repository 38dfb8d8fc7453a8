"""RisiKo! Più's setup, in turn order, step by step: each seat places its fortress on the
empire it drew; then one army at a time on the free territories; then the rest five at a time;
then each writes, secretly, its hidden armies' territory; then three cards each."""

from __future__ import annotations

from typing import final

from domain import events as e
from domain.errors import InvalidAction, NotYourTerritory, OwnTerritory, WrongPhase
from domain.flow import Phase
from domain.kernel import handles
from domain.legal import LegalAction, LegalPlace
from domain.rng import DerivedRandom
from variants.piu import actions as pa
from variants.piu import events as pe
from variants.piu.base import (
    CLAIM_STEP,
    FORTRESS_STEP,
    FREE,
    HIDDEN_STEP,
    PLACE_STEP,
    SETUP_STEPS,
    PiuBase,
)
from variants.piu.legal import LegalChooseFortress, LegalClaimTerritory, LegalWriteHiddenTerritory


class PiuSetup(PiuBase):
    """Hooks: the first turn (`_start_turn`), once every seat has its three cards."""

    def _deal(self, rng: DerivedRandom) -> list[e.Event]:
        n = len(self.players)
        events = self._draw_first_player(rng)
        # Each seat draws an empire by lot: one army on each of its territories.
        empires = list(self.ruleset.empires)
        rng.shuffle(empires)
        starting = self.options.starting_armies or self.ruleset.starting_armies[n]
        members = self.board.region_members
        for seat in range(n):
            self.empire[seat] = empires[seat]
            for territory in members[empires[seat]]:
                self.owner[territory] = seat
                self.armies[territory] = 1
                self.territory_count[seat] += 1
            self.setup_remaining[seat] = starting - self.territory_count[seat]
        regions = self.board.regions
        events.append(
            pe.EmpiresDrawn(
                tuple(regions[r].id for r in self.empire),
                tuple(self.owner),
                starting,
            )
        )
        self.current = self.first_player
        self.setup_step = FORTRESS_STEP
        return events

    def _next_setup_turn(self, rng: DerivedRandom) -> list[e.Event]:
        """The next seat and step of the setup, in turn order; the game starts after it."""
        order = self.turn_order
        while self.setup_step:
            position = order.index(self.current)
            for step in range(1, len(order) + 1):
                seat = order[(position + step) % len(order)]
                if self._owes_setup(seat):
                    self.current = seat
                    if self.setup_step == PLACE_STEP:
                        rule = self.ruleset.setup_armies_per_turn
                        self.setup_quota = min(rule, self.setup_remaining[seat])
                    return []
            following = SETUP_STEPS.index(self.setup_step) + 1
            self.setup_step = SETUP_STEPS[following] if following < len(SETUP_STEPS) else ""
            # Each step starts again from the first player (the seat before it, searched on).
            self.current = order[-1]
        return self._start_play(rng)

    @final
    def _owes_setup(self, seat: int) -> bool:
        if self.resigned[seat]:
            return False
        step = self.setup_step
        if step == FORTRESS_STEP:
            return self.fortress[seat] < 0
        if step == CLAIM_STEP:
            # Every territory is taken before the rest are placed: if the armies run out
            # first (a player left during the setup), the others claim beyond their own.
            if not any(self.owner[t.index] == FREE for t in self.board.lands):
                return False
            return self.setup_remaining[seat] > 0 or not any(
                self.setup_remaining[other] > 0
                for other in range(len(self.players))
                if not self.resigned[other]
            )
        if step == PLACE_STEP:
            return self.setup_remaining[seat] > 0
        return self.hidden[seat] < 0

    @final
    def _start_play(self, rng: DerivedRandom) -> list[e.Event]:
        """Three cards each, in turn order; then the first turn."""
        self.setup_quota = 0
        self.deck = list(self.ruleset.cards.cards)
        rng.shuffle(self.deck)
        events: list[e.Event] = [e.DeckShuffled(len(self.deck), False)]
        for seat in self.turn_order:
            if self.resigned[seat]:
                continue
            cards = tuple(self.deck.pop() for _ in range(self.ruleset.hand_size))
            self.hands[seat].extend(cards)
            events += [e.CardDrawn(seat, len(self.hands[seat])), e.CardsReceived(seat, cards)]
        self.round = 1
        first = next(seat for seat in self.turn_order if not self.resigned[seat])
        return events + self._start_turn(first)

    @final
    def _setup_family(self, seat: int) -> LegalAction:
        board = self.board
        if self.setup_step == FORTRESS_STEP:
            members = board.region_members[self.empire[seat]]
            return LegalChooseFortress(tuple(board.territories[t].id for t in members))
        if self.setup_step == CLAIM_STEP:
            free = tuple(t.id for t in board.lands if self.owner[t.index] == FREE)
            return LegalClaimTerritory(free)
        if self.setup_step == PLACE_STEP:
            own = tuple(t.id for t in board.lands if self.owner[t.index] == seat)
            return LegalPlace(own, 1, self.setup_quota)
        fortresses = set(self.fortress)
        return LegalWriteHiddenTerritory(
            tuple(t.id for t in board.lands if t.index not in fortresses)
        )

    def _check_placing(self) -> None:
        if self.phase is Phase.SETUP and self.setup_step != PLACE_STEP:
            raise WrongPhase(f"this is the {self.setup_step} step of the setup")

    @final
    def _setup_turn(self, seat: int | None, step: str) -> int:
        seat = self._check_turn(seat)
        if self.phase is not Phase.SETUP or self.setup_step != step:
            raise WrongPhase(f"this is not the {step} step of the setup")
        return seat

    @final
    @handles(pa.ChooseFortress)
    def _choose_fortress(self, seat: int | None, action: pa.ChooseFortress) -> list[e.Event]:
        seat = self._setup_turn(seat, FORTRESS_STEP)
        territory = self.board.land(action.territory)
        if territory not in self.board.region_members[self.empire[seat]]:
            region = self.board.regions[self.empire[seat]].name
            raise NotYourTerritory(f"the fortress goes on a territory of your {region}")
        self.fortress[seat] = territory
        events: list[e.Event] = [pe.FortressPlaced(seat, action.territory)]
        return events + self._next_setup_turn(self._random())

    @final
    @handles(pa.ClaimTerritory)
    def _claim_territory(self, seat: int | None, action: pa.ClaimTerritory) -> list[e.Event]:
        seat = self._setup_turn(seat, CLAIM_STEP)
        territory = self.board.land(action.territory)
        if self.owner[territory] != FREE:
            raise OwnTerritory(f"{self.board.territories[territory].name} is already taken")
        self.owner[territory] = seat
        self.armies[territory] = 1
        self.territory_count[seat] += 1
        self.setup_remaining[seat] -= 1
        events: list[e.Event] = [pe.TerritoryClaimed(seat, action.territory)]
        return events + self._next_setup_turn(self._random())

    @final
    @handles(pa.WriteHiddenTerritory)
    def _write_hidden_territory(
        self, seat: int | None, action: pa.WriteHiddenTerritory
    ) -> list[e.Event]:
        seat = self._setup_turn(seat, HIDDEN_STEP)
        territory = self.board.land(action.territory)
        if territory in self.fortress:
            raise InvalidAction("the hidden armies never come out on a fortress's territory")
        self.hidden[seat] = territory
        events: list[e.Event] = [
            pe.HiddenTerritoryWritten(seat),
            pe.HiddenTerritoryChosen(seat, action.territory),
        ]
        return events + self._next_setup_turn(self._random())
