"""Persisted queries with the clients front ends use, against the real server on both stores:
Apollo Client's persisted query link (hashed queries by GET) and urql's persisted exchange
(tests/node/persisted.mjs) miss once, register, then find the document, on this instance and
on another one of the same store; and a server of trusted documents runs the Python client's
whole game, the web client's (every document its pages send, in a browser) and a manifest's
document, and refuses every other document."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from risiko_client import RisikoClient

from tests.e2e.support import GraphQLClient, Server
from tests.e2e.web_client_support import SCENARIOS, listed_documents, operations, play_in_browser
from tests.node_tools import NODE_TOOLS, node

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
QUERY = "query Boards { variants { name board { id } } }"
OTHER = "query Titles { variants { title } }"
MUTATION = "mutation Create($input: CreateGameInput!) { createGame(input: $input) { game { id } } }"
NEW_GAME = {"input": {"variant": "classic"}}


def run_plan(url: str, operations: list[Json]) -> list[Json]:
    plan = json.dumps({"url": f"{url}/graphql", "operations": operations})
    done = subprocess.run(
        [node(), "persisted.mjs", plan],
        cwd=NODE_TOOLS,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    results: list[Json] = json.loads(done.stdout.splitlines()[-1])
    return results


def exchange(result: Json) -> list[tuple[str, bool, list[str]]]:
    """Each request of an operation: its method, whether it carried the query, its codes."""
    return [(r["method"], r["query"], r["codes"]) for r in result["requests"]]


MISS = ["PERSISTED_QUERY_NOT_FOUND"]


def test_apollos_link_and_urqls_exchange_miss_once_then_find(
    server: Server, store_env: dict[str, str], tmp_path: Path
) -> None:
    urql_mutation = MUTATION.replace("mutation Create(", "mutation CreateToo(")
    operations: list[Json] = [
        {"client": "apollo", "kind": "query", "document": QUERY},
        {"client": "apollo", "kind": "query", "document": QUERY},
        {"client": "urql", "kind": "query", "document": OTHER},
        {"client": "urql", "kind": "query", "document": OTHER},
        {"client": "apollo", "kind": "mutation", "document": MUTATION, "variables": NEW_GAME},
        {"client": "apollo", "kind": "mutation", "document": MUTATION, "variables": NEW_GAME},
        {"client": "urql", "kind": "mutation", "document": urql_mutation, "variables": NEW_GAME},
        {"client": "urql", "kind": "mutation", "document": urql_mutation, "variables": NEW_GAME},
    ]
    results = run_plan(server.url, operations)
    assert [(r["codes"], bool(r["data"])) for r in results] == [([], True)] * len(results)
    # Apollo: a GET of the hash, missed, then the document by POST; a new client finds it.
    assert exchange(results[0]) == [("GET", False, MISS), ("POST", True, [])]
    assert exchange(results[1]) == [("GET", False, [])]
    # urql: the same, its second try by GET with the document (short enough for a URL).
    assert exchange(results[2]) == [("GET", False, MISS), ("GET", True, [])]
    assert exchange(results[3]) == [("GET", False, [])]
    # A mutation: by POST only, hash first.
    assert exchange(results[4]) == [("POST", False, MISS), ("POST", True, [])]
    assert exchange(results[5]) == [("POST", False, [])]
    assert exchange(results[6]) == [("POST", False, MISS), ("POST", True, [])]
    assert exchange(results[7]) == [("POST", False, [])]
    assert results[1]["data"]["variants"][0]["board"]["id"] == "classic"
    # Another instance of the same store knows what this one registered.
    other = Server(tmp_path / "other-data", env=store_env)
    if not store_env:  # the embedded store: the same data folder
        other = Server(server.data_dir, env=store_env)
    other.start()
    try:
        again = run_plan(other.url, [{"client": "apollo", "kind": "query", "document": QUERY}])
    finally:
        other.stop()
    assert exchange(again[0]) == [("GET", False, [])]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


async def test_a_trusted_server_serves_its_documents_and_refuses_others(tmp_path: Path) -> None:
    # Apollo Client adds __typename to what it sends: its manifest generator lists that.
    mine = "query Mine {\n  variants {\n    name\n    __typename\n  }\n}"
    manifest = tmp_path / "persisted-documents.json"
    manifest.write_text(json.dumps({digest(mine): mine}))  # GraphQL Code Generator's form
    env = {"RISIKO_PERSISTED_QUERIES": "trusted", "RISIKO_TRUSTED_DOCUMENTS": str(manifest)}
    server = Server(tmp_path / "data", env=env).start()
    try:
        async with RisikoClient(f"{server.url}/graphql") as lobby:  # every document it sends
            game_id = await lobby.create_game(seed="trusted")
            seats = [await lobby.join_game(game_id, name) for name in ("Anna", "Bruno", "Carla")]
            async with lobby.with_token(seats[0].token) as anna:
                await anna.start_game(game_id)
                state = await anna.game(game_id)
                if state.my_turn:
                    await anna.submit(game_id, state.legal_actions[0]["input"], state.version)
            assert (await lobby.board("classic")).region_of
        results = run_plan(
            server.url,
            [
                {
                    "client": "apollo",
                    "kind": "query",
                    "document": "query Mine { variants { name } }",
                },
                {"client": "urql", "kind": "query", "document": OTHER},
                {
                    "client": "apollo",
                    "kind": "mutation",
                    "document": MUTATION,
                    "variables": NEW_GAME,
                },
            ],
        )
        async with httpx.AsyncClient(base_url=server.url) as http:
            games = await GraphQLClient(http).post("{ games { totalCount } }")
    finally:
        server.stop()
    assert exchange(results[0]) == [("GET", False, [])]  # listed: found at once
    assert results[0]["data"]["variants"][0]["name"] == "classic"
    refused = ["PERSISTED_QUERY_NOT_ALLOWED"]
    assert exchange(results[1]) == [("GET", False, MISS), ("GET", True, refused)]
    assert results[1]["codes"] == refused
    assert exchange(results[2]) == [("POST", False, MISS), ("POST", True, refused)]
    assert error_code(games.json()) == "PERSISTED_QUERY_NOT_ALLOWED"


def error_code(answer: Json) -> str:
    code: str = answer["errors"][0]["extensions"]["code"]
    return code


def test_the_web_client_plays_on_a_trusted_server(tmp_path: Path) -> None:
    """A server of trusted documents runs every document the web client sends, as its build
    listed them: the browser records each one its pages send (over HTTP and the WebSocket) in
    a whole game, its replay and a shared link, a spectator's and another seat's pages, and
    none is refused. (Every game's scenario checks the same list on an open server.)"""
    # The browser test's own documents, beside the pages (setup-documents.mjs): a manifest.
    setup = subprocess.run(
        [node(), "setup-documents.mjs"], cwd=NODE_TOOLS, capture_output=True, text=True, check=True
    )
    manifest = tmp_path / "setup.json"
    manifest.write_text(setup.stdout)
    env = {"RISIKO_PERSISTED_QUERIES": "trusted", "RISIKO_TRUSTED_DOCUMENTS": str(manifest)}
    server = Server(tmp_path / "data", env=env).start()
    try:
        seen = play_in_browser(server.url, tmp_path, SCENARIOS[0])
    finally:
        server.stop()
    sent = seen["documents"]
    assert {text: codes for text, codes in sent.items() if codes} == {}  # none refused
    assert seen["errors"] == [], seen["errors"]
    assert set(sent) <= listed_documents()
    assert {"Variants", "Games", "Lobby", "CreateGame", "JoinGame", "AddBot", "StartGame"} <= (
        operations(sent)
    )
    assert {"GameState", "Legal", "SubmitAction", "EventPage", "GameEvents"} <= operations(sent)
    assert seen["steps"]["outcome"]  # a game played to its end, by clicks then by keyboard
    assert seen["steps"]["replay"]["sharedSame"] is True
    assert seen["steps"]["secrets"]["objectivesShown"] == 1
