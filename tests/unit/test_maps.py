"""The boards' drawn maps (variants/<name>/map.json): a shape for every space, no two
overlapping, and every pair of neighbours touching or joined by a drawn line; and the map is
what web/scripts/draw-maps.mjs draws from the anchors today."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import MultiPolygon, Point, Polygon
from shapely.strtree import STRtree

from api.graphql.catalogue import geometry_type
from domain.board import Board
from tests.node_tools import WEB, node
from variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Drawn:
    """A board with a drawn map: every variant folder with anchors, served or not yet."""

    name: str
    board: Board
    map: dict[str, Any]


def _drawn(folder: Path) -> Drawn:
    board = Board.from_data(json.loads((folder / "board.json").read_text("utf-8")))
    return Drawn(folder.name, board, json.loads((folder / "map.json").read_text("utf-8")))


DRAWN = [_drawn(anchors.parent) for anchors in sorted(ROOT.glob("variants/*/anchors.json"))]
TOUCH = 1.0  # map units: closer than this is touching
# Shapes are rounded to 0.1 map unit, which leaves slivers along borders; shrunk by this much,
# no two shapes share anything: an overlap wider than half a unit fails.
SLIVER = 0.25


def shape_of(rings: list[list[list[list[float]]]]) -> MultiPolygon:
    return MultiPolygon([Polygon(polygon[0], polygon[1:]) for polygon in rings])


def shapes(variant: Drawn) -> dict[str, MultiPolygon]:
    return {space: shape_of(drawn["shape"]) for space, drawn in variant.map["spaces"].items()}


def test_the_served_variants_have_maps() -> None:
    served = {variant.name for variant in VARIANTS.values() if variant.map is not None}
    assert served >= {"classic", "spqr"}
    assert served <= {variant.name for variant in DRAWN}
    for drawn in DRAWN:  # a served variant's map is the one drawn for its board
        if drawn.name in VARIANTS:
            assert VARIANTS[drawn.name].map == drawn.map
            assert VARIANTS[drawn.name].ruleset.board.edges == drawn.board.edges


@pytest.mark.parametrize("variant", DRAWN, ids=lambda v: v.name)
def test_every_space_has_a_shape_inside_the_frame(variant: Drawn) -> None:
    drawn = variant.map
    board = variant.board
    assert list(drawn["spaces"]) == [t.id for t in board.territories]
    frame = Polygon(
        [(0, 0), (drawn["width"], 0), (drawn["width"], drawn["height"]), (0, drawn["height"])]
    )
    for space, shape in shapes(variant).items():
        assert shape.is_valid, space
        assert shape.area > 20, f"{space} is a speck ({shape.area:.1f})"
        assert frame.buffer(0.5).contains(shape), space
        x, y = drawn["spaces"][space]["anchor"]
        assert 0 <= x <= drawn["width"]
        assert 0 <= y <= drawn["height"]


@pytest.mark.parametrize("variant", DRAWN, ids=lambda v: v.name)
def test_no_two_spaces_overlap(variant: Drawn) -> None:
    drawn = shapes(variant)
    names = list(drawn)
    shrunk = [drawn[name].buffer(-SLIVER) for name in names]
    tree = STRtree(shrunk)
    for index, name in enumerate(names):
        for other in tree.query(shrunk[index]):
            if other <= index:
                continue
            shared = shrunk[index].intersection(shrunk[other]).area
            assert shared == 0, f"{name} and {names[other]} overlap ({shared:.2f})"


@pytest.mark.parametrize("variant", DRAWN, ids=lambda v: v.name)
def test_neighbours_touch_or_are_joined_by_a_line(variant: Drawn) -> None:
    drawn = shapes(variant)
    lines = {frozenset((line["from"], line["to"])) for line in variant.map["lines"]}
    edges = {frozenset((edge.a, edge.b)) for edge in variant.board.edges}
    assert lines <= edges, "a line joins spaces that are not neighbours"
    for pair in edges:
        a, b = sorted(pair)
        touching = drawn[a].distance(drawn[b]) <= TOUCH
        assert touching or pair in lines, f"{a} and {b} neither touch nor have a line"


@pytest.mark.parametrize("variant", DRAWN, ids=lambda v: v.name)
def test_lines_run_between_their_spaces(variant: Drawn) -> None:
    drawn = shapes(variant)
    for line in variant.map["lines"]:
        segments = line["segments"]
        ends = [segments[0][0], segments[0][1]] if len(segments) == 1 else [s[0] for s in segments]
        near = {
            space
            for point in ends
            for space in (line["from"], line["to"])
            if drawn[space].distance(Point(point)) <= TOUCH
        }
        assert near == {line["from"], line["to"]}, line


def test_the_api_gives_each_shape_as_svg_path_data() -> None:
    classic = VARIANTS["classic"]
    geometry = geometry_type(classic.map)
    assert geometry is not None
    assert [s.id for s in geometry.spaces] == [t.id for t in classic.ruleset.board.territories]
    for space in geometry.spaces:
        assert space.path.startswith("M")
        assert space.path.endswith("Z")
        assert space.path.count("M") == space.path.count("Z")
    assert all(len(segment) == 4 for line in geometry.lines for segment in line.segments)
    assert geometry_type(None) is None


def test_the_maps_are_what_the_script_draws_today(tmp_path: Path) -> None:
    """variants/*/map.json are drawn, not edited: the script, run again, draws them the same."""
    executable = node(WEB)
    names = [variant.name for variant in DRAWN]
    script = ["scripts/draw-maps.mjs", "--out", str(tmp_path), *names]
    subprocess.run([executable, *script], cwd=WEB, check=True, capture_output=True)
    for name in names:
        drawn = json.loads((tmp_path / f"{name}.map.json").read_text())
        kept = json.loads((ROOT / "variants" / name / "map.json").read_text())
        assert drawn == kept, f"{name}: its map is not what the script draws (npm run maps in web/)"
