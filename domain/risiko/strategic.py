"""The strategic move (StrategicMove): once, at the end of a turn, armies from one own
territory to another it reaches, one army (two with the garrison rule, on a border) staying
behind; the move ends the turn."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import ClassVar, final

from domain import actions as a
from domain import events as e
from domain.errors import InvalidArmyCount, MinimumGarrison, NotAdjacent, NotEnoughArmies
from domain.kernel import handles
from domain.legal import LegalAction, LegalStrategicMove
from domain.options import GameOptions, option
from domain.risiko.turns import ClockwiseTurns


@dataclass(frozen=True)
class GarrisonOptions(GameOptions):
    """The tournament's garrison."""

    minimum_garrison: bool = option(
        False,
        "Tournament: a voluntary move leaves at least 2 armies on a territory that borders "
        "an enemy.",
        off=False,
    )


class StrategicMove(ClockwiseTurns):
    """The move and its families, from one rule: where a move from a territory may go
    (`_move_reach`) and how many armies may leave it (`_strategic_max`).

    Hooks: `_move_reach(seat, source)`, `_own_space(seat, space_id)` (an own space of the
    move), `_unreachable(source, target)` (why not), `_moved(seat)` (what follows: the end
    of the turn), `ARMY` and `ARMIES`, what the game calls them."""

    ARMY: ClassVar[str] = "army"  # what a game calls an army in a refusal (a legionary)
    ARMIES: ClassVar[str] = "armies"

    def _keeps_garrison(self) -> bool:
        """The tournament's garrison, where the game offers it (GarrisonOptions)."""
        options = self.options
        return isinstance(options, GarrisonOptions) and options.minimum_garrison

    def _move_reach(self, seat: int, source: int) -> Collection[int]:
        """Where a move from `source` may go: its land neighbours."""
        return self.board.land_neighbours[source]

    def _unreachable(self, source: int, target: int) -> str:
        """Why `target` is out of a move's reach from `source`."""
        names = self.board.territories
        return f"{names[source].name} does not border {names[target].name}"

    def _own_space(self, seat: int, space_id: str) -> int:
        """An own space a move leaves or reaches."""
        return self._own_territory(seat, space_id)

    def _moved(self, seat: int) -> list[e.Event]:
        """After the move: the turn ends."""
        return self._end_turn(seat)

    @final
    @handles(a.StrategicMove)
    def _strategic_move(self, seat: int | None, action: a.StrategicMove) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_can_act_in_turn()
        source = self._own_space(seat, action.source)
        target = self._own_space(seat, action.target)
        names = self.board.territories
        if source == target or target not in self._move_reach(seat, source):
            raise NotAdjacent(self._unreachable(source, target))
        base_high = self.armies[source] - 1
        if base_high < 1:
            raise NotEnoughArmies(f"{names[source].name} must keep at least one {self.ARMY}")
        if not 1 <= action.armies <= base_high:
            raise InvalidArmyCount(f"move 1 to {base_high} {self.ARMIES}, not {action.armies}")
        if action.armies > self._strategic_max(source):
            raise MinimumGarrison(
                f"{names[source].name} borders an enemy and must keep at least 2 {self.ARMIES}"
            )
        self.armies[source] -= action.armies
        self.armies[target] += action.armies
        events: list[e.Event] = [
            e.ArmiesMoved(seat, action.source, action.target, action.armies, True)
        ]
        return events + self._moved(seat)

    @final
    def _move_families(
        self,
        seat: int,
        spare: Mapping[int, int] | None = None,
        reach: Callable[[int], Collection[int]] | None = None,
    ) -> list[LegalAction]:
        """A move from every own territory with armies to spare to every own space it
        reaches (`spare`: what may leave each, `reach`: where a move from a territory may go,
        when the caller knows them already for this turn's board)."""
        ids = self.board.territories
        own = [space for space, holder in enumerate(self.owner) if holder == seat]
        legal: list[LegalAction] = []
        for source in own:
            if self.armies[source] < 2:
                continue
            high = spare[source] if spare is not None else self._strategic_max(source)
            if high < 1:
                continue
            targets = reach(source) if reach is not None else self._move_reach(seat, source)
            for target in own:
                if target != source and target in targets:
                    legal.append(LegalStrategicMove(ids[source].id, ids[target].id, 1, high))
        return legal
