"""A challenge through the real server (a `risiko serve` process), on both stores: three
accounts; one challenges the other two to a rated game; each sees it (`me { challenges }`,
and the challenged one's `challengeNews`); both accept, and the game starts with the three
accounts' bound seats in the drawn order; the two challenged resign, the game ends, and each
account's rating changes once. Refusals (oneself, an unknown account, accepting twice, a
stranger answering) come back with their codes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.e2e.support import Server, subscription
from tests.e2e.test_accounts import Api
from tests.e2e.test_tournament import bot

pytestmark = pytest.mark.anyio
Json = dict[str, Any]

ERRORS = "userErrors { code }"
SHOWN = """id status rated gameId challenger { name } challenged { name }
  accepted { name } seats { name }"""
CHALLENGE = f"""mutation($i: ChallengeAccountsInput!) {{ challengeAccounts(input: $i) {{
  challenge {{ {SHOWN} }} {ERRORS} }} }}"""
ACCEPT = f"""mutation($c: ID!) {{ acceptChallenge(input: {{challengeId: $c}}) {{
  challenge {{ {SHOWN} }} {ERRORS} }} }}"""
MINE = f"""query($d: ChallengeDirection!) {{ me {{ challenges(direction: $d) {{ {SHOWN} }} }} }}"""
NEWS = f"subscription {{ challengeNews {{ challenge {{ {SHOWN} }} }} }}"
GAME = """query($g: ID!) { game(id: $g) { status rated
  players { seat account { name } } } }"""
LEAVE = f"mutation($g: ID!) {{ leaveGame(input: {{gameId: $g}}) {{ {ERRORS} }} }}"
RATINGS = """query($n: String!) { account(name: $n) { ratings { variant games } } }"""


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
        yield client


def codes(payload: Json) -> list[str]:
    return [error["code"] for error in payload["userErrors"]]


async def test_a_rated_challenge_accepted_by_two_starts_and_is_rated(
    http: httpx.AsyncClient, server: Server
) -> None:
    api = Api(http)
    accounts = dict([await bot(http, number) for number in range(4)])
    (ann, bob, cat, dan), tokens = list(accounts), accounts

    async def challenge(names: list[str]) -> Json:
        data = await api.data(CHALLENGE, tokens[ann], i={"names": names, "rated": True})
        payload: Json = data["challengeAccounts"]
        return payload

    async def accept(name: str, cid: str) -> Json:
        payload: Json = (await api.data(ACCEPT, tokens[name], c=cid))["acceptChallenge"]
        return payload

    assert codes(await challenge([ann, bob])) == ["CANNOT_CHALLENGE_SELF"]
    assert codes(await challenge([bob, "Nobody"])) == ["ACCOUNT_NOT_FOUND"]
    async with subscription(server.ws_url, NEWS, token=tokens[cat]) as news:
        made = await challenge([bob, cat])
        assert made["userErrors"] == []
        shown = made["challenge"]
        cid = shown["id"]
        assert (shown["status"], shown["rated"], shown["gameId"]) == ("OPEN", True, None)
        # The stream begins with the open challenges, then tells each change: cat hears of
        # this one either way, whether its stream started before or after it was made.
        told = await asyncio.wait_for(anext(news), 10)
        assert told["challengeNews"]["challenge"]["id"] == cid
        assert (await accept(bob, cid))["challenge"]["status"] == "OPEN"
        told = await asyncio.wait_for(anext(news), 10)
        assert told["challengeNews"]["challenge"]["accepted"] == [{"name": bob}]
    incoming = (await api.data(MINE, tokens[bob], d="INCOMING"))["me"]["challenges"]
    assert [entry["id"] for entry in incoming] == [cid]
    assert (await api.data(MINE, tokens[bob], d="OUTGOING"))["me"]["challenges"] == []
    outgoing = (await api.data(MINE, tokens[ann], d="OUTGOING"))["me"]["challenges"]
    assert [entry["challenged"] for entry in outgoing] == [[{"name": bob}, {"name": cat}]]

    assert codes(await accept(dan, cid)) == ["NOT_CHALLENGED"]
    assert codes(await accept(bob, cid)) == ["ALREADY_ANSWERED"]
    accepted = (await accept(cat, cid))["challenge"]
    assert accepted["status"] == "ACCEPTED"
    seats = [seat["name"] for seat in accepted["seats"]]
    assert sorted(seats) == sorted([ann, bob, cat])
    game = (await api.data(GAME, g=accepted["gameId"]))["game"]
    assert (game["status"], game["rated"]) == ("ACTIVE", True)
    assert [player["account"]["name"] for player in game["players"]] == seats
    assert (await api.data(MINE, tokens[ann], d="BOTH"))["me"]["challenges"] == []  # not open
    for name in (bob, cat):
        left = (await api.data(LEAVE, tokens[name], g=accepted["gameId"]))["leaveGame"]
        assert left["userErrors"] == []
    assert (await api.data(GAME, g=accepted["gameId"]))["game"]["status"] == "FINISHED"
    for name in (ann, bob, cat):
        ratings = (await api.data(RATINGS, n=name))["account"]["ratings"]
        assert ratings == [{"variant": "classic", "games": 1}]
    assert (await api.data(RATINGS, n=dan))["account"]["ratings"] == []
