"""A game's randomness through the API: a chosen seed is public, the seats contribute to the
dice's seed, the secret and the derived seed stay hidden until the end, and the action log
opens only then, with what proves every roll."""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from api.graphql.ids import from_global_id
from domain.rng import derive_seed
from tests.integration.api_support import (
    ADD_BOT,
    LEAVE,
    Api,
    body,
    data,
    error_codes,
    footprint,
    in_process,
)

pytestmark = pytest.mark.anyio

CREATE = """mutation($input: CreateGameInput!) {
  createGame(input: $input) { game { id seedChosen } userErrors { code } }
}"""
JOIN = """mutation($input: JoinGameInput!) {
  joinGame(input: $input) {
    seat token clientSeedAccepted game { seedChosen } userErrors { code message }
  }
}"""
START = """mutation($input: GameInput!) {
  startGame(input: $input) { clientSeedAccepted game { status } userErrors { code } }
}"""
RANDOMNESS = """
seedChosen seed
randomness {
  commitment seedChosen derived startCommitment secret derivedSeed
  contributions { seat given value byServer atStart }
}
actionLog(first: 3) { entries { seq kind seat payload } hasMore }
"""
GAME = f"query($id: ID!) {{ game(id: $id) {{ status {RANDOMNESS} }} }}"
LISTING = "{ games(first: 50) { edges { node { id seedChosen } } } }"
EVENTS = """query($id: ID!) {
  game(id: $id) { events(first: 100) { events { type data } hasMore } }
}"""
LOG_PAGE = """query($id: ID!, $after: Int!) {
  game(id: $id) { actionLog(after: $after, first: 4) { entries { seq kind seat payload } hasMore } }
}"""


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    async with in_process(tmp_path / "data") as running:
        yield running


async def create(api: Api, seed: str | None = None) -> str:
    payload = (await data(api.client, CREATE, {"input": {"seed": seed}}))["createGame"]
    assert payload["userErrors"] == []
    game_id: str = payload["game"]["id"]
    return game_id


async def join(api: Api, game_id: str, name: str, client_seed: str | None) -> dict[str, Any]:
    request = {"gameId": game_id, "name": name, "clientSeed": client_seed}
    payload: dict[str, Any] = (await data(api.client, JOIN, {"input": request}))["joinGame"]
    assert payload["userErrors"] == [], payload
    return payload


async def secret_of(api: Api, game_id: str) -> bytes:
    decoded = from_global_id(game_id, "Game")
    assert decoded is not None
    record = await api.service.store.get(decoded[1])
    assert record is not None
    return record.seed


async def test_a_chosen_seed_is_told_to_everyone(api: Api) -> None:
    chosen = await create(api, "everyone knows")
    fair = await create(api)
    # A spectator sees it, in the game and in the lobby's listing.
    for game_id, expected in ((chosen, True), (fair, False)):
        game = (await data(api.client, GAME, {"id": game_id}))["game"]
        assert game["seedChosen"] is expected
        assert game["randomness"]["seedChosen"] is expected
        assert game["randomness"]["derived"] is not expected
    listed = (await data(api.client, LISTING))["games"]["edges"]
    assert {edge["node"]["id"]: edge["node"]["seedChosen"] for edge in listed} == {
        chosen: True,
        fair: False,
    }
    # …and in the history: the game's first event.
    for game_id, expected in ((chosen, True), (fair, False)):
        events = (await data(api.client, EVENTS, {"id": game_id}))["game"]["events"]["events"]
        assert events[0]["type"] == "GameCreated"
        assert events[0]["data"]["seed_chosen"] is expected
    # A seat joining it over the raw API may (old clients, the README's tour), and is told:
    # its contribution is ignored (the game must stay reproducible from its seed).
    joined = await join(api, chosen, "Anna", "my own entropy")
    assert joined["clientSeedAccepted"] is False
    assert joined["game"]["seedChosen"] is True
    game = (await data(api.client, GAME, {"id": chosen}))["game"]
    assert game["randomness"]["contributions"] == []


async def test_seats_contribute_and_the_contributions_are_shown_from_the_start(api: Api) -> None:
    game_id = await create(api)
    anna = await join(api, game_id, "Anna", "anna's seed")
    assert anna["clientSeedAccepted"] is True
    bruno = await join(api, game_id, "Bruno", None)
    assert bruno["clientSeedAccepted"] is False
    bot = await data(api.client, ADD_BOT, {"input": {"gameId": game_id}}, anna["token"])
    assert bot["addBot"]["userErrors"] == []
    before = (await data(api.client, GAME, {"id": game_id}, bruno["token"]))["game"]
    # Before the start: who gave one, not what (nobody needs it before it is fixed).
    assert before["randomness"]["contributions"] == [
        {"seat": 0, "given": True, "value": None, "byServer": False, "atStart": False},
        {"seat": 1, "given": False, "value": None, "byServer": False, "atStart": False},
        {"seat": 2, "given": True, "value": None, "byServer": True, "atStart": False},
    ]
    assert before["randomness"]["startCommitment"] is None
    # Bruno starts the game, and gives his contribution then: the last one fixed.
    request = {"gameId": game_id, "clientSeed": "bruno at the start"}
    started = (await data(api.client, START, {"input": request}, bruno["token"]))["startGame"]
    assert started["userErrors"] == []
    assert started["clientSeedAccepted"] is True
    after = (await data(api.client, GAME, {"id": game_id}))["game"]
    shown = after["randomness"]["contributions"]
    assert [c["value"] for c in shown[:2]] == ["anna's seed", "bruno at the start"]
    assert [(c["byServer"], c["atStart"]) for c in shown] == [
        (False, False),
        (False, True),
        (True, False),
    ]
    bot_seed = shown[2]["value"]
    assert len(bot_seed) == 32
    secret = await secret_of(api, game_id)
    derived = derive_seed(secret, ["anna's seed", "bruno at the start", bot_seed])
    assert after["randomness"]["startCommitment"] == hashlib.sha256(derived).hexdigest()


async def test_nothing_proves_the_dice_before_the_end_and_everything_after(api: Api) -> None:
    game_id = await create(api)
    seats = [await join(api, game_id, name, f"{name}'s") for name in ("Anna", "Bruno", "Carla")]
    other = await create(api)
    foreign = (await join(api, other, "Elsewhere", None))["token"]
    viewers = [None, foreign, *(seat["token"] for seat in seats)]
    secret = await secret_of(api, game_id)

    async def hidden(status: str) -> None:
        for token in viewers:
            answer = await body(api.client, GAME, {"id": game_id}, token)
            text = json.dumps(answer)
            assert answer["data"]["game"]["status"] == status
            randomness = answer["data"]["game"]["randomness"]
            assert (randomness["secret"], randomness["derivedSeed"]) == (None, None)
            assert answer["data"]["game"]["seed"] is None
            assert answer["data"]["game"]["actionLog"] is None
            assert secret.hex() not in text
            if status == "ACTIVE":
                contributions = [c["value"] for c in randomness["contributions"]]
                assert derive_seed(secret, contributions).hex() not in text

    await hidden("LOBBY")
    answer = await data(api.client, START, {"input": {"gameId": game_id}}, seats[0]["token"])
    assert answer["startGame"]["clientSeedAccepted"] is False  # none given at the start
    await hidden("ACTIVE")
    for seat in (1, 2):  # two resign: the last player wins
        left = await data(api.client, LEAVE, {"input": {"gameId": game_id}}, seats[seat]["token"])
        assert left["leaveGame"]["userErrors"] == []
    game = (await data(api.client, GAME, {"id": game_id}))["game"]
    assert game["status"] == "FINISHED"
    randomness = game["randomness"]
    assert randomness["secret"] == secret.hex() == game["seed"]
    assert hashlib.sha256(secret).hexdigest() == randomness["commitment"]
    derived = derive_seed(secret, ["Anna's", "Bruno's", "Carla's"])
    assert randomness["derivedSeed"] == derived.hex()
    assert randomness["startCommitment"] == hashlib.sha256(derived).hexdigest()
    # The whole log, page by page: the creation, the joins, the start with the
    # contributions, and the two resignations.
    entries: list[dict[str, Any]] = []
    after = 0
    while True:
        page = (await data(api.client, LOG_PAGE, {"id": game_id, "after": after}))["game"]
        entries += page["actionLog"]["entries"]
        if not page["actionLog"]["hasMore"]:
            break
        after = entries[-1]["seq"]
    assert [entry["seq"] for entry in entries] == list(range(1, 8))
    assert [entry["kind"] for entry in entries] == [
        "create",
        "join",
        "join",
        "join",
        "start",
        "resign",
        "resign",
    ]
    assert entries[0]["payload"]["commitment"] == randomness["commitment"]
    assert entries[4]["payload"]["contributions"] == ["Anna's", "Bruno's", "Carla's"]
    assert entries[5] == {"seq": 6, "kind": "resign", "seat": 1, "payload": {"kind": "resign"}}


@pytest.mark.parametrize("client_seed", ["", "x" * 65, "caffè", "tab\there", "line\nbreak", "\x00"])
async def test_a_client_seed_out_of_bounds_is_refused_and_nothing_is_stored(
    api: Api, client_seed: str
) -> None:
    game_id = await create(api)
    anna = await join(api, game_id, "Anna", "fine")
    before = await footprint(api.service, game_id)
    request = {"gameId": game_id, "name": "Bruno", "clientSeed": client_seed}
    answer = await body(api.client, JOIN, {"input": request})
    assert error_codes(answer) == ["BAD_USER_INPUT"]
    assert "clientSeed" in answer["errors"][0]["message"]
    start = {"gameId": game_id, "clientSeed": client_seed}
    answer = await body(api.client, START, {"input": start}, anna["token"])
    assert error_codes(answer) == ["BAD_USER_INPUT"]
    assert await footprint(api.service, game_id) == before
    game = (await data(api.client, GAME, {"id": game_id}))["game"]
    assert game["status"] == "LOBBY"
    assert len(game["randomness"]["contributions"]) == 1
