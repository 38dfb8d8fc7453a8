"""The classic board against the printed rules (seed 000) and game-data.md section 1, and the
validation of board data."""

from __future__ import annotations

import copy
import json
import unicodedata
from collections import Counter
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from domain.board import Board, EdgeKind
from domain.cards import JOLLY
from domain.errors import BoardDataError
from domain.objectives import DestroyColour, HoldListedTerritories, HoldRegions, HoldTerritories
from tests.support import BOARD, CLASSIC

RULESET = CLASSIC.ruleset

# The table of territory values printed in the rules (seed 000, "Punteggi"), as printed: a
# territory is worth its number of neighbours.
PRINTED_VALUES: dict[str, int] = {
    "Afganistan": 4,
    "Africa del Nord": 6,
    "Africa del Sud": 3,
    "Africa Orientale": 5,
    "Alaska": 3,
    "Alberta": 4,
    "America Centrale": 3,
    "Argentina": 2,
    "Australia Occidentale": 3,
    "Australia Orientale": 2,
    "Brasile": 4,
    "Cina": 7,
    "Cita": 4,
    "Congo": 3,
    "Egitto": 4,
    "Europa Meridionale": 6,
    "Europa Occidentale": 4,
    "Europa Settentrionale": 5,
    "Giappone": 2,
    "Gran Bretagna": 4,
    "Groenlandia": 4,
    "India": 3,
    "Indonesia": 3,
    "Islanda": 3,
    "Jacuzia": 3,
    "Kamchatka": 5,
    "Madagascar": 2,
    "Medio Oriente": 6,
    "Mongolia": 5,
    "Nuova Guinea": 3,
    "Ontario": 6,
    "Perù": 3,
    "Quebec": 3,
    "Scandinavia": 4,
    "Siam": 3,
    "Siberia": 5,
    "Stati Uniti Occidentali": 4,
    "Stati Uniti Orientali": 4,
    "Territori del Nord Ovest": 4,
    "Ucraina": 6,
    "Urali": 4,
    "Venezuela": 3,
}
SPELLINGS = {"Afganistan": "afghanistan"}  # the rules spell it without the h


def board_id(printed: str) -> str:
    """The board id of a printed name: "Perù" -> "peru", "Africa del Nord" -> "africa_del_nord"."""
    if printed in SPELLINGS:
        return SPELLINGS[printed]
    plain = unicodedata.normalize("NFKD", printed).encode("ascii", "ignore").decode()
    return plain.lower().replace(" ", "_")


REGIONS = {
    "america_del_nord": (9, 5),
    "america_del_sud": (4, 2),
    "europa": (7, 5),
    "africa": (6, 3),
    "asia": (12, 7),
    "oceania": (4, 2),
}
STANDARD_OBJECTIVES = {
    "territories_24",
    "territories_18_2",
    "north_america_africa",
    "north_america_oceania",
    "asia_south_america",
    "asia_africa",
    "europe_south_america_plus_one",
    "europe_oceania_plus_one",
    "destroy_blu",
    "destroy_rosso",
    "destroy_giallo",
    "destroy_verde",
    "destroy_nero",
    "destroy_viola",
}


# --------------------------------------------------------------------------- the classic board


def test_territories_and_regions() -> None:
    assert len(BOARD.territories) == 42
    assert len({t.id for t in BOARD.territories}) == 42
    assert {r.id: (len(r.territories), r.bonus) for r in BOARD.regions} == REGIONS
    assert sum(len(r.territories) for r in BOARD.regions) == 42
    for region in BOARD.regions:
        assert all(BOARD.territory(t).region == region.id for t in region.territories)


def test_edges() -> None:
    assert len(BOARD.edges) == 82
    pairs = [frozenset((edge.a, edge.b)) for edge in BOARD.edges]
    assert len(set(pairs)) == 82
    for edge in BOARD.edges:
        assert BOARD.are_adjacent(edge.a, edge.b)
        assert BOARD.are_adjacent(edge.b, edge.a)
    assert sum(len(n) for n in BOARD.neighbours) == 2 * 82


def test_the_printed_table_names_every_territory() -> None:
    assert len(PRINTED_VALUES) == 42
    assert {board_id(name) for name in PRINTED_VALUES} == {t.id for t in BOARD.territories}
    assert sum(PRINTED_VALUES.values()) == 164


@pytest.mark.parametrize(("printed", "value"), list(PRINTED_VALUES.items()))
def test_each_territory_borders_as_many_as_its_printed_value(printed: str, value: int) -> None:
    assert BOARD.degree(board_id(printed)) == value


@pytest.mark.parametrize(
    ("a", "b", "adjacent"),
    [
        ("medio_oriente", "cina", True),  # not on the Hasbro map
        ("afghanistan", "india", False),  # on the Hasbro map
        ("africa_orientale", "medio_oriente", False),  # on the Hasbro map
        ("egitto", "medio_oriente", True),
        ("alaska", "kamchatka", True),  # "è possibile attaccare dall'Alaska la Kamchatka"
        ("brasile", "africa_del_nord", True),
        ("groenlandia", "islanda", True),
        ("siam", "indonesia", True),
        ("america_centrale", "stati_uniti_orientali", True),  # missing on the 2023 print
    ],
)
def test_italian_borders(a: str, b: str, adjacent: bool) -> None:
    assert BOARD.are_adjacent(a, b) is adjacent
    assert BOARD.are_adjacent(b, a) is adjacent


def test_egypt_is_the_only_african_territory_touching_asia() -> None:
    africa = BOARD.region("africa").territories
    touching = {
        t for t in africa for n in BOARD.neighbours[BOARD.index[t]] if BOARD.region_of[n] == 4
    }
    assert BOARD.regions[4].id == "asia"
    assert touching == {"egitto"}


def test_edge_kinds() -> None:
    kinds = Counter(edge.kind for edge in BOARD.edges)
    assert set(kinds) <= {EdgeKind.LAND, EdgeKind.SEA_LINE}
    sea = {frozenset((edge.a, edge.b)) for edge in BOARD.edges if edge.kind is EdgeKind.SEA_LINE}
    assert frozenset(("alaska", "kamchatka")) in sea


def test_names_are_the_printed_names() -> None:
    names = {t.id: t.name for t in BOARD.territories}
    for printed in PRINTED_VALUES:
        if printed not in SPELLINGS:
            assert names[board_id(printed)] == printed


# --------------------------------------------------------------------------- cards, objectives


def test_cards_split_fourteen_each_and_two_jolly() -> None:
    cards = RULESET.cards.cards
    assert len(cards) == 44
    symbols = Counter(card.symbol for card in cards.values())
    assert symbols == {"fante": 14, "cavallo": 14, "cannone": 14, JOLLY: 2}
    territories = [card.territory for card in cards.values() if card.territory is not None]
    assert sorted(territories) == sorted(t.id for t in BOARD.territories)


@pytest.mark.parametrize(
    ("symbols", "armies"),
    [
        (("cannone", "cannone", "cannone"), 4),
        (("fante", "fante", "fante"), 6),
        (("cavallo", "cavallo", "cavallo"), 8),
        (("cannone", "cavallo", "fante"), 10),
        (("cannone", "cannone", JOLLY), 12),
        (("fante", "fante", JOLLY), 12),
        (("cavallo", "cavallo", JOLLY), 12),
    ],
)
def test_card_sets(symbols: tuple[str, str, str], armies: int) -> None:
    assert RULESET.cards.sets[tuple(sorted(symbols))].armies == armies
    assert RULESET.cards.territory_bonus == 2


def test_starting_armies() -> None:
    assert dict(RULESET.starting_armies) == {3: 35, 4: 30, 5: 25, 6: 20}


def test_the_fourteen_standard_objectives() -> None:
    objectives = RULESET.objectives
    assert set(objectives) == STANDARD_OBJECTIVES
    assert isinstance(objectives["territories_24"], HoldTerritories)
    assert (objectives["territories_24"].count, objectives["territories_24"].min_armies) == (24, 1)
    assert isinstance(objectives["territories_18_2"], HoldTerritories)
    assert (objectives["territories_18_2"].count, objectives["territories_18_2"].min_armies) == (
        18,
        2,
    )
    regions = [o for o in objectives.values() if isinstance(o, HoldRegions)]
    assert len(regions) == 6
    assert sorted(o.extra_regions for o in regions) == [0, 0, 0, 0, 1, 1]
    destroy = [o for o in objectives.values() if isinstance(o, DestroyColour)]
    assert sorted(o.colour for o in destroy) == sorted(c.id for c in RULESET.colours)
    assert all(o.fallback == "territories_24" for o in destroy)


def test_the_board_is_worth_164_points() -> None:
    assert sum(len(n) for n in BOARD.neighbours) == 164


@pytest.mark.parametrize("objective_id", sorted(RULESET.tournament_objectives))
def test_each_tournament_objective_is_worth_86(objective_id: str) -> None:
    objective = RULESET.tournament_objectives[objective_id]
    assert isinstance(objective, HoldListedTerritories)
    assert len(set(objective.territories)) == len(objective.territories)
    assert objective.total_points(BOARD) == 86
    assert sum(BOARD.degree(BOARD.territories[t].id) for t in objective.territories) == 86


def test_there_are_sixteen_tournament_objectives() -> None:
    assert len(RULESET.tournament_objectives) == 16
    assert RULESET.tournament_objective_points == 100


# --------------------------------------------------------------------------- validation


def small_board() -> dict[str, Any]:
    """alfa - beta by land, beta - gamma by a sea line; two regions."""
    return {
        "id": "mini",
        "name": "Mini",
        "regions": [
            {"id": "nord", "name": "Nord", "bonus": 2},
            {"id": "sud", "name": "Sud", "bonus": 1},
        ],
        "territories": [
            {"id": "alfa", "name": "Alfa", "region": "nord", "borders": {"beta": "land"}},
            {
                "id": "beta",
                "name": "Beta",
                "region": "nord",
                "borders": {"alfa": "land", "gamma": "sea_line"},
            },
            {"id": "gamma", "name": "Gamma", "region": "sud", "borders": {"beta": "sea_line"}},
        ],
    }


def test_a_small_board_loads() -> None:
    board = Board.from_data(small_board())
    assert [t.id for t in board.territories] == ["alfa", "beta", "gamma"]
    assert [(e.a, e.b, e.kind) for e in board.edges] == [
        ("alfa", "beta", EdgeKind.LAND),
        ("beta", "gamma", EdgeKind.SEA_LINE),
    ]
    assert board.degree("beta") == 2
    assert board.region("nord").territories == ("alfa", "beta")
    assert board.to_data()["edges"] == [
        {"a": "alfa", "b": "beta", "kind": "land"},
        {"a": "beta", "b": "gamma", "kind": "sea_line"},
    ]


def _territory(data: dict[str, Any], territory_id: str) -> dict[str, Any]:
    return next(t for t in data["territories"] if t["id"] == territory_id)


def _asymmetric(data: dict[str, Any]) -> None:
    _territory(data, "alfa")["borders"]["gamma"] = "land"


def _two_kinds(data: dict[str, Any]) -> None:
    _territory(data, "beta")["borders"]["gamma"] = "land"


def _unknown_neighbour(data: dict[str, Any]) -> None:
    _territory(data, "alfa")["borders"]["zeta"] = "land"


def _unknown_kind(data: dict[str, Any]) -> None:
    _territory(data, "alfa")["borders"]["beta"] = "tunnel"
    _territory(data, "beta")["borders"]["alfa"] = "tunnel"


def _unknown_region(data: dict[str, Any]) -> None:
    _territory(data, "gamma")["region"] = "atlantide"


def _duplicate_id(data: dict[str, Any]) -> None:
    data["territories"].append(copy.deepcopy(_territory(data, "alfa")))


def _non_ascii_id(data: dict[str, Any]) -> None:
    _territory(data, "gamma")["id"] = "perù"
    _territory(data, "beta")["borders"] = {"alfa": "land", "perù": "sea_line"}


def _upper_case_id(data: dict[str, Any]) -> None:
    _territory(data, "alfa")["id"] = "Alfa"


def _self_border(data: dict[str, Any]) -> None:
    _territory(data, "alfa")["borders"]["alfa"] = "land"


def _disconnected(data: dict[str, Any]) -> None:
    data["territories"] += [
        {"id": "delta", "name": "Delta", "region": "sud", "borders": {"epsilon": "land"}},
        {"id": "epsilon", "name": "Epsilon", "region": "sud", "borders": {"delta": "land"}},
    ]


def _missing_name(data: dict[str, Any]) -> None:
    del _territory(data, "gamma")["name"]


def _blank_name(data: dict[str, Any]) -> None:
    _territory(data, "gamma")["name"] = "  "


def _region_without_name(data: dict[str, Any]) -> None:
    del data["regions"][1]["name"]


def _region_twice(data: dict[str, Any]) -> None:
    data["regions"].append({"id": "nord", "name": "Nord bis", "bonus": 1})


def _empty_region(data: dict[str, Any]) -> None:
    data["regions"].append({"id": "vuota", "name": "Vuota", "bonus": 1})


def _negative_bonus(data: dict[str, Any]) -> None:
    data["regions"][0]["bonus"] = -1


def _no_borders(data: dict[str, Any]) -> None:
    _territory(data, "gamma")["borders"] = {}
    _territory(data, "beta")["borders"] = {"alfa": "land"}


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (_asymmetric, ["alfa", "gamma", "symmetric"]),
        (_two_kinds, ["beta", "gamma", "land", "sea_line"]),
        (_unknown_neighbour, ["alfa", "zeta"]),
        (_unknown_kind, ["alfa", "beta", "tunnel"]),
        (_unknown_region, ["gamma", "atlantide"]),
        (_duplicate_id, ["alfa", "twice"]),
        (_non_ascii_id, ["perù", "ascii"]),
        (_upper_case_id, ["Alfa", "ascii"]),
        (_self_border, ["alfa", "itself"]),
        (_disconnected, ["delta", "epsilon", "connected"]),
        (_missing_name, ["gamma", "name"]),
        (_blank_name, ["gamma", "name"]),
        (_region_without_name, ["sud", "name"]),
        (_region_twice, ["nord", "twice"]),
        (_empty_region, ["vuota"]),
        (_negative_bonus, ["nord", "bonus"]),
        (_no_borders, ["gamma", "borders"]),
    ],
    ids=lambda value: value.__name__.strip("_") if callable(value) else None,
)
def test_bad_board_data_is_rejected_naming_the_entry(
    change: Callable[[dict[str, Any]], None], named: list[str]
) -> None:
    data = small_board()
    change(data)
    with pytest.raises(BoardDataError) as raised:
        Board.from_data(data)
    assert raised.value.code == "BOARD_DATA"
    for fragment in named:
        assert fragment in raised.value.message, (fragment, raised.value.message)


def test_the_classic_data_fails_when_a_border_is_dropped_on_one_side() -> None:
    text = resources.files("variants.classic").joinpath("board.json").read_text("utf-8")
    data = json.loads(text)
    Board.from_data(data)  # as shipped
    cina = _territory(data, "cina")
    del cina["borders"]["medio_oriente"]
    with pytest.raises(BoardDataError, match="medio_oriente"):
        Board.from_data(data)
