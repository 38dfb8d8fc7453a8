"""Forces on a board: units counted by space, seat and kind, who holds each space, the markers
beside them, and which units have used their move this turn.

Classic RisiKo! needs one owner and one army count per territory and keeps them as two lists
(the fastest shape, and its snapshots' since the first release). The games with several kinds
of unit, or with two seats' units in one space between movement and combat (FutuRisiKo!), keep
a `Forces`: one row of counts per space, a column per (seat, kind).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from domain.state import StatePart
from domain.views import SpaceView, UnitStack


class Forces(StatePart):
    """Units of `kinds` for `seats` seats on `spaces` spaces. Counts never go below zero: an
    engine that tries has a bug, and ValueError says so."""

    __slots__ = ("kinds", "markers", "moved", "offsets", "owner", "seats", "units")

    def __init__(self, spaces: int, seats: int, kinds: Sequence[str]) -> None:
        self.kinds = tuple(kinds)
        # A kind's place in a seat's columns: found by a dict look-up, the games' hottest read.
        self.offsets = {kind: number for number, kind in enumerate(self.kinds)}
        self.seats = seats
        width = seats * len(self.kinds)
        self.units: list[list[int]] = [[0] * width for _ in range(spaces)]
        self.moved: list[list[int]] = [[0] * width for _ in range(spaces)]
        self.owner: list[int] = [-1] * spaces  # -1: nobody holds it
        self.markers: list[list[str]] = [[] for _ in range(spaces)]

    def column(self, seat: int, kind: str) -> int:
        """Where `seat`'s units of `kind` are counted in a space's row of `units` and `moved`
        (for a loop over many spaces)."""
        return seat * len(self.kinds) + self.offsets[kind]

    # ------------------------------------------------------------------ reading

    def count(self, space: int, seat: int, kind: str) -> int:
        return self.units[space][seat * len(self.kinds) + self.offsets[kind]]  # self.column

    def total(self, space: int, seat: int) -> int:
        """Every unit of `seat` on `space`, of any kind."""
        width = len(self.kinds)
        return sum(self.units[space][seat * width : (seat + 1) * width])

    def unmoved(self, space: int, seat: int, kind: str) -> int:
        """Units that may still move this turn."""
        column = self.column(seat, kind)
        return self.units[space][column] - self.moved[space][column]

    def seats_on(self, space: int) -> list[int]:
        """The seats with units on `space`."""
        row = self.units[space]
        width = len(self.kinds)
        return [seat for seat in range(self.seats) if any(row[seat * width : (seat + 1) * width])]

    def held_by(self, seat: int) -> list[int]:
        return [space for space, owner in enumerate(self.owner) if owner == seat]

    def units_of(self, seat: int, kind: str) -> int:
        return sum(map(itemgetter(self.column(seat, kind)), self.units))

    # ------------------------------------------------------------------ changing

    def add(self, space: int, seat: int, kind: str, count: int) -> None:
        column = self.column(seat, kind)
        if self.units[space][column] + count < 0:
            raise ValueError(f"space {space}: {seat}'s {kind} would go below zero")
        self.units[space][column] += count

    def remove(self, space: int, seat: int, kind: str, count: int) -> None:
        self.add(space, seat, kind, -count)
        column = self.column(seat, kind)
        row = self.moved[space]
        row[column] = min(row[column], self.units[space][column])

    def clear(self, space: int, seat: int) -> None:
        """Remove every unit of `seat` from `space`."""
        width = len(self.kinds)
        for column in range(seat * width, (seat + 1) * width):
            self.units[space][column] = 0
            self.moved[space][column] = 0

    def move(
        self, source: int, target: int, seat: int, kind: str, count: int, *, free: bool = False
    ) -> None:
        """Move units that have not moved this turn (any units if `free`: the survivors of an
        attack moving into the space they took); on arrival they have used their move."""
        if not free and count > self.unmoved(source, seat, kind):
            raise ValueError(f"only {self.unmoved(source, seat, kind)} {kind} may move")
        self.remove(source, seat, kind, count)
        self.add(target, seat, kind, count)
        self.moved[target][self.column(seat, kind)] += count

    def new_turn(self) -> None:
        """Every unit may move again."""
        zeros = [0] * self.seats * len(self.kinds)
        for row in self.moved:
            row[:] = zeros

    # ------------------------------------------------------------------ views and state

    def views(self, ids: Sequence[str]) -> list[SpaceView]:
        """Every space as any client draws it: stacks by seat and kind, and markers."""
        views = []
        for space, space_id in enumerate(ids):
            row = self.units[space]
            stacks = tuple(
                UnitStack(kind, row[self.column(seat, kind)], seat)
                for seat in range(self.seats)
                for kind in self.kinds
                if row[self.column(seat, kind)]
            )
            owner = self.owner[space]
            views.append(
                SpaceView(
                    space_id, owner if owner >= 0 else None, stacks, tuple(self.markers[space])
                )
            )
        return views

    def copy(self) -> Forces:
        other = object.__new__(Forces)
        other.kinds = self.kinds
        other.offsets = self.offsets
        other.seats = self.seats
        other.units = [list(row) for row in self.units]
        other.moved = [list(row) for row in self.moved]
        other.owner = list(self.owner)
        other.markers = [list(row) for row in self.markers]
        return other

    def to_plain(self) -> dict[str, Any]:
        return {
            "units": [list(row) for row in self.units],
            "moved": [list(row) for row in self.moved],
            "owner": list(self.owner),
            "markers": [list(row) for row in self.markers],
        }

    def load(self, plain: Any) -> None:
        self.units = [list(row) for row in plain["units"]]
        self.moved = [list(row) for row in plain["moved"]]
        self.owner = list(plain["owner"])
        self.markers = [list(row) for row in plain["markers"]]
