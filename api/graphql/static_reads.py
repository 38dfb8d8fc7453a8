"""Answers that never change while the server runs, executed once and served from memory.

A document that reads only the variants' catalogue (`variants { board … }`) or the schema
itself (introspection) gets the same answer for the same variables, every time, for every
client: nothing in it depends on a game, a seat or the time. Such a document is executed the
first time and its result kept (a few of them, the most recently used); the next request
with the same document and variables is answered from memory. It is still parsed, validated,
measured and charged to its client like any other (the DocumentLimits extension runs before
execution); only the execution is skipped.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterator

from graphql import ExecutionResult, FieldNode, OperationDefinitionNode, OperationType
from strawberry.extensions import SchemaExtension

# Root fields whose whole answer is fixed for the life of the process.
STATIC_ROOTS = frozenset({"variants", "__schema", "__type", "__typename"})


class StaticAnswers:
    """The kept results, by (document, operation, variables), least recently used first."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._results: OrderedDict[tuple[str, str | None, str], ExecutionResult] = OrderedDict()

    def get(self, key: tuple[str, str | None, str]) -> ExecutionResult | None:
        result = self._results.get(key)
        if result is not None:
            self._results.move_to_end(key)
        return result

    def keep(self, key: tuple[str, str | None, str], result: ExecutionResult) -> None:
        self._results[key] = result
        self._results.move_to_end(key)
        while len(self._results) > self.size:
            self._results.popitem(last=False)


class StaticReads(SchemaExtension):
    def __init__(self, answers: StaticAnswers) -> None:
        self.answers = answers

    def on_execute(self) -> Iterator[None]:
        key = self._key()
        if key is not None:
            kept = self.answers.get(key)
            if kept is not None:
                self.execution_context.result = kept
                yield
                return
        yield
        result = self.execution_context.result
        if key is not None and isinstance(result, ExecutionResult) and not result.errors:
            self.answers.keep(key, result)

    def _key(self) -> tuple[str, str | None, str] | None:
        context = self.execution_context
        document = context.graphql_document
        if document is None or context.query is None:
            return None
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        name = context.operation_name
        chosen = [o for o in operations if name is None or (o.name and o.name.value == name)]
        if len(chosen) != 1 or chosen[0].operation is not OperationType.QUERY:
            return None
        roots = chosen[0].selection_set.selections
        if not all(isinstance(s, FieldNode) and s.name.value in STATIC_ROOTS for s in roots):
            return None
        try:
            variables = json.dumps(context.variables or {}, sort_keys=True)
        except (TypeError, ValueError):
            return None
        return context.query, name, variables
