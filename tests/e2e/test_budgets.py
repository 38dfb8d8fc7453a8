"""Each client's budget of cost points, against a real server with a small budget."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import httpx
import pytest
import websockets
from risiko_client.api import RisikoClient
from websockets.typing import Subprotocol

from tests.e2e.support import Server
from tests.integration.api_support import running_server

POINTS = 2_000
REFILL = 100
CREATE = 'mutation { createGame(input: {seed: "flood"}) { game { id } } }'  # 202 points
JOIN = """mutation($id: ID!) { joinGame(input: {gameId: $id, name: "Anna"}) { token } }"""


@pytest.fixture
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {
        "RISIKO_BUDGET_POINTS": str(POINTS),
        "RISIKO_BUDGET_REFILL_PER_SECOND": str(REFILL),
    }
    yield from running_server(tmp_path_factory.mktemp("budget") / "data", env)


def test_a_flood_of_create_game_is_refused_with_429(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        answers = [client.post("/graphql", json={"query": CREATE}) for _ in range(30)]
    granted = [a for a in answers if a.status_code == 200]
    refused = [a for a in answers if a.status_code == 429]
    assert len(granted) + len(refused) == 30
    assert 9 <= len(granted) <= 11  # 2,000 points at 202 a game, and a little refill
    for answer in answers:  # every answer tells the budget
        assert answer.headers["RateLimit-Policy"] == f'"cost";q={POINTS};w={POINTS // REFILL}'
        assert answer.headers["RateLimit"].startswith('"cost";r=')
    first = granted[0].json()
    assert first["extensions"]["cost"]["requested"] == 202
    assert first["extensions"]["cost"]["capacity"] == POINTS
    for answer in refused:
        assert int(answer.headers["Retry-After"]) >= 1
        (error,) = answer.json()["errors"]
        assert error["extensions"]["code"] == "RATE_LIMITED"
        assert error["extensions"]["retryAfter"] == int(answer.headers["Retry-After"])
    # The first refusal measured the document; the next ones, sent before the retry-after
    # they were given, were refused unread.
    assert refused[0].json()["errors"][0]["extensions"]["cost"] == 202
    assert "cost" not in refused[-1].json()["errors"][0]["extensions"]
    # Nothing refused was done: the lobby holds the granted games only.
    assert _lobby_size(server) == len(granted)


def _lobby_size(server: Server) -> int:
    """The number of games in the lobby, asked as soon as the budget allows it."""
    query = {"query": "{ games(first: 50) { edges { cursor } } }"}
    with httpx.Client(base_url=server.url, timeout=10) as client:
        for _ in range(5):
            answer = client.post("/graphql", json=query)
            if answer.status_code != 429:
                return len(answer.json()["data"]["games"]["edges"])
            time.sleep(int(answer.headers["Retry-After"]))
    raise AssertionError("the budget never came back")


def test_the_budget_comes_back_over_time(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        while client.post("/graphql", json={"query": CREATE}).status_code == 200:
            pass
        refused = client.post("/graphql", json={"query": CREATE})
        assert refused.status_code == 429
        time.sleep(int(refused.headers["Retry-After"]))
        assert client.post("/graphql", json={"query": CREATE}).status_code == 200


def test_a_made_up_token_is_charged_to_the_address(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        while client.post("/graphql", json={"query": CREATE}).status_code == 200:
            pass
        made_up = {"Authorization": "Bearer " + "x" * 43}
        answer = client.post("/graphql", json={"query": CREATE}, headers=made_up)
        assert answer.status_code == 429


def test_a_seat_has_a_budget_of_its_own(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        game = client.post("/graphql", json={"query": CREATE}).json()
        game_id = game["data"]["createGame"]["game"]["id"]
        joined = client.post("/graphql", json={"query": JOIN, "variables": {"id": game_id}})
        token = joined.json()["data"]["joinGame"]["token"]
        while client.post("/graphql", json={"query": CREATE}).status_code == 200:
            pass
        as_seat = client.post(
            "/graphql",
            json={
                "query": "query($id: ID!) { game(id: $id) { viewerSeat } }",
                "variables": {"id": game_id},
            },
            headers={"Authorization": f"Bearer {token}"},
        )
        assert as_seat.status_code == 200, as_seat.text
        assert as_seat.json()["data"]["game"]["viewerSeat"] == 0


@pytest.fixture
def tiny_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A budget below one createGame, refilled at a point every ten seconds."""
    env = {"RISIKO_BUDGET_POINTS": "150", "RISIKO_BUDGET_REFILL_PER_SECOND": "0.1"}
    yield from running_server(tmp_path_factory.mktemp("tiny") / "data", env)


def test_a_document_above_the_whole_budget_is_refused(tiny_server: Server) -> None:
    answer = httpx.post(f"{tiny_server.url}/graphql", json={"query": CREATE}, timeout=10)
    assert answer.status_code == 429
    (error,) = answer.json()["errors"]
    assert error["extensions"]["code"] == "RATE_LIMITED"
    assert error["extensions"]["remaining"] == 0  # asking for it emptied the bucket


@pytest.mark.anyio
async def test_a_subscription_over_budget_is_told_so_on_the_socket(tiny_server: Server) -> None:
    httpx.post(f"{tiny_server.url}/graphql", json={"query": CREATE}, timeout=10)  # empties it
    protocol = Subprotocol("graphql-transport-ws")
    async with websockets.connect(tiny_server.ws_url, subprotocols=[protocol]) as socket:
        await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await socket.recv())["type"] == "connection_ack"
        subscribe = {"query": "subscription { lobby { type } }"}
        await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": subscribe}))
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert message["type"] == "error", message
        assert message["payload"][0]["extensions"]["code"] == "RATE_LIMITED"


@pytest.fixture
def lobby_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {
        "RISIKO_BUDGET_POINTS": "0",
        "RISIKO_MAX_UNSTARTED_GAMES_PER_CLIENT": "3",
        "RISIKO_UNSTARTED_GAME_TTL_SECONDS": "2",
        "RISIKO_CLOCK_INTERVAL_SECONDS": "0.2",
    }
    yield from running_server(tmp_path_factory.mktemp("lobby") / "data", env)


CREATE_WITH_ERRORS = """mutation { createGame(input: {seed: "lobby"}) {
  game { id } userErrors { code message } } }"""
GAME = """query($id: ID!) { game(id: $id) { status version outcome { winner reason }
  events(first: 10) { events { type } } } }"""


def test_the_lobby_bounds_unstarted_games_and_abandons_idle_ones(lobby_server: Server) -> None:
    with httpx.Client(base_url=lobby_server.url, timeout=10) as client:
        created = [
            client.post("/graphql", json={"query": CREATE_WITH_ERRORS}).json() for _ in "1234"
        ]
        ids = [c["data"]["createGame"]["game"]["id"] for c in created[:3]]
        refused = created[3]["data"]["createGame"]
        assert refused["game"] is None
        assert [e["code"] for e in refused["userErrors"]] == ["TOO_MANY_UNSTARTED_GAMES"]
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:  # two seconds idle, then the next sweep
            game = client.post("/graphql", json={"query": GAME, "variables": {"id": ids[0]}})
            if game.json()["data"]["game"]["status"] == "FINISHED":
                break
            time.sleep(0.2)
        shown = game.json()["data"]["game"]
        assert shown["status"] == "FINISHED", shown
        assert shown["outcome"] == {"winner": None, "reason": "not_started"}
        assert shown["events"]["events"][-1]["type"] == "GameAbandoned"
        again = client.post("/graphql", json={"query": CREATE_WITH_ERRORS}).json()
        assert again["data"]["createGame"]["userErrors"] == []


@pytest.fixture
def slow_refill_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"RISIKO_BUDGET_POINTS": "300", "RISIKO_BUDGET_REFILL_PER_SECOND": "150"}
    yield from running_server(tmp_path_factory.mktemp("refill") / "data", env)


@pytest.mark.anyio
async def test_the_python_client_waits_out_a_rate_limit(slow_refill_server: Server) -> None:
    async with RisikoClient(slow_refill_server.url) as client:
        started = time.monotonic()
        games = [await client.create_game(seed=f"wait-{n}") for n in range(3)]
        waited = time.monotonic() - started
    assert len(set(games)) == 3
    assert waited >= 1.0  # 3 x 215 points of a 300-point budget: it waited for the refill


def test_behind_a_trusted_proxy_each_client_has_its_own_budget(server: Server) -> None:
    """The proxy's X-Forwarded-For names the client (the proxy here is 127.0.0.1, trusted
    by default); one client spending all of its budget leaves the next one's whole."""
    with httpx.Client(base_url=server.url, timeout=10) as client:
        first = {"X-Forwarded-For": "203.0.113.1"}
        while client.post("/graphql", json={"query": CREATE}, headers=first).status_code == 200:
            pass
        second = {"X-Forwarded-For": "203.0.113.2"}
        assert client.post("/graphql", json={"query": CREATE}, headers=second).status_code == 200
        assert client.post("/graphql", json={"query": CREATE}, headers=first).status_code == 429
