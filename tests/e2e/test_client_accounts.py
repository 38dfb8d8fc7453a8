"""The Python client and the arena with accounts, against a real server: a bot account made
with the client plays a game with its personal API token, follows its games in the
account's one stream and lists them; the arena seats bot accounts from a file of tokens in a
game for bots only."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from risiko_client.accounts import (
    become_bot,
    create_api_token,
    log_in,
    log_out,
    me,
    my_games,
    register,
)
from risiko_client.api import ApiError, RisikoClient
from risiko_client.arena import Seating, run_arena
from risiko_client.bots import OddsBot, play

from tests.e2e.support import Server

PASSWORD = "a kettle of purple mongooses"
SCOPES = ["GAMES_READ", "GAMES_PLAY", "GAMES_CREATE"]
Json = dict[str, Any]


@pytest.mark.anyio
async def test_a_bot_account_plays_with_its_token_and_follows_its_one_stream(
    server: Server,
) -> None:
    async with RisikoClient(server.url) as anonymous:
        session = await register(anonymous, "Robo", PASSWORD)
        with pytest.raises(ApiError) as taken:
            await register(anonymous, "ROBO", PASSWORD)
        assert taken.value.code == "NAME_TAKEN"
        with pytest.raises(ApiError) as wrong:
            await log_in(anonymous, "Robo", "not the password at all")
        assert wrong.value.code == "LOGIN_FAILED"
    async with RisikoClient(server.url, session) as robo:
        await become_bot(robo)
        token = await create_api_token(robo, "arena bot", SCOPES, expires_in_days=30)
        assert await log_out(robo) == 1
    async with RisikoClient(server.url, token) as bot:
        assert (await me(bot)) == {
            "name": "Robo",
            "bot": True,
            "credential": {"kind": "API_TOKEN", "scopes": SCOPES},
        }
        stream = bot.seat_events()  # before the game exists: it follows it once joined
        first = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0.5)
        game_id = await bot.create_game(
            options={"roundLimit": 2}, seed="robo", admission={"admits": "BOTS"}
        )
        seat = await bot.join_game(game_id, accept_chosen_seed=True)
        assert (seat.seat, seat.token) == (0, token)  # the account's own credential acts
        await bot.add_bot(game_id, "ODDS")
        await bot.add_bot(game_id, "RANDOM")
        await bot.start_game(game_id)
        notice = await asyncio.wait_for(first, 30)
        assert (notice["gameId"], notice["seat"]) == (game_id, 0)
        await stream.aclose()
        stats = await play(OddsBot(seed=1), bot, game_id)
        assert stats.actions > 0
        state = await bot.game(game_id)
        assert state.finished
        assert state.players[0]["account"] == {"name": "Robo", "bot": True}
        (listed,) = await my_games(bot)
        assert (listed.game_id, listed.status, listed.seat) == (game_id, "FINISHED", 0)
        assert listed.rank is not None


@pytest.fixture
def bots_server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "data").start()
    try:
        yield running
    finally:
        running.stop()


def bot_account(http: httpx.Client, name: str, address: str) -> str:
    """A bot account's personal API token, made through the API."""

    def call(query: str, token: str | None = None, **variables: Any) -> Json:
        headers = {"X-Forwarded-For": address}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        answer = http.post(
            "/graphql", json={"query": query, "variables": variables}, headers=headers
        )
        data: Json = answer.json()["data"]
        return data

    registered = call(
        "mutation($n: String!, $p: String!) { register(input: {name: $n, password: $p}) "
        "{ token } }",
        n=name,
        p=PASSWORD,
    )
    session = registered["register"]["token"]
    assert call("mutation { becomeBot { account { bot } } }", session)["becomeBot"]["account"]
    made = call(
        'mutation($s: [Scope!]!) { createApiToken(input: {name: "arena", scopes: $s}) { token } }',
        session,
        s=SCOPES,
    )
    token: str = made["createApiToken"]["token"]
    return token


def test_the_arena_seats_bot_accounts_from_a_file_of_tokens(
    bots_server: Server, tmp_path: Path
) -> None:
    with httpx.Client(base_url=bots_server.url, timeout=30) as http:
        tokens = [bot_account(http, f"Arena{n}", f"192.0.2.{40 + n}") for n in range(2)]
    credentials = tmp_path / "tokens"
    credentials.write_text("\n".join(tokens) + "\n")
    from risiko_client.arena import read_credentials

    seating = Seating(read_credentials(credentials), {"admits": "BOTS"})
    bots = ["odds", "random", "server-odds"]
    url = f"{bots_server.url}/graphql"
    data = run_arena(bots, 2, 7, server=url, round_limit=2, seating=seating)
    assert data["games"] == 2
    assert (data["bot_accounts"], data["admission"]) == (2, {"admits": "BOTS"})
    assert not any(token in str(data) for token in tokens)  # the report never shows a token
    query = """{ games(first: 10) { edges { node {
      admission { admits } players { name account { bot } }
    } } } }"""
    with contextlib.closing(httpx.Client(base_url=bots_server.url, timeout=30)) as http:
        games = http.post("/graphql", json={"query": query}).json()["data"]["games"]["edges"]
    for edge in games:
        node = edge["node"]
        assert node["admission"] == {"admits": "BOTS"}
        accounts = sorted(p["name"] for p in node["players"] if p["account"] == {"bot": True})
        assert accounts == ["Arena0", "Arena1"]  # each bot followed by its own account
    with pytest.raises(ValueError, match="takes the first seat"):
        run_arena(bots, 1, server=url, duplicate=True, seating=seating)
