"""The cost, depth and alias limits of a GraphQL document, measured before it runs."""

from __future__ import annotations

import time

import pytest
from graphql import build_schema as build_sdl
from graphql import execute_sync, get_introspection_query, parse, specified_rules
from risiko_client import documents as client_documents

from api.graphql.cost import DEFAULT_PAGE, LIST_SIZES, MAX_PAGE, measure
from api.graphql.limits import ADMISSION_RULES, Limits, _DocumentFacts
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
    assert cost("(last: 5)") == 1 + 5 * 4  # a page backwards
    assert cost("(first: 50, last: 5)") == 1 + 5 * 4  # the last 5 of the first 50
    assert cost("(first: 5, last: 50)") == 1 + 5 * 4
    assert cost("(last: 1000)") == 1 + MAX_PAGE * 4


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
    names, by_values = facts.measures[SCHEMA, None, Limits().max_cost]
    assert names == {"n"}  # `id` changes no cost: one measure for every game
    assert set(by_values) == {(10,), (3,), (None,)}  # a Boolean is no page size


def test_a_types_measure_is_kept_per_name() -> None:
    facts = _DocumentFacts(parse("query($t: String!) { __type(name: $t) { fields { name } } }"))
    game = facts.measure(SCHEMA, None, {"t": "Game"})
    unknown = facts.measure(SCHEMA, None, {"t": "Nope"})
    assert game.cost > unknown.cost == 1  # null: the field and nothing under it
    assert facts.measure(SCHEMA, None, {"t": "Game"}) == game


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


# A page of 100 events, each asking its kind's fields: 5 of DiceRolled, 3 of TurnStarted, 2 of
# GameEnded.
KINDS = {
    "DiceRolled": "seat source target attackerDice defenderDice",
    "TurnStarted": "seat round reinforcements",
    "GameEnded": "winner reason",
}
INLINE = " ".join(f"... on {kind} {{ {fields} }}" for kind, fields in KINDS.items())
NAMED = " ".join(
    f"fragment {kind}Fields on {kind} {{ {fields} }}" for kind, fields in KINDS.items()
)
SPREADS = " ".join(f"...{kind}Fields" for kind in KINDS)


def events_cost(detail: str, fragments: str = "") -> int:
    page = f"{{ game(id: 1) {{ events(first: 100) {{ events {{ detail {{ {detail} }} }} }} }} }}"
    return measure(SCHEMA, parse(f"{page} {fragments}")).cost


def test_fragments_on_a_unions_members_are_alternatives_named_or_inline() -> None:
    """An event is of one kind: a fragment per kind counts the dearest kind only, whether the
    client writes it inline or names it (a named one per type was charged every kind)."""
    # game 1, events 1, and per event: events 1 + detail 1 + __typename 1 + the dearest kind
    dearest = 1 + 1 + 100 * (1 + 1 + 1 + 5)
    assert events_cost(f"__typename {INLINE}") == dearest
    assert events_cost(f"__typename {SPREADS}", NAMED) == dearest
    assert events_cost(f"__typename ...DiceRolledFields {INLINE}", NAMED) == dearest + 100 * 5
    # A fragment on the union itself is no alternative: every event has what it selects.
    whole = f"fragment Detail on GameEventDetail {{ __typename {SPREADS} }} {NAMED}"
    assert events_cost("...Detail", whole) == dearest


def test_a_named_fragment_is_measured_as_where_it_is_spread() -> None:
    """Spread in a page, a fragment's lists are that page's items, as inline."""
    inline = "{ games(first: 5) { edges { node { id status } } } }"
    named = "{ games(first: 5) { ...Page } } "
    named += "fragment Page on GameConnection { edges { node { id status } } }"
    assert measure(SCHEMA, parse(named)).cost == measure(SCHEMA, parse(inline)).cost == 1 + 5 * 4


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
    deep = parse("{ games { edges { node { territories { units { seat } } } } } }")
    assert measure(SCHEMA, deep).depth == 5  # the deepest this schema has, but introspection
    errors = check(SCHEMA, deep, Limits(max_depth=4))
    assert [error.extensions["code"] for error in errors] == ["QUERY_TOO_DEEP"]  # type: ignore[index]


def test_aliases_are_counted_in_fragments_too() -> None:
    query = parse(
        "query { a: __typename ...F } fragment F on Query { b: __typename c: __typename }"
    )
    assert check(SCHEMA, query, Limits(max_aliases=3)) == []
    errors = check(SCHEMA, query, Limits(max_aliases=2))
    assert [error.extensions["code"] for error in errors] == ["TOO_MANY_ALIASES"]  # type: ignore[index]


def fields_in(answer: object) -> int:
    """How many fields a JSON answer holds, at every level."""
    if isinstance(answer, dict):
        return len(answer) + sum(fields_in(value) for value in answer.values())
    if isinstance(answer, list):
        return sum(fields_in(item) for item in answer)
    return 0


ALL_OPTIONS = get_introspection_query(
    descriptions=True,
    specified_by_url=True,
    directive_is_repeatable=True,
    schema_description=True,
    input_value_deprecation=True,
    one_of=True,
)


@pytest.mark.parametrize(
    "query",
    [
        ALL_OPTIONS,
        get_introspection_query(),
        "{ __schema { __typename types { ... on __Type { name __typename } } } }",
        '{ __typename t: __type(name: "Game") { name fields(includeDeprecated: true) { name } } }',
        '{ __type(name: "Nope") { name } }',
    ],
)
def test_introspection_costs_the_fields_of_its_answer(query: str) -> None:
    """Counted on the schema before it runs: exactly what the execution then answers."""
    document = parse(query)
    answer = execute_sync(SCHEMA, document)
    assert answer.errors is None
    assert measure(SCHEMA, document).cost == fields_in(answer.data)


def test_deprecated_fields_are_counted_even_when_left_out() -> None:
    """The count is the most an answer can hold: `includeDeprecated` as if true."""
    query = '{ __type(name: "TerritoryState") { fields { name } } }'
    answer = execute_sync(SCHEMA, parse(query))
    every = parse(query.replace("fields", "fields(includeDeprecated: true)"))
    assert measure(SCHEMA, parse(query)).cost == measure(SCHEMA, every).cost
    assert measure(SCHEMA, parse(query)).cost > fields_in(answer.data)


def test_the_standard_introspection_is_admitted_at_the_default_limits() -> None:
    """graphql-core's query with every option (graphql-js's is the same): 14 levels, beyond
    the 12 of other documents, and about 10,000 fields for this schema."""
    measured = measure(SCHEMA, parse(ALL_OPTIONS))
    assert measured.introspection_depth == 14
    assert measured.depth == 0
    assert check(SCHEMA, parse(ALL_OPTIONS), Limits()) == []
    errors = check(SCHEMA, parse(ALL_OPTIONS), Limits(max_introspection_depth=13))
    assert [error.extensions["code"] for error in errors] == ["QUERY_TOO_DEEP"]  # type: ignore[index]


def test_introspection_paths_have_their_own_depth() -> None:
    mixed = parse(
        "{ __schema { types { fields { type { name } } } } variants { board { edges { a } } } }"
    )
    measured = measure(SCHEMA, mixed)
    assert (measured.depth, measured.introspection_depth) == (3, 4)
    nested = "ofType { " * 17 + "name" + " }" * 17
    deep = parse("{ __schema { types { fields { type { " + nested + " } } } } }")
    assert measure(SCHEMA, deep).introspection_depth == 21
    errors = check(SCHEMA, deep, Limits())
    assert [error.extensions for error in errors] == [{"code": "QUERY_TOO_DEEP", "maxDepth": 20}]


def test_introspection_is_counted_once_past_the_limit_and_no_further() -> None:
    """Thirty copies of the whole schema, each under the limit, are over it together; and
    counting stops there, not at the 300,000 fields of the answer."""
    body = ALL_OPTIONS[ALL_OPTIONS.index("__schema") : ALL_OPTIONS.index("fragment")]
    body = body[: body.rindex("}")]  # the operation's own closing brace
    copies = " ".join(f"s{i}: {body}" for i in range(30))
    document = parse(
        f"query {{ {copies} }} {ALL_OPTIONS[ALL_OPTIONS.index('fragment') :]}",
        max_tokens=100_000,
    )
    started = time.perf_counter()
    measured = measure(SCHEMA, document, count_limit=50_000)
    assert time.perf_counter() - started < 1
    assert measured.cost > 50_000
    errors = check(SCHEMA, document, Limits(max_aliases=30))
    assert [error.extensions["code"] for error in errors] == ["QUERY_TOO_COMPLEX"]  # type: ignore[index]


def test_a_cycle_through_the_types_is_counted_as_it_grows() -> None:
    """`fields { type { fields … } } }`: each level multiplies the answer; the count follows."""

    def cycle(levels: int) -> str:
        inner = "name"
        for _ in range(levels):
            fields = "fields(includeDeprecated: true)"
            inner = f"name {fields} {{ type {{ ofType {{ ofType {{ {inner} }} }} }} }}"
        return f"{{ __schema {{ types {{ {inner} }} }} }}"

    costs = [measure(SCHEMA, parse(cycle(levels))).cost for levels in (1, 2, 3)]
    assert costs[0] < costs[1] < costs[2]
    for levels in (1, 2):
        answer = execute_sync(SCHEMA, parse(cycle(levels)))
        assert measure(SCHEMA, parse(cycle(levels))).cost == fields_in(answer.data)


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
