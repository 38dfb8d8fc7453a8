"""Boards as graphs: territories (and sea areas) in regions, joined by edges of a kind.

A board is loaded from plain data (a variant's data file, parsed by the variant) and validated:
unique ascii ids, known references, symmetric borders of the same kind, edge kinds that fit the
spaces they join (a coast joins land and sea), a connected graph.
Territories are addressed by their ascii id in the API and by their index inside the engine,
where lists indexed by territory are much faster than dictionaries.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from domain.errors import BoardDataError, UnknownTerritory, WrongKindOfSpace

ASCII_ID = re.compile(r"^[a-z][a-z0-9_]*$")


class EdgeKind(enum.Enum):
    """How two spaces touch. Classic RisiKo! treats every kind as an ordinary border."""

    LAND = "land"
    SEA_LINE = "sea_line"  # a dotted line across water (classic, RisiKo! Più)
    COAST = "coast"  # a province touching a sea area (S.P.Q.RisiKo!)
    SEA = "sea"  # two sea areas (S.P.Q.RisiKo!)
    BLACK_LINE = "black_line"  # FutuRisiKo! black lines


class SpaceKind(enum.Enum):
    """What a space of the board is: land holds armies, a sea area holds fleets."""

    LAND = "land"
    SEA = "sea"


# Edge kinds that join two land spaces; coasts join land and sea, sea edges two seas.
LAND_EDGES = frozenset({EdgeKind.LAND, EdgeKind.SEA_LINE, EdgeKind.BLACK_LINE})


@dataclass(frozen=True, slots=True)
class Region:
    id: str
    name: str
    bonus: int
    territories: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Territory:
    id: str
    name: str
    region: str | None  # None where the board has no regions (S.P.Q.RisiKo!, sea areas)
    index: int
    kind: SpaceKind = SpaceKind.LAND

    @property
    def is_sea(self) -> bool:
        return self.kind is SpaceKind.SEA


@dataclass(frozen=True, slots=True)
class Edge:
    a: str
    b: str
    kind: EdgeKind


@dataclass(frozen=True)
class Board:
    """An immutable, validated board. Build it with `Board.from_data`."""

    id: str
    name: str
    territories: tuple[Territory, ...]
    regions: tuple[Region, ...]
    edges: tuple[Edge, ...]
    # Derived, index-based views for the engine's hot paths.
    index: Mapping[str, int] = field(repr=False)
    neighbours: tuple[tuple[int, ...], ...] = field(repr=False)
    region_members: tuple[tuple[int, ...], ...] = field(repr=False)
    region_of: tuple[int, ...] = field(repr=False)  # -1: no region
    # Neighbours by relation: land-land, land-sea (a land space's seas, a sea's shores), sea-sea.
    land_neighbours: tuple[tuple[int, ...], ...] = field(repr=False)
    coasts: tuple[tuple[int, ...], ...] = field(repr=False)
    sea_neighbours: tuple[tuple[int, ...], ...] = field(repr=False)
    # None for a printed board; "reconstructed-N" for one rebuilt where no printed board is
    # readable (RisiKo! Più, FutuRisiKo!): a real board would ship as a new version.
    version: str | None = None

    @property
    def reconstructed(self) -> bool:
        return self.version is not None and self.version.startswith("reconstructed")

    @cached_property
    def lands(self) -> tuple[Territory, ...]:
        return tuple(t for t in self.territories if not t.is_sea)

    @cached_property
    def seas(self) -> tuple[Territory, ...]:
        return tuple(t for t in self.territories if t.is_sea)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Board:
        return _parse_board(data)

    def find(self, space_id: str) -> int:
        """The index of the space `space_id` names: how every game reads a space of an
        action (UnknownTerritory for an id of no space of this board)."""
        index = self.index.get(space_id)
        if index is None:
            raise UnknownTerritory(f"there is no space {space_id!r} on this board")
        return index

    def land(self, space_id: str) -> int:
        """The index of a land space (WrongKindOfSpace for a sea area)."""
        index = self.find(space_id)
        if self.territories[index].is_sea:
            raise WrongKindOfSpace(f"{self.territories[index].name} is a sea area, not a land")
        return index

    def sea(self, space_id: str) -> int:
        """The index of a sea area (WrongKindOfSpace for a land space)."""
        index = self.find(space_id)
        if not self.territories[index].is_sea:
            raise WrongKindOfSpace(f"{self.territories[index].name} is not a sea area")
        return index

    def territory(self, territory_id: str) -> Territory:
        try:
            return self.territories[self.index[territory_id]]
        except KeyError:
            raise KeyError(f"unknown territory {territory_id!r}") from None

    def region(self, region_id: str) -> Region:
        for region in self.regions:
            if region.id == region_id:
                return region
        raise KeyError(f"unknown region {region_id!r}")

    def are_adjacent(self, a: str, b: str) -> bool:
        return self.index[b] in self.neighbours[self.index[a]]

    def degree(self, territory_id: str) -> int:
        return len(self.neighbours[self.index[territory_id]])

    def to_data(self) -> dict[str, Any]:
        """The board as plain data: the shape `risiko board --json` prints."""
        return {
            "id": self.id,
            "name": self.name,
            "territories": [
                {"id": t.id, "name": t.name, "region": t.region, "kind": t.kind.value}
                for t in self.territories
            ],
            "regions": [
                {"id": r.id, "name": r.name, "bonus": r.bonus, "territories": list(r.territories)}
                for r in self.regions
            ],
            "edges": [{"a": e.a, "b": e.b, "kind": e.kind.value} for e in self.edges],
            **({"version": self.version} if self.version else {}),
        }


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise BoardDataError(message)


def _ascii_id(value: object, where: str) -> str:
    _require(
        isinstance(value, str) and bool(ASCII_ID.match(value)),
        f"{where}: id {value!r} must be lower-case ascii (letters, digits, underscores)",
    )
    assert isinstance(value, str)
    return value


def _name(entry: Mapping[str, Any], where: str) -> str:
    name = entry.get("name")
    _require(isinstance(name, str) and bool(name.strip()), f"{where}: missing display name")
    assert isinstance(name, str)
    return name


def _entries(data: Mapping[str, Any], key: str) -> Sequence[Mapping[str, Any]]:
    entries = data.get(key)
    _require(
        isinstance(entries, list) and bool(entries), f"board: {key!r} must be a non-empty list"
    )
    assert isinstance(entries, list)
    for position, entry in enumerate(entries):
        _require(isinstance(entry, dict), f"board: {key}[{position}] must be an object")
    return entries


def _parse_board(data: Mapping[str, Any]) -> Board:
    board_id = _ascii_id(data.get("id"), "board")
    board_name = _name(data, f"board {board_id!r}")
    region_names = _parse_regions(data)
    territory_entries = _entries(data, "territories")
    ids = _territory_ids(territory_entries, region_names)
    index = {territory_id: position for position, territory_id in enumerate(ids)}
    territories: list[Territory] = []
    borders: dict[str, dict[str, EdgeKind]] = {}
    for position, entry in enumerate(territory_entries):
        territories.append(_parse_territory(entry, ids[position], position, region_names))
        borders[ids[position]] = _parse_borders(entry, ids[position], index)
    edges = _edges(ids, index, territories, borders)
    neighbours = tuple(
        tuple(sorted(index[n] for n in borders[territory_id])) for territory_id in ids
    )
    _check_connected(ids, neighbours)
    regions: list[Region] = []
    for region_id, (name, bonus) in region_names.items():
        members = tuple(t.id for t in territories if t.region == region_id)
        _require(bool(members), f"region {region_id!r} has no territories")
        regions.append(Region(region_id, name, bonus, members))
    region_position = {region.id: position for position, region in enumerate(regions)}

    def related(kinds: frozenset[EdgeKind]) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(sorted(index[n] for n, k in borders[territory_id].items() if k in kinds))
            for territory_id in ids
        )

    return Board(
        id=board_id,
        name=board_name,
        territories=tuple(territories),
        regions=tuple(regions),
        edges=tuple(edges),
        index=index,
        neighbours=neighbours,
        region_members=tuple(tuple(index[t] for t in region.territories) for region in regions),
        region_of=tuple(-1 if t.region is None else region_position[t.region] for t in territories),
        land_neighbours=related(LAND_EDGES),
        coasts=related(frozenset({EdgeKind.COAST})),
        sea_neighbours=related(frozenset({EdgeKind.SEA})),
        version=_version(data),
    )


def _parse_regions(data: Mapping[str, Any]) -> dict[str, tuple[str, int]]:
    """Each region's name and bonus, by id."""
    region_names: dict[str, tuple[str, int]] = {}
    region_entries = _entries(data, "regions") if "regions" in data else []
    for entry in region_entries:
        region_id = _ascii_id(entry.get("id"), "region")
        _require(region_id not in region_names, f"region {region_id!r} is listed twice")
        bonus = entry.get("bonus")
        _require(
            isinstance(bonus, int) and not isinstance(bonus, bool) and bonus >= 0,
            f"region {region_id!r}: bonus must be a whole number >= 0, not {bonus!r}",
        )
        assert isinstance(bonus, int)
        region_names[region_id] = (_name(entry, f"region {region_id!r}"), bonus)
    return region_names


def _territory_ids(entries: Sequence[Mapping[str, Any]], regions: Mapping[str, Any]) -> list[str]:
    """The territories' ids, in the board's order: each once, none a region's."""
    ids: list[str] = []
    for entry in entries:
        territory_id = _ascii_id(entry.get("id"), "territory")
        _require(territory_id not in ids, f"territory {territory_id!r} is listed twice")
        _require(
            territory_id not in regions,
            f"territory {territory_id!r} has the same id as a region",
        )
        ids.append(territory_id)
    return ids


def _parse_territory(
    entry: Mapping[str, Any], territory_id: str, position: int, regions: Mapping[str, Any]
) -> Territory:
    try:
        space_kind = SpaceKind(entry.get("kind", "land"))
    except ValueError:
        raise BoardDataError(
            f"territory {territory_id!r}: kind must be 'land' or 'sea', not {entry['kind']!r}"
        ) from None
    region = entry.get("region")
    _require(
        region in regions or (region is None and (space_kind is SpaceKind.SEA or not regions)),
        f"territory {territory_id!r}: unknown region {region!r}",
    )
    assert region is None or isinstance(region, str)
    name = _name(entry, f"territory {territory_id!r}")
    return Territory(territory_id, name, region, position, space_kind)


def _parse_borders(
    entry: Mapping[str, Any], territory_id: str, index: Mapping[str, int]
) -> dict[str, EdgeKind]:
    """A territory's borders: each neighbour with the kind of their edge."""
    raw_borders = entry.get("borders")
    _require(
        isinstance(raw_borders, dict) and bool(raw_borders),
        f"territory {territory_id!r}: 'borders' must map neighbour ids to edge kinds",
    )
    assert isinstance(raw_borders, dict)
    kinds: dict[str, EdgeKind] = {}
    for neighbour, kind in raw_borders.items():
        _require(
            neighbour in index,
            f"territory {territory_id!r}: border with unknown territory {neighbour!r}",
        )
        _require(neighbour != territory_id, f"territory {territory_id!r} borders itself")
        try:
            kinds[neighbour] = EdgeKind(kind)
        except ValueError:
            known = ", ".join(k.value for k in EdgeKind)
            raise BoardDataError(
                f"territory {territory_id!r}: border with {neighbour!r} has unknown kind "
                f"{kind!r} (known: {known})"
            ) from None
    return kinds


def _edges(
    ids: list[str],
    index: Mapping[str, int],
    territories: list[Territory],
    borders: Mapping[str, Mapping[str, EdgeKind]],
) -> list[Edge]:
    """Every border once, each listed by both its territories with the same kind."""
    edges: list[Edge] = []
    for territory_id in ids:
        for neighbour, kind in borders[territory_id].items():
            back = borders[neighbour].get(territory_id)
            _require(
                back is not None,
                f"border {territory_id!r} -> {neighbour!r} is not symmetric: "
                f"{neighbour!r} does not list {territory_id!r}",
            )
            _require(
                back is kind,
                f"border {territory_id!r} - {neighbour!r} has two kinds: "
                f"{kind.value!r} and {back.value if back else None!r}",
            )
            if index[territory_id] < index[neighbour]:
                _check_edge_fits(
                    kind, territories[index[territory_id]], territories[index[neighbour]]
                )
                edges.append(Edge(territory_id, neighbour, kind))
    return edges


def _version(data: Mapping[str, Any]) -> str | None:
    version = data.get("version")
    _require(
        version is None or (isinstance(version, str) and bool(version.strip())),
        "board: 'version' must be a non-empty string when it is given",
    )
    return version


def _check_edge_fits(kind: EdgeKind, a: Territory, b: Territory) -> None:
    seas = a.is_sea + b.is_sea
    wanted = {EdgeKind.COAST: 1, EdgeKind.SEA: 2}.get(kind, 0)
    _require(
        seas == wanted,
        f"border {a.id!r} - {b.id!r} of kind {kind.value!r} must join "
        + {0: "two land spaces", 1: "a land space and a sea area", 2: "two sea areas"}[wanted],
    )


def _check_connected(ids: Sequence[str], neighbours: Sequence[Sequence[int]]) -> None:
    seen = {0}
    frontier = [0]
    while frontier:
        current = frontier.pop()
        for neighbour in neighbours[current]:
            if neighbour not in seen:
                seen.add(neighbour)
                frontier.append(neighbour)
    if len(seen) != len(ids):
        unreachable = sorted(ids[i] for i in range(len(ids)) if i not in seen)
        raise BoardDataError(
            f"board is not connected: {', '.join(unreachable)} cannot be reached from {ids[0]!r}"
        )
