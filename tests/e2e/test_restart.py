"""The store outlives the server: a game goes on after a clean stop (SIGTERM) and keeps every
acknowledged action after a crash (SIGKILL right after the acknowledgements)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server

pytestmark = pytest.mark.anyio

Json = dict[str, Any]

CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) { game { id seedCommitment } userErrors { code message } }
}
"""
JOIN = """
mutation($input: JoinGameInput!) {
  joinGame(input: $input) { seat token userErrors { code message } }
}
"""
START = """
mutation($input: GameInput!) {
  startGame(input: $input) { game { status version } userErrors { code message } }
}
"""
STATE = """
fragment State on Game {
  version status seatToAct viewerSeat phase round currentPlayer armiesToPlace deckSize
  seedCommitment
  territories { id owner armies }
  players { seat name colour territories armies cards eliminated resigned }
  legalActions {
    __typename
    ... on LegalPlaceArmies { input }
    ... on LegalTradeCards { input }
    ... on LegalAttack { source target input }
    ... on LegalAttackUntil { source target input }
    ... on LegalDefend { input }
    ... on LegalOccupy { input }
    ... on LegalStrategicMove { input }
    ... on LegalEndTurn { input }
  }
}
"""
GAME = "query($id: ID!) { game(id: $id) { ...State } }" + STATE
SEAT_VIEW = """
query($id: ID!) {
  viewer { seat game { id } }
  game(id: $id) { viewerSeat hand { id } objective { id card } }
}
"""
SUBMIT = (
    """
mutation($input: SubmitActionInput!) {
  submitAction(input: $input) {
    version clientMutationId
    events { seq version type private data }
    userErrors { code message }
    game { ...State }
  }
}
"""
    + STATE
)
EVENTS = """
query($id: ID!, $after: Int!) {
  game(id: $id) {
    events(after: $after, first: 100) { hasMore events { seq version type private data } }
  }
}
"""


@dataclass
class Table:
    game_id: str
    tokens: dict[int, str]


@dataclass
class Acknowledged:
    """An accepted submitAction: what was sent and the answer."""

    seat: int
    request: Json
    answer: Json


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


class Servers(list[Server]):
    """The servers a test starts, all on one store (`env` selects it)."""

    def __init__(self, env: dict[str, str]) -> None:
        super().__init__()
        self.env = env


@pytest.fixture
def servers(store_env: dict[str, str]) -> Iterator[Servers]:
    """Servers a test starts (on the store of `store_env`); all stopped at the end."""
    started = Servers(store_env)
    try:
        yield started
    finally:
        for server in started:
            server.stop(signal.SIGKILL)


def launch(servers: Servers, data_dir: Path) -> Server:
    server = Server(data_dir, env=servers.env).start()
    servers.append(server)
    return server


def stop(server: Server, sig: signal.Signals) -> int | None:
    """Stop the server with `sig`; its exit status."""
    process = server.process
    assert process is not None
    server.stop(sig)
    return process.returncode


async def open_game(http: httpx.AsyncClient, players: int, seed: str) -> Table:
    anonymous = GraphQLClient(http)
    created = (await anonymous(CREATE, {"input": {"seed": seed}}))["createGame"]
    assert created["userErrors"] == []
    game_id = created["game"]["id"]
    tokens: dict[int, str] = {}
    for n in range(players):
        joined = (await anonymous(JOIN, {"input": {"gameId": game_id, "name": f"Seat {n}"}}))[
            "joinGame"
        ]
        assert joined["userErrors"] == []
        tokens[joined["seat"]] = joined["token"]
    started = (await GraphQLClient(http, tokens[0])(START, {"input": {"gameId": game_id}}))[
        "startGame"
    ]
    assert started["userErrors"] == []
    return Table(game_id, tokens)


def pick(state: Json) -> Json:
    """A legal ActionInput: the first family's ready-made input, an attack if there is one."""
    families = state["legalActions"]
    assert families, state
    for family in families:
        if family["__typename"] in {"LegalAttackUntil", "LegalAttack"}:
            return dict(family["input"])
    return dict(families[0]["input"])


async def state_of(http: httpx.AsyncClient, table: Table, seat: int | None) -> Json:
    client = GraphQLClient(http, None if seat is None else table.tokens[seat])
    state: Json = (await client(GAME, {"id": table.game_id}))["game"]
    return state


async def play(http: httpx.AsyncClient, table: Table, actions: int, tag: str) -> list[Acknowledged]:
    """`actions` accepted actions of whoever is to act, each acknowledged before the next."""
    acknowledged: list[Acknowledged] = []
    state = await state_of(http, table, None)
    for n in range(actions):
        seat = state["seatToAct"]
        if state["viewerSeat"] != seat:
            state = await state_of(http, table, seat)
        request = {
            "gameId": table.game_id,
            "action": pick(state),
            "expectedVersion": state["version"],
            "clientMutationId": f"{tag}-{n}",
        }
        answer = (await GraphQLClient(http, table.tokens[seat])(SUBMIT, {"input": request}))[
            "submitAction"
        ]
        assert answer["userErrors"] == [], answer["userErrors"]
        assert answer["version"] == state["version"] + 1
        acknowledged.append(Acknowledged(seat, request, answer))
        state = answer["game"]
    return acknowledged


async def history(http: httpx.AsyncClient, table: Table, seat: int | None) -> list[Json]:
    client = GraphQLClient(http, None if seat is None else table.tokens[seat])
    events: list[Json] = []
    after = 0
    while True:
        page = (await client(EVENTS, {"id": table.game_id, "after": after}))["game"]["events"]
        events += page["events"]
        if not page["hasMore"]:
            return events
        after = page["events"][-1]["seq"]


async def snapshot(http: httpx.AsyncClient, table: Table) -> Json:
    """Everything the seats and a spectator can read of the game."""
    views: Json = {"spectator": await state_of(http, table, None)}
    views["events"] = await history(http, table, None)
    for seat, token in table.tokens.items():
        views[f"seat {seat}"] = await state_of(http, table, seat)
        views[f"events {seat}"] = await history(http, table, seat)
        private = await GraphQLClient(http, token)(SEAT_VIEW, {"id": table.game_id})
        assert private["viewer"]["seat"] == seat
        assert private["viewer"]["game"]["id"] == table.game_id
        assert private["game"]["viewerSeat"] == seat
        views[f"private {seat}"] = private
    return views


async def test_a_game_goes_on_after_a_clean_restart(servers: Servers, data_dir: Path) -> None:
    first = launch(servers, data_dir)
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        table = await open_game(http, 3, "restart-seed")
        acknowledged = await play(http, table, 40, "before")
        version = acknowledged[-1].answer["version"]
        before = await snapshot(http, table)
    assert before["spectator"]["version"] == version
    # uvicorn shuts down gracefully, then dies of the signal it caught (or exits with 0); the
    # store was closed: SQLite folded its write-ahead log into the database and removed it.
    assert stop(first, signal.SIGTERM) in {0, -signal.SIGTERM}
    if not servers.env:  # the embedded store was closed properly
        assert (data_dir / "risiko.sqlite3").exists()
        assert not (data_dir / "risiko.sqlite3-wal").exists()

    second = launch(servers, data_dir)
    async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
        after = await snapshot(http, table)
        assert after == before  # version, territories, players, hands, histories: all kept

        # The seat tokens still work, and play goes on from the same version.
        seat = after["spectator"]["seatToAct"]
        state = after[f"seat {seat}"]
        action = pick(state)
        stale = (
            await GraphQLClient(http, table.tokens[seat])(
                SUBMIT,
                {
                    "input": {
                        "gameId": table.game_id,
                        "action": action,
                        "expectedVersion": version - 1,
                    }
                },
            )
        )["submitAction"]
        assert [error["code"] for error in stale["userErrors"]] == ["STALE_VERSION"]
        answer = (
            await GraphQLClient(http, table.tokens[seat])(
                SUBMIT,
                {"input": {"gameId": table.game_id, "action": action, "expectedVersion": version}},
            )
        )["submitAction"]
        assert answer["userErrors"] == []
        assert answer["version"] == version + 1
        more = await play(http, table, 20, "after")
        assert more[-1].answer["version"] == version + 21

        # An answer given before the restart is still the answer to its clientMutationId.
        first_ack = acknowledged[0]
        replayed = (
            await GraphQLClient(http, table.tokens[first_ack.seat])(
                SUBMIT, {"input": first_ack.request}
            )
        )["submitAction"]
        assert replayed["version"] == first_ack.answer["version"]
        assert replayed["events"] == first_ack.answer["events"]
        assert (await state_of(http, table, None))["version"] == version + 21
    assert stop(second, signal.SIGTERM) in {0, -signal.SIGTERM}


async def test_every_acknowledged_action_survives_a_crash(servers: Servers, data_dir: Path) -> None:
    first = launch(servers, data_dir)
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        table = await open_game(http, 4, "crash-seed")
        await play(http, table, 10, "warm-up")
        acknowledged = await play(http, table, 15, "burst")
        last = acknowledged[-1].answer["version"]
    assert stop(first, signal.SIGKILL) == -signal.SIGKILL  # right after the last acknowledgement
    if not servers.env:  # no clean close: SQLite recovers from its write-ahead log
        assert (data_dir / "risiko.sqlite3-wal").exists()

    second = launch(servers, data_dir)
    async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
        state = await state_of(http, table, None)
        assert state["version"] == last
        # Every acknowledged action's events are in the history, as they were acknowledged.
        for ack in acknowledged:
            seen = await history(http, table, ack.seat)
            for event in ack.answer["events"]:
                assert event in seen
        # The last answer's game is the game now.
        assert state["territories"] == acknowledged[-1].answer["game"]["territories"]
        assert state["players"] == acknowledged[-1].answer["game"]["players"]
        # Nothing is applied twice: resending the last action returns its first answer.
        replayed = (
            await GraphQLClient(http, table.tokens[acknowledged[-1].seat])(
                SUBMIT, {"input": acknowledged[-1].request}
            )
        )["submitAction"]
        assert replayed["version"] == last
        assert replayed["events"] == acknowledged[-1].answer["events"]
        # And play goes on.
        more = await play(http, table, 5, "after-crash")
        assert more[-1].answer["version"] == last + 5

    # A crash with an action in flight: the acknowledged ones are kept, the one in flight
    # is either wholly there or not at all.
    async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
        acknowledged = await play(http, table, 8, "second-burst")
        last = acknowledged[-1].answer["version"]
        state = acknowledged[-1].answer["game"]
        seat = state["seatToAct"]
        if state["viewerSeat"] != seat:
            state = await state_of(http, table, seat)
        request = {"gameId": table.game_id, "action": pick(state), "clientMutationId": "in-flight"}
        in_flight = asyncio.create_task(
            GraphQLClient(http, table.tokens[seat]).post(SUBMIT, {"input": request})
        )
        await asyncio.sleep(0.005)
        assert stop(second, signal.SIGKILL) == -signal.SIGKILL
        with contextlib.suppress(httpx.HTTPError):  # no answer: the server died with it
            await in_flight

    third = launch(servers, data_dir)
    async with httpx.AsyncClient(base_url=third.url, timeout=30) as http:
        state = await state_of(http, table, None)
        assert state["version"] in {last, last + 1}
        events = await history(http, table, seat)
        assert events[-1]["version"] == state["version"]
        # Resending the action in flight applies it once at most. On MongoDB a transaction
        # the crash left open holds the game until the server's transaction lifetime limit:
        # until then the answer is STALE_VERSION, which a client meets by retrying.
        deadline = time.monotonic() + 30
        while True:
            answer = (await GraphQLClient(http, table.tokens[seat])(SUBMIT, {"input": request}))[
                "submitAction"
            ]
            codes = [error["code"] for error in answer["userErrors"]]
            if not (servers.env and codes == ["STALE_VERSION"]) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
        assert answer["userErrors"] == []
        assert answer["version"] == last + 1
        assert (await state_of(http, table, None))["version"] == last + 1
