"""The cost, depth and alias limits of a GraphQL document, measured before it runs."""

from __future__ import annotations

import time

import pytest
from graphql import build_schema as build_sdl
from graphql import parse, specified_rules
from risiko_client import api as client_documents

from api.graphql.limits import (
    ADMISSION_RULES,
    DEFAULT_PAGE,
    LIST_SIZES,
    MAX_PAGE,
    Limits,
    _DocumentFacts,
    measure,
)
from api.graphql.limits import check_document as check
from api.graphql.schema import schema

SCHEMA = schema._schema


def bomb(levels: int) -> str:
    spreads = [f"fragment F{i} on Query {{ ...F{i + 1} ...F{i + 1} }}" for i in range(levels)]
    return " ".join(["query { ...F0 }", *spreads, f"fragment F{levels} on Query {{ __typename }}"])


@pytest.mark.parametrize("levels", [1, 21, 30, 1000])
def test_fragments_are_measured_once_not_expanded(levels: int) -> None:
    document = parse(bomb(levels), max_tokens=100_000)
    started = time.perf_counter()
    measured = measure(SCHEMA, document)
    assert time.perf_counter() - started < 1  # linear: 1,000 levels expand to 2**1000 fields
    assert measured.cost == 2**levels
    assert measured.depth == 0


def test_a_page_counts_its_selection_once_per_item() -> None:
    def cost(first: str) -> int:
        query = f"{{ games{first} {{ edges {{ node {{ id status }} }} }} }}"
        return measure(SCHEMA, parse(query)).cost

    # games 1 + per item: edges 1 + node 1 + id 1 + status 1
    assert cost("(first: 5)") == 1 + 5 * 4
    assert cost("(first: 100)") == 1 + 100 * 4
    assert cost("(first: 1000)") == 1 + MAX_PAGE * 4  # the server never returns more
    assert cost("") == 1 + DEFAULT_PAGE * 4


def test_variables_set_the_page_size() -> None:
    query = parse("query($n: Int) { games(first: $n) { edges { cursor } } }")
    assert measure(SCHEMA, query, variables={"n": 10}).cost == 1 + 10 * 2
    assert measure(SCHEMA, query, variables={}).cost == 1 + DEFAULT_PAGE * 2


def test_a_documents_measure_is_kept_per_value_of_the_variables_it_reads() -> None:
    """The kept measure of a document follows its page sizes, and nothing else."""
    query = "query($n: Int, $id: ID!) { games(first: $n) { edges { cursor } } "
    query += "game(id: $id) { id } }"
    facts = _DocumentFacts(parse(query))
    for n in (10, 3, 10, None, True, 3):
        for game in ("a", "b"):
            variables = {"n": n, "id": game}
            assert facts.measure(SCHEMA, None, variables) == measure(
                SCHEMA, facts.document, None, variables
            )
    names, by_values = facts.measures[SCHEMA, None]
    assert names == {"n"}  # `id` changes no cost: one measure for every game
    assert set(by_values) == {(10,), (3,), (None,)}  # a Boolean is no page size


def test_a_document_is_validated_once_per_schema() -> None:
    facts = _DocumentFacts(parse("{ nope }"))
    rules = tuple(specified_rules)
    first = facts.validate(SCHEMA, rules)
    assert first
    assert "nope" in first[0].message
    assert facts.validate(SCHEMA, rules) is first
    other = build_sdl("type Query { nope: Int }")  # where the document is valid
    assert facts.validate(other, rules) == []
    assert facts.validate(SCHEMA, rules) is first


def test_other_lists_count_their_longest_answer() -> None:
    board = parse("{ variants { board { edges { a b } } } }")
    assert measure(SCHEMA, board).cost == 1 + LIST_SIZES["variants"] * (
        1 + 1 + LIST_SIZES["edges"] * 2
    )


def test_battle_odds_cost_by_the_armies_they_compute() -> None:
    def cost(attackers: int, defenders: int) -> int:
        query = f"{{ battleOdds(attackers: {attackers}, defenders: {defenders}) {{ attackers }} }}"
        return measure(SCHEMA, parse(query)).cost

    assert cost(3, 2) == 2
    assert cost(1000, 1000) > 10 * cost(100, 100) > 10 * cost(10, 10)
    thirty = " ".join(
        f"o{i}: battleOdds(attackers: 1000, defenders: 1000) {{ attackers }}" for i in range(30)
    )
    errors = check(SCHEMA, parse(f"{{ {thirty} }}"), Limits())
    assert [error.extensions["code"] for error in errors] == ["QUERY_TOO_COMPLEX"]  # type: ignore[index]


@pytest.mark.parametrize(
    "name",
    ["CREATE", "JOIN", "START", "LEAVE", "GAME", "TURN", "SUBMIT", "ODDS", "BOARD", "EVENTS"],
)
def test_the_clients_documents_are_well_under_the_limits(name: str) -> None:
    """The example bots, the arena and the Python client send these; the default limit
    leaves them at least twice their cost (odds at the largest armies the API accepts)."""
    document = parse(getattr(client_documents, name))
    variables = {"a": 1000, "d": 1000}
    assert check(SCHEMA, document, Limits(max_cost=Limits().max_cost // 2), None, variables) == []


def test_depth_counts_nested_selections() -> None:
    assert measure(SCHEMA, parse("{ __typename }")).depth == 0
    assert measure(SCHEMA, parse("{ variants { board { edges { a } } } }")).depth == 3
    deep = parse("{ __schema { types { fields { type { ofType { ofType { name } } } } } } }")
    assert measure(SCHEMA, deep).depth == 6
    errors = check(SCHEMA, deep, Limits(max_depth=5))
    assert [error.extensions["code"] for error in errors] == ["QUERY_TOO_DEEP"]  # type: ignore[index]


def test_aliases_are_counted_in_fragments_too() -> None:
    query = parse(
        "query { a: __typename ...F } fragment F on Query { b: __typename c: __typename }"
    )
    assert check(SCHEMA, query, Limits(max_aliases=3)) == []
    errors = check(SCHEMA, query, Limits(max_aliases=2))
    assert [error.extensions["code"] for error in errors] == ["TOO_MANY_ALIASES"]  # type: ignore[index]


@pytest.mark.parametrize(
    "query",
    [
        "{ }",
        "{ __typename ... on Query { } }",
        '{ game(id: "x") { } }',
        "query { ...F } fragment F on Query { }",
        "mutation { createGame(input: {}) { } }",
    ],
)
def test_an_empty_selection_set_is_invalid(query: str) -> None:
    """The specification's `SelectionSet : { Selection+ }`, which graphql-core 3.3 parses."""
    facts = _DocumentFacts(parse(query))
    errors = facts.validate(SCHEMA, (*specified_rules, *ADMISSION_RULES))
    assert errors
    assert all("selects at least one field" in error.message for error in errors)
    assert facts.validate(SCHEMA, (*specified_rules, *ADMISSION_RULES)) is errors  # kept
