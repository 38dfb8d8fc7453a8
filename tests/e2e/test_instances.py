"""Two API instances (two `risiko serve` processes) on one store, a MongoDB database or one
embedded store's file: what one accepts, the other's subscribers receive through the change
feed, in order, once each; actions may go to either instance; and a race of one
expectedVersion across the two has one winner."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server, subscription

pytestmark = pytest.mark.anyio

Json = dict[str, Any]

STATE = """
fragment State on Game {
  version status seatToAct viewerSeat phase
  legalActions {
    __typename
    ... on LegalPlaceArmies { input }
    ... on LegalTradeCards { input }
    ... on LegalAttack { input }
    ... on LegalAttackUntil { input }
    ... on LegalDefend { input }
    ... on LegalOccupy { input }
    ... on LegalStrategicMove { input }
    ... on LegalEndTurn { input }
  }
}
"""
CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) { game { id } userErrors { code message } }
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
GAME = "query($id: ID!) { game(id: $id) { ...State } }" + STATE
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
GAME_EVENTS = """
subscription($id: ID!) { gameEvents(gameId: $id, after: 0) { seq version type private data } }
"""
LOBBY = "subscription { lobby { type gameId variant } }"

ACTIONS = 45  # the initial placement of three seats (21 actions), then a few turns
RACES = 6
WAIT = 15.0  # seconds a subscriber may take to catch up with the game


# --------------------------------------------------------------------------- the instances


@pytest.fixture
def instances(store_env: dict[str, str], tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Instances A and B: two processes on one store (one MongoDB database, or one data
    folder's embedded store)."""
    shared = tmp_path / "data"
    servers = [
        Server(shared if not store_env else tmp_path / name, env=store_env) for name in ("a", "b")
    ]
    try:
        with ThreadPoolExecutor(2) as pool:  # both start at once
            for started in [pool.submit(server.start) for server in servers]:
                started.result()
        assert servers[0].port != servers[1].port
        yield servers[0], servers[1]
    finally:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.stop, servers))


@dataclass
class Clients:
    a: httpx.AsyncClient
    b: httpx.AsyncClient

    def of(self, n: int) -> httpx.AsyncClient:
        """A for even numbers, B for odd ones."""
        return self.b if n % 2 else self.a


@pytest.fixture
async def clients(instances: tuple[Server, Server]) -> AsyncIterator[Clients]:
    a, b = instances
    async with (
        httpx.AsyncClient(base_url=a.url, timeout=30) as on_a,
        httpx.AsyncClient(base_url=b.url, timeout=30) as on_b,
    ):
        yield Clients(on_a, on_b)


# --------------------------------------------------------------------------- helpers


@dataclass
class Table:
    game_id: str
    tokens: dict[int, str]


async def create(http: httpx.AsyncClient, seed: str) -> str:
    created = (await GraphQLClient(http)(CREATE, {"input": {"seed": seed}}))["createGame"]
    assert created["userErrors"] == [], created
    game_id: str = created["game"]["id"]
    return game_id


async def seat_players(clients: Clients, game_id: str, players: int) -> Table:
    """`players` seats, joining through A and B in turn."""
    tokens: dict[int, str] = {}
    for n in range(players):
        joined = (
            await GraphQLClient(clients.of(n))(
                JOIN, {"input": {"gameId": game_id, "name": f"Seat {n}"}}
            )
        )["joinGame"]
        assert joined["userErrors"] == [], joined
        assert joined["seat"] == n
        tokens[n] = joined["token"]
    return Table(game_id, tokens)


async def start(http: httpx.AsyncClient, table: Table) -> None:
    started = (
        await GraphQLClient(http, table.tokens[0])(START, {"input": {"gameId": table.game_id}})
    )["startGame"]
    assert started["userErrors"] == [], started
    assert started["game"]["status"] == "ACTIVE"


async def state_as_seat_to_act(http: httpx.AsyncClient, table: Table, seat: int = 0) -> Json:
    """The game as the seat to act sees it (its legal actions)."""
    state: Json = (await GraphQLClient(http, table.tokens[seat])(GAME, {"id": table.game_id}))[
        "game"
    ]
    if state["seatToAct"] != state["viewerSeat"]:
        seat = state["seatToAct"]
        state = (await GraphQLClient(http, table.tokens[seat])(GAME, {"id": table.game_id}))["game"]
    assert state["seatToAct"] == state["viewerSeat"], state
    return state


def request_for(table: Table, state: Json, key: str) -> Json:
    """The first legal family's ready-made input, at the version the seat saw."""
    families = state["legalActions"]
    assert families, state
    return {
        "gameId": table.game_id,
        "action": dict(families[0]["input"]),
        "expectedVersion": state["version"],
        "clientMutationId": key,
    }


async def submit(http: httpx.AsyncClient, table: Table, seat: int, request: Json) -> Json:
    answer: Json = (await GraphQLClient(http, table.tokens[seat])(SUBMIT, {"input": request}))[
        "submitAction"
    ]
    assert answer["clientMutationId"] == request["clientMutationId"]
    return answer


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


def increasing(events: list[Json]) -> bool:
    return all(a["seq"] < b["seq"] for a, b in itertools.pairwise(events))


async def collect(stream: AsyncIterator[Json], field: str, sink: list[Json]) -> None:
    try:
        async for data in stream:
            sink.append(data[field])
    finally:
        if isinstance(stream, AsyncGenerator):
            await stream.aclose()


@asynccontextmanager
async def following(
    ws_url: str,
    query: str,
    sink: list[Json],
    variables: Json | None = None,
    token: str | None = None,
) -> AsyncIterator[None]:
    """A subscription whose `next` payloads go to `sink` (its one field's value) meanwhile."""
    async with subscription(ws_url, query, variables, token) as stream:
        (field,) = [name for name in ("lobby", "gameEvents") if name in query]
        task = asyncio.create_task(collect(stream, field, sink))
        try:
            yield
        finally:
            if task.done():
                task.result()  # a follower that failed (or stopped) fails the test
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def caught_up(sink: list[Json], seq: int) -> Callable[[], bool]:
    return lambda: bool(sink) and sink[-1]["seq"] >= seq


async def wait_until(condition: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


# --------------------------------------------------------------------------- the tests


async def test_a_subscriber_on_b_receives_every_event_of_a_game_played_on_a_and_b(
    instances: tuple[Server, Server], clients: Clients
) -> None:
    _, b = instances
    lobby: list[Json] = []
    received: dict[int | None, list[Json]] = {viewer: [] for viewer in (None, 0, 1, 2)}
    acknowledged: dict[int, list[Json]] = {0: [], 1: [], 2: []}
    async with following(b.ws_url, LOBBY, lobby):
        # The lobby stream replays nothing: games created on A until B's subscriber gets one
        # say that the subscription is in place.
        probes: set[str] = set()
        for n in range(50):
            probes.add(await create(clients.a, f"probe-{n}"))
            await asyncio.sleep(0.1)
            if any(news["gameId"] in probes for news in lobby):
                break
        assert any(news["gameId"] in probes for news in lobby), "B's lobby stays silent"

        game_id = await create(clients.a, "instances")
        table = await seat_players(clients, game_id, 3)
        # Subscribers on B from before the start (no token: a spectator; a token: that seat).
        variables = {"id": game_id}
        async with (
            following(b.ws_url, GAME_EVENTS, received[None], variables),
            following(b.ws_url, GAME_EVENTS, received[0], variables, table.tokens[0]),
            following(b.ws_url, GAME_EVENTS, received[1], variables, table.tokens[1]),
            following(b.ws_url, GAME_EVENTS, received[2], variables, table.tokens[2]),
        ):
            await start(clients.a, table)
            # Actions alternately to A and B; each reads the game where it submits, so each
            # instance must see the other's latest version.
            seat = 0
            for n in range(ACTIONS):
                http = clients.of(n)
                state = await state_as_seat_to_act(http, table, seat)
                seat = state["seatToAct"]
                answer = await submit(http, table, seat, request_for(table, state, f"a-{n}"))
                assert answer["userErrors"] == [], answer
                assert answer["version"] == state["version"] + 1
                acknowledged[seat] += answer["events"]

            histories = {viewer: await history(clients.a, table, viewer) for viewer in received}
            for viewer, expected in histories.items():
                last = expected[-1]["seq"]
                await wait_until(
                    caught_up(received[viewer], last), f"viewer {viewer}'s events to {last}"
                )
            await asyncio.sleep(0.2)  # anything extra (a duplicate) would arrive now
        await wait_until(
            lambda: sum(news["gameId"] == game_id for news in lobby) >= 2,
            "the game's news in B's lobby",
        )

    # Every subscriber on B: exactly its history (public events, and its seat's own), in
    # order, each once; together the seats' streams are the whole history, 1..N.
    for viewer, events in received.items():
        assert increasing(events), (viewer, [e["seq"] for e in events])
        assert events == histories[viewer], viewer
    assert not any(event["private"] for event in received[None])
    every = sorted({event["seq"] for viewer in (0, 1, 2) for event in received[viewer]})
    last_seq = max(event["seq"] for events in histories.values() for event in events)
    assert every == list(range(1, last_seq + 1))
    assert sum(len(received[viewer]) for viewer in (0, 1, 2)) == last_seq + 2 * len(
        received[None]
    ), "a private event reached a seat it is not for, or a public one went missing"
    # Create, three joins, the start, then the actions.
    assert max(e["version"] for v in (0, 1, 2) for e in received[v]) == ACTIONS + 5
    for seat, events in acknowledged.items():
        for event in events:  # what each seat was answered is what its subscriber got
            assert event in received[seat]
    # B's lobby: the game's creation, then its start, each once.
    news = [(item["type"], item["variant"]) for item in lobby if item["gameId"] == game_id]
    assert news == [("GameCreated", "classic"), ("GameStarted", None)]


async def test_a_stale_action_race_across_instances_has_one_winner(clients: Clients) -> None:
    game_id = await create(clients.a, "race")
    table = await seat_players(clients, game_id, 3)
    await start(clients.b, table)
    seat = 0
    for race in range(RACES):
        state = await state_as_seat_to_act(clients.a, table, seat)
        seat, version = state["seatToAct"], state["version"]
        same_key = race % 2 == 1  # a client retrying one request on both instances
        requests = [
            request_for(table, state, f"race-{race}" if same_key else f"race-{race}-{side}")
            for side in ("a", "b")
        ]
        answers = await asyncio.gather(
            submit(clients.a, table, seat, requests[0]), submit(clients.b, table, seat, requests[1])
        )
        accepted = [answer for answer in answers if not answer["userErrors"]]
        refused = [answer for answer in answers if answer["userErrors"]]
        assert accepted, answers
        assert all(answer["version"] == version + 1 for answer in accepted), answers
        if same_key:  # the retry gets the first answer, or is stale: applied once either way
            assert all(answer["events"] == accepted[0]["events"] for answer in accepted)
        else:
            assert len(accepted) == 1, answers
        for answer in refused:
            assert [error["code"] for error in answer["userErrors"]] == ["STALE_VERSION"]
            assert answer["version"] is None
            assert answer["events"] == []
        for http in (clients.a, clients.b):  # both instances agree on the one outcome
            now = await state_as_seat_to_act(http, table, seat)
            assert now["version"] == version + 1
        events = await history(clients.b, table, seat)
        assert [e for e in events if e["version"] == version + 1] == accepted[0]["events"]
    # The history has no gap and no duplicate.
    seqs = sorted(
        {e["seq"] for viewer in (0, 1, 2) for e in await history(clients.a, table, viewer)}
    )
    assert seqs == list(range(1, seqs[-1] + 1))
