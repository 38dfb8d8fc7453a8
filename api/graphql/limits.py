"""What a document may ask for, decided before it runs: its grammar, depth, aliases and cost.

A document is admitted as the GraphQL specification defines one: graphql-core's validation
rules, plus two of the specification's own that graphql-core 3.3 and strawberry relax. A
selection set selects at least one field (`SelectionSet : { Selection+ }`; graphql-core
parses `{ }` by default, after an RFC that is not the specification); and a document of
several operations runs only the one its request names (strawberry, given no name, ran the
first). The limits measure a document only once it is valid, so unknown fragments, fragment
cycles and empty selections never reach the analysis.

The measure itself, its depth and cost, is api/graphql/cost.py's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from graphql import (
    DocumentNode,
    GraphQLError,
    GraphQLSchema,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationRule,
)
from graphql.validation import ASTValidationRule
from starlette.responses import Response
from strawberry.extensions import SchemaExtension
from strawberry.types import ExecutionContext

from api.budget import Budgets, Charge
from api.graphql.cost import (
    MAX_COST,
    Measure,
    alias_total,
    measure,
    measure_reading,
    measured_value,
)
from api.identity_memo import IdentityMemo


@dataclass(frozen=True, slots=True)
class Limits:
    max_depth: int = 12
    max_aliases: int = 30
    max_cost: int = MAX_COST
    # graphql-js's getIntrospectionQuery and graphql-core's get_introspection_query are 14
    # deep with every option on (their TypeRef: nine `ofType`); room for tools that go deeper.
    max_introspection_depth: int = 20


class SelectionSetsNotEmpty(ValidationRule):
    """`SelectionSet : { Selection+ }`: graphql-core 3.3 parses `{ }`, after an RFC
    (graphql-spec#1227) that the specification has not taken; without this rule `{ }` was
    answered with `{}` and `{ game(id: …) { } }` ran its resolver."""

    def enter_selection_set(self, node: SelectionSetNode, *_args: object) -> None:
        if not node.selections:
            self.report_error(
                GraphQLError(
                    "a selection set selects at least one field (the specification's "
                    "`SelectionSet : { Selection+ }`)",
                    node,
                )
            )


# The specification's rules that graphql-core's specified_rules leave out.
ADMISSION_RULES: tuple[type[ASTValidationRule], ...] = (SelectionSetsNotEmpty,)


class _DocumentFacts:
    """What the limits learn of one parsed document, kept while the document is: its
    validation errors (per set of rules), its aliases, how many operations it has, and its
    measure for each operation and each value of the variables the measure reads (a page's
    `first`, a `__type`'s name; most documents read none, so one measure serves every
    request)."""

    __slots__ = ("aliases", "document", "errors", "measures", "operations")

    def __init__(self, document: DocumentNode) -> None:
        self.document = document
        self.aliases = alias_total(document)
        self.operations = sum(
            isinstance(definition, OperationDefinitionNode) for definition in document.definitions
        )
        # By schema and rules; by schema, operation and count limit (a test builds schemas
        # of its own).
        self.errors: dict[tuple[Any, ...], list[GraphQLError]] = {}
        self.measures: dict[
            tuple[GraphQLSchema, str | None, int],
            tuple[frozenset[str], dict[tuple[Any, ...], Measure]],
        ] = {}

    def validate(
        self, schema: GraphQLSchema, rules: tuple[type[ASTValidationRule], ...]
    ) -> list[GraphQLError]:
        key = (schema, *rules)
        errors = self.errors.get(key)
        if errors is None:
            errors = self.errors[key] = _validate(schema, self.document, rules)
        return errors

    def measure(
        self,
        schema: GraphQLSchema,
        operation_name: str | None,
        variables: Mapping[str, Any],
        count_limit: int = Limits().max_cost,
    ) -> Measure:
        key = (schema, operation_name, count_limit)
        kept = self.measures.get(key)
        if kept is not None:
            names, by_values = kept
            values = tuple(measured_value(variables.get(name)) for name in sorted(names))
            found = by_values.get(values)
            if found is not None:
                return found
        measured, names = measure_reading(
            schema, self.document, operation_name, variables, count_limit
        )
        if kept is None or kept[0] != names:
            kept = (names, {})
            self.measures[key] = kept
        values = tuple(measured_value(variables.get(name)) for name in sorted(names))
        if len(kept[1]) < MEASURES_A_DOCUMENT:
            kept[1][values] = measured
        return measured


MEASURES_A_DOCUMENT = 64  # values of its variables kept for one document


def check(limits: Limits, measured: Measure, aliases: int) -> list[GraphQLError]:
    """The errors of a document of `measured` depth and cost against `limits`: none when it
    may run."""
    if aliases > limits.max_aliases:
        return [
            GraphQLError(
                f"{aliases} aliases; at most {limits.max_aliases} are allowed",
                extensions={"code": "TOO_MANY_ALIASES", "maxAliases": limits.max_aliases},
            )
        ]
    if measured.depth > limits.max_depth:
        return [
            GraphQLError(
                f"the selection is {measured.depth} levels deep; at most {limits.max_depth}",
                extensions={"code": "QUERY_TOO_DEEP", "maxDepth": limits.max_depth},
            )
        ]
    if measured.introspection_depth > limits.max_introspection_depth:
        bound = limits.max_introspection_depth
        return [
            GraphQLError(
                f"the introspection is {measured.introspection_depth} levels deep; at most {bound}",
                extensions={"code": "QUERY_TOO_DEEP", "maxDepth": bound},
            )
        ]
    if measured.cost > limits.max_cost:
        return [
            GraphQLError(
                f"the document costs {measured.cost} points; at most {limits.max_cost} are "
                "allowed (lists count once per item: ask for smaller pages)",
                extensions={
                    "code": "QUERY_TOO_COMPLEX",
                    "cost": measured.cost,
                    "maxCost": limits.max_cost,
                },
            )
        ]
    return []


def check_document(
    schema: GraphQLSchema,
    document: DocumentNode,
    limits: Limits,
    operation_name: str | None = None,
    variables: Mapping[str, Any] | None = None,
) -> list[GraphQLError]:
    """`check` of a validated document."""
    measured = measure(schema, document, operation_name, variables, limits.max_cost)
    return check(limits, measured, alias_total(document))


class _Documents:
    """The facts of the documents seen last, by the parsed document's identity: strawberry's
    parser cache hands the same document for the same text, and a document's own hash walks
    its whole tree (graphql-core), which on every request cost more than the lookup saves."""

    def __init__(self, size: int) -> None:
        self._kept: IdentityMemo[DocumentNode, _DocumentFacts] = IdentityMemo(size)

    def facts(self, document: DocumentNode) -> _DocumentFacts:
        found = self._kept.get(document)
        return found if found is not None else self._kept.keep(document, _DocumentFacts(document))


@cache
def _documents(size: int) -> _Documents:
    """One memo for the process, as strawberry's parser cache is one (what it keeps is per
    schema within each document's facts)."""
    return _Documents(size)


def _validate(
    schema: GraphQLSchema,
    document: DocumentNode,
    rules: tuple[type[ASTValidationRule], ...],
) -> list[GraphQLError]:
    from strawberry.schema.schema import validate_document  # imported late: a cycle

    return validate_document(schema, document, rules)


class DocumentLimits(SchemaExtension):
    """graphql-core's validation and ADMISSION_RULES (cached per document, as ParserCache
    keeps one document per text), the operation to run (named when there are several), then
    the limits, then the client's budget, before anything runs. Replaces strawberry's
    ValidationCache, QueryDepthLimiter and MaxAliasesLimiter: those ran their analysis on
    documents the standard rules refuse, and crashed on some (an unknown fragment, an empty
    selection); and neither saw the cost of fragments spread many times."""

    def __init__(
        self, limits: Limits, budgets: Budgets | None = None, cache_size: int = 256
    ) -> None:
        super().__init__()
        self.limits = limits
        self.budgets = budgets
        self.documents = _documents(cache_size)
        self.charge: Charge | None = None

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if context.pre_execution_errors is None and document is not None:
            schema = context.schema._schema
            facts = self.documents.facts(document)
            errors = facts.validate(schema, (*context.validation_rules, *ADMISSION_RULES))
            if not errors and facts.operations > 1 and requested_operation(context) is None:
                errors = [_unnamed_operation(facts.operations)]
            if not errors:
                measured = facts.measure(
                    schema, context.operation_name, context.variables or {}, self.limits.max_cost
                )
                errors = check(self.limits, measured, facts.aliases)
                if not errors:
                    errors = self._charge(measured.cost)
                elif self.budgets is not None:  # refused, yet measuring it took work
                    refused_cost = min(measured.cost, self.limits.max_cost)
                    self.budgets.charge(client_key(context.context), refused_cost)
            context.pre_execution_errors = errors
        yield

    def _charge(self, cost: int) -> list[GraphQLError]:
        if self.budgets is None:
            return []
        request_context = self.execution_context.context
        self.charge = charge = self.budgets.charge(client_key(request_context), cost)
        response = getattr(request_context, "response", None)
        if isinstance(response, Response):  # HTTP; on a WebSocket the error says it all
            response.headers.update(charge.headers())
            if not charge.granted:
                response.status_code = 429
        if charge.granted:
            return []
        return [
            GraphQLError(
                f"over budget: this document costs {cost} points and {charge.remaining} are "
                f"left; {charge.refill_per_second:g} come back each second (retry after "
                f"{charge.retry_after} s)",
                extensions={
                    "code": "RATE_LIMITED",
                    "cost": cost,
                    "remaining": charge.remaining,
                    "retryAfter": charge.retry_after,
                },
            )
        ]

    def get_results(self) -> dict[str, Any]:
        charge = self.charge
        if charge is None:
            return {}
        return {
            "cost": {
                "requested": charge.cost,
                "remaining": charge.remaining,
                "capacity": charge.capacity,
                "refillPerSecond": charge.refill_per_second,
            }
        }


def requested_operation(context: ExecutionContext) -> str | None:
    """The operationName the request gave. Strawberry's `operation_name` falls back to the
    name of the document's first operation, so a document of several operations sent
    without one ran its first; the specification makes that a request error."""
    given = getattr(context, "_provided_operation_name", None)
    return given if isinstance(given, str) else None


def _unnamed_operation(operations: int) -> GraphQLError:
    return GraphQLError(
        f"the document has {operations} operations: name the one to run (operationName)",
        extensions={"code": "GRAPHQL_VALIDATION_FAILED"},
    )


def client_key(request_context: Any) -> str:
    """Whom a document is charged to: the seat of its valid token, else its address
    (Context.identify)."""
    return str(getattr(request_context, "client", "address:unknown"))
