"""Answers served from memory: documents whose answer is fixed for as long as what they read
is unchanged are executed once and kept.

- A document that reads only the variants' catalogue (`variants { board … }`) or the schema
  itself (introspection) gets the same answer for the same variables, every time, for every
  client: nothing in it depends on a game, a seat or the time.
- A document that reads games (`game(id:)`, besides those) gets the same answer for the same
  variables while each game it reads is at the same version and the caller sees each from
  the same seat (or as a spectator): a game's state is a function of its log, and what a
  viewer may see of it a function of its seat. So the key holds, for each game read, its id,
  its version and the viewer's seat; a new action makes a new version, hence a new key, and
  one viewer's hidden information is never another viewer's answer. Spectators who poll a
  game share one execution per version.

Kept answers are the most recently used few. A document is still parsed, validated, measured
and charged to its client like any other (the DocumentLimits extension runs before
execution); only the execution is skipped. Answers with errors are never kept.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

from graphql import (
    ExecutionResult,
    FieldNode,
    OperationDefinitionNode,
    OperationType,
    StringValueNode,
    VariableNode,
)
from strawberry.extensions import SchemaExtension

from api.graphql.ids import from_global_id

# Root fields whose whole answer is fixed for the life of the process.
STATIC_ROOTS = frozenset({"variants", "__schema", "__type", "__typename"})
# Root fields whose answer is fixed by a game's version and the viewer's seat in it.
GAME_ROOTS = frozenset({"game"})

COMPACT = (",", ":")  # strawberry's separators: a spliced answer is the same bytes

Key = tuple[str, str | None, str, tuple[tuple[str, int, int | None], ...]]


class StaticAnswers:
    """The kept results, by (document, operation, variables, games read), least recently
    used first, each with its data's JSON once a response has asked for it."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._results: OrderedDict[Key, ExecutionResult] = OrderedDict()
        self._encoded: dict[int, tuple[object, str | None]] = {}  # by id of a kept data

    def get(self, key: Key) -> ExecutionResult | None:
        result = self._results.get(key)
        if result is not None:
            self._results.move_to_end(key)
        return result

    def keep(self, key: Key, result: ExecutionResult) -> None:
        replaced = self._results.get(key)
        if replaced is not None:
            self._encoded.pop(id(replaced.data), None)
        self._results[key] = result
        self._results.move_to_end(key)
        self._encoded[id(result.data)] = (result.data, None)
        while len(self._results) > self.size:
            _, dropped = self._results.popitem(last=False)
            self._encoded.pop(id(dropped.data), None)

    def encoded(self, data: object) -> str | None:
        """The JSON of `data` if it is a kept answer's (encoded on first asking: a board is
        17 kB, 0.17 ms of json.dumps), else None."""
        entry = self._encoded.get(id(data))
        if entry is None or entry[0] is not data:
            return None
        if entry[1] is None:
            entry = (data, json.dumps(data, separators=COMPACT))
            self._encoded[id(data)] = entry
        return entry[1]

    def __len__(self) -> int:
        return len(self._results)


class StaticReads(SchemaExtension):
    def __init__(self, answers: StaticAnswers) -> None:
        self.answers = answers

    async def on_execute(self) -> AsyncIterator[None]:
        context = self.execution_context.context
        try:
            key = await self._key()
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
        finally:
            sessions = getattr(context, "sessions", None)
            if sessions:
                sessions.clear()

    async def _key(self) -> Key | None:
        context = self.execution_context
        document = context.graphql_document
        if document is None or context.query is None:
            return None
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        name = context.operation_name
        chosen = [o for o in operations if name is None or (o.name and o.name.value == name)]
        if len(chosen) != 1 or chosen[0].operation is not OperationType.QUERY:
            return None
        variables = context.variables or {}
        games: list[str] = []
        for selection in chosen[0].selection_set.selections:
            if not isinstance(selection, FieldNode):
                return None
            root = selection.name.value
            if root in GAME_ROOTS:
                game_id = _game_id(selection, variables)
                if game_id is None:
                    return None
                games.append(game_id)
            elif root not in STATIC_ROOTS:
                return None
        try:
            plain = json.dumps(variables, sort_keys=True)
        except (TypeError, ValueError):
            return None
        read: list[tuple[str, int, int | None]] = []
        for game_id in dict.fromkeys(games):
            request = context.context
            try:
                session = await request.service.session(game_id)
                request.sessions[game_id] = session  # the resolver reads the same version
                seat = await request.viewer_seat(game_id)
            except Exception:  # an unknown game, an unusable token: executed as usual
                return None
            read.append((game_id, session.record.version, seat))
        return context.query, name, plain, tuple(read)


def _game_id(field: FieldNode, variables: dict[str, Any]) -> str | None:
    """The raw id a `game(id:)` field reads, from a literal or a variable; None if unknown."""
    for argument in field.arguments or ():
        if argument.name.value != "id":
            continue
        value = argument.value
        if isinstance(value, StringValueNode):
            given: object = value.value
        elif isinstance(value, VariableNode):
            given = variables.get(value.name.value)
        else:
            return None
        decoded = from_global_id(given, "Game") if isinstance(given, str) else None
        return None if decoded is None else decoded[1]
    return None


def encode_response(answers: StaticAnswers, response: dict[str, Any]) -> str | None:
    """An HTTP answer whose data is a kept answer's, spliced from that data's one encoding
    (only the extensions, such as the client's budget, are encoded anew); None otherwise."""
    keys = list(response)
    if keys not in (["data"], ["data", "extensions"]):
        return None
    encoded = answers.encoded(response["data"])
    if encoded is None:
        return None
    if "extensions" not in response:
        return f'{{"data":{encoded}}}'
    extensions = json.dumps(response["extensions"], separators=COMPACT)
    return f'{{"data":{encoded},"extensions":{extensions}}}'
