"""The FutuRisiKo! board data (variants/futurisiko/board.json) against
shared/reference/boards-piu-futurisiko.md sections 2.5-2.6: no printed board exists in any source,
so the board is the reconstruction, and these tests hold every constraint it was designed to
meet (the names the sources give, two true islands, black lines across straits, the Pacific on
both edges of a board that wraps east-west). The rules that read it come with the variant."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from domain.board import Board, EdgeKind

BOARD_DATA = json.loads(
    (Path(__file__).parents[2] / "variants" / "futurisiko" / "board.json").read_text("utf-8")
)
BOARD = Board.from_data(BOARD_DATA)
AMERICAS = {
    "alaska",
    "canada_occidentale",
    "canada_orientale",
    "groenlandia",
    "california",
    "stati_uniti",
    "messico",
    "venezuela",
    "peru",
    "brasile",
    "argentina",
}
ASIA_AND_OCEANIA = {
    "asia_centrale",
    "india",
    "cina",
    "siberia",
    "siberia_orientale",
    "giappone",
    "sud_est_asiatico",
    "indonesia",
    "australia",
}
BLACK_LINES = {
    ("francia", "gran_bretagna"),
    ("nord_africa", "spagna"),
    ("africa_orientale", "medio_oriente"),
    ("alaska", "siberia_orientale"),
    ("giappone", "siberia_orientale"),
    ("cina", "giappone"),
    ("indonesia", "sud_est_asiatico"),
    ("australia", "indonesia"),
}


def ids(indices: tuple[int, ...]) -> set[str]:
    return {BOARD.territories[i].id for i in indices}


def test_the_board_says_it_is_reconstructed() -> None:
    assert (BOARD.id, BOARD.name, BOARD_DATA["version"]) == (
        "futurisiko",
        "FutuRisiKo!",
        "reconstructed-1",
    )


def test_36_territories_each_with_a_city_and_8_sea_areas_and_no_regions() -> None:
    assert len(BOARD.lands) == 36
    assert len(BOARD.seas) == 8
    assert BOARD.regions == ()
    cities = {t["id"]: t.get("city") for t in BOARD_DATA["territories"] if "kind" not in t}
    assert all(cities.values())
    assert len(set(cities.values())) == 36
    # The names the sources give: Groenlandia and Madagascar, and the rules' example.
    names = {t.name for t in BOARD.lands}
    assert {"Groenlandia", "Madagascar", "California", "Giappone"} <= names
    assert {sea.name for sea in BOARD.seas} >= {"Oceano Pacifico Nord", "Oceano Pacifico Sud"}


def test_the_edge_counts_of_the_reconstruction() -> None:
    counts = Counter(edge.kind for edge in BOARD.edges)
    assert counts == {
        EdgeKind.LAND: 49,
        EdgeKind.BLACK_LINE: 8,
        EdgeKind.COAST: 57,
        EdgeKind.SEA: 11,
    }
    black = {tuple(sorted((e.a, e.b))) for e in BOARD.edges if e.kind is EdgeKind.BLACK_LINE}
    assert black == {tuple(sorted(pair)) for pair in BLACK_LINES}


def test_groenlandia_and_madagascar_are_the_only_true_islands() -> None:
    alone = {t.id for t in BOARD.lands if not BOARD.land_neighbours[t.index]}
    assert alone == {"groenlandia", "madagascar"}


def test_only_asia_centrale_is_landlocked() -> None:
    assert {t.id for t in BOARD.lands if not BOARD.coasts[t.index]} == {"asia_centrale"}


def test_every_black_line_crosses_a_sea_both_ends_touch() -> None:
    for a, b in BLACK_LINES:
        shared = set(BOARD.coasts[BOARD.index[a]]) & set(BOARD.coasts[BOARD.index[b]])
        assert shared, (a, b)


def test_both_pacific_areas_touch_the_americas_and_asia_so_the_board_wraps() -> None:
    for pacific in ("pacifico_nord", "pacifico_sud"):
        shores = ids(BOARD.coasts[BOARD.index[pacific]])
        assert shores & AMERICAS, pacific
        assert shores & ASIA_AND_OCEANIA, pacific
    # The rules' example: California reaches Giappone across the Pacific.
    north = ids(BOARD.coasts[BOARD.index["pacifico_nord"]])
    assert {"california", "giappone"} <= north
    assert "alaska" in ids(BOARD.land_neighbours[BOARD.index["siberia_orientale"]])


def reached(start: int, neighbours: tuple[tuple[int, ...], ...]) -> set[int]:
    seen, frontier = set(), [start]
    while frontier:
        current = frontier.pop()
        if current not in seen:
            seen.add(current)
            frontier.extend(neighbours[current])
    return seen


def test_34_territories_joined_by_land_and_black_lines_and_all_by_the_seas() -> None:
    by_land = reached(BOARD.index["francia"], BOARD.land_neighbours)
    assert len(by_land) == 34
    assert len(reached(0, BOARD.neighbours)) == 44
    degrees = [len(BOARD.land_neighbours[t.index]) for t in BOARD.lands]
    assert (min(degrees), max(degrees)) == (0, 6)
