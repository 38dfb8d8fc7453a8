"""Subscribers share the execution and the encoding of each event (api/graphql/shared_events.py),
and sharing changes nothing that any of them receives: through a real server, a spectator and
two seats with the same document, subscribers who joined at different points, and documents
that differ only in a variable their selection reads, all receive exactly what each would
receive alone, in order, while a game is played."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
import websockets
from websockets.typing import Subprotocol

from tests.e2e.support import Server, subscription
from tests.integration.api_support import data, new_game, play, running_server

pytestmark = pytest.mark.anyio

# The typed detail too: its private kinds reach only their seat, shared or not.
EVENT = (
    "seq version type private data detail { __typename "
    "... on ObjectiveAssigned { seat card objective } ... on ObjectiveChanged { seat objective } "
    "... on CardsReceived { seat cards } "
    "... on DiceRolled { seat attackerDice defenderDice } }"
)
EVENTS = f"""
query($id: ID!, $after: Int!) {{
  game(id: $id) {{ events(after: $after, first: 100) {{ events {{ {EVENT} }} hasMore }} }}
}}"""
FULL = f"""
subscription($id: ID!, $after: Int!) {{ gameEvents(gameId: $id, after: $after) {{ {EVENT} }} }}
"""
CHOSEN = """
subscription($id: ID!, $after: Int!, $withData: Boolean!) {
  gameEvents(gameId: $id, after: $after) { seq type data @include(if: $withData) }
}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory.mktemp("shared") / "data")


async def history(client: httpx.AsyncClient, game_id: str, token: str | None) -> list[Any]:
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = (await data(client, EVENTS, {"id": game_id, "after": after}, token))["game"]
        events += page["events"]["events"]
        if not page["events"]["hasMore"]:
            return events
        after = events[-1]["seq"]


async def test_shared_events_reach_each_subscriber_as_if_alone(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        game = await new_game(client, seed="shared-events")
        start = (await history(client, game.id, None))[-1]["seq"]
        # (label, document, variables beyond the game, token)
        subscribers: list[tuple[str, str, dict[str, Any], str | None]] = [
            ("spectator", FULL, {"after": 0}, None),
            ("spectator joined later", FULL, {"after": start}, None),
            ("seat 0", FULL, {"after": 0}, game.token(0)),
            ("seat 1", FULL, {"after": 0}, game.token(1)),
            ("without data", CHOSEN, {"after": 0, "withData": False}, None),
            ("with data", CHOSEN, {"after": 0, "withData": True}, None),
        ]
        received: dict[str, list[dict[str, Any]]] = {label: [] for label, *_ in subscribers}
        ready = asyncio.Event()
        subscribed = 0

        async def follow(
            label: str, document: str, extra: dict[str, Any], token: str | None
        ) -> None:
            nonlocal subscribed
            variables = {"id": game.id, **extra}
            async with subscription(server.ws_url, document, variables, token) as stream:
                subscribed += 1
                if subscribed == len(subscribers):
                    ready.set()
                async for message in stream:
                    received[label].append(message["gameEvents"])

        tasks = [asyncio.create_task(follow(*subscriber)) for subscriber in subscribers]
        with anyio.fail_after(20):
            await ready.wait()
        target = game.game.seq + 40
        await play(client, game, until=lambda mirror: mirror.seq >= target)
        expected = {
            label: [e for e in await history(client, game.id, token) if e["seq"] > extra["after"]]
            for label, _, extra, token in subscribers
        }
        try:
            with anyio.fail_after(30):
                while any(len(received[label]) < len(expected[label]) for label, *_ in subscribers):
                    await asyncio.sleep(0.05)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    for label in ("spectator", "spectator joined later", "seat 0", "seat 1"):
        assert received[label] == expected[label], label
    assert next(e["seq"] for e in received["spectator joined later"]) == start + 1
    # The seats each saw their own private events, and never the other's.
    private = {
        label: [e for e in received[label] if e["private"]] for label in ("seat 0", "seat 1")
    }
    assert private["seat 0"]
    assert private["seat 1"]
    assert not [e for e in received["spectator"] if e["private"]]
    assert {e["seq"] for e in private["seat 0"]}.isdisjoint(e["seq"] for e in private["seat 1"])
    for label, seat in (("seat 0", 0), ("seat 1", 1)):
        assert {e["detail"]["seat"] for e in private[label]} == {seat}
    # A variable the selection reads is part of what is shared: both got their own shape.
    public = expected["spectator"]
    assert received["without data"] == [{"seq": e["seq"], "type": e["type"]} for e in public]
    assert received["with data"] == [
        {"seq": e["seq"], "type": e["type"], "data": e["data"]} for e in public
    ]


async def raw_frames(
    ws_url: str, document: str, variables: dict[str, Any], count: int
) -> list[str]:
    """The first `count` `next` frames of a subscription, as the server wrote them."""
    protocol = Subprotocol("graphql-transport-ws")
    async with websockets.connect(ws_url, subprotocols=[protocol]) as socket_:
        await socket_.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await socket_.recv())["type"] == "connection_ack"
        message = {"query": document, "variables": variables}
        await socket_.send(json.dumps({"id": "s", "type": "subscribe", "payload": message}))
        frames: list[str] = []
        while len(frames) < count:
            frame = await socket_.recv()
            assert isinstance(frame, str)
            if json.loads(frame)["type"] == "next":
                frames.append(frame)
        return frames


async def test_a_subscription_tells_its_cost_once_and_its_frames_are_the_events_alone(
    server: Server,
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        game = await new_game(client, seed="frames")
    variables = {"id": game.id, "after": 0}
    one, other = [await raw_frames(server.ws_url, FULL, variables, 5) for _ in range(2)]
    first = json.loads(one[0])["payload"]
    assert first["extensions"]["cost"]["requested"] > 0  # the budget, where it stands
    for frames in (one, other):
        for frame in frames[1:]:
            assert set(json.loads(frame)["payload"]) == {"data"}
    # Each later frame is the event alone: the same bytes whoever it is sent to.
    assert one[1:] == other[1:]
