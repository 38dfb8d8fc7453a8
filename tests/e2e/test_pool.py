"""The matchmaking pool through the real server (a `risiko serve` process), on both stores:
four bot accounts seek a rated 4-player classic game at a day a turn; the server forms the
table, creates the rated game with their bound seats and starts it; each account sees the
game in `me { seeks }`, and the stream of the account whose turn comes first (`seatEvents`
with its credential, subscribed before the game existed) tells it so in that game.
Cancelling another's seek and impossible seeks are refused."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.e2e.support import Server, Socket, open_socket
from tests.e2e.test_accounts import Api
from tests.e2e.test_tournament import bot

pytestmark = pytest.mark.anyio
Json = dict[str, Any]

SEEK = """mutation($i: JoinSeekInput!) { joinSeek(input: $i) {
  seek { id state players rated speed rating gameId } userErrors { code } } }"""
CANCEL = """mutation($s: ID!) { cancelSeek(input: {seekId: $s}) {
  seek { state } userErrors { code } } }"""
MINE = "{ me { seeks { id state gameId } } }"
GAME = """query($g: ID!) { game(id: $g) { status rated speed
  players { seat account { name } } } }"""
MY_STREAM = "subscription { seatEvents { gameId seat kind } }"
WAIT = 30.0


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
        yield client


def seek_input(**changes: object) -> Json:
    return {"clock": {"turnSeconds": 86400}, "players": 4, "rated": True, **changes}


async def matched(api: Api, token: str) -> Json:
    """The account's seek once the pool seated it (passes run every few seconds)."""
    async with asyncio.timeout(WAIT):
        while True:
            seek: Json
            (seek,) = (await api.data(MINE, token))["me"]["seeks"]
            if seek["state"] == "MATCHED":
                return seek
            await asyncio.sleep(0.2)


async def first_notice(sockets: list[Socket]) -> Json:
    """The first notice any of the accounts' streams tells."""
    waits = [asyncio.create_task(socket.until("mine", WAIT)) for socket in sockets]
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for wait in pending:
        wait.cancel()
    message = done.pop().result()
    assert message["type"] == "next", message
    notice: Json = message["payload"]["data"]["seatEvents"]
    return notice


async def test_four_accounts_seek_and_a_rated_game_starts_with_them_bound(
    http: httpx.AsyncClient, server: Server
) -> None:
    api = Api(http)
    bots = dict([await bot(http, number) for number in range(4)])
    names, tokens = list(bots), list(bots.values())
    refused = await api.data(SEEK, tokens[0], i=seek_input(players=7))
    assert refused["joinSeek"]["userErrors"] == [{"code": "INVALID_SEEK"}]
    refused = await api.data(SEEK, tokens[0], i=seek_input(seed="lucky"))
    assert refused["joinSeek"]["userErrors"] == [{"code": "RATED_GAME_SEEDED"}]
    async with contextlib.AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(open_socket(server.ws_url, t)) for t in tokens]
        for socket in sockets:
            await socket.subscribe("mine", MY_STREAM)
        await asyncio.sleep(0.5)  # subscribed before the game exists
        seeks = []
        for token in tokens:
            joined = (await api.data(SEEK, token, i=seek_input()))["joinSeek"]
            assert joined["userErrors"] == []
            seeks.append(joined["seek"])
        assert seeks[0]["state"] in {"OPEN", "MATCHED"}
        assert (seeks[0]["rated"], seeks[0]["speed"], seeks[0]["rating"]) == (
            True,
            "CORRESPONDENCE",
            1500,
        )
        other = (await api.data(CANCEL, tokens[1], s=seeks[0]["id"]))["cancelSeek"]
        assert other["userErrors"] == [{"code": "NOT_YOUR_SEEK"}]
        found = [await matched(api, token) for token in tokens]
        game_id = found[0]["gameId"]
        assert {seek["gameId"] for seek in found} == {game_id}
        notice = await first_notice(sockets)
        assert (notice["gameId"], notice["kind"]) == (game_id, "YOUR_TURN")
    game = (await api.data(GAME, g=game_id))["game"]
    assert (game["status"], game["rated"], game["speed"]) == ("ACTIVE", True, "CORRESPONDENCE")
    assert sorted(player["account"]["name"] for player in game["players"]) == sorted(names)
    late = (await api.data(CANCEL, tokens[0], s=seeks[0]["id"]))["cancelSeek"]
    assert late == {"seek": {"state": "MATCHED"}, "userErrors": []}  # matched stays matched
