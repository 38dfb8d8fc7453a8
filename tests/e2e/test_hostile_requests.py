"""Requests an attacker sends, against a real server: each is refused fast, as typed JSON.

Each case here stalled, crashed or leaked an exception's text before the limits existed.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Subprotocol

from tests.e2e.support import Server
from tests.integration.api_support import running_server

GRAPHQL_RESPONSE = "application/graphql-response+json"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Budgets off: these cases are about what one document may do (tests/e2e/test_budgets.py)
    env = {"RISIKO_BUDGET_POINTS": "0", "RISIKO_LOG_LEVEL": "info"}
    yield from running_server(tmp_path_factory.mktemp("hostile") / "data", env)


def fragment_bomb(levels: int) -> str:
    """795 bytes at 21 levels: each fragment spreads the next one twice."""
    spreads = [f"fragment F{i} on Query {{ ...F{i + 1} ...F{i + 1} }}" for i in range(levels)]
    return " ".join(["query { ...F0 }", *spreads, f"fragment F{levels} on Query {{ __typename }}"])


def only_error(answer: dict[str, Any]) -> dict[str, Any]:
    errors = answer["errors"]
    assert len(errors) == 1, errors
    error: dict[str, Any] = errors[0]
    return error


def assert_no_exception_text(text: str) -> None:
    python = ("Traceback", "KeyError", "TypeError", "ValueError", "RecursionError", 'File "')
    for leak in (*python, "max() arg", "object is not", "'n'\""):
        assert leak not in text, text


def bomb_answer(server: Server, levels: int) -> dict[str, Any]:
    started = time.monotonic()
    query = {"query": fragment_bomb(levels)}
    response = httpx.post(f"{server.url}/graphql", json=query, timeout=10)
    assert time.monotonic() - started < 5  # refused, not run: it ran for minutes before
    answer: dict[str, Any] = response.json()
    assert answer["data"] is None
    return answer


@pytest.mark.parametrize("levels", [21, 30, 60])
def test_a_fragment_bomb_is_refused_with_its_cost(server: Server, levels: int) -> None:
    error = only_error(bomb_answer(server, levels))
    assert error["extensions"]["code"] == "QUERY_TOO_COMPLEX"
    assert error["extensions"]["cost"] == 2**levels  # each expanded __typename
    assert error["extensions"]["maxCost"] == 50_000


def test_a_fragment_chain_too_long_to_validate_is_refused(server: Server) -> None:
    # graphql-core's validation gives up on 200 fragments (its own recursion guard).
    error = only_error(bomb_answer(server, 200))
    assert error["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"


@pytest.mark.anyio
async def test_the_server_answers_others_while_bombs_arrive(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        bombs = [client.post("/graphql", json={"query": fragment_bomb(40)}) for _ in range(20)]
        started = time.monotonic()
        health, *answers = await asyncio.gather(client.get("/healthz"), *bombs)
        assert health.status_code == 200
        assert time.monotonic() - started < 5
        for answer in answers:
            assert only_error(answer.json())["extensions"]["code"] == "QUERY_TOO_COMPLEX"


DEEP = b"[" * 5000 + b"]" * 5000
DEEP_VARIABLES = b'{"query": "{ __typename }", "variables": {"a": ' + DEEP + b"}}"


@pytest.mark.parametrize(
    ("body", "content_type", "status", "code"),
    [
        (b"12345", "application/json", 400, "BAD_REQUEST"),
        (b"null", "application/json", 400, "BAD_REQUEST"),
        (b'"x"', "application/json", 400, "BAD_REQUEST"),
        (b'{"query": "{ __typename }\xff"}', "application/json", 400, "BAD_REQUEST"),
        (DEEP_VARIABLES, "application/json", 400, "BAD_REQUEST"),
        (b"{bad", "application/json", 400, "BAD_REQUEST"),
        (b'[{"query": "{ __typename }"}]', "application/json", 400, "BAD_REQUEST"),
        (b"{}", "application/json", 400, "BAD_REQUEST"),
        (b'{"query": 5}', "application/json", 400, "BAD_REQUEST"),
        (b'{"query": "{ __typename }", "variables": 3}', "application/json", 400, "BAD_REQUEST"),
        (b"query { __typename }", "text/plain", 415, "UNSUPPORTED_MEDIA_TYPE"),
        (b'{"query": "subscription { lobby { type } }"}', "application/json", 400, None),
    ],
)
@pytest.mark.parametrize("accept", ["application/json", GRAPHQL_RESPONSE])
def test_malformed_bodies_get_a_typed_json_answer(
    server: Server, body: bytes, content_type: str, status: int, code: str | None, accept: str
) -> None:
    response = httpx.post(
        f"{server.url}/graphql",
        content=body,
        headers={"content-type": content_type, "accept": accept},
        timeout=10,
    )
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(accept)
    error = only_error(response.json())
    assert error["extensions"]["code"] == (code or "SUBSCRIPTION_NEEDS_WEBSOCKET")
    assert_no_exception_text(response.text)


@pytest.mark.parametrize(
    ("document", "code"),
    [
        ("{ ...n }", "GRAPHQL_VALIDATION_FAILED"),
        ("{ ...n ...n }", "GRAPHQL_VALIDATION_FAILED"),
        ("query { ...A } fragment A on Query { ...A }", "GRAPHQL_VALIDATION_FAILED"),
        ("{ game(id: ", "GRAPHQL_PARSE_FAILED"),
        ("{ nope }", "GRAPHQL_VALIDATION_FAILED"),
        # first: 0 is a count (an empty page, as Relay says); a negative one is refused.
        ("{ games(first: 0, last: -1) { edges { cursor } } }", "BAD_USER_INPUT"),
        ("{ games(first: -1) { edges { cursor } } }", "BAD_USER_INPUT"),
    ],
)
def test_documents_that_crashed_the_limiters_get_codes(
    server: Server, document: str, code: str
) -> None:
    response = httpx.post(f"{server.url}/graphql", json={"query": document}, timeout=10)
    assert response.status_code == 200  # application/json: GraphQL errors are a 200
    answer = response.json()
    assert [error["extensions"]["code"] for error in answer["errors"]] == [code] * len(
        answer["errors"]
    )
    assert_no_exception_text(response.text)


# Documents the GraphQL specification refuses, which graphql-core 3.3 parses (an empty
# selection set: the grammar is `SelectionSet : { Selection+ }`) or strawberry ran (the first
# of several operations, when the request names none), with what each request adds to them.
UNLAWFUL = [
    pytest.param({"query": "{ }"}, id="empty-operation"),
    pytest.param({"query": "{ __typename ... on Query { } }"}, id="empty-fragment"),
    pytest.param({"query": '{ game(id: "x") { } }'}, id="empty-field"),
    pytest.param({"query": "query { ...F } fragment F on Query { }"}, id="empty-named-fragment"),
    pytest.param(
        {"query": "query A { __typename } query B { variants { name } }"}, id="two-unnamed"
    ),
    pytest.param(
        {"query": "query A { __typename } query B { variants { name } }", "operationName": None},
        id="two-null-name",
    ),
]
# Mutations that created a game before they were refused.
UNLAWFUL_WRITES = [
    pytest.param('mutation { createGame(input: {seed: "empty"}) { } }', id="empty-mutation"),
    pytest.param(
        'mutation M { createGame(input: {seed: "first"}) { game { id } } } query Q { __typename }',
        id="mutation-and-query-unnamed",
    ),
]


def game_total(server: Server) -> int:
    query = "{ games(first: 100) { edges { cursor } } }"
    answer = httpx.post(f"{server.url}/graphql", json={"query": query}, timeout=10).json()
    return len(answer["data"]["games"]["edges"])


def assert_refused_unrun(answer: dict[str, Any]) -> None:
    assert answer.get("data") is None, answer
    codes = {error["extensions"]["code"] for error in answer["errors"]}
    assert codes == {"GRAPHQL_VALIDATION_FAILED"}, answer


@pytest.mark.parametrize("request_", UNLAWFUL)
@pytest.mark.parametrize("accept", ["application/json", GRAPHQL_RESPONSE])
def test_documents_the_specification_refuses_are_not_run_over_post(
    server: Server, request_: dict[str, Any], accept: str
) -> None:
    response = httpx.post(
        f"{server.url}/graphql", json=request_, headers={"accept": accept}, timeout=10
    )
    assert response.status_code == (400 if accept == GRAPHQL_RESPONSE else 200)
    assert_refused_unrun(response.json())
    assert_no_exception_text(response.text)


@pytest.mark.parametrize("request_", UNLAWFUL)
def test_documents_the_specification_refuses_are_not_run_over_get(
    server: Server, request_: dict[str, Any]
) -> None:
    params = {key: value for key, value in request_.items() if value is not None}
    response = httpx.get(f"{server.url}/graphql", params=params, timeout=10)
    assert response.status_code == 200
    assert_refused_unrun(response.json())


@pytest.mark.parametrize("mutation", UNLAWFUL_WRITES)
def test_a_refused_mutation_writes_nothing(server: Server, mutation: str) -> None:
    before = game_total(server)
    response = httpx.post(f"{server.url}/graphql", json={"query": mutation}, timeout=10)
    assert_refused_unrun(response.json())
    assert game_total(server) == before


def test_the_named_operation_of_several_runs(server: Server) -> None:
    def run(name: str) -> Any:
        request_ = {"query": "query A { __typename } query B { n: __typename }"}
        answer = httpx.post(
            f"{server.url}/graphql", json={**request_, "operationName": name}, timeout=10
        ).json()
        assert "errors" not in answer, answer
        return answer["data"]

    assert run("A") == {"__typename": "Query"}
    assert run("B") == {"n": "Query"}


async def socket_answer(server: Server, payload: dict[str, Any]) -> dict[str, Any]:
    """The first message a graphql-transport-ws `subscribe` of `payload` gets; the socket
    still answers afterwards (a refused document is no protocol error)."""
    protocol = Subprotocol("graphql-transport-ws")
    async with websockets.connect(server.ws_url, subprotocols=[protocol]) as socket_:
        await socket_.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await socket_.recv())["type"] == "connection_ack"
        await socket_.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        message: dict[str, Any] = json.loads(await asyncio.wait_for(socket_.recv(), 10))
        await socket_.send(json.dumps({"type": "ping"}))
        after = json.loads(await asyncio.wait_for(socket_.recv(), 10))
        if after["type"] == "complete":  # a query or a mutation, answered in one `next`
            after = json.loads(await asyncio.wait_for(socket_.recv(), 10))
        assert after["type"] == "pong", after
    return message


@pytest.mark.anyio
@pytest.mark.parametrize(
    "request_",
    [
        *UNLAWFUL,
        pytest.param({"query": "subscription { lobby { } }"}, id="empty-subscription"),
        pytest.param(
            {"query": "subscription A { lobby { type } } subscription B { lobby { gameId } }"},
            id="two-unnamed-subscriptions",
        ),
        *(pytest.param({"query": write.values[0]}, id=write.id) for write in UNLAWFUL_WRITES),
    ],
)
async def test_documents_the_specification_refuses_are_not_run_over_the_socket(
    server: Server, request_: dict[str, Any]
) -> None:
    before = game_total(server)
    message = await socket_answer(server, request_)
    assert message["type"] == "error", message
    codes = {error["extensions"]["code"] for error in message["payload"]}
    assert codes == {"GRAPHQL_VALIDATION_FAILED"}, message
    assert game_total(server) == before


INTROSPECTED_TYPE = (
    "fragment T on __Type { name fields(includeDeprecated: true) { name args { name type "
    "{ ...R } } type { ...R } } inputFields { name type { ...R } } enumValues { name } } "
    "fragment R on __Type { name kind ofType { name kind ofType { name kind } } }"
)


@pytest.mark.parametrize(
    ("document", "code"),
    [
        (  # the whole schema thirty times over: some 150,000 fields
            "{ "
            + " ".join(f"s{i}: __schema {{ types {{ ...T }} }}" for i in range(30))
            + " } "
            + INTROSPECTED_TYPE,
            "QUERY_TOO_COMPLEX",
        ),
        (  # 21 levels: graphql-core refuses cycles through the types (fields { type {
            # fields …) past three, not a chain of `ofType` as long as one likes
            "{ __schema { types { fields { type { "
            + "ofType { " * 17
            + "name"
            + " }" * 17
            + " } } } } }",
            "QUERY_TOO_DEEP",
        ),
    ],
)
def test_introspection_is_no_way_around_the_limits(
    server: Server, document: str, code: str
) -> None:
    started = time.monotonic()
    response = httpx.post(f"{server.url}/graphql", json={"query": document}, timeout=10)
    assert time.monotonic() - started < 5
    error = only_error(response.json())
    assert error["extensions"]["code"] == code


JOIN = """mutation($input: JoinGameInput!) {
  joinGame(input: $input) { seat token userErrors { code } }
}"""
LONG_KEY = "k" * 60_000  # was stored with the action it came with: 165 kB a request


async def over_http(server: Server, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=10) as client:
        response = await client.post(
            f"{server.url}/graphql", json={"query": query, "variables": variables}
        )
    answer: dict[str, Any] = response.json()
    return answer


async def over_the_socket(server: Server, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    """The answer of an operation sent as a graphql-transport-ws `subscribe`, as over HTTP:
    `next`'s payload, or `error`'s errors."""
    message = await socket_answer(server, {"query": query, "variables": variables})
    if message["type"] == "error":
        return {"data": None, "errors": message["payload"]}
    payload: dict[str, Any] = message["payload"]
    return payload


@pytest.mark.anyio
@pytest.mark.parametrize("send", [over_http, over_the_socket])
async def test_unseen_characters_and_long_texts_take_no_seat(server: Server, send: Any) -> None:
    created = await over_http(
        server, 'mutation { createGame(input: {seed: "t"}) { game { id } } }', {}
    )
    game_id = created["data"]["createGame"]["game"]["id"]
    for name in ("Ann\x00a", "\u202eanna", "An\u200bna", "n" * 60_000):
        answer = await send(server, JOIN, {"input": {"gameId": game_id, "name": name}})
        assert len(json.dumps(answer)) < 2_000  # nothing long comes back
        assert answer["data"]["joinGame"]["userErrors"] == [{"code": "INVALID_NAME"}], name[:9]
    keyed = {"gameId": game_id, "name": "Anna", "clientMutationId": LONG_KEY}
    answer = await send(server, JOIN, {"input": keyed})
    assert answer["data"] is None
    assert [error["extensions"]["code"] for error in answer["errors"]] == ["BAD_USER_INPUT"]
    players = await over_http(
        server, "query($id: ID!) { game(id: $id) { players { name } } }", {"id": game_id}
    )
    assert players["data"]["game"]["players"] == []


def test_a_page_of_events_below_one_is_refused(server: Server) -> None:
    created = httpx.post(
        f"{server.url}/graphql",
        json={"query": 'mutation { createGame(input: {seed: "e"}) { game { id } } }'},
        timeout=10,
    ).json()
    game_id = created["data"]["createGame"]["game"]["id"]
    query = "query($id: ID!, $n: Int) { game(id: $id) { events(first: $n) { hasMore } } }"
    for first in (0, -1):
        answer = httpx.post(
            f"{server.url}/graphql",
            json={"query": query, "variables": {"id": game_id, "n": first}},
            timeout=10,
        ).json()
        assert [e["extensions"]["code"] for e in answer["errors"]] == ["BAD_USER_INPUT"]
    allowed = httpx.post(
        f"{server.url}/graphql",
        json={"query": query, "variables": {"id": game_id, "n": 1}},
        timeout=10,
    ).json()
    assert "errors" not in allowed


def test_many_expensive_odds_in_one_request_are_refused(server: Server) -> None:
    aliases = " ".join(
        f"o{i}: battleOdds(attackers: 1000, defenders: {1000 - i}) {{ conquestProbability }}"
        for i in range(30)
    )
    started = time.monotonic()
    response = httpx.post(f"{server.url}/graphql", json={"query": f"{{ {aliases} }}"}, timeout=10)
    assert time.monotonic() - started < 5
    error = only_error(response.json())
    assert error["extensions"]["code"] == "QUERY_TOO_COMPLEX"
    assert error["extensions"]["cost"] > error["extensions"]["maxCost"]


def costliest_odds(first: int) -> str:
    """Two battles of about 1,000 a side, new to the cache: about 40,000 points, the most a
    document may cost."""
    return " ".join(
        f"o{i}: battleOdds(attackers: 1000, defenders: {1000 - i}) {{ conquestProbability }}"
        for i in range(first, first + 2)
    )


@pytest.mark.anyio
async def test_the_costliest_allowed_request_does_not_hold_the_event_loop(server: Server) -> None:
    """Odds run off the event loop: /healthz answers while a run of the costliest documents
    allowed (each about 25 ms of odds since they are vectorised, one after the other on the
    odds thread) is still under way."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        heavy = [
            asyncio.create_task(
                client.post("/graphql", json={"query": f"{{ {costliest_odds(4 + 2 * n)} }}"})
            )
            for n in range(8)
        ]
        await asyncio.sleep(0.01)  # under way
        waits = []
        for _ in range(5):
            started = time.monotonic()
            assert (await client.get("/healthz")).status_code == 200
            waits.append(time.monotonic() - started)
            if len(waits) == 1:
                assert not all(task.done() for task in heavy)  # it answered while they ran
        answers = [(await task).json() for task in heavy]
    assert all("errors" not in answer for answer in answers), answers
    assert max(waits) < 0.5, waits  # milliseconds; seconds when odds ran on the loop


def test_a_refused_request_is_one_log_line_without_traceback(server: Server) -> None:
    before = server.log()
    for body in (b"12345", b"{bad"):
        httpx.post(
            f"{server.url}/graphql",
            content=body,
            headers={"content-type": "application/json"},
            timeout=10,
        )
    httpx.post(f"{server.url}/graphql", json={"query": fragment_bomb(30)}, timeout=10)
    time.sleep(0.2)
    written = server.log()[len(before) :]
    assert "Traceback" not in written
    refusals = [line for line in written.splitlines() if "refused" in line]
    assert len(refusals) == 3, written
