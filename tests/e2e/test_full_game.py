"""Whole games through the real server: scripted seats play over HTTP while subscribers
(a spectator and two of the seats) follow the events over WebSocket.

The seats only read `game { seatToAct version legalActions ... }` and send the ready-made
`input` of a legal family with `submitAction`; the seed is fixed, so each game is the same
every run (and ends in a few hundred actions).
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server, subscription

pytestmark = pytest.mark.anyio

Json = dict[str, Any]

STATE = """
fragment State on Game {
  version status seatToAct viewerSeat phase round
  territories { id owner armies }
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
CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) { game { id version seedCommitment seed } userErrors { code message } }
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
GAME = (
    """
query($id: ID!) { game(id: $id) { ...State } }
"""
    + STATE
)
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
FINAL = """
query($id: ID!) {
  game(id: $id) {
    status version seatToAct seed seedCommitment legalActions { __typename }
    outcome { winner reason ranking { rank seat points } }
    players { seat eliminated }
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
GAME_EVENTS = """
subscription($id: ID!) { gameEvents(gameId: $id, after: 0) { seq version type private data } }
"""

# The order a scripted seat prefers among the families it is offered.
FIRST_CHOICES = ("LegalDefend", "LegalTradeCards")
ATTACKS = ("LegalAttackUntil", "LegalAttack")
THEN = ("LegalPlaceArmies", "LegalOccupy", "LegalEndTurn")


@dataclass
class Table:
    """A game in the lobby or under way, and the seats' clients."""

    game_id: str
    commitment: str
    seats: dict[int, GraphQLClient]
    tokens: dict[int, str]


@dataclass
class Played:
    """What the scripted seats did."""

    actions: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    acknowledged: dict[int, list[Json]] = field(default_factory=dict)  # events, by seat
    final_version: int = 0


def choose(state: Json) -> Json:
    """The ActionInput a scripted seat sends: an attack where the source outnumbers the
    target, else a placement or an occupation as offered, else the end of the turn."""
    armies = {t["id"]: t["armies"] for t in state["territories"]}
    families: dict[str, list[Json]] = {}
    for family in state["legalActions"]:
        families.setdefault(family["__typename"], []).append(family)
    for kind in FIRST_CHOICES:
        if kind in families:
            return dict(families[kind][0]["input"])
    for kind in ATTACKS:
        for family in families.get(kind, []):
            if armies[family["source"]] > armies[family["target"]]:
                return dict(family["input"])
    for kind in THEN:
        if kind in families:
            return dict(families[kind][0]["input"])
    raise AssertionError(f"nothing to do in {state['legalActions']}")


async def open_table(
    http: httpx.AsyncClient, players: int, seed: str, options: Json | None = None
) -> Table:
    anonymous = GraphQLClient(http)
    created = (await anonymous(CREATE, {"input": {"seed": seed, "options": options}}))["createGame"]
    assert created["userErrors"] == []
    game = created["game"]
    assert game["seed"] is None  # secret until the end
    tokens: dict[int, str] = {}
    for n in range(players):
        joined = (await anonymous(JOIN, {"input": {"gameId": game["id"], "name": f"Seat {n}"}}))[
            "joinGame"
        ]
        assert joined["userErrors"] == []
        assert joined["seat"] == n
        tokens[n] = joined["token"]
    seats = {n: GraphQLClient(http, token) for n, token in tokens.items()}
    return Table(game["id"], game["seedCommitment"], seats, tokens)


async def start(table: Table) -> None:
    started = (await table.seats[0](START, {"input": {"gameId": table.game_id}}))["startGame"]
    assert started["userErrors"] == []
    assert started["game"]["status"] == "ACTIVE"


async def play_to_end(table: Table, max_actions: int) -> Played:
    """Every seat plays its scripted moves until the game is over."""
    played = Played()
    state: Json = (await table.seats[0](GAME, {"id": table.game_id}))["game"]
    while state["status"] != "FINISHED":
        assert played.actions < max_actions, f"no end after {max_actions} actions"
        seat = state["seatToAct"]
        assert seat is not None
        if state["viewerSeat"] != seat:  # legal actions are those of the viewer
            state = (await table.seats[seat](GAME, {"id": table.game_id}))["game"]
            assert state["seatToAct"] == seat
        action = choose(state)
        submitted = (
            await table.seats[seat](
                SUBMIT,
                {
                    "input": {
                        "gameId": table.game_id,
                        "action": action,
                        "expectedVersion": state["version"],
                        "clientMutationId": f"action-{played.actions}",
                    }
                },
            )
        )["submitAction"]
        assert submitted["userErrors"] == [], (action, submitted["userErrors"])
        assert submitted["clientMutationId"] == f"action-{played.actions}"
        assert submitted["version"] == state["version"] + 1
        assert submitted["events"], "an accepted action has events"
        assert {e["version"] for e in submitted["events"]} == {submitted["version"]}
        played.acknowledged.setdefault(seat, []).extend(submitted["events"])
        (kind,) = action
        played.kinds[kind] = played.kinds.get(kind, 0) + 1
        played.actions += 1
        state = submitted["game"]
        assert state["version"] == submitted["version"]
    played.final_version = state["version"]
    return played


async def history(client: GraphQLClient, game_id: str) -> list[Json]:
    """The events the client may see, page by page."""
    events: list[Json] = []
    after = 0
    while True:
        page = (await client(EVENTS, {"id": game_id, "after": after}))["game"]["events"]
        events += page["events"]
        if not page["hasMore"]:
            return events
        assert page["events"], "hasMore with an empty page"
        after = page["events"][-1]["seq"]


async def follow(stream: AsyncIterator[Json], sink: list[Json]) -> None:
    """Collect the subscription's events until the game's last one."""
    try:
        async for data in stream:
            event = data["gameEvents"]
            sink.append(event)
            if event["type"] == "GameEnded":
                return
    finally:
        if isinstance(stream, AsyncGenerator):
            await stream.aclose()


def strictly_increasing(events: list[Json]) -> bool:
    seqs = [e["seq"] for e in events]
    return all(a < b for a, b in itertools.pairwise(seqs))


async def play_watched_game(
    server: Server, players: int, seed: str, options: Json | None, max_actions: int
) -> tuple[Played, Json]:
    """Open a table, subscribe a spectator and seats 0 and 1, start and play to the end, then
    check what every subscriber received against the paged history."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        table = await open_table(http, players, seed, options)
        received: dict[int | None, list[Json]] = {viewer: [] for viewer in (None, 0, 1)}
        async with (
            subscription(server.ws_url, GAME_EVENTS, {"id": table.game_id}) as spectator,
            subscription(
                server.ws_url, GAME_EVENTS, {"id": table.game_id}, table.tokens[0]
            ) as seat_0,
            subscription(
                server.ws_url, GAME_EVENTS, {"id": table.game_id}, table.tokens[1]
            ) as seat_1,
        ):
            streams = {None: spectator, 0: seat_0, 1: seat_1}
            followers = [
                asyncio.create_task(follow(stream, received[viewer]))
                for viewer, stream in streams.items()
            ]
            await start(table)
            played = await play_to_end(table, max_actions)
            await asyncio.wait_for(asyncio.gather(*followers), timeout=20)

        anonymous = GraphQLClient(http)
        final = (await anonymous(FINAL, {"id": table.game_id}))["game"]
        public = await history(anonymous, table.game_id)
        seat_histories = {
            seat: await history(client, table.game_id) for seat, client in table.seats.items()
        }

    # The game is over, and its seed is revealed and matches the commitment.
    assert final["status"] == "FINISHED"
    assert final["version"] == played.final_version
    assert final["seatToAct"] is None
    assert final["legalActions"] == []
    assert final["seedCommitment"] == table.commitment
    assert final["seed"] == seed.encode().hex()
    assert hashlib.sha256(bytes.fromhex(final["seed"])).hexdigest() == final["seedCommitment"]
    outcome = final["outcome"]
    assert outcome["reason"] in {"objective", "last_player", "round_limit"}
    ranking = outcome["ranking"]
    assert sorted(entry["seat"] for entry in ranking) == list(range(players))
    assert [entry["rank"] for entry in ranking] == sorted(entry["rank"] for entry in ranking)
    if outcome["reason"] == "round_limit":  # nobody won: the ranking decides, by points
        assert outcome["winner"] is None
        points = [entry["points"] for entry in ranking]
        assert points == sorted(points, reverse=True)
    else:
        assert outcome["winner"] is not None
        assert ranking[0]["rank"] == 1
        assert ranking[0]["seat"] == outcome["winner"]

    # The history: public events for a spectator, and each seat's own private ones besides.
    assert strictly_increasing(public)
    assert not any(event["private"] for event in public)
    assert public[-1]["type"] == "GameEnded"
    assert public[-1]["version"] == played.final_version
    ended = public[-1]["data"]
    assert (ended["winner"], ended["reason"]) == (outcome["winner"], outcome["reason"])
    every_seq: set[int] = {event["seq"] for event in public}
    for seat, seen in seat_histories.items():
        assert strictly_increasing(seen)
        mine = [event for event in seen if event["private"]]
        assert all(event["data"]["seat"] == seat for event in mine), mine
        assert [event for event in seen if not event["private"]] == public
        assert [e["data"]["seat"] for e in mine if e["type"] == "ObjectiveAssigned"] == [seat]
        # What submitAction acknowledged to a seat is in that seat's history, unchanged.
        for event in played.acknowledged.get(seat, []):
            assert event in seen
        every_seq |= {event["seq"] for event in mine}
    assert every_seq == set(range(1, max(every_seq) + 1)), "a gap in the history"

    # The spectator's subscription: every public event, in order, once.
    assert strictly_increasing(received[None])
    assert received[None] == public
    # Each seat's subscription: the public events and its own private ones, nobody else's.
    for seat in (0, 1):
        assert strictly_increasing(received[seat])
        assert received[seat] == seat_histories[seat]
        assert all(e["data"]["seat"] == seat for e in received[seat] if e["private"])
        assert any(
            event["type"] == "ObjectiveAssigned" and event["data"]["seat"] == seat
            for event in received[seat]
        )
    return played, final


# The seeds are chosen so that the scripted seats finish in a few hundred actions and trade
# cards on the way: "seed-11" ends by an objective in round 10 (276 actions); "seed-22" reaches
# the round limit (390 actions, a third of them a defender declaring its dice).


async def test_three_players_play_a_classic_game_to_its_end(server: Server) -> None:
    played, final = await play_watched_game(server, 3, "seed-11", None, max_actions=1000)
    assert played.kinds.get("attackUntil", 0) > 0
    assert played.kinds.get("tradeCards", 0) > 0
    assert "defend" not in played.kinds  # the defender rolls its maximum by default
    assert final["outcome"]["reason"] in {"objective", "last_player"}


async def test_four_players_with_declared_defender_dice(server: Server) -> None:
    options = {"defenderDice": "DECLARE", "roundLimit": 8}
    played, final = await play_watched_game(server, 4, "seed-22", options, max_actions=1500)
    assert played.kinds.get("attack", 0) > 0
    assert "attackUntil" not in played.kinds  # one roll at a time when the defender declares
    # Every roll waited for the defender's dice: one defend per attack.
    assert played.kinds.get("defend", 0) == played.kinds["attack"]
    assert final["outcome"]["reason"] in {"objective", "last_player", "round_limit"}
