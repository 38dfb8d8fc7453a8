"""api/graphql/shared_events.py's parts: which variables a shared result depends on, the frames
spliced from one encoding, and the kept results."""

from __future__ import annotations

import json

from graphql import ExecutionResult, OperationDefinitionNode, parse

from api.graphql.shared_events import FrameEncoder, _Results, selection_variables


def test_the_root_fields_arguments_are_not_part_of_a_shared_result() -> None:
    document = parse(
        """
        subscription($g: ID!, $after: Int!, $x: Boolean!, $y: Boolean!, $z: Boolean!) {
          gameEvents(gameId: $g, after: $after) {
            seq data @include(if: $x) ...More
          }
        }
        fragment More on GameEvent { type @skip(if: $y) }
        fragment Unused on GameEvent { private @include(if: $z) }
        """
    )
    operation = document.definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    fragments = {d.name.value: d for d in document.definitions[1:]}  # type: ignore[attr-defined]
    assert selection_variables(operation, fragments) == {"x", "y", "z"}


def test_frames_reuse_the_encoding_of_the_same_data() -> None:
    encoder = FrameEncoder(size=2)
    data = {"gameEvents": {"seq": 3, "type": "DiceRolled"}}
    first = encoder.next_frame({"id": "1", "type": "next", "payload": {"data": data}})
    second = encoder.next_frame({"id": "b", "type": "next", "payload": {"data": data}})
    assert first is not None
    assert second is not None
    assert json.loads(first) == {"id": "1", "type": "next", "payload": {"data": data}}
    assert json.loads(second) == {"id": "b", "type": "next", "payload": {"data": data}}
    # Anything else is encoded as usual.
    assert encoder.next_frame({"id": "1", "type": "complete"}) is None
    with_errors = {"data": None, "errors": [{"message": "no"}]}
    assert encoder.next_frame({"id": "1", "type": "next", "payload": with_errors}) is None


def test_equal_data_that_is_another_object_is_encoded_again() -> None:
    encoder = FrameEncoder(size=1)
    one, other = {"gameEvents": {"seq": 1}}, {"gameEvents": {"seq": 2}}
    encoder.next_frame({"id": "1", "type": "next", "payload": {"data": one}})
    frame = encoder.next_frame({"id": "1", "type": "next", "payload": {"data": other}})
    assert frame is not None
    assert json.loads(frame)["payload"]["data"] == other


def test_a_kept_result_belongs_to_its_operation_and_the_oldest_goes_first() -> None:
    results = _Results(size=2)
    operation, another = object(), object()
    one, two, three = (ExecutionResult({"n": n}) for n in (1, 2, 3))
    results.keep(("a",), operation, one)
    assert results.get(("a",), another) is None  # an id reused by another operation
    results.keep(("b",), operation, two)
    assert results.get(("a",), operation) is one
    results.keep(("c",), operation, three)
    assert results.get(("b",), operation) is None
    assert len(results) == 2
