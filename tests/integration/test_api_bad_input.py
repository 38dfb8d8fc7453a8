"""Bad input through the API: every refusal is a clear error with a stable code, and writes
nothing (the game's version, its events and its log are the same afterwards).

Most tests run the app in-process; the WebSocket handshakes use a real server.
"""

from __future__ import annotations

import base64
import json
import logging
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from api.graphql.ids import from_global_id
from api.service import GameService
from domain import actions as a
from domain.flow import Phase
from domain.odds import TieRule, battle_odds
from tests.e2e.support import Server
from tests.integration.api_support import (
    ADD_BOT,
    CREATE,
    GRAPHQL_RESPONSE,
    JOIN,
    LEAVE,
    START,
    SUBMIT,
    Api,
    PlayedGame,
    action_input,
    body,
    create_game,
    data,
    error_codes,
    footprint,
    game_count,
    in_process,
    join,
    new_game,
    play,
    post,
    running_server,
    submit,
)
from variants.classic.game import ClassicGame

GAME = "query($id: ID!) { game(id: $id) { id version } }"
NODE = "query($id: ID!) { node(id: $id) { id } }"


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    async with in_process(tmp_path / "data") as running:
        yield running


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory.mktemp("bad-input") / "data")


def only_error(answer: dict[str, Any]) -> dict[str, Any]:
    """The one top-level error of an answer without data."""
    assert answer.get("data") is None, answer
    [error] = answer["errors"]
    assert isinstance(error, dict)
    return error


def user_error(payload: dict[str, Any]) -> dict[str, Any]:
    [error] = payload["userErrors"]
    assert isinstance(error, dict)
    assert error["message"], error
    return error


def nested(levels: int) -> str:
    """A valid introspection with `levels` (at least 4) selection sets nested below the
    operation's: `ofType` goes as deep as one asks."""
    inner = "ofType { " * (levels - 4) + "name" + " }" * (levels - 4)
    return "{ __schema { types { fields { type { " + inner + " } } } } }"


# Five levels, the deepest this schema has outside introspection.
DEEPEST = "{ games { edges { node { territories { units { seat } } } } } }"


async def lobby_game(api: Api, players: int = 3) -> PlayedGame[ClassicGame]:
    return await new_game(api.client, players, "bad-input", start=False)


async def started_game(api: Api, players: int = 3) -> PlayedGame[ClassicGame]:
    return await new_game(api.client, players, "bad-input")


# --------------------------------------------------------------------------- HTTP and GraphQL


@pytest.mark.anyio
async def test_malformed_json_body_is_a_400(api: Api) -> None:
    game = await started_game(api)
    before = await footprint(api.service, game.id)
    for content in (b"{not json", b'{"query": ', b"\xff\xfe", b""):
        response = await api.client.post(
            "/graphql",
            content=content,
            headers={
                "content-type": "application/json",
                "authorization": f"Bearer {game.token(0)}",
            },
        )
        assert response.status_code == 400, (content, response.text)
        assert "Traceback" not in response.text
    assert await footprint(api.service, game.id) == before


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("accept", "status", "content_type"),
    [
        (None, 200, "application/json"),
        ("application/json", 200, "application/json"),
        (GRAPHQL_RESPONSE, 400, GRAPHQL_RESPONSE),
        (f"{GRAPHQL_RESPONSE}, application/json;q=0.9", 400, GRAPHQL_RESPONSE),
    ],
)
async def test_request_errors_and_their_status_codes(
    api: Api, accept: str | None, status: int, content_type: str
) -> None:
    game = await started_game(api)
    before = await footprint(api.service, game.id)
    documents = {
        "syntax": "{ game(id: ",
        "unknown field": "query($id: ID!) { game(id: $id) { nope } }",
        "unknown argument": "query($id: ID!) { game(id: $id, colour: 1) { id } }",
        "mutation with a syntax error": 'mutation { createGame(input: {variant: "classic" }',
    }
    for label, document in documents.items():
        response = await post(api.client, document, {"id": game.id}, game.token(0), accept)
        assert response.status_code == status, (label, response.text)
        assert response.headers["content-type"].startswith(content_type), label
        error = only_error(response.json())
        assert "Traceback" not in error["message"]
        assert len(error["message"]) < 200, error
        if label == "unknown field":  # readable: it names the field and the type
            assert error["message"] == "Cannot query field 'nope' on type 'Game'."
        if label == "syntax":
            assert error["message"].startswith("Syntax Error")
    assert await footprint(api.service, game.id) == before
    assert await game_count(api.service) == 1


@pytest.mark.anyio
async def test_query_depth_limit(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data", max_query_depth=4) as api:
        await create_game(api.client, seed="deep")
        at_limit = await body(api.client, DEEPEST.replace("units { seat }", "id"))
        assert at_limit["data"]["games"]["edges"][0]["node"]["territories"]
        too_deep = await body(api.client, DEEPEST)
        assert too_deep["data"] is None
        error = only_error(too_deep)
        assert error["message"] == "the selection is 5 levels deep; at most 4"
        assert error["extensions"] == {"code": "QUERY_TOO_DEEP", "maxDepth": 4}
        named = only_error(await body(api.client, "query Deep " + DEEPEST))
        assert named["extensions"]["code"] == "QUERY_TOO_DEEP"
        response = await post(api.client, DEEPEST, accept=GRAPHQL_RESPONSE)
        assert response.status_code == 400


@pytest.mark.anyio
async def test_introspection_depth_limit(api: Api) -> None:
    """Introspection has a bound of its own (the standard queries are 14 deep): the depth of
    the other documents does not apply to it, and its own does."""
    at_limit = await body(api.client, nested(20))
    assert "errors" not in at_limit
    assert at_limit["data"]["__schema"]["types"]
    error = only_error(await body(api.client, nested(21)))
    assert error["message"] == "the introspection is 21 levels deep; at most 20"
    assert error["extensions"] == {"code": "QUERY_TOO_DEEP", "maxDepth": 20}


@pytest.mark.anyio
async def test_alias_limit(api: Api) -> None:
    def aliases(count: int) -> str:
        return "{ " + " ".join(f"a{i}: variants {{ name }}" for i in range(count)) + " }"

    allowed = await data(api.client, aliases(30))
    assert len(allowed) == 30
    error = only_error(await body(api.client, aliases(31)))
    assert error["message"] == "31 aliases; at most 30 are allowed"
    assert error["extensions"] == {"code": "TOO_MANY_ALIASES", "maxAliases": 30}


@pytest.mark.anyio
async def test_token_limit(api: Api) -> None:
    allowed = await data(api.client, "{ variants { " + "name " * 100 + "} }")
    assert allowed["variants"][0]["name"] == "classic"
    error = only_error(await body(api.client, "{ variants { " + "name " * 3000 + "} }"))
    assert "more than 3000 tokens" in error["message"]
    assert error["extensions"]["code"] == "TOO_MANY_TOKENS"


@pytest.mark.anyio
async def test_body_size_limit(api: Api) -> None:
    padding = "#" + "x" * (64 * 1024)
    mutation = 'mutation { createGame(input: {seed: "big"}) { game { id } } }'
    response = await api.client.post("/graphql", json={"query": mutation + "\n" + padding})
    assert response.status_code == 413
    assert response.json()["errors"][0]["extensions"]["code"] == "PAYLOAD_TOO_LARGE"
    assert await game_count(api.service) == 0
    # Just under the limit is fine.
    small = "#" + "x" * (60 * 1024)
    response = await api.client.post("/graphql", json={"query": mutation + "\n" + small})
    assert response.status_code == 200, response.text
    assert await game_count(api.service) == 1


@pytest.mark.anyio
async def test_chunked_body_over_the_limit_is_a_413(api: Api) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"query": "{ variants { name } }", "padding": "'
        for _ in range(10):
            yield b"x" * 8192
        yield b'"}'

    response = await api.client.post(
        "/graphql", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


@pytest.mark.anyio
async def test_get_refuses_mutations(api: Api) -> None:
    mutation = 'mutation { createGame(input: {seed: "get"}) { game { id } } }'
    response = await api.client.get("/graphql", params={"query": mutation})
    assert response.status_code == 405  # GraphQL over HTTP: a mutation by GET
    assert response.headers["allow"] == "POST"
    assert only_error(response.json())["extensions"] == {"code": "METHOD_NOT_ALLOWED"}
    assert await game_count(api.service) == 0
    response = await api.client.get("/graphql", params={"query": "{ variants { name } }"})
    served = [{"name": "classic"}, {"name": "futurisiko"}, {"name": "piu"}, {"name": "spqr"}]
    assert response.json()["data"] == {"variants": served}


UNKNOWN_IDS = [
    base64.urlsafe_b64encode(b"Game:0123456789abcdef0123456789abcdef").decode(),
    base64.urlsafe_b64encode(b"Cursor:whatever").decode(),
    base64.urlsafe_b64encode(b"no colon here").decode(),
    "not base64 at all!",
    "Game:abc",
    "",
]


@pytest.mark.anyio
async def test_unknown_game_ids(api: Api) -> None:
    game = await started_game(api)
    before = await footprint(api.service, game.id)
    for unknown in UNKNOWN_IDS:
        answer = await body(api.client, GAME, {"id": unknown})
        assert answer["data"] == {"game": None}
        assert error_codes(answer) == ["NOT_FOUND"], answer
        assert await data(api.client, NODE, {"id": unknown}) == {"node": None}
        # Mutations without a token: a user error for the id...
        joined = await data(api.client, JOIN, {"input": {"gameId": unknown, "name": "X"}})
        decodable = from_global_id(unknown, "Game") is not None
        assert user_error(joined["joinGame"])["code"] == (
            "GAME_NOT_FOUND" if decodable else "INVALID_ID"
        ), (unknown, joined)
        for mutation, name in ((START, "startGame"), (LEAVE, "leaveGame")):
            answer = await body(api.client, mutation, {"input": {"gameId": unknown}})
            if decodable:  # a well-formed id needs a seat token first
                assert error_codes(answer) == ["UNAUTHENTICATED"], answer
            else:
                assert user_error(answer["data"][name])["code"] == "INVALID_ID"
        # ...and with a seat token of an existing game, a well-formed id is not its game.
        payload = await body(
            api.client,
            SUBMIT,
            {"input": {"gameId": unknown, "action": {"endTurn": True}}},
            game.token(0),
        )
        if decodable:
            assert error_codes(payload) == ["FORBIDDEN"], payload
        else:
            assert user_error(payload["data"]["submitAction"])["code"] == "INVALID_ID"
    assert await footprint(api.service, game.id) == before
    assert await game_count(api.service) == 1


@pytest.mark.anyio
async def test_tokens_wrong_missing_or_of_another_game(api: Api) -> None:
    game = await started_game(api)
    other = await started_game(api)
    before = await footprint(api.service, game.id)
    end_turn: dict[str, Any] = {"input": {"gameId": game.id, "action": {"endTurn": True}}}
    by_game: dict[str, Any] = {"input": {"gameId": game.id}}
    calls = [(SUBMIT, end_turn), (START, by_game), (LEAVE, by_game), (ADD_BOT, by_game)]
    for token, code in ((None, "UNAUTHENTICATED"), ("not-a-token", "UNAUTHENTICATED")):
        for mutation, variables in calls:
            answer = await body(api.client, mutation, variables, token)
            assert error_codes(answer) == [code], answer
            assert answer["data"] is None
    for mutation, variables in calls:
        answer = await body(api.client, mutation, variables, other.token(0))
        assert error_codes(answer) == ["FORBIDDEN"], answer
        assert "another game" in answer["errors"][0]["message"]
    # Reading with a token that belongs to no game is an error too, not a spectator.
    answer = await body(api.client, GAME, {"id": game.id}, "not-a-token")
    assert error_codes(answer) == ["UNAUTHENTICATED"]
    answer = await body(api.client, "{ viewer { seat } }", None, "Bearer-less junk")
    assert error_codes(answer) == ["UNAUTHENTICATED"]
    assert await footprint(api.service, game.id) == before


@pytest.mark.anyio
async def test_illegal_actions_are_user_errors(api: Api) -> None:
    played = await started_game(api)
    await play(api.client, played, lambda g: g.phase is Phase.REINFORCE)
    game = played.game
    seat = game.current
    token = played.token(seat)
    board = game.board
    own = [t for t, o in enumerate(game.owner) if o == seat]
    enemy = [t for t, o in enumerate(game.owner) if o != seat]
    pending = game.pending_reinforcements
    assert pending > 0

    async def refused(action: dict[str, Any], code: str, by: int | None = None) -> None:
        before = await footprint(api.service, played.id)
        who = token if by is None else played.token(by)
        payload = await submit(api.client, played.id, who, action)
        error = user_error(payload)
        assert error["code"] == code, (action, error)
        assert (payload["version"], payload["events"]) == (None, [])
        assert await footprint(api.service, played.id) == before

    home, foreign = board.territories[own[0]].id, board.territories[enemy[0]].id
    await refused({"endTurn": True}, "NOT_YOUR_TURN", by=(seat + 1) % 3)
    await refused(
        {"placeArmies": {"territory": home, "armies": 1}}, "NOT_YOUR_TURN", (seat + 1) % 3
    )
    await refused({"placeArmies": {"territory": home, "armies": pending + 1}}, "INVALID_ARMY_COUNT")
    await refused({"placeArmies": {"territory": home, "armies": 0}}, "INVALID_ARMY_COUNT")
    await refused({"placeArmies": {"territory": home, "armies": -5}}, "INVALID_ARMY_COUNT")
    await refused({"placeArmies": {"territory": foreign, "armies": 1}}, "NOT_YOUR_TERRITORY")
    await refused({"placeArmies": {"territory": "atlantide", "armies": 1}}, "UNKNOWN_TERRITORY")
    await refused({"endTurn": True}, "REINFORCEMENTS_PENDING")
    await refused({"occupy": {"armies": 3}}, "WRONG_PHASE")
    await refused({"defend": {"dice": 2}}, "WRONG_PHASE")
    await refused({"endTurn": False}, "INVALID_ACTION")
    await refused({"tradeCards": {"cards": ["alaska", "peru", "cina"]}}, "CARD_NOT_IN_HAND")

    # Place every reinforcement (accepted), then attack and move wrongly.
    place = a.PlaceArmies(home, pending)
    payload = await submit(api.client, played.id, token, action_input(place))
    assert payload["userErrors"] == []
    game.apply(seat, place)
    source = own[0]
    ids = board.territories
    near = next(n for n in board.neighbours[source] if game.owner[n] != seat)
    far = next(t for t in enemy if t not in board.neighbours[source])
    mate = next(n for n in board.neighbours[source] if game.owner[n] == seat)
    weak = next(
        t
        for t in own
        if game.armies[t] == 1 and any(game.owner[n] != seat for n in board.neighbours[t])
    )
    weak_target = next(n for n in board.neighbours[weak] if game.owner[n] != seat)
    src, near_id, far_id, mate_id = ids[source].id, ids[near].id, ids[far].id, ids[mate].id
    await refused({"attack": {"source": src, "target": far_id, "dice": 1}}, "NOT_ADJACENT")
    await refused({"attack": {"source": far_id, "target": src, "dice": 1}}, "NOT_YOUR_TERRITORY")
    await refused({"attack": {"source": src, "target": mate_id, "dice": 1}}, "OWN_TERRITORY")
    await refused({"attack": {"source": src, "target": near_id, "dice": 4}}, "INVALID_DICE")
    await refused({"attack": {"source": src, "target": near_id, "dice": 0}}, "INVALID_DICE")
    await refused(
        {"attackUntil": {"source": src, "target": near_id, "dice": 9, "stopAt": 1}},
        "INVALID_DICE",
    )
    await refused(
        {"attack": {"source": ids[weak].id, "target": ids[weak_target].id, "dice": 1}},
        "NOT_ENOUGH_ARMIES",
    )
    await refused(
        {"strategicMove": {"source": src, "target": far_id, "armies": 1}}, "NOT_YOUR_TERRITORY"
    )
    await refused(
        {"strategicMove": {"source": src, "target": mate_id, "armies": game.armies[source]}},
        "INVALID_ARMY_COUNT",
    )
    await refused({"placeArmies": {"territory": home, "armies": 1}}, "INVALID_ARMY_COUNT")


@pytest.mark.anyio
async def test_action_input_is_one_of(api: Api) -> None:
    played = await started_game(api)
    before = await footprint(api.service, played.id)
    token = played.token(played.game.current)
    territory = played.game.board.territories[played.game.owner.index(played.game.current)].id
    place = {"placeArmies": {"territory": territory, "armies": 1}}
    for action in ({**place, "endTurn": True}, {}, {"endTurn": None}, {**place, "defend": None}):
        variables = {"input": {"gameId": played.id, "action": action}}
        error = only_error(await body(api.client, SUBMIT, variables, token))
        assert "ActionInput" in error["message"] or "must be non-null" in error["message"], error
    inline = (
        'mutation { submitAction(input: {gameId: "GAME", action: '
        "{endTurn: true, defend: {dice: 1}}}) { version } }"
    ).replace("GAME", played.id)
    error = only_error(await body(api.client, inline, None, token))
    assert error["message"] == "OneOf Input Object 'ActionInput' must specify exactly one key."
    assert await footprint(api.service, played.id) == before


@pytest.mark.anyio
async def test_stale_expected_version(api: Api) -> None:
    played = await started_game(api)
    game = played.game
    seat = game.current
    territory = game.board.territories[game.owner.index(seat)].id
    place = {"placeArmies": {"territory": territory, "armies": 1}}
    before = await footprint(api.service, played.id)
    for stale in (played.version - 1, played.version + 1, 0, -7):
        payload = await submit(api.client, played.id, played.token(seat), place, stale)
        error = user_error(payload)
        assert error["code"] == "STALE_VERSION"
        assert str(played.version) in error["message"]
    assert await footprint(api.service, played.id) == before
    payload = await submit(api.client, played.id, played.token(seat), place, played.version)
    assert payload["userErrors"] == []
    assert payload["version"] == played.version + 1


@pytest.mark.anyio
async def test_duplicate_client_mutation_id(api: Api) -> None:
    played = await started_game(api)
    game = played.game
    seat = game.current
    token = played.token(seat)
    territory = game.board.territories[game.owner.index(seat)].id
    place = {"placeArmies": {"territory": territory, "armies": 1}}
    first = await submit(api.client, played.id, token, place, played.version, "once")
    assert first["userErrors"] == []
    assert first["clientMutationId"] == "once"
    after_first = await footprint(api.service, played.id)
    # The same id again, even with a now stale version or another action: the first answer.
    again = await submit(api.client, played.id, token, place, played.version, "once")
    other = await submit(api.client, played.id, token, {"endTurn": True}, None, "once")
    assert again == first
    assert other == first
    assert await footprint(api.service, played.id) == after_first
    # Another seat's id space is its own: the same id from another seat is a new request.
    refused = await submit(
        api.client, played.id, played.token((seat + 1) % 3), {"endTurn": True}, None, "once"
    )
    assert user_error(refused)["code"] == "NOT_YOUR_TURN"
    # A refused request is not remembered: the id can be used again.
    wrong = {"placeArmies": {"territory": territory, "armies": 99}}
    refused = await submit(api.client, played.id, token, wrong, None, "twice")
    assert user_error(refused)["code"] == "INVALID_ARMY_COUNT"
    accepted = await submit(api.client, played.id, token, place, None, "twice")
    assert accepted["userErrors"] == []
    assert accepted["version"] == first["version"] + 1


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("input", "code"),
    [
        ({"variant": "atlantide"}, "UNKNOWN_VARIANT"),
        ({"variant": ""}, "UNKNOWN_VARIANT"),
        ({"options": {"roundLimit": 0}}, "INVALID_OPTIONS"),
        ({"options": {"protectedRounds": -1}}, "INVALID_OPTIONS"),
        ({"options": {"timeLimitMinutes": -30}}, "INVALID_OPTIONS"),
        ({"options": {"tournament": True, "roundLimit": 0}}, "INVALID_OPTIONS"),
        ({"seed": ""}, "INVALID_OPTIONS"),
        ({"seed": "s" * 201}, "INVALID_OPTIONS"),
    ],
)
async def test_create_game_refusals(api: Api, input: dict[str, Any], code: str) -> None:
    payload = (await data(api.client, CREATE, {"input": input}))["createGame"]
    assert payload["game"] is None
    assert user_error(payload)["code"] == code
    assert await game_count(api.service) == 0


@pytest.mark.anyio
async def test_create_game_type_errors(api: Api) -> None:
    for options in ({"roundLimit": "three"}, {"defenderDice": "SOMETIMES"}, {"colour": 1}):
        answer = await body(api.client, CREATE, {"input": {"options": options}})
        only_error(answer)
    assert await game_count(api.service) == 0


@pytest.mark.anyio
async def test_join_refusals(api: Api) -> None:
    game_id = await create_game(api.client)
    first = await join(api.client, game_id, "Anna", "rosso")
    assert first["userErrors"] == []
    before = await footprint(api.service, game_id)
    refusals = [
        (("Bruno", "rosso"), "COLOUR_TAKEN"),
        (("Bruno", "fucsia"), "INVALID_COLOUR"),
        (("", None), "INVALID_NAME"),
        (("   ", None), "INVALID_NAME"),
        (("n" * 200, None), "INVALID_NAME"),
        (("n" * 41, None), "INVALID_NAME"),
    ]
    for (name, colour), code in refusals:
        payload = await join(api.client, game_id, name, colour)
        assert (payload["seat"], payload["token"], payload["game"]) == (None, None, None)
        assert user_error(payload)["code"] == code, (name, colour, payload)
    assert await footprint(api.service, game_id) == before
    # Up to 6 seats (a 40-character name is fine); the 7th is refused.
    for index in range(5):
        payload = await join(api.client, game_id, "n" * 40 if index == 0 else f"P{index}")
        assert payload["userErrors"] == []
        assert payload["seat"] == index + 1
    full = await footprint(api.service, game_id)
    assert user_error(await join(api.client, game_id, "Late"))["code"] == "GAME_FULL"
    assert await footprint(api.service, game_id) == full
    # A started game takes no more seats.
    played = await started_game(api)
    started = await footprint(api.service, played.id)
    late = await join(api.client, played.id, "Late")
    assert user_error(late)["code"] == "GAME_ALREADY_STARTED"
    assert await footprint(api.service, played.id) == started


@pytest.mark.anyio
async def test_start_refusals(api: Api) -> None:
    played = await lobby_game(api, players=2)
    before = await footprint(api.service, played.id)
    answer = await data(api.client, START, {"input": {"gameId": played.id}}, played.token(0))
    assert user_error(answer["startGame"])["code"] == "NOT_ENOUGH_PLAYERS"
    assert await footprint(api.service, played.id) == before
    await join(api.client, played.id, "Third")
    answer = await data(api.client, START, {"input": {"gameId": played.id}}, played.token(1))
    assert answer["startGame"]["userErrors"] == []
    started = await footprint(api.service, played.id)
    answer = await data(api.client, START, {"input": {"gameId": played.id}}, played.token(0))
    assert user_error(answer["startGame"])["code"] == "GAME_ALREADY_STARTED"
    assert await footprint(api.service, played.id) == started


@pytest.mark.anyio
async def test_games_page_is_capped_at_100(api: Api) -> None:
    for index in range(101):
        await api.service.create_game("classic", {}, f"seed-{index}")
    query = """
    query($first: Int, $after: String) {
      games(first: $first, after: $after) { edges { cursor } pageInfo { hasNextPage endCursor } }
    }"""
    page = (await data(api.client, query, {"first": 1000}))["games"]
    assert len(page["edges"]) == 100
    assert page["pageInfo"]["hasNextPage"] is True
    rest = await data(api.client, query, {"first": 1000, "after": page["pageInfo"]["endCursor"]})
    assert len(rest["games"]["edges"]) == 1
    assert rest["games"]["pageInfo"]["hasNextPage"] is False
    empty = (await data(api.client, query, {"first": 0}))["games"]  # Relay: 0 is a count
    assert empty == {"edges": [], "pageInfo": {"hasNextPage": True, "endCursor": None}}
    for first in (-1, -5):  # a negative count is a mistake, not an empty page
        refused = await body(api.client, query, {"first": first})
        assert refused["data"] is None
        assert error_codes(refused) == ["BAD_USER_INPUT"]
    refused = await body(api.client, "{ games(last: -1) { edges { cursor } } }")
    assert error_codes(refused) == ["BAD_USER_INPUT"]
    answer = await body(api.client, query, {"after": "not a cursor"})
    assert error_codes(answer) == ["BAD_USER_INPUT"]


@pytest.mark.anyio
@pytest.mark.parametrize(
    "arguments",
    [
        "attackers: 1001, defenders: 3",
        "attackers: -1, defenders: 3",
        "attackers: 3, defenders: 1001",
        "attackers: 5, defenders: 3, attackerDice: 7",
        "attackers: 5, defenders: 3, defenderDice: 0",
        "attackers: 5, defenders: 3, attackerBonus: 100",
        "attackers: 5, defenders: 3, stopAt: -5",
    ],
)
async def test_battle_odds_refuses_absurd_numbers(api: Api, arguments: str) -> None:
    answer = await body(api.client, f"{{ battleOdds({arguments}) {{ conquestProbability }} }}")
    error = only_error(answer)
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert error["path"] == ["battleOdds"]


@pytest.mark.anyio
async def test_battle_odds_beyond_32_bits_is_a_validation_error(api: Api) -> None:
    answer = await body(
        api.client, "{ battleOdds(attackers: 5000000000, defenders: 3) { attackers } }"
    )
    assert "32-bit" in only_error(answer)["message"]


@pytest.mark.anyio
async def test_battle_odds_naval(api: Api) -> None:
    query = """query($naval: Boolean!, $tie: TieRule!) {
      battleOdds(attackers: 5, defenders: 3, stopAt: 1, tieRule: $tie, naval: $naval) {
        attackers defenders conquestProbability attackerSurvivors defenderSurvivors
        expectedAttackerLosses expectedDefenderLosses
      }
    }"""
    expected = battle_odds(5, 3, stop_at=1, tie_rule=TieRule.NO_LOSS, stop_on_no_loss=True)
    naval_answer = {
        "attackers": 5,
        "defenders": 3,
        "conquestProbability": expected.conquest_probability,
        "attackerSurvivors": list(expected.attacker_survivors),
        "defenderSurvivors": list(expected.defender_survivors),
        "expectedAttackerLosses": expected.expected_attacker_losses,
        "expectedDefenderLosses": expected.expected_defender_losses,
    }
    # Asked first, the same tie rule without `naval` must not be served for the naval odds
    # from the cache: ties rolled again are another battle.
    repeated = (await data(api.client, query, {"naval": False, "tie": "NO_LOSS"}))["battleOdds"]
    assert repeated["conquestProbability"] == (
        battle_odds(5, 3, stop_at=1, tie_rule=TieRule.NO_LOSS).conquest_probability
    )
    for tie in ("NO_LOSS", "DEFENDER_WINS"):  # naval combat: ties never remove anything
        naval = (await data(api.client, query, {"naval": True, "tie": tie}))["battleOdds"]
        assert naval == naval_answer
    assert naval_answer["conquestProbability"] != repeated["conquestProbability"]


@pytest.mark.anyio
async def test_field_errors_keep_status_200_with_partial_data(api: Api) -> None:
    game = await started_game(api)
    query = "query($id: ID!, $bad: ID!) { a: game(id: $id) { id } b: game(id: $bad) { id } }"
    for accept in (None, GRAPHQL_RESPONSE):
        response = await post(api.client, query, {"id": game.id, "bad": "nope"}, None, accept)
        assert response.status_code == 200
        answer = response.json()
        assert answer["data"] == {"a": {"id": game.id}, "b": None}
        assert error_codes(answer) == ["NOT_FOUND"]


@pytest.mark.anyio
async def test_an_execution_error_nulling_data_is_not_a_400(api: Api) -> None:
    game = await started_game(api)
    variables = {"input": {"gameId": game.id, "action": {"endTurn": True}}}
    response = await post(api.client, SUBMIT, variables, None, GRAPHQL_RESPONSE)
    assert error_codes(response.json()) == ["UNAUTHENTICATED"]
    assert response.status_code == 200


@pytest.mark.anyio
async def test_unexpected_exceptions_are_masked(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    played = await started_game(api)
    before = await footprint(api.service, played.id)

    async def crash(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk /srv/risiko/secret.sqlite3 is on fire, password hunter2")

    service: GameService = api.service
    monkeypatch.setattr(service.store, "games", crash)  # the games' listing reads it
    monkeypatch.setattr(service, "submit_action", crash)
    answers = [
        await body(api.client, "{ games { edges { cursor } } }"),
        await body(
            api.client,
            SUBMIT,
            {"input": {"gameId": played.id, "action": {"endTurn": True}}},
            played.token(0),
        ),
    ]
    for answer in answers:
        error = only_error(answer)
        assert error["message"] == "Unexpected error."
        text = json.dumps(answer)
        for leak in ("hunter2", "secret.sqlite3", "Traceback", "RuntimeError", "File "):
            assert leak not in text
        assert set(error) <= {"message", "locations", "path", "extensions"}
        assert error["extensions"] == {"code": "INTERNAL_SERVER_ERROR"}
    assert await footprint(api.service, played.id) == before


@pytest.mark.anyio
async def test_health_and_readiness(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    assert (await api.client.get("/healthz")).json() == {"status": "ok"}
    ready = await api.client.get("/readyz")
    assert (ready.status_code, ready.json()) == (200, {"status": "ready"})

    async def broken() -> bool:
        raise OSError("database is locked")

    async def not_ready() -> bool:
        return False

    for ping in (broken, not_ready):
        monkeypatch.setattr(api.service.store, "ping", ping)
        response = await api.client.get("/readyz")
        assert (response.status_code, response.json()) == (503, {"status": "unavailable"})
        assert (await api.client.get("/healthz")).status_code == 200


# --------------------------------------------------------------------------- WebSocket


async def handshake(server: Server, subprotocols: list[str] | None, payload: Any) -> int | None:
    """Open a socket, send connection_init; the close code the server answers with (None
    when it acknowledges)."""
    protocols: Any = subprotocols
    async with websockets.connect(server.ws_url, subprotocols=protocols) as socket_:
        try:
            await socket_.send(json.dumps({"type": "connection_init", "payload": payload}))
            message = json.loads(await socket_.recv())
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
        assert message["type"] == "connection_ack", message
        return None


@pytest.mark.anyio
async def test_websocket_with_a_wrong_token_is_closed_4403(live_server: Server) -> None:
    protocol = ["graphql-transport-ws"]
    assert await handshake(live_server, protocol, {"token": "not-a-token"}) == 4403
    assert await handshake(live_server, protocol, {"authorization": "Bearer nope"}) == 4403
    assert await handshake(live_server, protocol, {}) is None  # a spectator


@pytest.mark.anyio
async def test_websocket_legacy_protocol_is_refused(live_server: Server) -> None:
    assert await handshake(live_server, ["graphql-ws"], {}) == 4406
    assert await handshake(live_server, None, {}) == 4406


@pytest.mark.anyio
async def test_subscription_to_an_unknown_game_is_an_error(live_server: Server) -> None:
    query = "subscription($id: ID!) { gameEvents(gameId: $id) { seq } }"
    async with websockets.connect(
        live_server.ws_url,
        subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
    ) as socket_:
        await socket_.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await socket_.recv())["type"] == "connection_ack"
        for index, unknown in enumerate(UNKNOWN_IDS[:4]):
            subscribe = {"query": query, "variables": {"id": unknown}}
            await socket_.send(
                json.dumps({"id": str(index), "type": "subscribe", "payload": subscribe})
            )
            message = json.loads(await socket_.recv())
            assert message["id"] == str(index)
            assert message["type"] in {"next", "error"}, message
            errors = (
                message["payload"] if message["type"] == "error" else message["payload"]["errors"]
            )
            assert [e.get("extensions", {}).get("code") for e in errors] == ["NOT_FOUND"], message
            if message["type"] == "next":
                assert json.loads(await socket_.recv())["type"] == "complete"
    async with httpx.AsyncClient(base_url=live_server.url) as client:
        assert (await client.get("/readyz")).status_code == 200


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("subscribe", "code"),
    [
        (
            {"query": "subscription { lobby { type } again: lobby { type } }"},
            "GRAPHQL_VALIDATION_FAILED",
        ),
        ({"query": "subscription { lobby { nope } }"}, "GRAPHQL_VALIDATION_FAILED"),
        (
            {
                "query": "subscription($id: ID!) { gameEvents(gameId: $id) { seq } }",
                "variables": {"id": [1, 2]},
            },
            "BAD_USER_INPUT",
        ),
    ],
)
async def test_socket_errors_carry_a_code_as_over_http(
    live_server: Server, subscribe: dict[str, Any], code: str
) -> None:
    async with websockets.connect(
        live_server.ws_url,
        subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
    ) as socket_:
        await socket_.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await socket_.recv())["type"] == "connection_ack"
        await socket_.send(json.dumps({"id": "1", "type": "subscribe", "payload": subscribe}))
        message = json.loads(await socket_.recv())
    assert message["type"] == "error", message
    codes = [error["extensions"]["code"] for error in message["payload"]]
    assert codes == [code], message


@pytest.mark.anyio
async def test_a_socket_reads_the_token_however_clients_send_it(live_server: Server) -> None:
    protocol = ["graphql-transport-ws"]
    for payload in (
        {"Authorization": "Bearer nope"},
        {"AUTHORIZATION": "nope"},
        {"Token": "nope"},
        {"token": ""},  # there, but unusable: never a silent spectator
        {"token": 12345},
    ):
        assert await handshake(live_server, protocol, payload) == 4403, payload
    # On the upgrade request, as HTTP clients send it.
    async with websockets.connect(
        live_server.ws_url,
        subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
        additional_headers={"Authorization": "Bearer nope"},
    ) as socket_:
        await socket_.send(json.dumps({"type": "connection_init", "payload": {}}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await socket_.recv()
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4403
    # A real seat token, under any of those names, is accepted.
    async with httpx.AsyncClient(base_url=live_server.url) as client:
        created = await client.post(
            "/graphql", json={"query": "mutation { createGame(input: {}) { game { id } } }"}
        )
        game_id = created.json()["data"]["createGame"]["game"]["id"]
        joined = await client.post(
            "/graphql",
            json={
                "query": 'mutation($id: ID!) { joinGame(input: {gameId: $id, name: "A"}) '
                "{ token } }",
                "variables": {"id": game_id},
            },
        )
        token = joined.json()["data"]["joinGame"]["token"]
    for payload in ({"Authorization": f"Bearer {token}"}, {"TOKEN": token}):
        assert await handshake(live_server, protocol, payload) is None


# --------------------------------------------------------------------------- HTTP conventions


@pytest.mark.anyio
async def test_every_answer_has_a_request_id_echoed_when_sent(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    query = {"query": "{ variants { name } }"}
    generated = await api.client.post("/graphql", json=query)
    assert re.fullmatch(r"[0-9a-f]{32}", generated.headers["x-request-id"])
    echoed = await api.client.post("/graphql", json=query, headers={"X-Request-Id": "front-42"})
    assert echoed.headers["x-request-id"] == "front-42"
    for odd in ("x" * 200, "a b", "semi;colon"):
        replaced = await api.client.post("/graphql", json=query, headers={"X-Request-Id": odd})
        assert re.fullmatch(r"[0-9a-f]{32}", replaced.headers["x-request-id"])
    refused = await api.client.get("/healthz")
    assert refused.headers["x-request-id"]
    with caplog.at_level(logging.INFO, logger="risiko"):
        bad = await api.client.post(
            "/graphql",
            content=b"{bad",
            headers={"content-type": "application/json", "X-Request-Id": "front-43"},
        )
    assert bad.headers["x-request-id"] == "front-43"
    assert any("request front-43" in record.getMessage() for record in caplog.records)


@pytest.mark.anyio
async def test_large_answers_are_compressed_small_ones_never(api: Api) -> None:
    gzip = {"Accept-Encoding": "gzip"}
    board = await api.client.post(
        "/graphql",
        json={"query": "{ variants { board { territories { id name } } } }"},
        headers=gzip,
    )
    assert board.headers["content-encoding"] == "gzip"
    assert board.json()["data"]["variants"]  # httpx decodes it
    small = await api.client.post("/graphql", json={"query": "{ __typename }"}, headers=gzip)
    assert "content-encoding" not in small.headers


@pytest.mark.anyio
async def test_answers_are_never_cached(api: Api) -> None:
    for answer in (
        await api.client.get("/graphql", params={"query": "{ variants { name } }"}),
        await api.client.post("/graphql", json={"query": "{ variants { name } }"}),
    ):
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "no-store"
        assert "Authorization" in answer.headers["vary"]


# --------------------------------------------------------------------------- free text

LONG = "x" * 60_000  # a 60 KB clientMutationId was stored with the game's action: 165 kB a request
UNSEEN_IN_NAMES = ["\x00", "\x1b[31m", "\u202e", "\u200b", "\u200d", "\ufeff", "\u2028", "\ue000"]
PLAYERS = "query($id: ID!) { game(id: $id) { players { name } } }"


def small(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer that repeats no long text back (nor, so, into a log)."""
    assert len(json.dumps(answer)) < 2_000, json.dumps(answer)[:300]
    return answer


@pytest.mark.anyio
async def test_names_are_normalised_and_unseen_characters_refused(api: Api) -> None:
    played = await lobby_game(api, players=1)
    before = await footprint(api.service, played.id)
    for unseen in UNSEEN_IN_NAMES:
        payload = await join(api.client, played.id, f"Ann{unseen}a")
        assert user_error(payload)["code"] == "INVALID_NAME", repr(unseen)
        bot = {"input": {"gameId": played.id, "name": f"Bot{unseen}s"}}
        answer = await data(api.client, ADD_BOT, bot, played.token(0))
        assert user_error(answer["addBot"])["code"] == "INVALID_NAME", repr(unseen)
    for long in ("n" * 41, LONG):
        assert user_error(small(await join(api.client, played.id, long)))["code"] == "INVALID_NAME"
    assert await footprint(api.service, played.id) == before
    # Kept stripped and in NFC: "René" sent with a combining accent is the one "René".
    joined = await join(api.client, played.id, "  Rene\u0301 ")
    assert joined["userErrors"] == []
    players = (await data(api.client, PLAYERS, {"id": played.id}))["game"]["players"]
    assert players[-1]["name"] == "René"


@pytest.mark.anyio
async def test_long_texts_are_refused_stored_nowhere_and_echoed_nowhere(api: Api) -> None:
    lobby = await lobby_game(api, players=1)
    played = await started_game(api)
    game = played.game
    seat = game.current
    territory = game.board.territories[game.owner.index(seat)].id
    place = {"placeArmies": {"territory": territory, "armies": 1}}
    before = [await footprint(api.service, g.id) for g in (lobby, played)]
    games = await game_count(api.service)
    in_lobby, in_play = {"gameId": lobby.id}, {"gameId": played.id}
    # (mutation, input, token, the user error's code or None for BAD_USER_INPUT)
    cases: list[tuple[str, dict[str, Any], str | None, str | None]] = [
        (CREATE, {"variant": LONG}, None, "UNKNOWN_VARIANT"),
        (CREATE, {"seed": LONG}, None, "INVALID_OPTIONS"),
        (CREATE, {"seed": "seed\x00"}, None, "INVALID_OPTIONS"),
        (CREATE, {"options": {"losses": LONG}}, None, "INVALID_OPTIONS"),
        (CREATE, {"clientMutationId": LONG}, None, None),
        (CREATE, {"clientMutationId": "key\x00"}, None, None),
        (JOIN, {**in_lobby, "name": "Bea", "colour": LONG}, None, "INVALID_COLOUR"),
        (JOIN, {"gameId": LONG, "name": "Bea"}, None, "INVALID_ID"),
        (JOIN, {**in_lobby, "name": "Bea", "clientMutationId": LONG}, None, None),
        (ADD_BOT, {**in_lobby, "colour": LONG}, lobby.token(0), "INVALID_COLOUR"),
        (ADD_BOT, {**in_lobby, "clientMutationId": LONG}, lobby.token(0), None),
        (START, {**in_lobby, "clientMutationId": LONG}, lobby.token(0), None),
        (LEAVE, {**in_lobby, "clientMutationId": LONG}, lobby.token(0), None),
        (SUBMIT, {**in_play, "action": place, "clientMutationId": LONG}, played.token(seat), None),
        (
            SUBMIT,
            {**in_play, "action": place, "clientMutationId": "\u202e"},
            played.token(seat),
            None,
        ),
        (
            SUBMIT,
            {**in_play, "action": {"placeArmies": {"territory": LONG, "armies": 1}}},
            played.token(seat),
            "INVALID_ACTION",
        ),
        (
            SUBMIT,
            {**in_play, "action": {"tradeCards": {"cards": ["a", LONG[:1000], "b"]}}},
            played.token(seat),
            "INVALID_ACTION",
        ),
    ]
    for mutation, input_, token, code in cases:
        answer = small(await body(api.client, mutation, {"input": input_}, token))
        if code is None:
            assert only_error(answer)["extensions"]["code"] == "BAD_USER_INPUT", input_.keys()
        else:
            [payload] = answer["data"].values()
            assert user_error(payload)["code"] == code, (input_.keys(), payload)
    assert [await footprint(api.service, g.id) for g in (lobby, played)] == before
    assert await game_count(api.service) == games


@pytest.mark.anyio
async def test_long_texts_in_queries_are_refused_without_echo(api: Api) -> None:
    unknown = small(await body(api.client, GAME, {"id": LONG}))
    assert unknown["data"] == {"game": None}
    assert [error["extensions"]["code"] for error in unknown["errors"]] == ["NOT_FOUND"]
    for query, variables in [
        ("query($v: String) { games(variant: $v) { edges { cursor } } }", {"v": LONG}),
        ("query($c: String) { games(after: $c) { edges { cursor } } }", {"c": LONG}),
    ]:
        answer = small(await body(api.client, query, variables))
        assert only_error(answer)["extensions"]["code"] == "BAD_USER_INPUT"
    assert small(await data(api.client, NODE, {"id": LONG})) == {"node": None}


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("subscribe", "code"),
    [
        (
            {
                "query": "subscription($t: [String!]!) { seatEvents(tokens: $t) { kind } }",
                "variables": {"t": [LONG]},
            },
            "BAD_USER_INPUT",
        ),
        (
            {
                "query": "subscription($id: ID!) { gameEvents(gameId: $id) { seq } }",
                "variables": {"id": LONG},
            },
            "NOT_FOUND",
        ),
    ],
)
async def test_long_texts_over_the_socket_are_refused_without_echo(
    live_server: Server, subscribe: dict[str, Any], code: str
) -> None:
    async with websockets.connect(
        live_server.ws_url,
        subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
        max_size=2**20,
    ) as socket_:
        await socket_.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await socket_.recv())["type"] == "connection_ack"
        await socket_.send(json.dumps({"id": "1", "type": "subscribe", "payload": subscribe}))
        sent = await socket_.recv()
    assert len(sent) < 2_000, sent[:300]
    message = json.loads(sent)
    errors = message["payload"] if message["type"] == "error" else message["payload"]["errors"]
    assert [error["extensions"]["code"] for error in errors] == [code], message
