"""A rated game through the real server (a `risiko serve` process), on both stores: four bot
accounts create, join and start a rated classic game (a seed, a guest and a bot the server
plays are refused), three of them resign; each account's rating changes once, by the
library's figures for the engine's ranking, its history has one entry, and the bots'
leaderboard orders them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from competition.ratings import Rating, rate
from tests.e2e.support import Server
from tests.e2e.test_accounts import Api
from tests.e2e.test_tournament import bot

pytestmark = pytest.mark.anyio
Json = dict[str, Any]

ERRORS = "userErrors { code }"
CREATE = f"""mutation($i: CreateGameInput!) {{ createGame(input: $i) {{
  game {{ id rated speed admission {{ accountsRequired }} }} {ERRORS} }} }}"""
JOIN = f'mutation($g: ID!) {{ joinGame(input: {{gameId: $g, name: "Guest"}}) {{ seat {ERRORS} }} }}'
ADD_BOT = f"mutation($g: ID!) {{ addBot(input: {{gameId: $g}}) {{ {ERRORS} }} }}"
START = f"mutation($g: ID!) {{ startGame(input: {{gameId: $g}}) {{ {ERRORS} }} }}"
LEAVE = f"mutation($g: ID!) {{ leaveGame(input: {{gameId: $g}}) {{ {ERRORS} }} }}"
EXPECTED = """query($g: ID!) { game(id: $g) { status
  outcome { ranking { rank seat } }
  players { seat account { name } }
  expectedRanking { seat winChance rank rating { rating mu sigma provisional } } } }"""
RATINGS = """query($n: String!) { account(name: $n) {
  ratings { variant speed rating mu sigma games provisional }
  ratingHistory(variant: "classic", speed: CORRESPONDENCE) {
    edges { node { gameId number before { mu sigma } after { mu sigma rating } } }
    pageInfo { hasNextPage } } } }"""
BOARD = """query($bots: Boolean!, $p: Boolean!) {
  leaderboard(variant: "classic", speed: CORRESPONDENCE, bots: $bots, provisional: $p) {
    edges { node { place account { name } rating { rating provisional games } } } } }"""


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
        yield client


def codes(payload: Json) -> list[str]:
    return [error["code"] for error in payload["userErrors"]]


async def test_four_bots_play_a_rated_game_rated_once(
    http: httpx.AsyncClient, server: Server
) -> None:
    api = Api(http)
    bots = dict([await bot(http, number) for number in range(4)])
    names, tokens = list(bots), list(bots.values())
    seeded = await api.data(CREATE, tokens[0], i={"rated": True, "seed": "arranged"})
    assert codes(seeded["createGame"]) == ["RATED_GAME_SEEDED"]
    made = (await api.data(CREATE, tokens[0], i={"rated": True}))["createGame"]
    assert made["userErrors"] == []
    game = made["game"]
    assert (game["rated"], game["speed"], game["admission"]) == (
        True,
        "CORRESPONDENCE",  # no clock
        {"accountsRequired": True},
    )
    gid = game["id"]
    assert codes((await api.data(JOIN, g=gid))["joinGame"]) == ["ACCOUNT_REQUIRED"]
    for token in tokens:
        assert (await api.data(JOIN, token, g=gid))["joinGame"]["userErrors"] == []
    assert codes((await api.data(ADD_BOT, tokens[0], g=gid))["addBot"]) == ["ACCOUNT_REQUIRED"]
    before = (await api.data(EXPECTED, g=gid))["game"]["expectedRanking"]
    assert [place["winChance"] for place in before] == pytest.approx([0.25] * 4)
    assert {place["rating"]["rating"] for place in before} == {1500}
    assert (await api.data(START, tokens[0], g=gid))["startGame"]["userErrors"] == []
    for token in reversed(tokens[1:]):  # the last seat resigns first; the first one wins
        assert (await api.data(LEAVE, token, g=gid))["leaveGame"]["userErrors"] == []
    finished = (await api.data(EXPECTED, g=gid))["game"]
    assert finished["status"] == "FINISHED"
    assert finished["expectedRanking"] == before  # from the ratings before the game
    await check_ratings(api, finished, names)
    await check_leaderboard(api, names)


async def check_ratings(api: Api, game: Json, names: list[str]) -> None:
    """Each account rated once, by the library's figures for the engine's ranking."""
    ranks = {place["seat"]: place["rank"] for place in game["outcome"]["ranking"]}
    seats = {player["account"]["name"]: player["seat"] for player in game["players"]}
    expected = rate([Rating()] * 4, [ranks[seats[name]] for name in names])
    for name, after in zip(names, expected, strict=True):
        account = (await api.data(RATINGS, n=name))["account"]
        (rating,) = account["ratings"]
        assert (rating["variant"], rating["speed"], rating["games"]) == (
            "classic",
            "CORRESPONDENCE",
            1,
        )
        assert (rating["mu"], rating["sigma"], rating["rating"]) == (
            after.mu,
            after.sigma,
            after.display,
        )
        assert rating["provisional"] is True
        (change,) = [edge["node"] for edge in account["ratingHistory"]["edges"]]
        assert change["number"] == 1
        assert change["before"] == {"mu": Rating().mu, "sigma": Rating().sigma}
        assert change["after"]["mu"] == after.mu
    winner = (await api.data(RATINGS, n=names[0]))["account"]["ratings"][0]["rating"]
    assert winner > 1500


async def check_leaderboard(api: Api, names: list[str]) -> None:
    board = (await api.data(BOARD, bots=True, p=True))["leaderboard"]["edges"]
    assert [edge["node"]["place"] for edge in board] == [1, 2, 3, 4]
    assert board[0]["node"]["account"]["name"] == names[0]  # the winner
    assert sorted(edge["node"]["account"]["name"] for edge in board) == sorted(names)
    shown = [edge["node"]["rating"]["rating"] for edge in board]
    assert shown == sorted(shown, reverse=True)
    assert (await api.data(BOARD, bots=True, p=False))["leaderboard"]["edges"] == []
    assert (await api.data(BOARD, bots=False, p=True))["leaderboard"]["edges"] == []
    unknown = BOARD.replace('"classic"', '"nothing"')
    assert (await api.answer(unknown, bots=True, p=True))["errors"][0]["extensions"] == {
        "code": "UNKNOWN_VARIANT"
    }
    cursor = BOARD.replace("provisional: $p", 'provisional: $p, after: "not-a-cursor"')
    refused = (await api.answer(cursor, bots=True, p=True))["errors"][0]["extensions"]
    assert refused["code"] == "BAD_USER_INPUT"
