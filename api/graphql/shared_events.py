"""One execution and one encoding of a game event for all the subscribers who asked the same.

graphql-core executes a subscription's selection again for every subscriber and every event.
Spectators of one game with the same document see the same thing: the event's selection is
executed once and its result shared (`SharedEventExecutor`), and the result's JSON is encoded
once and spliced into each subscriber's frame (`FrameEncoder`). Sharing never crosses what a
viewer may see: an event reaches only the subscribers who may see it (the service's stream
decides that), and what the selection makes of an event depends on the event, the document
and the variables the selection reads, not on who asks.

An event that may be shared carries `shared_key` (its game and its number); the key of a
result adds the document's operation and the variables read below the root field (`after` and
`gameId` only choose the stream, so subscribers who joined at different points still share).
"""

from __future__ import annotations

import contextlib
import json
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from graphql import ExecutionResult, FieldNode, Node, OperationDefinitionNode, VariableNode
from graphql.pyutils.gather_with_cancel import gather_with_cancel
from graphql.type.definition import GraphQLResolveInfoHelpers
from strawberry.extensions.runner import SchemaExtensionsRunner
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.types import ExecutionContext
from strawberry.types.graphql import OperationType

from api.identity_memo import IdentityMemo

SHARED_RESULTS = 2048  # events kept, across documents: a few actions of many games
SHARED_FRAMES = 256


class _Results:
    """Shared results, least recently used first, each with the operation it belongs to (held
    so that its id, part of the key, is not reused while the result is kept)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[Any, ...], tuple[ExecutionResult, object]] = OrderedDict()

    def get(self, key: tuple[Any, ...], operation: object) -> ExecutionResult | None:
        kept = self._kept.get(key)
        if kept is None or kept[1] is not operation:
            return None
        self._kept.move_to_end(key)
        return kept[0]

    def keep(self, key: tuple[Any, ...], operation: object, result: ExecutionResult) -> None:
        self._kept[key] = (result, operation)
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)


RESULTS = _Results(SHARED_RESULTS)


def _variables_in(node: object) -> Iterator[str]:
    if isinstance(node, VariableNode):
        yield node.name.value
    elif isinstance(node, Node):
        for name in node.keys:
            yield from _variables_in(getattr(node, name, None))
    elif isinstance(node, tuple | list):
        for item in node:
            yield from _variables_in(item)


def selection_variables(operation: OperationDefinitionNode, fragments: dict[str, Any]) -> set[str]:
    """The variables the selection below the root fields reads (not the root fields' own
    arguments, which only choose the source stream)."""
    names: set[str] = set(_variables_in(operation.directives))
    for selection in operation.selection_set.selections:
        if isinstance(selection, FieldNode):
            names |= set(_variables_in(selection.directives))
            names |= set(_variables_in(selection.selection_set))
        else:
            names |= set(_variables_in(selection))
    for fragment in fragments.values():
        names |= set(_variables_in(fragment))
    return names


class _SharedEvent:
    """A per-event executor that answers from, or adds to, the shared results."""

    def __init__(self, executor: Any, key: tuple[Any, ...], operation: object) -> None:
        self.executor = executor
        self.key = key
        self.operation = operation

    def execute_operation(self, serially: bool | None = None) -> Any:
        kept = RESULTS.get(self.key, self.operation)
        if kept is not None:
            return kept
        result = self.executor.execute_operation(serially)
        if isinstance(result, Awaitable):
            return self._keep_when_done(result)
        self._keep(result)
        return result

    async def _keep_when_done(self, pending: Awaitable[Any]) -> Any:
        result = await pending
        self._keep(result)
        return result

    def _keep(self, result: Any) -> None:
        if isinstance(result, ExecutionResult) and not result.errors:
            RESULTS.keep(self.key, self.operation, result)


class SharedEventExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, sharing the execution of events that carry `shared_key`."""

    _shared_variables: tuple[tuple[str, str], ...] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # graphql-core 3.3 hands resolvers helpers bound to the executor itself, which holds
        # them: a reference cycle per request, so the executor and all it touched (the
        # collected fields, the context, the request) waited for the collector's older
        # generations, whose pauses were the p99 of the held benchmark. The same helpers,
        # reaching the executor weakly: reference counting frees each request at its end.
        self.async_helpers = _weak_helpers(self)

    def build_per_event_executor(self, payload: Any) -> Any:
        shared = getattr(payload, "shared_key", None)
        if shared is None:
            return self._own_executor(payload)
        if self._shared_variables is None:
            read = selection_variables(self.operation, dict(self.fragment_definitions))
            values = self.variable_values.coerced
            self._shared_variables = tuple(
                sorted((name, json.dumps(values.get(name), sort_keys=True)) for name in read)
            )
        key = (shared, id(self.operation), self._shared_variables)
        kept = RESULTS.get(key, self.operation)
        if kept is not None:  # executed for another subscriber: no executor to build at all
            return _Executed(kept)
        return _SharedEvent(self._own_executor(payload), key, self.operation)

    def _own_executor(self, payload: Any) -> Any:
        per_event = super().build_per_event_executor(payload)
        # graphql-core memoizes collected subfields by the identity of lists that each event
        # builds anew, in a dict the per-event copy shares with the subscription's executor:
        # every event missed and stayed, for the life of the subscription. Each event's own.
        per_event._relevant_sub_fields = {}
        return per_event


def _gather(values: Sequence[Awaitable[Any]]) -> Awaitable[list[Any]]:
    return gather_with_cancel(*values)


def _weak_helpers(executor: StrawberryGraphQLCoreExecutionContext) -> GraphQLResolveInfoHelpers:
    reference = weakref.ref(executor)

    def track(values: Sequence[Any]) -> None:
        alive = reference()
        if alive is not None:  # its execution is under way whenever a resolver calls this
            alive.track_async_work(values)

    return GraphQLResolveInfoHelpers(gather=_gather, track=track)


class _Executed:
    """The per-event executor of an event whose result another subscriber's executed."""

    __slots__ = ("result",)

    def __init__(self, result: ExecutionResult) -> None:
        self.result = result

    def execute_operation(self, serially: bool | None = None) -> ExecutionResult:
        return self.result


class FrameEncoder:
    """The JSON of `next` messages whose data was encoded for another subscriber is reused:
    only the operation's id differs from one subscriber's frame to the next."""

    def __init__(self, size: int = SHARED_FRAMES) -> None:
        self._encoded: IdentityMemo[object, str] = IdentityMemo(size)

    def next_frame(self, message: dict[str, Any]) -> str | None:
        """The frame of a `next` message carrying only data, or None for any other message."""
        if message.get("type") != "next":
            return None
        payload = message.get("payload")
        if not isinstance(payload, dict) or len(payload) != 1 or "data" not in payload:
            return None
        data = payload["data"]
        encoded = self._encoded.get(data)
        if encoded is None:
            encoded = self._encoded.keep(data, json.dumps(payload, separators=(",", ":")))
        operation_id = message["id"]
        string = type(operation_id) is str
        quoted = _encoded_id(operation_id) if string else json.dumps(operation_id)
        return f'{{"id":{quoted},"type":"next","payload":{encoded}}}'


@lru_cache(maxsize=1024)
def _encoded_id(operation_id: str) -> str:
    """An operation's id in JSON (clients use a few, "1", "2", …, on every socket)."""
    return json.dumps(operation_id)


class StreamResultsRunner(SchemaExtensionsRunner):
    """Strawberry's extension runner, with less to do for each result of a subscription.

    * A subscription's extension results (its cost, charged once when it started) go with its
      first result only: repeating them on every event told nothing new, and kept each frame
      from being spliced from the event's shared encoding (FrameEncoder needs data alone).
    * A result without errors skips the stream-result hooks: the only one in this schema is
      MaskErrors', which acts on errors alone (tests/integration/test_shared_events.py holds
      that no other extension has one).
    """

    def __init__(
        self, execution_context: ExecutionContext, extensions: list[Any] | None = None
    ) -> None:
        super().__init__(execution_context, extensions)
        self._reported = False

    async def get_extensions_results(self, ctx: ExecutionContext) -> dict[str, Any]:
        if self._reported and ctx.operation_type is OperationType.SUBSCRIPTION:
            return dict(ctx.extensions_results)
        self._reported = True
        return await super().get_extensions_results(ctx)

    def on_stream_result(self, result: Any) -> Any:
        if getattr(result, "errors", None):
            return super().on_stream_result(result)
        return contextlib.nullcontext()
