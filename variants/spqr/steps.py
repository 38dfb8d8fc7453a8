"""The steps of an S.P.Q.RisiKo! turn, in the order the rules impose, and the kinds of space
its actions name (a province, a sea area).

A turn goes through its steps in order: victory points (claimed automatically at the start),
reinforcements (cards, legionaries, power centres, a trireme disbanded), naval
reinforcements, the naval move, naval combats, sea attacks, land attacks, the strategic move,
the card. Each action belongs to a step; an action of an earlier step than the current one is
refused.

Owners: a seat (0…), -1 for a free province (during the occupation), and -2 - j for the j-th
neutral colour. Events name a neutral owner -1.
"""

from __future__ import annotations

from typing import ClassVar, final

from domain.errors import NotYourTerritory, ReinforcementsPending, WrongPhase
from domain.flow import Phase
from domain.risiko.turns import ClockwiseTurns
from variants.spqr.options import SpqrOptions
from variants.spqr.phases import SpqrPhase
from variants.spqr.ruleset import SpqrRuleset

FREE = -1
NEUTRAL_IN_EVENTS = -1

# The steps of a turn after the occupation, in the order the rules impose.
STEPS = (
    Phase.REINFORCE,
    SpqrPhase.NAVAL_REINFORCE,
    SpqrPhase.NAVAL_MOVE,
    SpqrPhase.NAVAL_COMBAT,
    SpqrPhase.SEA_ATTACK,
    Phase.ATTACK,
)
STEP = {phase: position for position, phase in enumerate(STEPS)}


def neutral_owner(position: int) -> int:
    """The owner value of the neutral colour at `position` among the game's neutrals."""
    return -2 - position


class TurnSteps(ClockwiseTurns):
    """The turn's steps, and the board's two kinds of space."""

    ARMY: ClassVar[str] = "legionary"
    ARMIES: ClassVar[str] = "legionaries"
    ruleset: SpqrRuleset
    options: SpqrOptions
    _seas: tuple[int, ...]
    _provinces: tuple[int, ...]

    def _start_state(self) -> None:
        territories = self.board.territories
        self._seas = tuple(t.index for t in territories if t.is_sea)
        self._provinces = tuple(t.index for t in territories if not t.is_sea)
        super()._start_state()

    def _attacks_open(self) -> bool:
        return self.phase in STEP and not self.pending_reinforcements

    def _check_can_act_in_turn(self) -> None:
        # The strategic move and the end of the turn may come after any step.
        self._check_step(Phase.ATTACK)

    @final
    def _check_step(self, step: Phase) -> None:
        """The turn's steps go in order: nothing of an earlier step once a later one began,
        and every land reinforcement placed before anything after them."""
        if self.phase not in STEP:
            raise WrongPhase(f"you cannot do that in the {self.phase.value} phase")
        if STEP[step] < STEP[self.phase]:
            raise WrongPhase(
                f"{step.value.replace('_', ' ')} comes before {self.phase.value.replace('_', ' ')}"
                " in the turn"
            )
        if step is not Phase.REINFORCE and self.pending_reinforcements:
            raise ReinforcementsPending(
                f"place your {self.pending_reinforcements} remaining legionaries first"
            )

    @final
    def _own_province(self, seat: int, province_id: str) -> int:
        province = self.board.land(province_id)
        if self.owner[province] != seat:
            raise NotYourTerritory(f"{self.board.territories[province].name} is not yours")
        return province
