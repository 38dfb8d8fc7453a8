"""A whole S.P.Q.RisiKo! game through the real server (both stores): three scripted seats play
over HTTP from `legalActions` until a player claims the victory points that win.

Each seat sends the ready `input` of a family it is offered, adjusted only where a ready input
would play badly: it claims provinces next to its own, reinforces its strongest border
province, and attacks (by land or by sea) only where it outnumbers the defender. The seed is
fixed, so the game is the same every run; a target of 6 victory points keeps it short.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
SEED = "spqr-e2e"
TARGET = 6
BUILD_FROM = 8  # legionaries a province needs before it builds a trireme
MAX_ACTIONS = 1500

STATE = """
fragment State on Game {
  version status seatToAct viewerSeat phase round
  territories { id owner armies neutral triremes { seat count } }
  legalActions {
    __typename
    ... on LegalPlaceArmies { territories maxArmies input }
    ... on LegalTradeCards { input }
    ... on LegalAttackUntil { source target input }
    ... on LegalOccupy { input }
    ... on LegalEndTurn { input }
    ... on LegalClaimProvince { provinces input }
    ... on LegalPlaceNeutral { input }
    ... on LegalPlacePowerCentre { input }
    ... on LegalPlaceTrireme { input }
    ... on LegalBuildTrireme { province sea input }
    ... on LegalNavalBattle { sea opponent ongoing input }
    ... on LegalSeaAttack { target maxLegionaries input }
  }
}
"""
CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    game { id seedCommitment options { victoryPoints } } userErrors { code message }
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
BOARD = """{ variants { name board { territories { id kind } edges { a b kind } } } }"""
FINAL = """
query($id: ID!) {
  game(id: $id) {
    status seatToAct seed seedCommitment legalActions { __typename }
    outcome { winner reason ranking { rank seat points } }
    players { seat victoryPoints territories eliminated }
    territories { id owner neutral armies }
  }
}
"""
EVENTS = """
query($id: ID!, $after: Int!) {
  game(id: $id) { events(after: $after, first: 100) { hasMore events { seq type data } } }
}
"""


@dataclass
class Board:
    provinces: frozenset[str]
    land: Mapping[str, frozenset[str]]  # neighbours by land
    shores: Mapping[str, frozenset[str]]  # a sea area's coastal provinces


@dataclass
class Played:
    actions: int = 0
    kinds: dict[str, int] = field(default_factory=dict)  # ActionInput members sent
    events: set[str] = field(default_factory=set)  # event types acknowledged


async def load_board(client: GraphQLClient) -> Board:
    variants = (await client(BOARD))["variants"]
    board = next(v["board"] for v in variants if v["name"] == "spqr")
    provinces = frozenset(t["id"] for t in board["territories"] if t["kind"] == "LAND")
    land: dict[str, set[str]] = {p: set() for p in provinces}
    shores: dict[str, set[str]] = {}
    for edge in board["edges"]:
        a, b = edge["a"], edge["b"]
        if edge["kind"] == "land":
            land[a].add(b)
            land[b].add(a)
        elif edge["kind"] == "coast":
            province, sea = (a, b) if a in provinces else (b, a)
            shores.setdefault(sea, set()).add(province)
    return Board(
        provinces,
        {p: frozenset(n) for p, n in land.items()},
        {sea: frozenset(coast) for sea, coast in shores.items()},
    )


def choose(state: Json, board: Board) -> Json:
    """The ActionInput the viewer's seat sends now."""
    me = state["viewerSeat"]
    owner = {t["id"]: t["owner"] for t in state["territories"]}
    armies = {t["id"]: t["armies"] for t in state["territories"]}
    families: dict[str, list[Json]] = {}
    for family in state["legalActions"]:
        families.setdefault(family["__typename"], []).append(family)

    if "LegalClaimProvince" in families:
        free = families["LegalClaimProvince"][0]["provinces"]
        near = [p for p in free if any(owner[n] == me for n in board.land[p])]
        return {"claimProvince": {"province": (near or free)[0]}}
    for kind in ("LegalPlaceNeutral", "LegalTradeCards", "LegalPlacePowerCentre"):
        if kind in families:
            return dict(families[kind][0]["input"])
    if "LegalPlaceTrireme" in families:
        return dict(families["LegalPlaceTrireme"][0]["input"])
    if "LegalPlaceArmies" in families:
        family = families["LegalPlaceArmies"][0]
        border = [
            p
            for p in family["territories"]
            if any(owner[n] != me for n in board.land[p]) or not board.land[p]
        ]
        strongest = max(border or family["territories"], key=lambda p: armies[p])
        return {"placeArmies": {"territory": strongest, "armies": family["maxArmies"]}}
    if "LegalOccupy" in families:
        return dict(families["LegalOccupy"][0]["input"])
    fleets = {t["id"]: {f["seat"]: f["count"] for f in t["triremes"]} for t in state["territories"]}
    for family in families.get("LegalBuildTrireme", []):
        # A fleet of one, from a big garrison, on a sea with a shore to take.
        sea = family["sea"]
        if (
            armies[family["province"]] >= BUILD_FROM
            and not fleets[sea].get(me)
            and any(owner[p] != me for p in board.shores[sea])
        ):
            return {"buildTrireme": {"province": family["province"], "sea": sea, "triremes": 1}}
    for family in families.get("LegalNavalBattle", []):
        fleet = fleets[family["sea"]]
        if family["ongoing"] or fleet.get(me, 0) > fleet.get(family["opponent"], 0):
            return dict(family["input"])
    for family in families.get("LegalSeaAttack", []):
        if family["maxLegionaries"] > armies[family["target"]] + 1:
            return dict(family["input"])
    for family in families.get("LegalAttackUntil", []):
        if armies[family["source"]] > armies[family["target"]] + 1:
            return dict(family["input"])
    return dict(families["LegalEndTurn"][0]["input"])


async def play_to_end(seats: dict[int, GraphQLClient], game_id: str, board: Board) -> Played:
    played = Played()
    state: Json = (await seats[0](GAME, {"id": game_id}))["game"]
    while state["status"] != "FINISHED":
        assert played.actions < MAX_ACTIONS, f"no end after {MAX_ACTIONS} actions"
        seat = state["seatToAct"]
        if state["viewerSeat"] != seat:  # legal actions are those of the viewer
            state = (await seats[seat](GAME, {"id": game_id}))["game"]
        action = choose(state, board)
        variables = {
            "input": {"gameId": game_id, "action": action, "expectedVersion": state["version"]}
        }
        submitted = (await seats[seat](SUBMIT, variables))["submitAction"]
        assert submitted["userErrors"] == [], (action, submitted["userErrors"])
        assert submitted["version"] == state["version"] + 1
        (kind,) = action
        played.kinds[kind] = played.kinds.get(kind, 0) + 1
        played.events |= {e["type"] for e in submitted["events"]}
        played.actions += 1
        state = submitted["game"]
    return played


async def history(client: GraphQLClient, game_id: str) -> list[Json]:
    events: list[Json] = []
    after = 0
    while True:
        page = (await client(EVENTS, {"id": game_id, "after": after}))["game"]["events"]
        events += page["events"]
        if not page["hasMore"]:
            return events
        after = page["events"][-1]["seq"]


async def test_an_spqr_game_to_its_end(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        anonymous = GraphQLClient(http)
        board = await load_board(anonymous)
        assert len(board.provinces) == 45
        variables = {
            "input": {"variant": "spqr", "seed": SEED, "options": {"victoryPoints": TARGET}}
        }
        created = (await anonymous(CREATE, variables))["createGame"]
        assert created["userErrors"] == []
        game = created["game"]
        assert game["options"]["victoryPoints"] == TARGET
        seats: dict[int, GraphQLClient] = {}
        for n in range(3):
            joined = (await anonymous(JOIN, {"input": {"gameId": game["id"], "name": f"C{n}"}}))[
                "joinGame"
            ]
            assert joined["userErrors"] == []
            seats[n] = GraphQLClient(http, joined["token"])
        started = (await seats[0](START, {"input": {"gameId": game["id"]}}))["startGame"]
        assert started["userErrors"] == []
        assert started["game"] == {"status": "ACTIVE", "phase": "SETUP"}

        played = await play_to_end(seats, game["id"], board)
        final = (await anonymous(FINAL, {"id": game["id"]}))["game"]
        events = await history(anonymous, game["id"])
    print(
        "PLAYED",
        played,
        final["outcome"],
        [(p["seat"], p["victoryPoints"], p["territories"]) for p in final["players"]],
    )

    # Everyone claimed provinces and placed neutrals; the game was fought on land and across
    # the sea, and won on points.
    sent = {"claimProvince", "placeNeutral", "placeArmies", "attackUntil", "occupy", "endTurn"}
    assert sent | {"tradeCards", "buildTrireme", "seaAttack"} <= set(played.kinds), played.kinds
    assert {
        "VictoryPointsScored",
        "TerritoryConquered",
        "NeutralPlaced",
        "TriremesPlaced",
        "SeaAttackLaunched",
    } <= played.events
    assert final["status"] == "FINISHED"
    assert final["seatToAct"] is None
    assert final["legalActions"] == []
    assert hashlib.sha256(bytes.fromhex(final["seed"])).hexdigest() == final["seedCommitment"]
    outcome = final["outcome"]
    assert outcome["reason"] == "victory_points"
    winner = outcome["winner"]
    assert winner is not None
    points = {p["seat"]: p["victoryPoints"] for p in final["players"]}
    assert points[winner] >= TARGET
    assert all(points[s] < TARGET for s in points if s != winner)
    assert outcome["ranking"][0] == {"rank": 1, "seat": winner, "points": points[winner]}

    # Every province is held, by a player or by neutral legionaries, and never by both.
    provinces = [t for t in final["territories"] if t["id"] in board.provinces]
    held = [t for t in provinces if t["owner"] is not None or t["neutral"] is not None]
    assert len(held) == 45
    assert all(t["owner"] is None or t["neutral"] is None for t in provinces)
    assert all(t["armies"] >= 1 for t in provinces)
    assert sum(p["territories"] for p in final["players"]) == sum(
        t["owner"] is not None for t in provinces
    )

    # The history: victory points claimed turn after turn, the last claim the winning one.
    scored = [e["data"] for e in events if e["type"] == "VictoryPointsScored"]
    assert scored
    assert scored[-1]["seat"] == winner
    assert scored[-1]["total"] == points[winner]
    assert events[-1]["type"] == "GameEnded"
    assert (events[-1]["data"]["winner"], events[-1]["data"]["reason"]) == (
        winner,
        "victory_points",
    )
