"""The board as most RisiKo! games keep it: each territory's owner and armies in two lists
indexed like the board (the fastest shape for the most played games, and their saved games'
shape), and how many territories each seat holds."""

from __future__ import annotations

from typing import ClassVar, final

from domain.errors import NotYourTerritory
from domain.kernel import Kernel
from domain.views import ARMY, SpaceView, UnitStack


class Territories(Kernel):
    """Owners and armies. An owner is a seat, or -1 for none; a game may give its neutral
    armies lower values (S.P.Q.RisiKo!). Hooks: `space_views` (a game that shows more than
    armies), `_keeps_garrison()`, and the kernel's."""

    _STATE: ClassVar[tuple[str, ...]] = ("owner", "armies", "territory_count")
    owner: list[int]
    armies: list[int]
    territory_count: list[int]

    def _start_state(self) -> None:
        spaces = len(self.board.territories)
        self.owner = [-1] * spaces
        self.armies = [0] * spaces
        self.territory_count = [0] * len(self.players)
        super()._start_state()
        self._garrison = self._keeps_garrison()  # fixed by the options: read once

    def territories_held(self, seat: int) -> int:
        return self.territory_count[seat]

    def armies_of(self, seat: int) -> int:
        owner = self.owner
        return sum(n for t, n in enumerate(self.armies) if owner[t] == seat)

    def space_views(self) -> list[SpaceView]:
        """Every space as any client may draw it: its owner and its armies."""
        views = []
        for territory, owner, armies in zip(
            self.board.territories, self.owner, self.armies, strict=True
        ):
            seat = owner if owner >= 0 else None
            units = (UnitStack(ARMY, armies, seat),) if armies else ()
            views.append(SpaceView(territory.id, seat, units))
        return views

    @final
    def territory_id(self, index: int) -> str:
        return self.board.territories[index].id

    @final
    def _territory(self, territory_id: str) -> int:
        return self.board.find(territory_id)

    @final
    def _own_territory(self, seat: int, territory_id: str) -> int:
        index = self.board.find(territory_id)
        if self.owner[index] != seat:
            raise NotYourTerritory(f"{self.board.territories[index].name} is not yours")
        return index

    @final
    def _borders_enemy(self, territory: int) -> bool:
        seat = self.owner[territory]
        owner = self.owner
        return any(owner[n] != seat for n in self.board.land_neighbours[territory])

    def _keeps_garrison(self) -> bool:
        """Whether a voluntary move leaves 2 armies on a territory that borders an enemy
        (the tournament's garrison; a rule of S.P.Q.RisiKo!)."""
        return False

    @final
    def _strategic_max(self, source: int) -> int:
        """The most armies a voluntary move may take from `source`."""
        high = self.armies[source] - 1
        if self._garrison and self._borders_enemy(source):
            high = self.armies[source] - 2
        return high

    @final
    def _capture(self, seat: int, target: int) -> int:
        """`target` becomes `seat`'s (its armies are the caller's to set); returns who held
        it (negative: nobody, or a neutral army)."""
        defender = self.owner[target]
        self.owner[target] = seat
        self.territory_count[seat] += 1
        if defender >= 0:
            self.territory_count[defender] -= 1
        return defender
