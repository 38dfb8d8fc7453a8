"""Relay connections through the real server, on both stores: the lobby's games, a game's
events as a seat and as a spectator see them, and a finished game's action log, each paged
forward (first, after) and backward (last, before) to the same list, with the PageInfo the
Relay Cursor Connections Specification gives every page, and totalCount."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server
from tests.e2e.test_online_play import LEAVE, finished, open_table

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
Fetch = Callable[[Json], Awaitable[Json]]

PAGE_INFO = "pageInfo { hasPreviousPage hasNextPage startCursor endCursor } totalCount"
GAMES = f"""
query($first: Int, $after: String, $last: Int, $before: String, $status: GameStatus) {{
  games(first: $first, after: $after, last: $last, before: $before, status: $status) {{
    edges {{ cursor node {{ id }} }} {PAGE_INFO}
  }}
}}"""
EVENTS = f"""
query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {{
  game(id: $id) {{
    eventsConnection(first: $first, after: $after, last: $last, before: $before) {{
      edges {{ cursor node {{ seq type private }} }} {PAGE_INFO}
    }}
    events(first: 100) {{ events {{ seq type private }} hasMore }}
  }}
}}"""
LOG = f"""
query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {{
  game(id: $id) {{
    version
    actionLogConnection(first: $first, after: $after, last: $last, before: $before) {{
      edges {{ cursor node {{ seq kind }} }} {PAGE_INFO}
    }}
  }}
}}"""


async def walk(fetch: Fetch, size: int) -> tuple[list[Json], list[Json]]:
    """Every node, paged forward by `size` and backward by `size`; each page's PageInfo is
    checked against where the page lies."""
    forward: list[Json] = []
    after = None
    while True:
        page = await fetch({"first": size, "after": after})
        info = page["pageInfo"]
        nodes = [edge["node"] for edge in page["edges"]]
        assert info["hasPreviousPage"] is (after is not None)
        assert info["hasNextPage"] is (len(forward) + len(nodes) < page["totalCount"])
        assert len(nodes) == min(size, page["totalCount"] - len(forward))
        forward += nodes
        if not info["hasNextPage"]:
            break
        assert info["endCursor"] == page["edges"][-1]["cursor"]
        after = info["endCursor"]
    backward: list[Json] = []
    before = None
    while True:
        page = await fetch({"last": size, "before": before})
        info = page["pageInfo"]
        nodes = [edge["node"] for edge in page["edges"]]
        assert info["hasNextPage"] is (before is not None)
        assert info["hasPreviousPage"] is (len(backward) + len(nodes) < page["totalCount"])
        backward = nodes + backward
        if not info["hasPreviousPage"]:
            break
        assert info["startCursor"] == page["edges"][0]["cursor"]
        before = info["startCursor"]
    return forward, backward


async def test_the_games_page_both_ways(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        ids = [(await open_table(http, 1, 0, seed=f"page-{n}", start=False))[0] for n in range(7)]
        client = GraphQLClient(http)

        async def games(variables: Json) -> Json:
            found: Json = (await client(GAMES, variables))["games"]
            return found

        listing = [edge["node"]["id"] for edge in (await games({"first": 100}))["edges"]]
        assert listing == list(reversed(ids))  # newest first
        forward, backward = await walk(games, 3)
        assert [n["id"] for n in forward] == [n["id"] for n in backward] == listing
        # Both counts: the last 2 of the first 5 (the specification's order of cuts).
        both = await games({"first": 5, "last": 2})
        assert [e["node"]["id"] for e in both["edges"]] == listing[3:5]
        assert both["pageInfo"]["hasPreviousPage"]
        assert both["pageInfo"]["hasNextPage"]
        # Between two cursors, from either end.
        cursors = [e["cursor"] for e in (await games({"first": 7}))["edges"]]
        window = {"after": cursors[1], "before": cursors[5]}
        assert [e["node"]["id"] for e in (await games({**window, "first": 2}))["edges"]] == (
            listing[2:4]
        )
        assert [e["node"]["id"] for e in (await games({**window, "last": 2}))["edges"]] == (
            listing[3:5]
        )
        assert (await games({"first": 0}))["edges"] == []
        assert (await games({"status": "ACTIVE"}))["totalCount"] == 0


async def test_a_games_events_and_log_page_both_ways(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        game_id, tokens = await open_table(http, 1, 2, seed="pages", variant="classic")
        left = await GraphQLClient(http, tokens[0])(LEAVE, {"input": {"gameId": game_id}})
        assert left["leaveGame"]["userErrors"] == []
        await finished(http, game_id)
        for token in (None, tokens[0]):  # a spectator, and the seat (its private events too)
            client = GraphQLClient(http, token)

            async def events(variables: Json, client: GraphQLClient = client) -> Json:
                found: Json = (await client(EVENTS, {"id": game_id, **variables}))["game"]
                connection: Json = found["eventsConnection"]
                return connection

            forward, backward = await walk(events, 40)
            assert forward == backward
            first_page = (await client(EVENTS, {"id": game_id, "first": 100}))["game"]
            assert forward[:100] == first_page["events"]["events"]
            assert [e["seq"] for e in forward] == sorted({e["seq"] for e in forward})
            assert any(e["private"] for e in forward) is (token is not None)
        client = GraphQLClient(http)

        async def log(variables: Json) -> Json:
            found: Json = (await client(LOG, {"id": game_id, **variables}))["game"]
            connection: Json = found["actionLogConnection"]
            assert connection["totalCount"] == found["version"]
            return connection

        forward, backward = await walk(log, 25)
        assert forward == backward
        assert [entry["seq"] for entry in forward] == list(range(1, len(forward) + 1))
        assert forward[0]["kind"] == "create"
