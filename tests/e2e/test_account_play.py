"""Accounts at the table through the real server, on both stores: a socket opened with an
account's credential acts as the account's seat in each of its games and ends (4403) when the
credential does; the account's own stream covers the games it joins after subscribing; a
credential revoked, expired, out of scope or of a deleted account does nothing, on HTTP and
over the socket; and a revocation on one instance ends the sockets of another at once."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Subprotocol

from tests.e2e.support import Server, Socket, open_socket
from tests.e2e.test_accounts import PASSWORD, Api, expire_tokens, register

pytestmark = pytest.mark.anyio
Json = dict[str, Any]

ERRORS = "userErrors { code }"
CREATE = 'mutation { createGame(input: {seed: "account-play"}) { game { id } } }'
JOIN = f"""mutation($g: ID!, $n: String) {{
  joinGame(input: {{gameId: $g, name: $n}}) {{ seat token {ERRORS} }}
}}"""
START = f"mutation($g: ID!) {{ startGame(input: {{gameId: $g}}) {{ {ERRORS} }} }}"
STATE = """query($g: ID!) { game(id: $g) {
  version seatToAct viewerSeat legalActions { __typename ... on LegalPlaceArmies { input } }
} }"""
SUBMIT = f"""mutation($g: ID!, $a: ActionInput!) {{
  submitAction(input: {{gameId: $g, action: $a}}) {{ version {ERRORS} }}
}}"""
EVENTS = "subscription($g: ID!) { gameEvents(gameId: $g) { seq type private data } }"
MY_STREAM = "subscription { seatEvents { gameId seat kind version } }"
TOKEN = """mutation($s: [Scope!]!) {
  createApiToken(input: {name: "a token", scopes: $s}) { token apiToken { id } }
}"""
REVOKE = f"mutation($id: ID!) {{ revokeApiToken(input: {{id: $id}}) {{ {ERRORS} }} }}"
LOG_OUT = f"mutation {{ logOut(input: {{}}) {{ ended {ERRORS} }} }}"
DELETE = f"mutation($p: String!) {{ deleteAccount(input: {{password: $p}}) {{ {ERRORS} }} }}"
WAIT = 10.0  # seconds a socket may take to learn of a revocation (it rechecks every 2)


@pytest.fixture
async def api(server: Server) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        yield Api(http)


async def seated(
    api: Api, account: str, guests: int = 2, start: bool = True
) -> tuple[str, dict[int, str]]:
    """A game with the account at seat 0 and guests after it: its id and the guests'
    tokens by seat."""
    game = (await api.data(CREATE))["createGame"]["game"]["id"]
    joined = (await api.data(JOIN, account, g=game))["joinGame"]
    assert (joined["seat"], joined["token"], joined["userErrors"]) == (0, None, [])
    tokens = {0: account}
    for n in range(guests):
        tokens[n + 1] = (await api.data(JOIN, g=game, n=f"Guest{n}"))["joinGame"]["token"]
    if start:
        assert (await api.data(START, account, g=game))["startGame"]["userErrors"] == []
    return game, tokens


async def until_turn_of(api: Api, game: str, tokens: dict[int, str], seat: int) -> Json:
    """Play the others' placements until it is `seat`'s turn; the game as `seat` sees it."""
    while True:
        state: Json = (await api.data(STATE, tokens[seat], g=game))["game"]
        if state["seatToAct"] == seat:
            return state
        other = state["seatToAct"]
        theirs = (await api.data(STATE, tokens[other], g=game))["game"]
        action = theirs["legalActions"][0]["input"]
        done = (await api.data(SUBMIT, tokens[other], g=game, a=action))["submitAction"]
        assert done["userErrors"] == [], done


async def closed_within(socket: Socket, seconds: float) -> tuple[list[Json], int | None]:
    """What a socket is sent until the server closes it, and its close code."""
    seen: list[Json] = []
    try:
        async with asyncio.timeout(seconds):
            while True:
                seen.append(await socket.receive(seconds))
    except websockets.ConnectionClosed as closed:
        return seen, closed.rcvd.code if closed.rcvd else None


async def refused_at_init(ws_url: str, token: str) -> int | None:
    protocol = Subprotocol("graphql-transport-ws")
    async with websockets.connect(ws_url, subprotocols=[protocol]) as connection:
        init = {"type": "connection_init", "payload": {"token": token}}
        await connection.send(json.dumps(init))
        try:
            await asyncio.wait_for(connection.recv(), WAIT)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
    return None


async def test_a_socket_acts_as_the_accounts_seat_and_ends_with_its_credential(
    api: Api, server: Server
) -> None:
    ada = await register(api.at("192.0.2.31"), "Ada")
    game, tokens = await seated(api, ada, start=False)
    async with open_socket(server.ws_url, ada) as socket:
        await socket.subscribe("events", EVENTS, {"g": game})
        assert (await api.data(START, tokens[1], g=game))["startGame"]["userErrors"] == []
        private: list[Json] = []
        while len(private) < 1:  # its objective, dealt at the start, private to seat 0
            message = await socket.until("events")
            event = message["payload"]["data"]["gameEvents"]
            if event["private"]:
                assert event["data"]["seat"] == 0, event  # its own seat's, no other
                private.append(event)
        answer = await socket.request("state", STATE, {"g": game})
        assert answer["data"]["game"]["viewerSeat"] == 0
        # The session ends elsewhere (another request): the socket ends, told why.
        assert (await api.data(LOG_OUT, ada))["logOut"]["ended"] == 1
        seen, code = await closed_within(socket, WAIT)
    assert code == 4403
    told = [m for m in seen if m["type"] == "error"]
    assert told
    assert told[0]["payload"][0]["extensions"]["code"] == "UNAUTHENTICATED"
    assert await refused_at_init(server.ws_url, ada) == 4403


async def test_the_accounts_stream_covers_the_games_it_joins_after_subscribing(
    api: Api, server: Server
) -> None:
    ada = await register(api.at("192.0.2.32"), "Ada")
    async with open_socket(server.ws_url, ada) as socket:
        await socket.subscribe("mine", MY_STREAM)
        await asyncio.sleep(0.5)  # subscribed before the game exists
        game, tokens = await seated(api, ada)
        await until_turn_of(api, game, tokens, 0)
        while True:
            message = await socket.until("mine", WAIT)
            assert message["type"] == "next", message
            notice = message["payload"]["data"]["seatEvents"]
            if notice["kind"] == "YOUR_TURN":
                break
    assert (notice["gameId"], notice["seat"]) == (game, 0)


async def test_credentials_revoked_expired_out_of_scope_or_deleted_do_nothing(
    api: Api, server: Server, store_env: dict[str, str]
) -> None:
    ada = await register(api.at("192.0.2.33"), "Ada")
    reader = (await api.data(TOKEN, ada, s=["GAMES_READ"]))["createApiToken"]["token"]
    player = (await api.data(TOKEN, ada, s=["GAMES_PLAY"]))["createApiToken"]
    game, tokens = await seated(api, ada, start=False)
    # Out of scope: FORBIDDEN, the scope named, nothing done.
    assert await api.refused(JOIN, reader, g=game) == {"code": "FORBIDDEN", "scope": "GAMES_PLAY"}
    assert await api.refused(START, reader, g=game) == {"code": "FORBIDDEN", "scope": "GAMES_PLAY"}
    async with open_socket(server.ws_url, player["token"]) as socket:
        await socket.subscribe("mine", MY_STREAM)
        message = await socket.until("mine")
        assert message["type"] == "next"  # the stream's first result: its error
        (error,) = message["payload"]["errors"]
        assert error["extensions"] == {"code": "FORBIDDEN", "scope": "GAMES_READ"}
    assert (await api.data(START, player["token"], g=game))["startGame"]["userErrors"] == []
    state = await until_turn_of(api, game, tokens, 0)
    action = state["legalActions"][0]["input"]
    # Revoked: refused on HTTP at once, and at the socket's opening.
    assert (await api.data(REVOKE, ada, id=player["apiToken"]["id"]))["revokeApiToken"][
        "userErrors"
    ] == []
    assert (await api.refused(SUBMIT, player["token"], g=game, a=action))["code"] == (
        "UNAUTHENTICATED"
    )
    assert await refused_at_init(server.ws_url, player["token"]) == 4403
    # Expired, while a socket holds it: the socket ends within its next look.
    lasting = (await api.data(TOKEN, ada, s=["GAMES_READ", "GAMES_PLAY"]))["createApiToken"]
    async with open_socket(server.ws_url, lasting["token"]) as socket:
        await socket.subscribe("events", EVENTS, {"g": game})
        expire_tokens(server, store_env)
        _, code = await closed_within(socket, WAIT)
    assert code == 4403
    assert (await api.refused(SUBMIT, lasting["token"], g=game, a=action))["code"] == (
        "UNAUTHENTICATED"
    )
    assert (await api.data(STATE, g=game))["game"]["version"] == state["version"]
    # A deleted account's credential (its seat resigned as it was deleted).
    assert (await api.data(DELETE, ada, p=PASSWORD))["deleteAccount"]["userErrors"] == []
    resigned = (await api.data(STATE, g=game))["game"]["version"]
    assert resigned == state["version"] + 1
    assert (await api.refused(SUBMIT, ada, g=game, a=action))["code"] == "UNAUTHENTICATED"
    assert (await api.refused(JOIN, ada, g=game))["code"] == "UNAUTHENTICATED"
    assert (await api.data(STATE, g=game))["game"]["version"] == resigned


# --------------------------------------------------------------------------- two instances


@pytest.fixture
def instances(tmp_path: Path, store_env: dict[str, str]) -> Iterator[tuple[Server, Server]]:
    """Two processes on one store: one MongoDB database, or one data folder."""
    shared = tmp_path / "shared"
    servers = [Server(shared, env=store_env), Server(shared, env=store_env)]
    try:
        with ThreadPoolExecutor(2) as pool:
            for started in [pool.submit(server.start) for server in servers]:
                started.result()
        yield servers[0], servers[1]
    finally:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.stop, servers))


async def test_a_revocation_on_one_instance_ends_the_sockets_of_the_other(
    instances: tuple[Server, Server],
) -> None:
    a, b = instances
    async with (
        httpx.AsyncClient(base_url=a.url, timeout=60) as on_a,
        httpx.AsyncClient(base_url=b.url, timeout=60) as on_b,
    ):
        ada = await register(Api(on_a, "192.0.2.34"), "Ada")
        game, _ = await seated(Api(on_a), ada, start=False)
        async with open_socket(b.ws_url, ada) as socket:
            await socket.subscribe("events", EVENTS, {"g": game})
            assert (await Api(on_a).data(LOG_OUT, ada))["logOut"]["ended"] == 1
            assert (await Api(on_b).refused(STATE, ada, g=game))["code"] == "UNAUTHENTICATED"
            _, code = await closed_within(socket, WAIT)
        assert code == 4403
