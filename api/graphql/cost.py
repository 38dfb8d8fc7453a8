"""How deep and how costly a GraphQL document is, measured on the schema before it runs
(api/graphql/limits.py holds the document to its limits).

The analysis is linear in the document: each fragment's depth and cost are computed once and
reused wherever it is spread, so a chain of fragments that each spread the next one twice is
measured without being expanded (its cost, the expanded size, doubles at every level and is
refused).

Cost: every field costs 1; a field with a `first` argument counts its selection once per
item of the page it asks for (its `first`, its `last`, the smaller of both); any other list
of objects counts its selection once per item of the largest list the server returns there
(LIST_SIZES); `battleOdds` costs by the armies it computes, since the exact odds take time in
the product of the two sides.

Introspection (`__schema`, `__type`) describes the schema, which the server knows before
anything runs: its cost is the exact number of fields its answer holds, counted on the
schema (up to the cost limit: counting stops there), and its depth has a bound of its own,
deep enough for the standard introspection queries of graphql-js and graphql-core (14
levels) that every tool sends. (graphql-core's MaxIntrospectionDepthRule, one of its
validation rules, already refuses a cycle through the types, `fields { type { fields …`,
past three turns.)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SchemaMetaFieldDef,
    SelectionNode,
    SelectionSetNode,
    TypeMetaFieldDef,
    VariableNode,
    default_field_resolver,
    get_named_type,
    value_from_ast,
)

from variants import VARIANTS

# The most a document may cost by default (Limits.max_cost): introspection is counted so far.
MAX_COST = 50_000
DEFAULT_PAGE = 20
MAX_PAGE = 100
# The longest list each list field of objects can return (boards have at most 57 spaces and
# 145 edges; at most 6 players; the games served and their options, from the registry). A
# field not named here counts as DEFAULT_LIST_SIZE.
LIST_SIZES: Mapping[str, int] = {
    "variants": len(VARIANTS),
    "players": 6,
    "ranking": 6,
    "colours": 6,
    "regions": 12,
    "fromRegions": 12,  # TurnStarted: a bonus for each region held whole
    "options": max(len(fields(v.options_class)) for v in VARIANTS.values()),
    "edges": 160,
    "userErrors": 4,
    "hand": 12,
    "secrets": 8,
    "triremes": 6,
    "units": 6,  # a space's stacks: a seat's (or a neutral's) armies, or each seat's fleet
    "piecesToPlace": 4,
    "prompts": 6,
    "markersLeft": 4,
    "cards": 12,
}
DEFAULT_LIST_SIZE = 60
# battleOdds(a, d): one point per this many states of the chain (a x d): 1,000 a side is
# 20,001 points for about 0.3 s of CPU, while a game's whole state (1,700 points) takes ~4 ms.
ODDS_STATES_PER_POINT = 50
# Fields that write: a new game is a row on disk and a lobby entry; the others one action.
FIELD_COSTS: Mapping[str, int] = {
    "createGame": 200,
    "joinGame": 20,
    "startGame": 10,
    "leaveGame": 10,
    "submitAction": 10,
}


@dataclass(frozen=True, slots=True)
class Measure:
    depth: int  # selection sets nested below the operation's: `{ a { b } }` is 1 deep
    cost: int
    introspection_depth: int = 0  # the same, of the paths through `__schema` or `__type`


# The fields of the query type that describe the schema: graphql-core's own, on no type's map.
INTROSPECTION_ROOTS: Mapping[str, GraphQLField] = {
    "__schema": SchemaMetaFieldDef,
    "__type": TypeMetaFieldDef,
}


class _Analysis:
    """Depth and cost of one operation, with variables, each fragment measured once."""

    def __init__(
        self,
        schema: GraphQLSchema,
        fragments: Mapping[str, FragmentDefinitionNode],
        variables: Mapping[str, Any],
        count_limit: int,
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.variables = variables
        self.counter = _IntrospectionCount(self, count_limit)  # one count for the document
        self.memo: dict[tuple[str, bool], Measure] = {}
        self.read: set[str] = set()  # the variables the measure depends on

    def selection(
        self, parent: GraphQLObjectType | None, node: SelectionSetNode, paged: bool = False
    ) -> Measure:
        """`paged`: the selection of a field whose `first` already counted the items, so the
        lists in it (a connection's `edges`, a page's `events`) are that page. Fragments on
        other types than the parent's (a union's or an interface's members), inline or named
        alike, are alternatives: one item is one type, so only the dearest type counts."""
        depth = cost = introspection_depth = 0
        by_type: dict[str, int] = {}
        for selection in node.selections:
            measured, alternative = self._selected(parent, selection, paged)
            depth = max(depth, measured.depth)
            introspection_depth = max(introspection_depth, measured.introspection_depth)
            if alternative is None:
                cost += measured.cost
            else:
                by_type[alternative] = by_type.get(alternative, 0) + measured.cost
        return Measure(depth, cost + max(by_type.values(), default=0), introspection_depth)

    def _selected(
        self, parent: GraphQLObjectType | None, selection: SelectionNode, paged: bool
    ) -> tuple[Measure, str | None]:
        """One selection's measure, and the type it is an alternative for (None: it counts for
        every item)."""
        if isinstance(selection, FieldNode):
            return self.field(parent, selection, paged), None
        if isinstance(selection, InlineFragmentNode):
            condition = selection.type_condition
            target = parent if condition is None else self._object(condition.name.value)
            measured = self.selection(target, selection.selection_set, paged)
        else:
            assert isinstance(selection, FragmentSpreadNode)
            condition = self.fragments[selection.name.value].type_condition
            measured = self.fragment(selection.name.value, paged)
        if condition is None or self._object(condition.name.value) is parent:
            return measured, None
        return measured, condition.name.value

    def fragment(self, name: str, paged: bool = False) -> Measure:
        """A named fragment's measure, as an inline fragment of its selection would measure
        where it is spread (in a page or not)."""
        if (name, paged) not in self.memo:
            definition = self.fragments[name]
            target = self._object(definition.type_condition.name.value)
            self.memo[name, paged] = self.selection(target, definition.selection_set, paged)
        return self.memo[name, paged]

    def field(self, parent: GraphQLObjectType | None, node: FieldNode, paged: bool) -> Measure:
        name = node.name.value
        if name in INTROSPECTION_ROOTS and parent is self.schema.query_type:
            return self._introspection(INTROSPECTION_ROOTS[name], node)
        definition = parent.fields.get(name) if parent is not None else None
        own = self._own_cost(name, node)
        if node.selection_set is None:
            return Measure(0, own)
        child_type = get_named_type(definition.type) if definition is not None else None
        child = child_type if isinstance(child_type, GraphQLObjectType) else None
        paginated = definition is not None and "first" in definition.args
        inner = self.selection(child, node.selection_set, paged=paginated)
        if paged:
            items = 1
        elif paginated:
            items = self._page_items(node)
        elif definition is not None and _is_list(definition.type):
            items = LIST_SIZES.get(name, DEFAULT_LIST_SIZE)
        else:
            items = 1
        below = inner.introspection_depth
        return Measure(inner.depth + 1, own + items * inner.cost, below + 1 if below else 0)

    def _introspection(self, definition: GraphQLField, node: FieldNode) -> Measure:
        """`__schema` or `__type`: its depth, on the introspection's own bound, and the
        number of fields its answer holds, counted on the schema."""
        child = get_named_type(definition.type)
        assert isinstance(child, GraphQLObjectType)
        assert node.selection_set is not None
        shape = self.selection(child, node.selection_set)
        counted = self.counter.total(definition, node)
        return Measure(0, counted, shape.depth + 1)

    def _own_cost(self, name: str, node: FieldNode) -> int:
        if name not in ("battleOdds", "volleyOdds"):
            return FIELD_COSTS.get(name, 1)
        attackers = self._int_argument(node, "attackers") or 1
        defenders = self._int_argument(node, "defenders") or 1
        if name == "volleyOdds":  # a volley's dice spread over every count: one more factor
            return 1 + abs(attackers * defenders * (attackers + defenders)) // ODDS_STATES_PER_POINT
        return 1 + abs(attackers * defenders) // ODDS_STATES_PER_POINT

    def _page_items(self, node: FieldNode) -> int:
        """The items a page holds at most: its `first`, its `last` (the smaller of both), or
        the default page; 1 to MAX_PAGE."""
        counts = (self._int_argument(node, "first"), self._int_argument(node, "last"))
        given = [n for n in counts if n is not None]
        return min(max(min(given) if given else DEFAULT_PAGE, 1), MAX_PAGE)

    def _int_argument(self, node: FieldNode, name: str) -> int | None:
        for argument in node.arguments or ():
            if argument.name.value != name:
                continue
            value = argument.value
            if isinstance(value, IntValueNode):
                return int(value.value)
            if isinstance(value, VariableNode):
                self.read.add(value.name.value)
                return _int_value(self.variables.get(value.name.value))
        return None

    def _object(self, name: str) -> GraphQLObjectType | None:
        found = self.schema.get_type(name)
        return found if isinstance(found, GraphQLObjectType) else None


class _CountExceeded(Exception):
    """Counting went past the limit: the answer is larger than any document may cost."""


class _IntrospectionCount:
    """The exact number of fields an introspection field's answer holds (each field 1, a list
    its items' fields, a null 1), found by walking the schema with graphql-core's own
    introspection resolvers, as the execution will. Every step counts one field, and the
    count goes on over all the introspection fields of a document: it stops after `limit`
    steps at most, however the document nests, aliases or repeats them."""

    def __init__(self, analysis: _Analysis, limit: int) -> None:
        self.analysis = analysis
        self.info: Any = _SchemaInfo(analysis.schema)
        self.limit = limit
        self.counted = 0

    def total(self, definition: GraphQLField, node: FieldNode) -> int:
        """The field's count; `limit + 1` once the document's count has passed `limit`."""
        try:
            return self.field(definition, None, node)
        except _CountExceeded:
            return self.limit + 1

    def step(self) -> int:
        """One field more in the answer."""
        self.counted += 1
        if self.counted > self.limit:
            raise _CountExceeded
        return 1

    def field(self, definition: GraphQLField, source: object, node: FieldNode) -> int:
        self.step()
        if node.selection_set is None:
            return 1
        resolve = definition.resolve or default_field_resolver
        value = resolve(source, self.info, **self.arguments(definition, node))
        if value is None:
            return 1
        child = get_named_type(definition.type)
        assert isinstance(child, GraphQLObjectType)  # introspection's types are objects
        items = value if _is_list(definition.type) else (value,)
        return 1 + sum(self.selection(child, item, node.selection_set) for item in items)

    def selection(self, parent: GraphQLObjectType, source: object, node: SelectionSetNode) -> int:
        total = 0
        for selection in node.selections:
            if isinstance(selection, FieldNode):
                definition = parent.fields.get(selection.name.value)
                # None: __typename, the one field (a leaf) on no introspection type's map.
                total += (
                    self.step() if definition is None else self.field(definition, source, selection)
                )
            elif isinstance(selection, InlineFragmentNode):
                total += self.selection(parent, source, selection.selection_set)
            else:
                assert isinstance(selection, FragmentSpreadNode)
                fragment = self.analysis.fragments[selection.name.value]
                total += self.selection(parent, source, fragment.selection_set)
        return total

    def arguments(self, definition: GraphQLField, node: FieldNode) -> dict[str, Any]:
        """The field's arguments as its resolver takes them; `includeDeprecated` always true,
        so that the count is the most the answer can hold."""
        given = {argument.name.value: argument.value for argument in node.arguments or ()}
        variables = dict(self.analysis.variables)
        values: dict[str, Any] = {}
        for name, argument in definition.args.items():
            value = given.get(name)
            if name == "includeDeprecated":
                values[name] = True
            elif value is not None:
                if isinstance(value, VariableNode):
                    self.analysis.read.add(value.name.value)
                values[name] = value_from_ast(value, argument.type, variables)
        return values


@dataclass(frozen=True, slots=True)
class _SchemaInfo:
    """What graphql-core's introspection resolvers read of their `info`."""

    schema: GraphQLSchema


def _int_value(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def measured_value(value: object) -> int | str | None:
    """A variable's value as far as a measure reads it: a page size, or a type's name."""
    return value if isinstance(value, str) else _int_value(value)


def _is_list(type_: GraphQLOutputType) -> bool:
    while isinstance(type_, GraphQLNonNull):
        type_ = type_.of_type
    return isinstance(type_, GraphQLList)


def _spreads(node: SelectionSetNode) -> Iterator[str]:
    """The names of the fragments spread anywhere in `node` (inside fields too)."""
    pending = [node]
    while pending:
        for selection in pending.pop().selections:
            if isinstance(selection, FragmentSpreadNode):
                yield selection.name.value
            elif isinstance(selection, FieldNode | InlineFragmentNode) and selection.selection_set:
                pending.append(selection.selection_set)


def _dependencies_first(fragments: Mapping[str, FragmentDefinitionNode]) -> list[str]:
    """Fragments ordered so that each comes after those it spreads: measured in this order,
    a chain of a thousand fragments needs no recursion a thousand calls deep."""
    order: list[str] = []
    seen: set[str] = set()
    for start in fragments:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, _spreads(fragments[start].selection_set))]
        while stack:
            name, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                order.append(name)
            elif child in fragments and child not in seen:
                seen.add(child)
                stack.append((child, _spreads(fragments[child].selection_set)))
    return order


def _alias_count(node: SelectionSetNode) -> int:
    count = 0
    pending = [node]
    while pending:
        for selection in pending.pop().selections:
            if isinstance(selection, FieldNode) and selection.alias is not None:
                count += 1
            if isinstance(selection, FieldNode | InlineFragmentNode) and selection.selection_set:
                pending.append(selection.selection_set)
    return count


def _operation(document: DocumentNode, name: str | None) -> OperationDefinitionNode | None:
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if name is None:
        return operations[0] if len(operations) == 1 else None
    return next((o for o in operations if o.name and o.name.value == name), None)


def measure(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation_name: str | None = None,
    variables: Mapping[str, Any] | None = None,
    count_limit: int = MAX_COST,
) -> Measure:
    """The depth and cost of the operation to run (a document graphql-core has validated);
    introspection is counted up to `count_limit` (more is `count_limit + 1`)."""
    return measure_reading(schema, document, operation_name, variables or {}, count_limit)[0]


def measure_reading(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation_name: str | None,
    variables: Mapping[str, Any],
    count_limit: int,
) -> tuple[Measure, frozenset[str]]:
    """`measure`, and the names of the variables it read."""
    operation = _operation(document, operation_name)
    if operation is None:
        return Measure(0, 0), frozenset()
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    root = {
        "query": schema.query_type,
        "mutation": schema.mutation_type,
        "subscription": schema.subscription_type,
    }[operation.operation.value]
    analysis = _Analysis(schema, fragments, variables, count_limit)
    for name in _dependencies_first(fragments):
        analysis.fragment(name)
    return analysis.selection(root, operation.selection_set), frozenset(analysis.read)


def alias_total(document: DocumentNode) -> int:
    return sum(
        _alias_count(definition.selection_set)
        for definition in document.definitions
        if isinstance(definition, OperationDefinitionNode | FragmentDefinitionNode)
    )
