"""S.P.Q.RisiKo!'s occupation, its setup: in turn order each seat claims a free province (2
legionaries) and, while any are left, places a group of neutral legionaries, until every
seat holds its provinces; a seat that leaves has its provinces claimed for it."""

from __future__ import annotations

from typing import ClassVar, final

from domain import events as e
from domain.errors import InvalidAction, InvalidArmyCount, OncePerTurn, OwnTerritory, WrongPhase
from domain.flow import Phase
from domain.kernel import handles
from domain.legal import LegalAction
from domain.risiko.placement import Placement
from domain.rng import DerivedRandom
from variants.spqr import actions as sa
from variants.spqr import events as se
from variants.spqr.legal import LegalClaimProvince, LegalPlaceNeutral
from variants.spqr.steps import FREE, TurnSteps, neutral_owner


class Occupation(TurnSteps, Placement):
    """The neutral colours (those no seat plays) and their groups left, and what the seat in
    turn has done of its occupation turn.

    Hooks: `_start_play(rng)` (everything is occupied: the first turn)."""

    _STATE: ClassVar[tuple[str, ...]] = ("neutral_groups", "setup_claimed", "setup_neutral_placed")
    neutral_colours: tuple[str, ...]
    neutral_groups: list[int]  # groups left, by neutral colour
    setup_claimed: bool  # this occupation turn's province is claimed
    setup_neutral_placed: bool  # this occupation turn's neutral group is placed

    def _start_state(self) -> None:
        colours = self.ruleset.colours
        unused = [c.id for c in colours if c.id not in self.colours]
        self.neutral_colours = tuple(unused[: len(colours) - len(self.players)])
        self.neutral_groups = [self.ruleset.neutral_groups] * len(self.neutral_colours)
        self.setup_claimed = False
        self.setup_neutral_placed = False
        super()._start_state()

    @property
    def neutral_count(self) -> int:
        return len(self.neutral_colours)

    def _start_play(self, rng: DerivedRandom) -> list[e.Event]:
        """Every province is held: the first turn of play."""
        raise NotImplementedError

    def _check_placing(self) -> None:
        if self.phase is Phase.SETUP:
            raise WrongPhase("during the occupation, claim a province (2 legionaries) instead")

    @final
    def _neutral_due(self) -> bool:
        """Whether the current occupation turn also places a neutral group."""
        return not self.setup_neutral_placed and sum(self.neutral_groups) > 0

    @final
    def _free_province(self, province_id: str) -> int:
        province = self.board.land(province_id)
        if self.owner[province] != FREE:
            raise OwnTerritory(f"{self.board.territories[province].name} is already occupied")
        return province

    @final
    def _occupation_families(self, seat: int) -> list[LegalAction]:
        ids = self.board.territories
        free = tuple(ids[p].id for p in self._provinces if self.owner[p] == FREE)
        legal: list[LegalAction] = []
        if not self.setup_claimed and self.setup_remaining[seat] > 0:
            legal.append(LegalClaimProvince(free))
        if self._neutral_due():
            colours = tuple(c for i, c in enumerate(self.neutral_colours) if self.neutral_groups[i])
            legal.append(LegalPlaceNeutral(free, colours))
        return legal

    @final
    @handles(sa.ClaimProvince)
    def _claim_province(self, seat: int | None, action: sa.ClaimProvince) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is not Phase.SETUP:
            raise WrongPhase("provinces are claimed only during the initial occupation")
        if self.setup_claimed or self.setup_remaining[seat] == 0:
            raise OncePerTurn("you have already claimed a province this turn")
        province = self._free_province(action.province)
        armies = self.ruleset.occupation_armies
        self.owner[province] = seat
        self.armies[province] = armies
        self.territory_count[seat] += 1
        self.setup_remaining[seat] -= 1
        self.setup_claimed = True
        events: list[e.Event] = [se.ProvinceClaimed(seat, action.province, armies)]
        return events + self._after_occupation_step()

    @final
    @handles(sa.PlaceNeutral)
    def _place_neutral(self, seat: int | None, action: sa.PlaceNeutral) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is not Phase.SETUP:
            raise WrongPhase("neutral armies are placed only during the initial occupation")
        if not self._neutral_due():
            raise OncePerTurn("no neutral group to place this turn")
        if action.colour not in self.neutral_colours:
            raise InvalidAction(
                f"{action.colour!r} is not a neutral colour: use one of "
                f"{', '.join(self.neutral_colours)}"
            )
        position = self.neutral_colours.index(action.colour)
        if self.neutral_groups[position] == 0:
            raise InvalidArmyCount(f"no neutral group of {action.colour} is left")
        province = self._free_province(action.province)
        armies = self.ruleset.neutral_group
        self.owner[province] = neutral_owner(position)
        self.armies[province] = armies
        self.neutral_groups[position] -= 1
        self.setup_neutral_placed = True
        events: list[e.Event] = [se.NeutralPlaced(seat, action.province, action.colour, armies)]
        return events + self._after_occupation_step()

    @final
    def _after_occupation_step(self) -> list[e.Event]:
        seat = self.current
        if (not self.setup_claimed and self.setup_remaining[seat] > 0) or self._neutral_due():
            return []
        return self._next_setup_turn(self._random())

    def _next_setup_turn(self, rng: DerivedRandom) -> list[e.Event]:
        self.setup_claimed = False
        self.setup_neutral_placed = False
        order = self.turn_order
        position = order.index(self.current)
        for step in range(1, len(order) + 1):
            seat = order[(position + step) % len(order)]
            if self.setup_remaining[seat] > 0 and not self.resigned[seat]:
                self.current = seat
                return []
        # Everyone holds their provinces: the first turn begins. No neutral group is left:
        # every turn places one while any remain, and there are more turns than groups even
        # after a resignation (whose provinces are claimed for it).
        return self._start_play(rng)

    @final
    def _claim_for_the_departed(self, seat: int) -> list[e.Event]:
        """The provinces still due to a player who leaves during the occupation are occupied
        for them, in board order, so that every province is held when play begins."""
        events: list[e.Event] = []
        if self.phase is Phase.SETUP:
            free = [p for p in self._provinces if self.owner[p] == FREE]
            for province in free[: self.setup_remaining[seat]]:
                self.owner[province] = seat
                self.armies[province] = self.ruleset.occupation_armies
                self.territory_count[seat] += 1
                province_id = self.board.territories[province].id
                events.append(se.ProvinceClaimed(seat, province_id, self.armies[province]))
        self.setup_remaining[seat] = 0
        return events
