"""A WebSocket acts as its token's seat at every operation and every event, never as the seat
the token had when the socket opened (issue 27, point 1).

A seat that leaves the lobby loses its token, and the seats after it move up one place; a
socket opened before must neither read the secrets of whoever sits in its old seat nor act
for them. Through the real server, on both stores (with MongoDB the events reach the sockets
through the change stream).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import websockets

from tests.e2e.support import GraphQLClient, Server, Socket, open_socket

pytestmark = pytest.mark.anyio

CREATE = 'mutation { createGame(input: {variant: "classic", seed: "sockets"}) { game { id } } }'
JOIN = "mutation($g: ID!, $n: String!) { joinGame(input: {gameId: $g, name: $n}) { seat token } }"
LEAVE = "mutation($g: ID!) { leaveGame(input: {gameId: $g}) { userErrors { code } } }"
START = "mutation($g: ID!) { startGame(input: {gameId: $g}) { userErrors { code } } }"
EVENTS = "subscription($g: ID!) { gameEvents(gameId: $g) { seq type private data } }"
SECRETS = "query($g: ID!) { game(id: $g) { viewerSeat objective { id } hand { id } } }"
END_TURN = """mutation($g: ID!) { submitAction(input: {gameId: $g, action: {endTurn: {}}}) {
  userErrors { code } } }"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        yield client


async def lobby_of_four(http: httpx.AsyncClient) -> tuple[str, dict[str, str]]:
    """A classic game with Anna, Bruno, Carla and Dario seated in that order: its id and
    their tokens."""
    gql = GraphQLClient(http)
    game = (await gql(CREATE))["createGame"]["game"]["id"]
    tokens = {}
    for name in ("Anna", "Bruno", "Carla", "Dario"):
        joined = (await gql(JOIN, {"g": game, "n": name}))["joinGame"]
        tokens[name] = joined["token"]
    return game, tokens


async def as_seat(http: httpx.AsyncClient, token: str, query: str, game: str) -> dict[str, Any]:
    data: dict[str, Any] = await GraphQLClient(http, token)(query, {"g": game})
    return data


async def events_until(socket: Socket, operation: str, kind: str) -> list[dict[str, Any]]:
    """The events one subscription delivers, up to the first of `kind`."""
    events = []
    while True:
        message = await socket.until(operation)
        assert message["type"] == "next", message
        event = message["payload"]["data"]["gameEvents"]
        events.append(event)
        if event["type"] == kind:
            return events


async def test_a_token_that_left_the_lobby_loses_its_socket(
    server: Server, http: httpx.AsyncClient
) -> None:
    game, tokens = await lobby_of_four(http)
    async with (
        open_socket(server.ws_url, tokens["Anna"]) as watching,
        open_socket(server.ws_url, tokens["Anna"]) as idle,
    ):
        await watching.subscribe("events", EVENTS, {"g": game})
        await events_until(watching, "events", "PlayerJoined")
        assert (await as_seat(http, tokens["Anna"], LEAVE, game))["leaveGame"]["userErrors"] == []
        # Bruno is seat 0 now, and starts the game: seat 0's objective is his.
        assert (await as_seat(http, tokens["Bruno"], START, game))["startGame"]["userErrors"] == []

        # The subscription ends with a clear error before anything private reaches it...
        while True:
            message = await watching.until("events")
            if message["type"] == "next":
                assert not message["payload"]["data"]["gameEvents"]["private"], message
                continue
            assert message["type"] == "error", message
            assert [e["extensions"]["code"] for e in message["payload"]] == ["UNAUTHENTICATED"]
            break
        # ... and both sockets are closed as a refused token's are at connection_init.
        assert await watching.close_code() == 4403
        assert await idle.close_code() == 4403

    # Over HTTP the token is refused too, and Bruno's secrets are his alone.
    refused = await GraphQLClient(http, tokens["Anna"]).post(SECRETS, {"g": game})
    assert refused.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"


async def test_a_socket_never_acts_with_a_revoked_token(
    server: Server, http: httpx.AsyncClient
) -> None:
    """Whatever reaches the server first, the socket's close or the operation, the old seat's
    secrets never come back and no action is accepted."""
    game, tokens = await lobby_of_four(http)
    async with open_socket(server.ws_url, tokens["Anna"]) as socket:
        await as_seat(http, tokens["Anna"], LEAVE, game)
        await as_seat(http, tokens["Bruno"], START, game)
        answers: list[dict[str, Any]] = []
        close_code = None
        try:
            answers.append(await socket.request("read", SECRETS, {"g": game}))
            answers.append(await socket.request("act", END_TURN, {"g": game}))
        except websockets.ConnectionClosed as closed:
            close_code = closed.rcvd.code if closed.rcvd else None
        for answer in answers:  # the close usually comes first; if not, both are refused
            codes = [e["extensions"]["code"] for e in answer["errors"]]
            assert codes == ["UNAUTHENTICATED"], answer
        assert close_code == 4403
    state = await as_seat(
        http, tokens["Bruno"], "query($g: ID!) { game(id: $g) { version } }", game
    )
    assert state["game"]["version"] == 7  # created, four joins, a leave, the start


async def test_a_renumbered_seat_sees_its_own_secrets_only(
    server: Server, http: httpx.AsyncClient
) -> None:
    game, tokens = await lobby_of_four(http)
    async with open_socket(server.ws_url, tokens["Carla"]) as carla:  # seat 2 when it opens
        await carla.subscribe("events", EVENTS, {"g": game})
        await events_until(carla, "events", "PlayerJoined")
        await as_seat(http, tokens["Anna"], LEAVE, game)  # Carla moves up to seat 1
        await as_seat(http, tokens["Bruno"], START, game)

        over_http = (await as_seat(http, tokens["Carla"], SECRETS, game))["game"]
        assert over_http["viewerSeat"] == 1
        delivered = await events_until(carla, "events", "ObjectiveAssigned")
        private = [event for event in delivered if event["private"]]
        assert [event["data"]["seat"] for event in private] == [1], delivered
        assert private[0]["data"]["objective"] == over_http["objective"]["id"]

        over_socket = await carla.request("read", SECRETS, {"g": game})
        assert over_socket["data"] == {"game": over_http}

        # Dario, seat 3 when Carla's socket opened, is seat 2 now: his hand never reaches it.
        dario = (await as_seat(http, tokens["Dario"], SECRETS, game))["game"]
        assert dario["viewerSeat"] == 2


async def test_seat_events_end_when_a_token_leaves_its_seat(
    server: Server, http: httpx.AsyncClient
) -> None:
    """`seatEvents` follows tokens given as arguments: one that leaves the lobby ends it with
    a clear error, never a stream of the turns of whoever moved into its old seat."""
    game, tokens = await lobby_of_four(http)
    notices = "subscription($t: [String!]!) { seatEvents(tokens: $t) { seat kind } }"
    async with open_socket(server.ws_url) as socket:
        await socket.subscribe("seats", notices, {"t": [tokens["Anna"], tokens["Carla"]]})
        await as_seat(http, tokens["Anna"], LEAVE, game)
        message = await socket.until("seats")
        assert message["type"] == "next", message
        assert message["payload"]["data"] is None
        codes = [error["extensions"]["code"] for error in message["payload"]["errors"]]
        assert codes == ["UNAUTHENTICATED"], message
        assert (await socket.until("seats"))["type"] == "complete"
