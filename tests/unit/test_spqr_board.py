"""The S.P.Q.RisiKo! board data (variants/spqr/board.json) against shared/reference/game-data.md
section 2: 45 provinces and 12 sea areas as printed on the board, and the edge lists of 2.4."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from domain.board import Board, EdgeKind

BOARD_FILE = Path(__file__).parents[2] / "variants" / "spqr" / "board.json"
BOARD = Board.from_data(json.loads(BOARD_FILE.read_text("utf-8")))

# 2.2, in the order of the table, spelled as printed on the board.
PROVINCES = (
    "Britannia",
    "Germania Inferior",
    "Belgica",
    "Lugdunense",
    "Aquitania",
    "Narbonensis",
    "Raetia",
    "Noricum",
    "Cisalpina",
    "Italia",
    "Corsica",
    "Sardinia",
    "Sicilia",
    "Baleares",
    "Galicia",
    "Lusitania",
    "Terraconensis",
    "Baetica",
    "Illiria",
    "Dalmazia",
    "Pannonia",
    "Dacia",
    "Moesia",
    "Thracia",
    "Macedonia",
    "Epirus",
    "Achaia",
    "Creta",
    "Asia",
    "Bithinya",
    "Ponto",
    "Galatia",
    "Cappadocia",
    "Cilicia",
    "Cipro",
    "Armenia",
    "Syria",
    "Mesopotamia",
    "Judea",
    "Arabia",
    "Aegyptus",
    "Cyrenaica",
    "Africa",
    "Numidia",
    "Mauretania",
)
# 2.3, in the order of the table.
SEAS = (
    "Britannicus",
    "Cantabricum",
    "Ibericum",
    "Balearicum",
    "Sinus Gallicus",
    "Tyrrenum",
    "Hadriaticum",
    "Ionium",
    "Syrtis",
    "Aegeum",
    "Creticum",
    "Pontus Euxinus",
)
ISLANDS = frozenset({"Britannia", "Corsica", "Sardinia", "Sicilia", "Baleares", "Creta", "Cipro"})
LANDLOCKED = frozenset(
    {"Raetia", "Noricum", "Dalmazia", "Pannonia", "Galatia", "Armenia", "Mesopotamia", "Arabia"}
)

# 2.4, copied as data.
LAND_EDGES: tuple[tuple[str, str], ...] = (
    ("Germania Inferior", "Belgica"),
    ("Germania Inferior", "Raetia"),
    ("Belgica", "Lugdunense"),
    ("Belgica", "Raetia"),
    ("Lugdunense", "Aquitania"),
    ("Lugdunense", "Narbonensis"),
    ("Lugdunense", "Raetia"),
    ("Lugdunense", "Cisalpina"),
    ("Aquitania", "Narbonensis"),
    ("Aquitania", "Terraconensis"),
    ("Narbonensis", "Cisalpina"),
    ("Narbonensis", "Terraconensis"),
    ("Raetia", "Noricum"),
    ("Raetia", "Cisalpina"),
    ("Noricum", "Cisalpina"),
    ("Noricum", "Illiria"),
    ("Noricum", "Dalmazia"),
    ("Noricum", "Pannonia"),
    ("Cisalpina", "Italia"),
    ("Cisalpina", "Illiria"),
    ("Galicia", "Lusitania"),
    ("Galicia", "Terraconensis"),
    ("Lusitania", "Terraconensis"),
    ("Lusitania", "Baetica"),
    ("Terraconensis", "Baetica"),
    ("Illiria", "Dalmazia"),
    ("Illiria", "Macedonia"),
    ("Illiria", "Epirus"),
    ("Dalmazia", "Pannonia"),
    ("Dalmazia", "Thracia"),
    ("Dalmazia", "Macedonia"),
    ("Pannonia", "Dacia"),
    ("Pannonia", "Moesia"),
    ("Pannonia", "Thracia"),
    ("Dacia", "Moesia"),
    ("Moesia", "Thracia"),
    ("Thracia", "Macedonia"),
    ("Macedonia", "Epirus"),
    ("Macedonia", "Achaia"),
    ("Epirus", "Achaia"),
    ("Asia", "Bithinya"),
    ("Asia", "Galatia"),
    ("Asia", "Cilicia"),
    ("Bithinya", "Ponto"),
    ("Bithinya", "Galatia"),
    ("Bithinya", "Cappadocia"),
    ("Ponto", "Cappadocia"),
    ("Ponto", "Armenia"),
    ("Galatia", "Cappadocia"),
    ("Galatia", "Cilicia"),
    ("Cappadocia", "Cilicia"),
    ("Cappadocia", "Armenia"),
    ("Cappadocia", "Syria"),
    ("Cappadocia", "Mesopotamia"),
    ("Armenia", "Mesopotamia"),
    ("Syria", "Mesopotamia"),
    ("Syria", "Judea"),
    ("Mesopotamia", "Judea"),
    ("Mesopotamia", "Arabia"),
    ("Judea", "Arabia"),
    ("Judea", "Aegyptus"),
    ("Aegyptus", "Cyrenaica"),
    ("Cyrenaica", "Numidia"),
    ("Africa", "Numidia"),
    ("Numidia", "Mauretania"),
)
COAST_EDGES: tuple[tuple[str, str], ...] = (
    ("Britannia", "Britannicus"),
    ("Germania Inferior", "Britannicus"),
    ("Belgica", "Britannicus"),
    ("Lugdunense", "Britannicus"),
    ("Lugdunense", "Cantabricum"),
    ("Aquitania", "Cantabricum"),
    ("Galicia", "Cantabricum"),
    ("Lusitania", "Cantabricum"),
    ("Terraconensis", "Cantabricum"),
    ("Lusitania", "Ibericum"),
    ("Baetica", "Ibericum"),
    ("Mauretania", "Ibericum"),
    ("Sardinia", "Balearicum"),
    ("Baleares", "Balearicum"),
    ("Terraconensis", "Balearicum"),
    ("Baetica", "Balearicum"),
    ("Africa", "Balearicum"),
    ("Numidia", "Balearicum"),
    ("Mauretania", "Balearicum"),
    ("Narbonensis", "Sinus Gallicus"),
    ("Cisalpina", "Sinus Gallicus"),
    ("Corsica", "Sinus Gallicus"),
    ("Sardinia", "Sinus Gallicus"),
    ("Baleares", "Sinus Gallicus"),
    ("Terraconensis", "Sinus Gallicus"),
    ("Cisalpina", "Tyrrenum"),
    ("Italia", "Tyrrenum"),
    ("Corsica", "Tyrrenum"),
    ("Sardinia", "Tyrrenum"),
    ("Sicilia", "Tyrrenum"),
    ("Africa", "Tyrrenum"),
    ("Cisalpina", "Hadriaticum"),
    ("Italia", "Hadriaticum"),
    ("Illiria", "Hadriaticum"),
    ("Epirus", "Hadriaticum"),
    ("Italia", "Ionium"),
    ("Sicilia", "Ionium"),
    ("Epirus", "Ionium"),
    ("Achaia", "Ionium"),
    ("Creta", "Ionium"),
    ("Cyrenaica", "Ionium"),
    ("Sicilia", "Syrtis"),
    ("Cyrenaica", "Syrtis"),
    ("Africa", "Syrtis"),
    ("Numidia", "Syrtis"),
    ("Thracia", "Aegeum"),
    ("Macedonia", "Aegeum"),
    ("Achaia", "Aegeum"),
    ("Creta", "Aegeum"),
    ("Asia", "Aegeum"),
    ("Cilicia", "Aegeum"),
    ("Cipro", "Aegeum"),
    ("Creta", "Creticum"),
    ("Cappadocia", "Creticum"),
    ("Cilicia", "Creticum"),
    ("Cipro", "Creticum"),
    ("Syria", "Creticum"),
    ("Judea", "Creticum"),
    ("Aegyptus", "Creticum"),
    ("Cyrenaica", "Creticum"),
    ("Dacia", "Pontus Euxinus"),
    ("Moesia", "Pontus Euxinus"),
    ("Thracia", "Pontus Euxinus"),
    ("Asia", "Pontus Euxinus"),
    ("Bithinya", "Pontus Euxinus"),
    ("Ponto", "Pontus Euxinus"),
)
SEA_EDGES: tuple[tuple[str, str], ...] = (
    ("Britannicus", "Cantabricum"),
    ("Cantabricum", "Ibericum"),
    ("Ibericum", "Balearicum"),
    ("Balearicum", "Sinus Gallicus"),
    ("Balearicum", "Tyrrenum"),
    ("Sinus Gallicus", "Tyrrenum"),
    ("Tyrrenum", "Ionium"),
    ("Tyrrenum", "Syrtis"),
    ("Hadriaticum", "Ionium"),
    ("Ionium", "Syrtis"),
    ("Ionium", "Aegeum"),
    ("Ionium", "Creticum"),
    ("Aegeum", "Creticum"),
    ("Aegeum", "Pontus Euxinus"),
)


def by_name(name: str) -> int:
    """The board index of a space given its printed name."""
    [index] = [t.index for t in BOARD.territories if t.name == name]
    return index


def ident(name: str) -> str:
    return BOARD.territories[by_name(name)].id


def names(indices: tuple[int, ...]) -> set[str]:
    return {BOARD.territories[i].name for i in indices}


def board_edges(kind: EdgeKind) -> set[frozenset[str]]:
    return {
        frozenset((BOARD.territory(e.a).name, BOARD.territory(e.b).name))
        for e in BOARD.edges
        if e.kind is kind
    }


def test_spaces() -> None:
    assert BOARD.id == "spqr"
    assert BOARD.name == "S.P.Q.RisiKo!"
    assert len(BOARD.territories) == 57
    assert len(BOARD.lands) == 45
    assert len(BOARD.seas) == 12
    assert sum(t.is_sea for t in BOARD.territories) == 12
    assert BOARD.regions == ()
    assert all(t.region is None for t in BOARD.territories)


def test_edge_counts_by_kind() -> None:
    assert Counter(e.kind for e in BOARD.edges) == {
        EdgeKind.LAND: 65,
        EdgeKind.COAST: 66,
        EdgeKind.SEA: 14,
    }
    assert len({frozenset((e.a, e.b)) for e in BOARD.edges}) == 65 + 66 + 14


def test_the_lists_are_as_long_as_the_reference_says() -> None:
    assert (len(LAND_EDGES), len(COAST_EDGES), len(SEA_EDGES)) == (65, 66, 14)
    for edges in (LAND_EDGES, COAST_EDGES, SEA_EDGES):
        assert len({frozenset(edge) for edge in edges}) == len(edges)


@pytest.mark.parametrize(
    ("kind", "expected"),
    [(EdgeKind.LAND, LAND_EDGES), (EdgeKind.COAST, COAST_EDGES), (EdgeKind.SEA, SEA_EDGES)],
    ids=["land", "coast", "sea"],
)
def test_edges_are_the_reference_lists(
    kind: EdgeKind, expected: tuple[tuple[str, str], ...]
) -> None:
    assert board_edges(kind) == {frozenset(edge) for edge in expected}


def test_coast_edges_join_a_province_and_a_sea() -> None:
    for province, sea in COAST_EDGES:
        assert province in PROVINCES
        assert sea in SEAS


def test_names_as_printed_in_order() -> None:
    assert tuple(t.name for t in BOARD.lands) == PROVINCES
    assert tuple(t.name for t in BOARD.seas) == SEAS
    assert [t.is_sea for t in BOARD.territories] == [False] * 45 + [True] * 12


def test_ids_are_the_names_in_snake_case() -> None:
    for t in BOARD.territories:
        assert t.id == t.name.lower().replace(" ", "_")


@pytest.mark.parametrize("province", PROVINCES)
def test_islands_have_no_land_neighbour(province: str) -> None:
    index = by_name(province)
    assert (not BOARD.land_neighbours[index]) == (province in ISLANDS)
    if province in ISLANDS:
        assert BOARD.coasts[index]


@pytest.mark.parametrize("province", PROVINCES)
def test_landlocked_provinces_have_no_coast(province: str) -> None:
    assert (not BOARD.coasts[by_name(province)]) == (province in LANDLOCKED)


def test_islands_and_landlocked_as_listed() -> None:
    lands = BOARD.lands
    assert {t.name for t in lands if not BOARD.land_neighbours[t.index]} == ISLANDS
    assert {t.name for t in lands if not BOARD.coasts[t.index]} == LANDLOCKED


@pytest.mark.parametrize("sea", SEAS)
def test_seas_have_shores_and_seas_only(sea: str) -> None:
    index = by_name(sea)
    assert BOARD.coasts[index]
    assert BOARD.sea_neighbours[index]
    assert not BOARD.land_neighbours[index]
    assert names(BOARD.neighbours[index]) <= set(PROVINCES) | set(SEAS)


# The five disagreements between the sources, settled on the board photo (2.4).
@pytest.mark.parametrize(
    ("a", "b", "kind", "kept"),
    [
        ("Judea", "Mesopotamia", EdgeKind.LAND, True),
        ("Cilicia", "Syria", EdgeKind.LAND, False),
        ("Cappadocia", "Creticum", EdgeKind.COAST, True),
        ("Asia", "Pontus Euxinus", EdgeKind.COAST, True),
        ("Terraconensis", "Cantabricum", EdgeKind.COAST, True),
    ],
)
def test_settled_disagreements(a: str, b: str, kind: EdgeKind, kept: bool) -> None:
    assert (frozenset((a, b)) in board_edges(kind)) is kept
    assert BOARD.are_adjacent(ident(a), ident(b)) is kept


@pytest.mark.parametrize(
    ("a", "b"),
    [("Sicilia", "Italia"), ("Africa", "Cyrenaica"), ("Corsica", "Sardinia"), ("Cilicia", "Syria")],
)
def test_not_adjacent(a: str, b: str) -> None:
    assert not BOARD.are_adjacent(ident(a), ident(b))
    assert not BOARD.are_adjacent(ident(b), ident(a))
    assert all(
        {a, b} != {BOARD.territory(e.a).name, BOARD.territory(e.b).name} for e in BOARD.edges
    )


def test_corsica_and_sardinia_share_two_seas() -> None:
    shared = names(BOARD.coasts[by_name("Corsica")]) & names(BOARD.coasts[by_name("Sardinia")])
    assert shared == {"Sinus Gallicus", "Tyrrenum"}


def test_sicilia_and_italia_share_seas_only() -> None:
    shared = names(BOARD.coasts[by_name("Sicilia")]) & names(BOARD.coasts[by_name("Italia")])
    assert shared == {"Tyrrenum", "Ionium"}


def test_to_data_tells_provinces_from_seas() -> None:
    data = BOARD.to_data()
    kinds = {t["name"]: t["kind"] for t in data["territories"]}
    assert kinds == {**dict.fromkeys(PROVINCES, "land"), **dict.fromkeys(SEAS, "sea")}
    assert data["regions"] == []
    assert Counter(e["kind"] for e in data["edges"]) == {"land": 65, "coast": 66, "sea": 14}
    assert (
        Board.from_data(
            {
                "id": data["id"],
                "name": data["name"],
                "territories": [
                    {
                        "id": t["id"],
                        "name": t["name"],
                        "kind": t["kind"],
                        "borders": {
                            (e["b"] if e["a"] == t["id"] else e["a"]): e["kind"]
                            for e in data["edges"]
                            if t["id"] in (e["a"], e["b"])
                        },
                    }
                    for t in data["territories"]
                ],
            }
        ).edges
        == BOARD.edges
    )
