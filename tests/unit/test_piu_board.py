"""The RisiKo! Più board data (variants/piu/board.json) against
shared/reference/boards-piu-futurisiko.md section 1: the 44 confirmed territories in their 6
empires and 3 independent blocks, and the reconstructed borders, dotted lines and sea areas of
1.5-1.6 with every constraint the reconstruction was designed to meet. The rules that read the
board (the flagship's bodies of water, the reinforcements by empire and block) come with the
variant; these tests hold the data they will stand on."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from domain.board import Board, EdgeKind

BOARD_DATA = json.loads(
    (Path(__file__).parents[2] / "variants" / "piu" / "board.json").read_text("utf-8")
)
BOARD = Board.from_data(BOARD_DATA)

# 1.3: the groups, their kind and their territories (the Italian names used by the board).
EMPIRES = {
    "britannico": ("Impero Britannico", {"Scozia", "Yorkshire", "Galles", "Londra", "Irlanda"}),
    "francese": (
        "Impero Francese",
        {"Bretagna", "Parigi", "Paesi Bassi", "Borgogna", "Guascogna", "Marsiglia"},
    ),
    "germanico": ("Impero Germanico", {"Renania", "Berlino", "Prussia", "Sassonia", "Baviera"}),
    "austro_ungarico": (
        "Impero Austro-Ungarico",
        {"Boemia", "Vienna", "Trieste", "Ungheria", "Galizia"},
    ),
    "russo": (
        "Impero Russo",
        {"San Pietroburgo", "Livonia", "Mosca", "Smolensk", "Polonia", "Ucraina"},
    ),
    "ottomano": (
        "Impero Ottomano",
        {"Serbia", "Montenegro", "Grecia", "Bulgaria", "Romania", "Turchia"},
    ),
}
BLOCKS = {
    "scandinavia": ("Scandinavia", {"Norvegia", "Svezia", "Finlandia", "Danimarca"}),
    "spagna": ("Spagna", {"Portogallo", "Madrid", "Barcellona"}),
    "italia": ("Italia", {"Svizzera", "Venezia", "Roma", "Napoli"}),
}
SEAS = {
    "Oceano Atlantico",
    "Mare del Nord",
    "Mar Baltico",
    "Mar Mediterraneo",
    "Mar Adriatico",
    "Mar Ionio",
    "Mar Egeo",
    "Mar Nero",
}
LANDLOCKED = {
    "borgogna",
    "svizzera",
    "sassonia",
    "baviera",
    "boemia",
    "vienna",
    "ungheria",
    "galizia",
    "polonia",
    "smolensk",
    "mosca",
    "serbia",
}
DOTTED = {
    ("irlanda", "scozia"),
    ("galles", "irlanda"),
    ("londra", "parigi"),
    ("danimarca", "norvegia"),
    ("danimarca", "svezia"),
    ("finlandia", "livonia"),
    ("montenegro", "napoli"),
    ("grecia", "turchia"),
}


def names(indices: tuple[int, ...] | list[int]) -> set[str]:
    return {BOARD.territories[i].name for i in indices}


def pairs(kind: EdgeKind) -> set[tuple[str, str]]:
    return {tuple(sorted((e.a, e.b))) for e in BOARD.edges if e.kind is kind}  # type: ignore[misc]


def test_the_board_says_it_is_reconstructed() -> None:
    assert BOARD.id == "piu"
    assert BOARD.name == "RisiKo! Più"
    assert BOARD_DATA["version"] == "reconstructed-1"


def test_44_territories_in_6_empires_and_3_independent_blocks() -> None:
    assert len(BOARD.lands) == 44
    assert len({t.id for t in BOARD.lands}) == 44
    groups = {**EMPIRES, **BLOCKS}
    assert [r.id for r in BOARD.regions] == list(groups)
    for region in BOARD.regions:
        name, members = groups[region.id]
        assert region.name == name
        assert {BOARD.territory(t).name for t in region.territories} == members
    kinds = {entry["id"]: entry["kind"] for entry in BOARD_DATA["regions"]}
    assert {r for r, k in kinds.items() if k == "empire"} == set(EMPIRES)
    assert {r for r, k in kinds.items() if k == "independent_block"} == set(BLOCKS)
    assert sorted(len(EMPIRES[r][1]) for r in EMPIRES) == [5, 5, 5, 6, 6, 6]
    assert sum(len(members) for _, members in groups.values()) == 44


def test_a_whole_empire_is_worth_6_and_a_whole_block_4() -> None:
    bonus = {region.id: region.bonus for region in BOARD.regions}
    assert {bonus[r] for r in EMPIRES} == {6}
    assert {bonus[r] for r in BLOCKS} == {4}


def test_8_sea_areas_and_the_edge_counts_of_the_reconstruction() -> None:
    assert {sea.name for sea in BOARD.seas} == SEAS
    counts = Counter(edge.kind for edge in BOARD.edges)
    assert counts == {EdgeKind.LAND: 77, EdgeKind.SEA_LINE: 8, EdgeKind.COAST: 46, EdgeKind.SEA: 6}
    assert pairs(EdgeKind.SEA_LINE) == {tuple(sorted(pair)) for pair in DOTTED}


def test_12_landlocked_territories_and_every_other_one_on_a_sea() -> None:
    coastal = {t.id for t in BOARD.lands if BOARD.coasts[t.index]}
    assert {t.id for t in BOARD.lands} - coastal == LANDLOCKED
    assert len(coastal) == 32


def test_every_dotted_line_crosses_a_sea_both_ends_touch() -> None:
    for a, b in DOTTED:
        seas_a = set(BOARD.coasts[BOARD.index[a]])
        seas_b = set(BOARD.coasts[BOARD.index[b]])
        assert seas_a & seas_b, (a, b)


def water_bodies() -> list[set[str]]:
    """Seas joined by sea-sea edges: the bodies of water the flagship sails."""
    seen: set[int] = set()
    bodies = []
    for sea in BOARD.seas:
        if sea.index in seen:
            continue
        body, frontier = set(), [sea.index]
        while frontier:
            current = frontier.pop()
            if current in seen:
                continue
            seen.add(current)
            body.add(BOARD.territories[current].name)
            frontier.extend(BOARD.sea_neighbours[current])
        bodies.append(body)
    return bodies


def test_the_mar_nero_is_enclosed_and_every_other_sea_one_body() -> None:
    bodies = water_bodies()
    assert sorted(map(len, bodies)) == [1, 7]
    assert {"Mar Nero"} in bodies
    mar_nero = BOARD.index["mar_nero"]
    assert BOARD.sea_neighbours[mar_nero] == ()
    assert names(BOARD.coasts[mar_nero]) == {"Romania", "Bulgaria", "Turchia", "Ucraina"}
    # Its four shores close a ring by land.
    ring = [("romania", "bulgaria"), ("bulgaria", "turchia"), ("turchia", "ucraina")]
    for a, b in [*ring, ("ucraina", "romania")]:
        assert BOARD.index[b] in BOARD.land_neighbours[BOARD.index[a]], (a, b)


def test_bulgaria_and_turchia_reach_both_bodies_of_water() -> None:
    both = {
        t.name
        for t in BOARD.lands
        if {BOARD.territories[s].name == "Mar Nero" for s in BOARD.coasts[t.index]} == {True, False}
    }
    assert both == {"Bulgaria", "Turchia"}


def test_austria_hungary_is_boxed_in_every_territory_by_another_power_only_trieste_coastal() -> (
    None
):
    empire = BOARD.region("austro_ungarico")
    members = {BOARD.index[t] for t in empire.territories}
    for territory in members:
        assert set(BOARD.land_neighbours[territory]) - members, BOARD.territories[territory].name
    assert {BOARD.territories[t].name for t in members if BOARD.coasts[t]} == {"Trieste"}


def test_france_reaches_spain_by_land_twice_and_england_by_one_dotted_line() -> None:
    france = {BOARD.index[t] for t in BOARD.region("francese").territories}
    spain = {BOARD.index[t] for t in BOARD.region("spagna").territories}
    britain = {BOARD.index[t] for t in BOARD.region("britannico").territories}
    to_spain = {(f, s) for f in france for s in BOARD.land_neighbours[f] if s in spain}
    assert len(to_spain) == 2
    to_britain = {(f, b) for f in france for b in BOARD.land_neighbours[f] if b in britain}
    assert [(BOARD.territories[f].id, BOARD.territories[b].id) for f, b in to_britain] == [
        ("parigi", "londra")
    ]
    # Britain has no other link to the continent.
    outside = {n for b in britain for n in BOARD.land_neighbours[b] if n not in britain}
    assert names(sorted(outside)) == {"Parigi"}


def test_the_land_and_dotted_graph_is_connected() -> None:
    seen, frontier = set(), [0]
    while frontier:
        current = frontier.pop()
        if current not in seen:
            seen.add(current)
            frontier.extend(BOARD.land_neighbours[current])
    assert len(seen) == 44
    degrees = {t.name: len(BOARD.land_neighbours[t.index]) for t in BOARD.lands}
    assert min(degrees.values()) == 1 == degrees["Portogallo"]
    assert max(degrees.values()) == 6
