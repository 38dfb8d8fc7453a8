"""A whole FutuRisiKo! game through the real server (both stores): three scripted seats play
over HTTP from `legalActions` to the end of the game, a round limit of ROUNDS (a game to 20
territories takes thousands of actions; the engine's own tests play those in-process).

Each seat sends the ready `input` of a family it is offered, adjusted only where a ready input
would play badly: it builds tanks, sends one tank to each free territory next door and all the
others at an enemy they outnumber (a flag counts as two units), fires every submarine, fights
every battle. The seed is fixed, so the game is the same every run.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
SEED = "futurisiko-e2e"
ROUNDS = 10
MAX_ACTIONS = 1500

STATE = """
fragment State on Game {
  version status seatToAct viewerSeat phase round
  territories { id owner markers units { kind count seat } }
  legalActions {
    __typename
    ... on LegalPlaceFlag { input }
    ... on LegalReceiveCards { input }
    ... on LegalProduce { unit maxCount input }
    ... on LegalMoveUnits { unit source targets maxCount input }
    ... on LegalTorpedo { input }
    ... on LegalBattle { input }
    ... on LegalBattleCards { input }
    ... on LegalEndTurn { input }
  }
}
"""
CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    game { id seedCommitment options { fillBoard losses roundLimit } }
    userErrors { code message }
  }
}
"""
JOIN = """
mutation($input: JoinGameInput!) { joinGame(input: $input) { seat token userErrors { code } } }
"""
START = """
mutation($input: GameInput!) {
  startGame(input: $input) { game { status phase } userErrors { code message } }
}
"""
GAME = "query($id: ID!) { game(id: $id) { ...State } }" + STATE
SUBMIT = (
    """
mutation($input: SubmitActionInput!) {
  submitAction(input: $input) {
    version events { type } userErrors { code message } game { ...State }
  }
}
"""
    + STATE
)
FINAL = """
query($id: ID!) {
  game(id: $id) {
    status seatToAct seed seedCommitment legalActions { __typename }
    outcome { winner reason ranking { rank seat points } }
    players { seat territories eliminated }
    territories { id owner markers units { kind count seat } }
  }
}
"""


@dataclass
class Played:
    actions: int = 0
    kinds: dict[str, int] = field(default_factory=dict)  # ActionInput members sent
    events: set[str] = field(default_factory=set)  # event types acknowledged


def strength(territory: Json, me: int) -> int | None:
    """What stands against `me` on a territory: enemy tanks and aircraft, two for an enemy
    flag; -1 for a free, empty one; None for one of its own."""
    if territory["owner"] == me:
        return None
    enemy: int = sum(
        s["count"] for s in territory["units"] if s["seat"] != me and s["kind"] != "submarine"
    )
    if territory["owner"] is None and not enemy:
        mine = any(s["seat"] == me for s in territory["units"])
        return None if mine else -1
    return enemy + (2 if territory["owner"] is not None else 0)


def choose(state: Json) -> Json:
    """The ActionInput the viewer's seat sends now."""
    me = state["viewerSeat"]
    territories = {t["id"]: t for t in state["territories"]}
    families: dict[str, list[Json]] = {}
    for family in state["legalActions"]:
        families.setdefault(family["__typename"], []).append(family)
    for kind in ("LegalBattleCards", "LegalPlaceFlag", "LegalReceiveCards"):
        if kind in families:
            return dict(families[kind][0]["input"])
    for family in families.get("LegalProduce", []):
        if family["unit"] == "tank":
            return dict(family["input"])
    for family in families.get("LegalMoveUnits", []):
        if family["unit"] != "tank":
            continue
        against = {t: strength(territories[t], me) for t in family["targets"]}
        free = [t for t, s in against.items() if s == -1]
        if free and family["maxCount"] > 1:
            return {"moveUnits": {**family["input"]["moveUnits"], "target": free[0], "count": 1}}
        enemies = [(s, t) for t, s in against.items() if s is not None and s >= 0]
        if enemies and family["maxCount"] > min(enemies)[0]:
            target = min(enemies)[1]
            return {"moveUnits": {**family["input"]["moveUnits"], "target": target}}
    for kind in ("LegalTorpedo", "LegalBattle"):
        if kind in families:
            return dict(families[kind][0]["input"])
    return dict(families["LegalEndTurn"][0]["input"])


async def call(client: GraphQLClient, query: str, variables: Json) -> Json:
    """The `data` of a request, waiting as the server's budget asks when a long game of fast
    seats spends it (RATE_LIMITED, retryAfter)."""
    while True:
        response = await client.post(query, variables)
        body: Json = response.json()
        errors = body.get("errors") or [{}]
        if errors[0].get("extensions", {}).get("code") != "RATE_LIMITED":
            assert response.status_code == 200, body
            assert "errors" not in body, body
            data: Json = body["data"]
            return data
        await asyncio.sleep(errors[0]["extensions"]["retryAfter"])


async def play_to_end(seats: dict[int, GraphQLClient], game_id: str) -> Played:
    played = Played()
    state: Json = (await call(seats[0], GAME, {"id": game_id}))["game"]
    while state["status"] != "FINISHED":
        assert played.actions < MAX_ACTIONS, f"no end after {MAX_ACTIONS} actions"
        seat = state["seatToAct"]
        if state["viewerSeat"] != seat:  # legal actions are those of the viewer
            state = (await call(seats[seat], GAME, {"id": game_id}))["game"]
        action = choose(state)
        variables = {
            "input": {"gameId": game_id, "action": action, "expectedVersion": state["version"]}
        }
        submitted = (await call(seats[seat], SUBMIT, variables))["submitAction"]
        assert submitted["userErrors"] == [], (action, submitted["userErrors"])
        assert submitted["version"] == state["version"] + 1
        (kind,) = action
        played.kinds[kind] = played.kinds.get(kind, 0) + 1
        played.events |= {e["type"] for e in submitted["events"]}
        played.actions += 1
        state = submitted["game"]
    return played


async def test_a_futurisiko_game_to_its_end(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        anonymous = GraphQLClient(http)
        options = {"roundLimit": ROUNDS}
        variables = {"input": {"variant": "futurisiko", "seed": SEED, "options": options}}
        created = (await anonymous(CREATE, variables))["createGame"]
        assert created["userErrors"] == []
        game = created["game"]
        assert game["options"] == {"fillBoard": False, "losses": "tanks_first", "roundLimit": 10}
        seats: dict[int, GraphQLClient] = {}
        for n in range(3):
            joined = (await anonymous(JOIN, {"input": {"gameId": game["id"], "name": f"F{n}"}}))[
                "joinGame"
            ]
            assert joined["userErrors"] == []
            seats[n] = GraphQLClient(http, joined["token"])
        started = (await seats[0](START, {"input": {"gameId": game["id"]}}))["startGame"]
        assert started["userErrors"] == []
        assert started["game"] == {"status": "ACTIVE", "phase": "SETUP"}

        played = await play_to_end(seats, game["id"])
        final = (await anonymous(FINAL, {"id": game["id"]}))["game"]
    print("PLAYED", played, final["outcome"])

    # Flags placed, tanks built and moved, battles fought, territories taken.
    assert {"placeFlag", "produce", "moveUnits", "battle", "endTurn"} <= set(played.kinds)
    assert {"FlagPlaced", "UnitsProduced", "UnitsMoved", "BattleFought"} <= played.events
    assert final["status"] == "FINISHED"
    assert final["seatToAct"] is None
    assert final["legalActions"] == []
    assert hashlib.sha256(bytes.fromhex(final["seed"])).hexdigest() == final["seedCommitment"]
    outcome = final["outcome"]
    held = {p["seat"]: p["territories"] for p in final["players"]}
    ranking = outcome["ranking"]
    assert sorted(entry["seat"] for entry in ranking) == [0, 1, 2]
    if outcome["reason"] == "round_limit":  # ranked by territories held
        assert outcome["winner"] is None
        assert [entry["points"] for entry in ranking] == sorted(held.values(), reverse=True)
    else:
        assert outcome["reason"] in ("territories", "last_player")
        assert ranking[0]["seat"] == outcome["winner"]
    # Flags are the markers of the territories held, and every territory shows its owner's.
    flagged = [t for t in final["territories"] if "flag" in t["markers"]]
    assert len(flagged) == sum(held.values())
    assert all(t["owner"] is not None for t in flagged)
