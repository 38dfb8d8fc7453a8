"""One `clientMutationId`, one answer, whichever instance is asked (issue 27, point 3).

Two API instances on one store (a MongoDB replica set; or two processes on one embedded
database file), 50 clients sending the same action with the same `clientMutationId`, half
through each: the action is applied once, and every caller gets the first answer (the Python
client's retry relies on it), never STALE_VERSION or NOT_YOUR_TURN.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server

pytestmark = pytest.mark.anyio

CLIENTS = 50
CREATE = 'mutation { createGame(input: {variant: "classic", seed: "once"}) { game { id } } }'
JOIN = "mutation($g: ID!, $n: String!) { joinGame(input: {gameId: $g, name: $n}) { token } }"
START = "mutation($g: ID!) { startGame(input: {gameId: $g}) { game { seatToAct } } }"
LEGAL = (
    "query($g: ID!) { game(id: $g) { version legalActions { ... on LegalPlaceArmies { input } } } }"
)
SUBMIT = """mutation($input: SubmitActionInput!) { submitAction(input: $input) {
  version clientMutationId userErrors { code message } events { seq type data } } }"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def two_instances(tmp_path: Path, store_env: dict[str, str]) -> Iterator[tuple[Server, Server]]:
    """Two `risiko serve` processes on one store: on MongoDB, one database; embedded, one
    data folder (one SQLite file), each process with a log of its own."""
    shared = tmp_path / "data"
    servers = [Server(shared, env=store_env) for _ in range(2)]
    try:
        with ThreadPoolExecutor(2) as pool:
            for started in [pool.submit(server.start) for server in servers]:
                started.result()
        yield servers[0], servers[1]
    finally:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.stop, servers))


async def test_the_same_client_mutation_id_gets_the_first_answer_on_every_instance(
    two_instances: tuple[Server, Server],
) -> None:
    a, b = two_instances
    async with (
        httpx.AsyncClient(base_url=a.url, timeout=60) as via_a,
        httpx.AsyncClient(base_url=b.url, timeout=60) as via_b,
    ):
        gql = GraphQLClient(via_a)
        game = (await gql(CREATE))["createGame"]["game"]["id"]
        tokens = [
            (await gql(JOIN, {"g": game, "n": name}))["joinGame"]["token"]
            for name in ("Anna", "Bruno", "Carla")
        ]
        seat = (await GraphQLClient(via_a, tokens[0])(START, {"g": game}))["startGame"]["game"][
            "seatToAct"
        ]
        token = tokens[seat]
        state = (await GraphQLClient(via_b, token)(LEGAL, {"g": game}))["game"]
        action = next(legal["input"] for legal in state["legalActions"] if legal)
        request = {"input": {"gameId": game, "action": action, "clientMutationId": "place-once"}}

        async def send(n: int) -> dict[str, Any]:
            client = GraphQLClient(via_b if n % 2 else via_a, token)
            answer: dict[str, Any] = (await client(SUBMIT, request))["submitAction"]
            return answer

        answers = await asyncio.gather(*(send(n) for n in range(CLIENTS)))

        refused = [answer for answer in answers if answer["userErrors"]]
        assert refused == []
        assert {answer["version"] for answer in answers} == {state["version"] + 1}
        assert all(answer == answers[0] for answer in answers)
        after = (await GraphQLClient(via_b, token)(LEGAL, {"g": game}))["game"]
        assert after["version"] == state["version"] + 1  # applied once
