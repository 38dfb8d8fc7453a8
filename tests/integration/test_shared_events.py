"""api/graphql/shared_events.py's parts: which variables a shared result depends on, the frames
spliced from one encoding, the kept results, and what the schema's stream of a subscription
gives each subscriber (its cost once, errors still masked, results shared)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from graphql import ExecutionResult, OperationDefinitionNode, parse
from strawberry.extensions import MaskErrors, SchemaExtension

from api.budget import Budgets
from api.graphql.context import Context
from api.graphql.events import SharedEvents
from api.graphql.schema import build_schema
from api.graphql.shared_events import FrameEncoder, _Results, selection_variables
from api.service import GameService
from api.stores.base import RecordedEvent
from domain.events import DiceRolled, TurnEnded
from tests.integration.api_support import Api, in_process, new_game

EVENTS = "subscription($id: ID!) { gameEvents(gameId: $id) { seq type data } }"


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    async with in_process(tmp_path / "data") as running:
        yield running


async def first_results(service: GameService, game_id: str, count: int) -> list[Any]:
    """The first `count` results of a spectator's subscription, through the schema's stream
    (what the WebSocket handler runs), on a schema charging a budget."""
    schema = build_schema(budgets=Budgets(capacity=1000, refill_per_second=10))
    stream = await schema.stream(
        EVENTS, variable_values={"id": game_id}, context_value=Context(service, None)
    )
    results = []
    async for result in stream:
        results.append(result)
        if len(results) == count:
            break
    await stream.aclose()
    return results


@pytest.mark.anyio
async def test_a_subscription_tells_its_cost_with_its_first_result_only(api: Api) -> None:
    game = await new_game(api.client, seed="cost-once")
    results = await first_results(api.service, game.id, 3)
    assert [r.errors for r in results] == [None, None, None]
    assert results[0].extensions["cost"]["requested"] == 4
    assert results[0].extensions["cost"]["capacity"] == 1000
    # Charged once when it started: later events repeat nothing, so that their frames can
    # be spliced from the event's one encoding.
    assert not results[1].extensions
    assert not results[2].extensions


@pytest.mark.anyio
async def test_subscribers_of_one_document_share_each_events_result(api: Api) -> None:
    game = await new_game(api.client, seed="shared-results")
    one = await first_results(api.service, game.id, 4)
    other = await first_results(api.service, game.id, 4)
    assert [r.data for r in one] == [r.data for r in other]
    assert all(a.data is b.data for a, b in zip(one, other, strict=True))


@pytest.mark.anyio
async def test_an_unexpected_error_in_a_subscription_is_still_masked(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await new_game(api.client, seed="masked")
    stream = api.service.stream

    async def crashing(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async for event in stream(*args, **kwargs):
            yield event
            raise RuntimeError("disk /srv/secret.sqlite3 is on fire, password hunter2")

    monkeypatch.setattr(api.service, "stream", crashing)
    first, failed = await first_results(api.service, game.id, 2)
    assert first.errors is None
    assert [error.message for error in failed.errors] == ["Unexpected error."]
    assert "hunter2" not in json.dumps([e.formatted for e in failed.errors])


def test_only_mask_errors_hooks_the_results_of_a_stream() -> None:
    # StreamResultsRunner skips the stream-result hooks for results without errors: right only
    # while every such hook acts on errors alone. A new one must be weighed against that.
    hooked = [
        type(extension)
        for extension in build_schema(budgets=Budgets(1000, 10)).get_extensions()
        if type(extension).on_stream_result is not SchemaExtension.on_stream_result
    ]
    assert hooked
    assert all(issubclass(kind, MaskErrors) for kind in hooked)


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


def test_subscribers_of_one_live_event_share_its_game_event() -> None:
    """The broker hands every subscriber the same RecordedEvent: one GameEvent serves them
    all, and another event, or the same number in another game, gets its own."""
    shared = SharedEvents(size=2)
    rolled = DiceRolled(0, "alaska", "kamchatka", (6,), (1,), 0, 1)
    event = RecordedEvent(seq=7, log_seq=3, visible_to=None, event=rolled)
    first = shared.of(event, "g1")
    assert shared.of(event, "g1") is first
    assert first.shared_key == ("g1", 7)
    assert (first.seq, first.version, first.type, first.private) == (7, 3, "DiceRolled", False)
    assert shared.of(event, "g2").shared_key == ("g2", 7)
    twin = RecordedEvent(seq=7, log_seq=3, visible_to=None, event=rolled)
    assert shared.of(twin, "g1") is not first  # an equal event read again: its own
    for seq in range(8, 12):  # the oldest leave
        shared.of(RecordedEvent(seq=seq, log_seq=4, visible_to=None, event=TurnEnded(0)), "g1")
    assert len(shared._kept) == 2


def test_frames_quote_any_operation_id() -> None:
    frames = FrameEncoder()
    data = {"gameEvents": {"seq": 1}}
    for operation_id in ("1", 'a"b', 7):
        frame = frames.next_frame({"id": operation_id, "type": "next", "payload": {"data": data}})
        assert frame is not None
        assert json.loads(frame) == {"id": operation_id, "type": "next", "payload": {"data": data}}
