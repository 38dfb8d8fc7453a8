"""Online play through the real server, on both stores: turn clocks and absent players, a
late move racing the clock, deadlines across a SIGKILL, two instances on one database, bots
seated from the lobby, and a seat's own stream across three games."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server, subscription

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
FAST_CLOCK = {"RISIKO_CLOCK_INTERVAL_SECONDS": "0.2"}

CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) { game { id timeControl { turnSeconds absence resignAfter } }
    userErrors { code message } }
}
"""
JOIN = """
mutation($input: JoinGameInput!) {
  joinGame(input: $input) { seat token userErrors { code message } }
}
"""
ADD_BOT = """
mutation($input: AddBotInput!) {
  addBot(input: $input) { seat token game { players { seat name bot } }
    userErrors { code message } }
}
"""
START = """
mutation($input: GameInput!) {
  startGame(input: $input) { game { status } userErrors { code message } }
}
"""
LEAVE = """
mutation($input: GameInput!) { leaveGame(input: $input) { userErrors { code message } } }
"""
GAME = """
query($id: ID!) {
  game(id: $id) {
    status version seatToAct viewerSeat
    clock { seat kind deadline absences }
    players { seat bot resigned absences }
    outcome { winner reason }
    legalActions { __typename ... on LegalPlaceArmies { input } ... on LegalEndTurn { input }
      ... on LegalClaimProvince { input } }
  }
}
"""
EVENTS = """
query($id: ID!, $after: Int!) {
  game(id: $id) { events(after: $after, first: 100) { hasMore events { seq version type data } } }
}
"""
SUBMIT = """
mutation($input: SubmitActionInput!) {
  submitAction(input: $input) { version userErrors { code message } }
}
"""
SEAT_EVENTS = """
subscription($tokens: [String!]!) {
  seatEvents(tokens: $tokens) { gameId seat kind version deadline }
}
"""


@pytest.fixture
def online(tmp_path: Path, store_env: dict[str, str]) -> Iterator[Server]:
    running = Server(tmp_path / "data", env={**store_env, **FAST_CLOCK}).start()
    try:
        yield running
    finally:
        running.stop()


async def open_table(
    http: httpx.AsyncClient,
    humans: int,
    bots: int,
    time_control: Json | None = None,
    variant: str = "classic",
    seed: str = "online",
    start: bool = True,
) -> tuple[str, list[str]]:
    """A game with `humans` seats (their tokens) and `bots` seated bots, started."""
    request: Json = {"variant": variant, "seed": seed}
    if time_control is not None:
        request["timeControl"] = time_control
    created = (await GraphQLClient(http)(CREATE, {"input": request}))["createGame"]
    assert created["userErrors"] == [], created
    game_id = created["game"]["id"]
    tokens = []
    for n in range(humans):
        joined = (await GraphQLClient(http)(JOIN, {"input": {"gameId": game_id, "name": f"P{n}"}}))[
            "joinGame"
        ]
        assert joined["userErrors"] == [], joined
        tokens.append(joined["token"])
    for _ in range(bots):
        added = (await GraphQLClient(http, tokens[0])(ADD_BOT, {"input": {"gameId": game_id}}))[
            "addBot"
        ]
        assert added["userErrors"] == [], added
        assert added["token"] is None  # nobody but the server plays a bot
    if start:
        started = (await GraphQLClient(http, tokens[0])(START, {"input": {"gameId": game_id}}))[
            "startGame"
        ]
        assert started["userErrors"] == [], started
    return game_id, tokens


async def game_of(http: httpx.AsyncClient, game_id: str, token: str | None = None) -> Json:
    game: Json = (await GraphQLClient(http, token)(GAME, {"id": game_id}))["game"]
    return game


async def finished(http: httpx.AsyncClient, game_id: str, seconds: float = 90) -> Json:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        game = await game_of(http, game_id)
        if game["status"] == "FINISHED":
            return game
        await asyncio.sleep(0.2)
    raise AssertionError(f"the game did not end: {await game_of(http, game_id)}")


async def history(http: httpx.AsyncClient, game_id: str) -> list[Json]:
    events: list[Json] = []
    while True:
        after = events[-1]["seq"] if events else 0
        page = (await GraphQLClient(http)(EVENTS, {"id": game_id, "after": after}))["game"]
        events += page["events"]["events"]
        if not page["events"]["hasMore"]:
            return events


def timeouts(events: list[Json]) -> list[Json]:
    return [e["data"] for e in events if e["type"] == "PlayedByProxy"]


def assert_each_timeout_acted_once(events: list[Json]) -> None:
    """Between two announcements of the clock, a seat's absences grow by one at most: no
    deadline was acted on twice. And no event is there twice (a spectator's history skips
    the private ones, so it has gaps)."""
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(set(seqs))
    absences: dict[int, int] = {}
    for event in events:
        if event["type"] == "ClockChanged":
            absences.clear()
        elif event["type"] == "PlayedByProxy":
            seat, count = event["data"]["seat"], event["data"]["absences"]
            assert count in (absences.get(seat, count), absences.get(seat, count - 1) + 1)
            absences[seat] = count


async def test_a_seat_that_never_acts_reaches_the_end_by_the_absence_policy(
    online: Server,
) -> None:
    async with httpx.AsyncClient(base_url=online.url, timeout=30) as http:
        game_id, _ = await open_table(http, 1, 2, {"turnSeconds": 1, "resignAfter": 2})
        game = await finished(http, game_id)
        assert game["outcome"]["winner"] in (1, 2)
        assert [p["bot"] for p in game["players"]] == [None, "ODDS", "ODDS"]
        assert game["players"][0]["resigned"]
        assert game["clock"]["seat"] is None
        events = await history(http, game_id)
        notes = timeouts(events)
        assert {n["seat"] for n in notes} == {0}
        assert notes[-1] == {
            "type": "PlayedByProxy",
            "seat": 0,
            "reason": "absent_resigns",
            "absences": 2,
        }
        assert "turn_timeout" in {n["reason"] for n in notes}
        assert_each_timeout_acted_once(events)


async def test_a_late_move_races_the_clock_and_one_wins(online: Server) -> None:
    control = {"turnSeconds": 1, "absence": "MINIMAL", "resignAfter": 100}
    async with httpx.AsyncClient(base_url=online.url, timeout=30) as http:
        game_id, tokens = await open_table(http, 3, 0, control)
        outcomes = set()
        for attempt in range(6):
            game = await game_of(http, game_id)
            seat = game["seatToAct"]
            mine = await game_of(http, game_id, tokens[seat])
            deadline = datetime.fromisoformat(game["clock"]["deadline"]).timestamp()
            # At the deadline, give or take the clock's own tick: sometimes before it acts.
            await asyncio.sleep(max(0.0, deadline - time.time() + (attempt % 3 - 1) * 0.1))
            request = {
                "gameId": game_id,
                "action": mine["legalActions"][0]["input"],
                "expectedVersion": mine["version"],
            }
            answer = (await GraphQLClient(http, tokens[seat])(SUBMIT, {"input": request}))[
                "submitAction"
            ]
            events = await history(http, game_id)
            following = [e for e in events if e["version"] == mine["version"] + 1]
            proxy_first = following[0]["type"] == "PlayedByProxy"
            if answer["userErrors"]:
                assert [e["code"] for e in answer["userErrors"]] == ["STALE_VERSION"]
                assert proxy_first  # the clock won: its entry is the next one
                outcomes.add("clock")
            else:
                assert answer["version"] == mine["version"] + 1
                assert not proxy_first  # the move won: the clock did not act on that turn
                outcomes.add("move")
            assert_each_timeout_acted_once(events)
            await asyncio.sleep(0.3)
        assert "clock" in outcomes


async def test_deadlines_survive_a_sigkill_and_a_restart(
    tmp_path: Path, store_env: dict[str, str]
) -> None:
    data = tmp_path / "data"
    server = Server(data, env={**store_env, **FAST_CLOCK}).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            control = {"turnSeconds": 2, "absence": "MINIMAL", "resignAfter": 100}
            game_id, _ = await open_table(http, 3, 0, control)
            before = await game_of(http, game_id)
        server.stop(signal.SIGKILL)
        await asyncio.sleep(2.5)  # the deadline passes while no server runs
        server = Server(data, env={**store_env, **FAST_CLOCK}).start()
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            for _ in range(50):
                notes = timeouts(await history(http, game_id))
                if notes:
                    break
                await asyncio.sleep(0.2)
            assert notes, "the restarted server did not act on the deadline"
            assert notes[0]["seat"] == before["seatToAct"]
            assert notes[0]["absences"] == 1
    finally:
        server.stop()


async def test_two_instances_on_one_database_act_once_on_each_deadline(
    mongo_uri: str, tmp_path: Path
) -> None:
    env = {"RISIKO_STORE": mongo_uri, **FAST_CLOCK}
    servers = [Server(tmp_path / name, env=env) for name in ("a", "b")]
    try:
        with ThreadPoolExecutor(2) as pool:
            for started in [pool.submit(server.start) for server in servers]:
                started.result()
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            control = {"turnSeconds": 1, "absence": "MINIMAL", "resignAfter": 100}
            game_id, _ = await open_table(http, 3, 0, control)
            await asyncio.sleep(6)  # several deadlines pass, both instances watching
            events = await history(http, game_id)
        notes = timeouts(events)
        assert len({(n["seat"], n["absences"]) for n in notes}) >= 3
        assert_each_timeout_acted_once(events)
        async with httpx.AsyncClient(base_url=servers[1].url, timeout=30) as http:
            told_by_b = await history(http, game_id)
        # The clock goes on meanwhile (a turn a second): B may know more, never otherwise.
        assert told_by_b[: len(events)] == events
    finally:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.stop, servers))


@pytest.mark.parametrize("variant", ["classic", "spqr"])
async def test_bots_added_from_the_lobby_play_a_whole_game(online: Server, variant: str) -> None:
    async with httpx.AsyncClient(base_url=online.url, timeout=30) as http:
        game_id, tokens = await open_table(http, 1, 2, variant=variant, seed=f"bots-{variant}")
        left = (await GraphQLClient(http, tokens[0])(LEAVE, {"input": {"gameId": game_id}}))[
            "leaveGame"
        ]
        assert left["userErrors"] == []
        game = await finished(http, game_id)
        assert game["outcome"]["winner"] in (1, 2)
        events = await history(http, game_id)
        assert [e["data"]["policy"] for e in events if e["type"] == "BotJoined"] == ["odds"] * 2
        assert not timeouts(events)  # no clock: nobody was played by proxy


async def test_a_seats_stream_across_three_games(online: Server) -> None:
    control = {"turnSeconds": 2, "resignAfter": 1}
    async with httpx.AsyncClient(base_url=online.url, timeout=30) as http:
        tables = [
            await open_table(http, 1, 2, control, seed=f"stream-{n}", start=False) for n in range(3)
        ]
        tokens = [seat_tokens[0] for _, seat_tokens in tables]
        notices: list[Json] = []
        async with subscription(online.ws_url, SEAT_EVENTS, {"tokens": tokens}) as stream:
            for game_id, seat_tokens in tables:
                started = (
                    await GraphQLClient(http, seat_tokens[0])(START, {"input": {"gameId": game_id}})
                )["startGame"]
                assert started["userErrors"] == []
            async with asyncio.timeout(120):
                async for data in stream:  # ends once every game has ended
                    notices.append(data["seatEvents"])
    for game_id, _ in tables:
        kinds = [n["kind"] for n in notices if n["gameId"] == game_id]
        assert kinds[0] == "YOUR_TURN", kinds
        assert "DEADLINE_NEAR" in kinds
        assert kinds[-1] == "GAME_ENDED"
        assert kinds.count("GAME_ENDED") == 1
        near = next(n for n in notices if n["gameId"] == game_id and n["kind"] == "DEADLINE_NEAR")
        assert near["deadline"] is not None
        assert {n["seat"] for n in notices if n["gameId"] == game_id} == {0}


async def test_a_seats_stream_refuses_a_bad_token(online: Server) -> None:
    async def follow() -> None:
        async with subscription(online.ws_url, SEAT_EVENTS, {"tokens": ["nope"]}) as stream:
            async for _ in stream:
                pass

    with pytest.raises(AssertionError, match="UNAUTHENTICATED"):
        await follow()
