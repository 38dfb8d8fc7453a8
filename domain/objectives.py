"""Secret objectives: what a player must achieve to win, and tournament points.

Objectives are data (a variant's data file) turned into these small classes. Each one answers
`is_met` for a seat from the board position alone; "destroy colour X" is resolved by the
engine, which converts it to its fallback when it can no longer be achieved by its holder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.board import Board
from domain.errors import BoardDataError


@dataclass(frozen=True, slots=True)
class Objective:
    id: str
    text: str

    @property
    def counts_armies(self) -> bool:
        """Whether placing or moving armies (not only conquering) can complete it."""
        return False

    def is_met(self, board: Board, owner: Sequence[int], armies: Sequence[int], seat: int) -> bool:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class HoldTerritories(Objective):
    """Hold at least `count` territories, each with at least `min_armies` armies."""

    count: int
    min_armies: int

    @property
    def counts_armies(self) -> bool:
        return self.min_armies > 1

    def is_met(self, board: Board, owner: Sequence[int], armies: Sequence[int], seat: int) -> bool:
        if self.min_armies <= 1:
            return owner.count(seat) >= self.count  # checked after every conquest: one C pass
        held = 0
        for territory, territory_owner in enumerate(owner):
            if territory_owner == seat and armies[territory] >= self.min_armies:
                held += 1
        return held >= self.count


@dataclass(frozen=True, slots=True)
class HoldRegions(Objective):
    """Hold every territory of the named regions and of `extra_regions` other regions."""

    regions: tuple[int, ...]  # region positions on the board
    extra_regions: int

    def is_met(self, board: Board, owner: Sequence[int], armies: Sequence[int], seat: int) -> bool:
        members = board.region_members
        for region in self.regions:
            for territory in members[region]:
                if owner[territory] != seat:
                    return False
        if not self.extra_regions:
            return True
        others = sum(
            1
            for region, territories in enumerate(members)
            if region not in self.regions and all(owner[t] == seat for t in territories)
        )
        return others >= self.extra_regions


@dataclass(frozen=True, slots=True)
class DestroyColour(Objective):
    """Destroy every army of one colour. Met when its holder eliminates that colour."""

    colour: str
    fallback: str  # the objective id it becomes when it cannot be met by its holder

    def is_met(self, board: Board, owner: Sequence[int], armies: Sequence[int], seat: int) -> bool:
        return False  # the engine decides, at the elimination itself


@dataclass(frozen=True, slots=True)
class HoldListedTerritories(Objective):
    """A tournament objective: hold every listed territory. Each is worth its points."""

    name: str
    territories: tuple[int, ...]

    def is_met(self, board: Board, owner: Sequence[int], armies: Sequence[int], seat: int) -> bool:
        return all(owner[t] == seat for t in self.territories)

    def points_held(self, board: Board, owner: Sequence[int], seat: int) -> int:
        """Tournament scoring: each objective territory held is worth its number of borders."""
        return sum(len(board.neighbours[t]) for t in self.territories if owner[t] == seat)

    def total_points(self, board: Board) -> int:
        return sum(len(board.neighbours[t]) for t in self.territories)


def parse_objectives(entries: Sequence[Mapping[str, Any]], board: Board) -> dict[str, Objective]:
    """Build objectives from a variant's data, naming the bad entry on error."""
    region_position = {region.id: i for i, region in enumerate(board.regions)}
    objectives: dict[str, Objective] = {}
    for entry in entries:
        objective_id = str(entry.get("id"))
        kind = entry.get("kind")
        text = str(entry.get("text", entry.get("name", objective_id)))
        try:
            objective: Objective
            if kind == "territories":
                objective = HoldTerritories(
                    objective_id, text, int(entry["count"]), int(entry.get("min_armies", 1))
                )
            elif kind == "regions":
                objective = HoldRegions(
                    objective_id,
                    text,
                    tuple(region_position[r] for r in entry["regions"]),
                    int(entry.get("extra_regions", 0)),
                )
            elif kind == "destroy":
                objective = DestroyColour(
                    objective_id, text, str(entry["colour"]), str(entry["fallback"])
                )
            elif kind == "listed_territories" or "territories" in entry:
                objective = HoldListedTerritories(
                    objective_id,
                    text,
                    str(entry.get("name", objective_id)),
                    tuple(board.index[t] for t in entry["territories"]),
                )
            else:
                raise BoardDataError(f"objective {objective_id!r}: unknown kind {kind!r}")
        except KeyError as missing:
            raise BoardDataError(
                f"objective {objective_id!r}: unknown or missing {missing.args[0]!r}"
            ) from None
        if objective_id in objectives:
            raise BoardDataError(f"objective {objective_id!r} is listed twice")
        objectives[objective_id] = objective
    for objective in objectives.values():
        if isinstance(objective, DestroyColour) and objective.fallback not in objectives:
            raise BoardDataError(
                f"objective {objective.id!r}: unknown fallback {objective.fallback!r}"
            )
    return objectives
