"""Placing armies (PlaceArmies): during the setup, a quota a turn on own territories; in a turn,
the reinforcements it starts with (and what cards add)."""

from __future__ import annotations

from typing import ClassVar, final

from domain import actions as a
from domain import events as e
from domain.errors import InvalidArmyCount, WrongPhase
from domain.flow import Phase
from domain.kernel import handles
from domain.legal import LegalPlace
from domain.risiko.turns import ClockwiseTurns
from domain.rng import DerivedRandom


class Placement(ClockwiseTurns):
    """The armies each seat still places in the setup (`setup_remaining`), the quota of this
    setup turn, and placing them or the turn's reinforcements.

    Hooks: `_next_setup_turn(rng)` (the setup's next turn, or the first turn of play),
    `_check_placing()` (in the setup, a refusal before whose turn it is),
    `_armies_available()` (how many may be placed now, or why none),
    `_armies_placed(seat, armies)` (what follows a placement)."""

    _STATE: ClassVar[tuple[str, ...]] = ("setup_remaining", "setup_quota")
    setup_remaining: list[int]
    setup_quota: int

    def _start_state(self) -> None:
        self.setup_remaining = [0] * len(self.players)
        self.setup_quota = 0
        super()._start_state()

    def armies_to_place(self) -> int:
        return self.setup_quota if self.phase is Phase.SETUP else self.pending_reinforcements

    def _leaving(self, seat: int) -> list[e.Event]:
        """A seat that leaves places nothing more in the setup."""
        self.setup_remaining[seat] = 0
        return super()._leaving(seat)

    def _leave_turn(self, seat: int) -> list[e.Event]:
        """A seat that leaves in its setup turn passes it on; in play, the game's own."""
        if self.phase is Phase.SETUP:
            return self._next_setup_turn(self._random())
        return super()._leave_turn(seat)

    def _next_setup_turn(self, rng: DerivedRandom) -> list[e.Event]:
        """The setup's next turn, or, everything placed, the first turn of play."""
        raise NotImplementedError

    def _check_placing(self) -> None:
        """During the setup, a refusal that comes before whose turn it is (none by default)."""

    def _armies_available(self) -> int:
        """How many armies the seat in turn may place now (or why it may place none)."""
        if self.phase is Phase.SETUP:
            return self.setup_quota
        if self.phase is Phase.REINFORCE:
            if self.pending_reinforcements == 0:
                raise InvalidArmyCount("you have no armies left to place")
            return self.pending_reinforcements
        raise WrongPhase(f"you cannot place armies in the {self.phase.value} phase")

    def _armies_placed(self, seat: int, armies: int) -> list[e.Event]:
        """After `armies` are placed: the setup's quota and the next setup turn, or the
        reinforcements left."""
        if self.phase is Phase.SETUP:
            self.setup_quota -= armies
            self.setup_remaining[seat] -= armies
            if self.setup_quota == 0:
                return self._next_setup_turn(self._random())
            return []
        self.pending_reinforcements -= armies
        return self._after_armies_changed(seat)

    @final
    @handles(a.PlaceArmies)
    def _place_armies(self, seat: int | None, action: a.PlaceArmies) -> list[e.Event]:
        if self.phase is Phase.SETUP:
            self._check_placing()
        seat = self._check_turn(seat)
        available = self._armies_available()
        territory = self._own_territory(seat, action.territory)
        if not 1 <= action.armies <= available:
            raise InvalidArmyCount(f"place 1 to {available} armies, not {action.armies}")
        self.armies[territory] += action.armies
        events: list[e.Event] = [e.ArmiesPlaced(seat, action.territory, action.armies)]
        return events + self._armies_placed(seat, action.armies)

    @final
    def _place_family(self, seat: int, armies: int) -> LegalPlace:
        """Placing 1 to `armies` on any own territory."""
        ids = self.board.territories
        own = tuple(ids[t].id for t, o in enumerate(self.owner) if o == seat)
        return LegalPlace(own, 1, armies)
