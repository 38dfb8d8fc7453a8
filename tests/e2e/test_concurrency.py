"""Clients racing on one game through the real server: optimistic concurrency
(expectedVersion), idempotent retries (clientMutationId), and turns."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server

pytestmark = pytest.mark.anyio

Json = dict[str, Any]

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
  startGame(input: $input) { game { status } userErrors { code message } }
}
"""
GAME = """
query($id: ID!) {
  game(id: $id) {
    version seatToAct phase armiesToPlace
    territories { id owner armies }
    legalActions { __typename ... on LegalPlaceArmies { territories minArmies maxArmies } }
  }
}
"""
SUBMIT = """
mutation($input: SubmitActionInput!) {
  submitAction(input: $input) {
    version clientMutationId
    events { seq version type private data }
    userErrors { code message }
  }
}
"""
EVENTS = """
query($id: ID!, $after: Int!) {
  game(id: $id) {
    events(after: $after, first: 100) { hasMore events { seq version type private data } }
  }
}
"""
READERS = 3
WRITES = 60  # of the 63 armies the three seats place in the initial placement
PLACE = """
mutation($input: SubmitActionInput!) {
  submitAction(input: $input) {
    version userErrors { code message } game { seatToAct territories { id owner } }
  }
}
"""
SNAPSHOT = "query($id: ID!) { game(id: $id) { version territories { armies } } }"


@dataclass
class Table:
    game_id: str
    seats: dict[int, GraphQLClient]


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
    async with httpx.AsyncClient(base_url=server.url, timeout=30, limits=limits) as client:
        yield client


@pytest.fixture
async def table(http: httpx.AsyncClient) -> Table:
    return await open_table(http)


async def open_table(http: httpx.AsyncClient) -> Table:
    """A started three-player game, in its initial placement."""
    anonymous = GraphQLClient(http)
    created = (await anonymous(CREATE, {"input": {"seed": "race"}}))["createGame"]
    assert created["userErrors"] == []
    game_id = created["game"]["id"]
    seats: dict[int, GraphQLClient] = {}
    for n in range(3):
        joined = (await anonymous(JOIN, {"input": {"gameId": game_id, "name": f"Seat {n}"}}))[
            "joinGame"
        ]
        assert joined["userErrors"] == []
        seats[joined["seat"]] = GraphQLClient(http, joined["token"])
    started = (await seats[0](START, {"input": {"gameId": game_id}}))["startGame"]
    assert started["userErrors"] == []
    return Table(game_id, seats)


async def state(table: Table, seat: int | None = None) -> Json:
    client = table.seats[0] if seat is None else table.seats[seat]
    game: Json = (await client(GAME, {"id": table.game_id}))["game"]
    return game


async def own_territories(table: Table, seat: int) -> list[str]:
    """The territories a seat may place armies on now (empty if it is not its turn)."""
    game = await state(table, seat)
    if game["seatToAct"] == seat:
        (family,) = game["legalActions"]
        assert family["__typename"] == "LegalPlaceArmies"
        assert family["minArmies"] == 1
        return list(family["territories"])
    return [t["id"] for t in game["territories"] if t["owner"] == seat]


def place(
    table: Table, territory: str, expected: int | None, key: str | None, armies: int = 1
) -> Json:
    return {
        "gameId": table.game_id,
        "action": {"placeArmies": {"territory": territory, "armies": armies}},
        "expectedVersion": expected,
        "clientMutationId": key,
    }


async def submit(client: GraphQLClient, request: Json) -> Json:
    answer: Json = (await client(SUBMIT, {"input": request}))["submitAction"]
    assert answer["clientMutationId"] == request["clientMutationId"]
    return answer


def codes(answer: Json) -> list[str]:
    return [error["code"] for error in answer["userErrors"]]


async def history(client: GraphQLClient, game_id: str) -> list[Json]:
    events: list[Json] = []
    after = 0
    while True:
        page = (await client(EVENTS, {"id": game_id, "after": after}))["game"]["events"]
        events += page["events"]
        if not page["hasMore"]:
            return events
        after = page["events"][-1]["seq"]


async def assert_sound_history(table: Table, version: int) -> list[Json]:
    """No duplicate or missing event; the last one is of the game's version."""
    seen: dict[int, Json] = {}
    for seat, client in table.seats.items():
        events = await history(client, table.game_id)
        seqs = [event["seq"] for event in events]
        assert all(a < b for a, b in itertools.pairwise(seqs)), f"seat {seat}: {seqs}"
        for event in events:
            assert seen.setdefault(event["seq"], event) == event
    assert sorted(seen) == list(range(1, len(seen) + 1))
    ordered = [seen[seq] for seq in sorted(seen)]
    assert ordered[-1]["version"] == version
    versions = [event["version"] for event in ordered]
    assert versions == sorted(versions)
    return ordered


def placed(events: list[Json], version: int) -> list[Json]:
    return [e for e in events if e["version"] == version and e["type"] == "ArmiesPlaced"]


# --------------------------------------------------------------------------- expectedVersion


async def test_twenty_racing_submits_with_one_expected_version_one_wins(table: Table) -> None:
    before = await state(table)
    seat, version = before["seatToAct"], before["version"]
    territories = await own_territories(table, seat)
    requests = [
        place(table, territories[n % len(territories)], version, f"racer-{n}") for n in range(20)
    ]
    answers = await asyncio.gather(*(submit(table.seats[seat], r) for r in requests))

    winners = [(n, a) for n, a in enumerate(answers) if not a["userErrors"]]
    assert len(winners) == 1, answers
    (winner, answer), *_ = winners
    assert answer["version"] == version + 1
    losers = [a for n, a in enumerate(answers) if n != winner]
    assert all(codes(a) == ["STALE_VERSION"] for a in losers), losers
    assert all(a["version"] is None and a["events"] == [] for a in losers)

    after = await state(table)
    assert after["version"] == version + 1
    armies_before = {t["id"]: t["armies"] for t in before["territories"]}
    armies_after = {t["id"]: t["armies"] for t in after["territories"]}
    target = requests[winner]["action"]["placeArmies"]["territory"]
    assert armies_after == {**armies_before, target: armies_before[target] + 1}
    events = await assert_sound_history(table, version + 1)
    assert [e["data"]["territory"] for e in placed(events, version + 1)] == [target]


async def test_late_submits_with_an_old_version_are_stale(table: Table) -> None:
    before = await state(table)
    seat, version = before["seatToAct"], before["version"]
    territory = (await own_territories(table, seat))[0]
    first = await submit(table.seats[seat], place(table, territory, version, "first"))
    assert first["userErrors"] == []
    late = await asyncio.gather(
        *(
            submit(table.seats[seat], place(table, territory, version, f"late-{n}"))
            for n in range(5)
        )
    )
    assert all(codes(answer) == ["STALE_VERSION"] for answer in late)
    assert (await state(table))["version"] == version + 1


async def test_racing_submits_without_expected_version_apply_one_by_one(table: Table) -> None:
    before = await state(table)
    seat, version = before["seatToAct"], before["version"]
    territories = await own_territories(table, seat)
    requests = [place(table, territories[n % len(territories)], None, f"n-{n}") for n in range(20)]
    answers = await asyncio.gather(*(submit(table.seats[seat], r) for r in requests))

    accepted = [a for a in answers if not a["userErrors"]]
    # The seat places three armies a turn in the initial placement, then the turn passes.
    assert len(accepted) == 3
    assert sorted(a["version"] for a in accepted) == [version + 1, version + 2, version + 3]
    assert all(codes(a) == ["NOT_YOUR_TURN"] for a in answers if a["userErrors"])
    after = await state(table)
    assert after["version"] == version + 3
    assert after["seatToAct"] != seat
    total = sum(t["armies"] for t in after["territories"])
    assert total == sum(t["armies"] for t in before["territories"]) + 3
    await assert_sound_history(table, version + 3)


# --------------------------------------------------------------------------- clientMutationId


async def test_a_repeated_client_mutation_id_returns_the_first_answer(table: Table) -> None:
    before = await state(table)
    seat, version = before["seatToAct"], before["version"]
    territory = (await own_territories(table, seat))[0]
    request = place(table, territory, version, "once")
    first = await submit(table.seats[seat], request)
    assert first["userErrors"] == []
    assert first["version"] == version + 1
    assert first["events"]

    again = await submit(table.seats[seat], request)
    assert again == first  # the same version and events, though the game is now at that version
    # Even with no expectedVersion, or another action: the key names the first answer.
    other = place(table, territory, None, "once", armies=2)
    assert await submit(table.seats[seat], other) == first

    after = await state(table)
    assert after["version"] == version + 1
    armies = {t["id"]: t["armies"] for t in after["territories"]}
    assert armies[territory] == {t["id"]: t["armies"] for t in before["territories"]}[territory] + 1
    events = await assert_sound_history(table, version + 1)
    assert len(placed(events, version + 1)) == 1


async def test_concurrent_copies_of_one_client_mutation_id_apply_once(table: Table) -> None:
    before = await state(table)
    seat, version = before["seatToAct"], before["version"]
    territory = (await own_territories(table, seat))[0]
    for expected in (version, None):
        key = f"copies-{expected}"
        request = place(table, territory, expected, key)
        answers = await asyncio.gather(*(submit(table.seats[seat], request) for _ in range(10)))
        assert all(a["userErrors"] == [] for a in answers), answers
        assert all(a == answers[0] for a in answers)
        version += 1
        assert answers[0]["version"] == version
        assert (await state(table))["version"] == version
    events = await assert_sound_history(table, version)
    assert len(placed(events, version - 1)) == len(placed(events, version)) == 1


async def test_a_client_mutation_id_is_per_seat(table: Table) -> None:
    """Two seats may use the same key: one seat's answer is never another's."""
    before = await state(table)
    seat, version = before["seatToAct"], before["version"]
    other = next(s for s in table.seats if s != seat)
    mine = await submit(
        table.seats[seat], place(table, (await own_territories(table, seat))[0], version, "k")
    )
    assert mine["userErrors"] == []
    theirs = await submit(
        table.seats[other], place(table, (await own_territories(table, other))[0], None, "k")
    )
    assert codes(theirs) == ["NOT_YOUR_TURN"]
    assert (await state(table))["version"] == version + 1


# --------------------------------------------------------------------------- turns


async def test_only_the_seat_to_act_wins_a_race_between_seats(table: Table) -> None:
    for race in range(6):
        before = await state(table)
        seat, version = before["seatToAct"], before["version"]
        owned = {s: await own_territories(table, s) for s in table.seats}
        # Without expectedVersion, a seat whose turn comes next may act once the turn passes:
        # race so only while the seat to act keeps its turn (it has armies left to place).
        with_version = race % 2 == 0 or before["armiesToPlace"] < 2
        requests = {
            s: place(table, owned[s][0], version if with_version else None, f"race-{race}-{s}")
            for s in table.seats
        }
        answers = dict(
            zip(
                requests,
                await asyncio.gather(*(submit(table.seats[s], r) for s, r in requests.items())),
                strict=True,
            )
        )
        assert answers[seat]["userErrors"] == [], answers[seat]
        assert answers[seat]["version"] == version + 1
        for other, answer in answers.items():
            if other != seat:
                # Refused as not its turn, or (decided after the winner) as stale.
                allowed = {"NOT_YOUR_TURN", "STALE_VERSION"} if with_version else {"NOT_YOUR_TURN"}
                assert codes(answer), answer
                assert set(codes(answer)) <= allowed, answer
        assert (await state(table))["version"] == version + 1
    await assert_sound_history(table, version + 1)


# --------------------------------------------------------------------------- readers


async def test_readers_racing_a_writer_see_committed_states(
    http: httpx.AsyncClient, table: Table
) -> None:
    """What a reader is shown as version v is the game at version v: neither an earlier state
    nor a later one (one the store has not accepted yet), while a seat writes as fast as it
    can: the whole initial placement, one army at a time."""
    anonymous = GraphQLClient(http)
    game = await state(table)
    truth = {game["version"]: [t["armies"] for t in game["territories"]]}
    index = {t["id"]: n for n, t in enumerate(game["territories"])}
    reads: list[tuple[int, list[int]]] = []
    done = asyncio.Event()

    async def read() -> None:
        while not done.is_set():
            seen = (await anonymous(SNAPSHOT, {"id": table.game_id}))["game"]
            reads.append((seen["version"], [t["armies"] for t in seen["territories"]]))

    async def write() -> None:
        seat = game["seatToAct"]
        owned = [t["id"] for t in game["territories"] if t["owner"] == seat]
        try:
            for n in range(WRITES):
                territory = owned[n % len(owned)]
                answer = (
                    await table.seats[seat](
                        PLACE, {"input": place(table, territory, None, f"w-{n}")}
                    )
                )["submitAction"]
                assert answer["userErrors"] == [], answer
                armies = list(truth[answer["version"] - 1])
                armies[index[territory]] += 1
                truth[answer["version"]] = armies
                seat = answer["game"]["seatToAct"]
                owned = [t["id"] for t in answer["game"]["territories"] if t["owner"] == seat]
        finally:
            done.set()

    await asyncio.gather(write(), *(read() for _ in range(READERS)))
    assert len(truth) == WRITES + 1
    assert len({version for version, _ in reads}) > WRITES // 2
    wrong = [(version, armies) for version, armies in reads if truth[version] != armies]
    assert not wrong, f"{len(wrong)} of {len(reads)} reads were not the state of their version"
