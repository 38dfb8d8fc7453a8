"""Automatic persisted queries, in-process (api/persisted.py): a hash alone finds the document
kept under it, or PERSISTED_QUERY_NOT_FOUND; the full document with its hash (checked)
registers it once it has run; GET works, and never for a mutation; the limits still apply;
the bounds; the modes `off` and `trusted` (tests/e2e/test_persisted_queries.py has Apollo's
link and urql's exchange against a real server)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from risiko_client import documents as client_documents
from risiko_client.transport import ParsedRequest
from websockets.typing import Subprotocol

from api.trusted import TrustedDocuments, python_client_documents
from tests.e2e.support import Server
from tests.integration.api_support import GRAPHQL_RESPONSE, error_codes, in_process

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
VARIANTS = "{ variants { name } }"
CREATE = "mutation($v: String!) { createGame(input: {variant: $v}) { game { id } } }"


def digest(query: str) -> str:
    return hashlib.sha256(query.encode()).hexdigest()


def persisted(query: str, *, full: bool = False, hash_: str | None = None) -> Json:
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": hash_ or digest(query)}}
    return {"extensions": extensions, **({"query": query} if full else {})}


async def send(
    client: httpx.AsyncClient, request: Json, accept: str | None = None
) -> httpx.Response:
    return await client.post("/graphql", json=request, headers={"accept": accept} if accept else {})


async def test_a_hash_alone_runs_the_document_kept_under_it(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        missing = await send(api.client, persisted(VARIANTS))
        assert missing.status_code == 200  # plain application/json: a GraphQL request error
        assert missing.json() == {
            "errors": [
                {
                    "message": "PersistedQueryNotFound",
                    "extensions": {"code": "PERSISTED_QUERY_NOT_FOUND"},
                }
            ]
        }
        assert missing.headers["cache-control"] == "no-store"
        spec = await send(api.client, persisted(VARIANTS), GRAPHQL_RESPONSE)
        assert spec.status_code == 400  # GraphQL over HTTP's media type: a 4xx
        registered = await send(api.client, persisted(VARIANTS, full=True))
        assert registered.json()["data"]["variants"][0] == {"name": "classic"}
        found = await send(api.client, persisted(VARIANTS))
        assert found.json()["data"] == registered.json()["data"]
        by_get = await api.client.get(
            "/graphql",
            params={"extensions": json.dumps(persisted(VARIANTS)["extensions"])},
            headers={"accept": "text/html,application/json"},  # a browser's, yet not GraphiQL
        )
        assert by_get.status_code == 200
        assert by_get.json()["data"] == registered.json()["data"]
    async with in_process(tmp_path / "data") as again:  # another instance on the same store
        assert (await send(again.client, persisted(VARIANTS))).json()["data"]["variants"]


async def test_a_wrong_hash_or_version_is_refused_and_registers_nothing(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        wrong = await send(api.client, persisted(VARIANTS, full=True, hash_=digest("{ x }")))
        assert wrong.status_code == 400
        assert error_codes(wrong.json()) == ["PERSISTED_QUERY_HASH_MISMATCH"]
        assert wrong.json()["errors"][0]["message"] == "provided sha does not match query"
        assert "data" not in wrong.json()
        for extension in (
            {"version": 2, "sha256Hash": digest(VARIANTS)},
            {"version": 1, "sha256Hash": "not a hash"},
            {"version": 1, "sha256Hash": digest(VARIANTS).upper()},
            "persisted",
        ):
            refused = await send(
                api.client, {"query": VARIANTS, "extensions": {"persistedQuery": extension}}
            )
            assert (refused.status_code, error_codes(refused.json())) == (400, ["BAD_REQUEST"])
        for request in (persisted("{ x }"), persisted(VARIANTS)):
            assert error_codes((await send(api.client, request)).json()) == [
                "PERSISTED_QUERY_NOT_FOUND"
            ]


async def test_only_a_document_that_ran_is_kept_and_the_limits_apply(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data", max_cost=100) as api:
        invalid = "{ nope }"
        assert error_codes((await send(api.client, persisted(invalid, full=True))).json()) == [
            "GRAPHQL_VALIDATION_FAILED"
        ]
        costly = "{ games(first: 100) { edges { node { id status } } } }"
        refused = (await send(api.client, persisted(costly, full=True))).json()
        assert error_codes(refused) == ["QUERY_TOO_COMPLEX"]
        for query in (invalid, costly):
            answer = (await send(api.client, persisted(query))).json()
            assert error_codes(answer) == ["PERSISTED_QUERY_NOT_FOUND"]


async def test_a_persisted_mutation_is_posted_never_got(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        posted = await send(
            api.client, {**persisted(CREATE, full=True), "variables": {"v": "classic"}}
        )
        assert posted.json()["data"]["createGame"]["game"]["id"]
        again = await send(api.client, {**persisted(CREATE), "variables": {"v": "classic"}})
        assert again.json()["data"]["createGame"]["game"]["id"]
        params = {
            "extensions": json.dumps(persisted(CREATE)["extensions"]),
            "variables": json.dumps({"v": "classic"}),
        }
        got = await api.client.get("/graphql", params=params)
        assert (got.status_code, got.headers["allow"]) == (405, "POST")
        listed = await send(api.client, {"query": "{ games { totalCount } }"})
        assert listed.json()["data"]["games"]["totalCount"] == 2


async def test_the_store_keeps_a_bounded_number_of_bounded_documents(tmp_path: Path) -> None:
    settings = {"persisted_query_max_documents": 2, "persisted_query_max_bytes": 100}
    queries = ["{ a: variants { name } }", "{ b: variants { name } }", "{ c: variants { name } }"]
    long = "{ " + " ".join(f"f{n}: variants {{ name }}" for n in range(8)) + " }"
    async with in_process(tmp_path / "data", **settings) as api:
        for query in [*queries, long]:
            assert (await send(api.client, persisted(query, full=True))).json()["data"]
    async with in_process(tmp_path / "data", **settings) as fresh:  # nothing kept in memory
        answers = [(await send(fresh.client, persisted(q))).json() for q in [*queries, long]]
    assert [error_codes(answer) for answer in answers] == [
        ["PERSISTED_QUERY_NOT_FOUND"],  # the oldest, dropped for the third
        [],
        [],
        ["PERSISTED_QUERY_NOT_FOUND"],  # too long to keep: it ran, that is all
    ]


async def test_persisted_queries_off(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data", persisted_queries="off") as api:
        for request in (persisted(VARIANTS), persisted(VARIANTS, full=True)):
            answer = (await send(api.client, request)).json()
            assert answer["errors"][0]["message"] == "PersistedQueryNotSupported"
            assert error_codes(answer) == ["PERSISTED_QUERY_NOT_SUPPORTED"]
        assert (await send(api.client, {"query": VARIANTS})).json()["data"]["variants"]


def test_the_python_clients_documents_are_trusted_as_it_sends_them() -> None:
    """As the client sends them: printed by graphql-core (tests/e2e plays through one)."""
    trusted = TrustedDocuments(python_client_documents())
    names = ("CREATE", "JOIN", "ADD_BOT", "START", "GAME", "TURN", "SUBMIT", "EVENTS", "BOARD")
    for name in names:
        sent = ParsedRequest(getattr(client_documents, name)).text
        assert trusted.get(digest(sent)) == sent, name
    assert trusted.get(digest(client_documents.GAME_FIELDS)) is None  # a fragment alone


async def test_a_trusted_server_runs_its_documents_and_refuses_any_other(tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.json"
    mine = "query Mine { variants { name title } }"
    apollo = {
        "format": "apollo-persisted-query-manifest",
        "version": 1,
        "operations": [{"id": digest(mine), "name": "Mine", "type": "query", "body": mine}],
    }
    manifest.write_text(json.dumps(apollo))
    settings = {"persisted_queries": "trusted", "trusted_documents": str(manifest)}
    async with in_process(tmp_path / "data", **settings) as api:
        listed = (await send(api.client, {"query": mine})).json()
        assert listed["data"]["variants"][0]["title"] == "RisiKo!"
        spaced = (await send(api.client, {"query": "query Mine {variants{name\ntitle}}"})).json()
        assert spaced["data"] == listed["data"]  # the same document, written otherwise
        assert (await send(api.client, persisted(mine))).json()["data"] == listed["data"]
        board = ParsedRequest(client_documents.BOARD).text  # the Python client's
        assert (await send(api.client, persisted(board))).json()["data"]["variants"]
        for request in (
            {"query": VARIANTS},
            persisted(VARIANTS, full=True),
            {"query": "{ __schema { types { name } } }"},
        ):
            refused = await send(api.client, request)
            assert refused.status_code == 200
            assert error_codes(refused.json()) == ["PERSISTED_QUERY_NOT_ALLOWED"]
        assert error_codes((await send(api.client, persisted(VARIANTS))).json()) == [
            "PERSISTED_QUERY_NOT_FOUND"  # nothing was registered
        ]


async def test_a_trusted_servers_socket_refuses_any_other_document(tmp_path: Path) -> None:
    server = Server(tmp_path / "data", env={"RISIKO_PERSISTED_QUERIES": "trusted"}).start()
    try:
        protocol = Subprotocol("graphql-transport-ws")
        async with websockets.connect(server.ws_url, subprotocols=[protocol]) as socket:
            await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
            assert json.loads(await socket.recv())["type"] == "connection_ack"
            lobby = "subscription { lobby { type gameId } }"
            await socket.send(
                json.dumps({"id": "1", "type": "subscribe", "payload": {"query": lobby}})
            )
            refused = json.loads(await socket.recv())
        assert refused["type"] == "error"
        assert refused["payload"][0]["extensions"]["code"] == "PERSISTED_QUERY_NOT_ALLOWED"
    finally:
        server.stop()
