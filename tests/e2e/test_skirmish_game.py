"""The test game through the real server (both stores): a game made only of its own folder
(variants/skirmish) and its registration (RISIKO_EXTRA_VARIANTS) plays from the lobby to its
end over HTTP, with its own actions in ActionInput, its own legal families and phases in the
schema, two kinds of unit on the board, a turn order drawn every round, and the defender's
answer owed out of turn as a prompt.

Each seat sends the ready `input` of a family it is offered (an assault only where it
outnumbers the defender, so that the game moves), and the defender answers from the prompt's
`defaultInput` or with one die, in turn, so that both answers are sent.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
MAX_ACTIONS = 2000

STATE = """
fragment State on Game {
  version status seatToAct viewerSeat currentPlayer phase round armiesToPlace
  state { __typename turnOrder ... on SkirmishState { recruitPoints } }
  prompts { seat kind defaultInput }
  territories { id owner units { kind seat count } }
  legalActions {
    __typename
    ... on LegalRecruit { unit spaces maxCount input }
    ... on LegalAssault { source target maxArmies input }
    ... on LegalHoldGround { minDice maxDice input }
    ... on LegalMarch { input }
    ... on LegalEndTurn { input }
  }
}
"""
CATALOGUE = """
{ variants { name minPlayers maxPlayers unitKinds actionKinds
  board { territories { id } edges { a b } } } }
"""
PHASES = '{ __type(name: "Phase") { enumValues { name } } }'
CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    game { id options { roundLimit } variantOptions { ... on SkirmishOptions { artilleryLimit } } }
    userErrors { code message }
  }
}
"""
JOIN = """
mutation($input: JoinGameInput!) { joinGame(input: $input) { seat token userErrors { code } } }
"""
START = """
mutation($input: GameInput!) {
  startGame(input: $input) { game { status phase round } userErrors { code message } }
}
"""
GAME = "query($id: ID!) { game(id: $id) { ...State } }" + STATE
SUBMIT = (
    """
mutation($input: SubmitActionInput!) {
  submitAction(input: $input) {
    version events { type data } userErrors { code message } game { ...State }
  }
}
"""
    + STATE
)
FINAL = """
query($id: ID!) {
  game(id: $id) {
    status seatToAct legalActions { __typename } prompts { seat }
    outcome { winner reason ranking { rank seat points } }
    players { seat territories armies eliminated }
  }
}
"""


@pytest.fixture
def skirmish_server(tmp_path: Path, store_env: dict[str, str]) -> Iterator[Server]:
    env = {**store_env, "RISIKO_EXTRA_VARIANTS": "variants.skirmish"}
    running = Server(tmp_path / "data", env=env).start()
    try:
        yield running
    finally:
        running.stop()


def choose(state: Json, rnd: random.Random) -> Json:
    """The ActionInput the viewer's seat sends now (see the module's docstring)."""
    units = {
        t["id"]: sum(u["count"] for u in t["units"] if u["kind"] == "army")
        for t in state["territories"]
    }
    families: dict[str, list[Json]] = {}
    for family in state["legalActions"]:
        families.setdefault(family["__typename"], []).append(family)
    if "LegalHoldGround" in families:
        (hold,) = families["LegalHoldGround"]
        (prompt,) = state["prompts"]
        if rnd.random() < 0.5:
            return dict(prompt["defaultInput"])
        return {"holdGround": {"dice": hold["minDice"]}}
    if "LegalRecruit" in families:
        return dict(rnd.choice(families["LegalRecruit"])["input"])
    assaults = [
        f for f in families.get("LegalAssault", []) if units[f["source"]] > units[f["target"]]
    ]
    if assaults and rnd.random() < 0.9:
        return dict(rnd.choice(assaults)["input"])
    if "LegalMarch" in families and rnd.random() < 0.3:
        return dict(rnd.choice(families["LegalMarch"])["input"])
    return dict(families["LegalEndTurn"][0]["input"])


async def test_the_test_game_plays_to_its_end_through_the_api(skirmish_server: Server) -> None:
    rnd = random.Random(7)
    async with httpx.AsyncClient(base_url=skirmish_server.url, timeout=30) as http:
        anonymous = GraphQLClient(http)
        catalogue = {v["name"]: v for v in (await anonymous(CATALOGUE))["variants"]}
        skirmish = catalogue["skirmish"]
        assert skirmish["unitKinds"] == ["army", "artillery"]
        assert {"recruit", "assault", "holdGround", "march", "endTurn"} <= set(
            skirmish["actionKinds"]
        )
        assert len(skirmish["board"]["territories"]) == 7
        phases = {v["name"] for v in (await anonymous(PHASES))["__type"]["enumValues"]}
        assert {"MUSTER", "BATTLE"} <= phases

        # Its own options' input type, with its own option (variants/skirmish/options.py).
        own = {"skirmish": {"roundLimit": 6, "artilleryLimit": 2}}
        variables = {"input": {"variant": "skirmish", "seed": "e2e", "variantOptions": own}}
        created = (await anonymous(CREATE, variables))["createGame"]
        assert created["userErrors"] == []
        assert created["game"]["options"] == {"roundLimit": 6}
        assert created["game"]["variantOptions"] == {"artilleryLimit": 2}
        game_id = created["game"]["id"]
        seats: dict[int, GraphQLClient] = {}
        for n in range(3):
            joined = (await anonymous(JOIN, {"input": {"gameId": game_id, "name": f"S{n}"}}))[
                "joinGame"
            ]
            assert joined["userErrors"] == []
            seats[joined["seat"]] = GraphQLClient(http, joined["token"])
        started = (await seats[0](START, {"input": {"gameId": game_id}}))["startGame"]
        assert started["userErrors"] == []
        assert started["game"] == {"status": "ACTIVE", "phase": "MUSTER", "round": 1}

        sent: dict[str, int] = {}
        events: list[Json] = []
        prompted = artillery_seen = 0
        state: Json = (await seats[0](GAME, {"id": game_id}))["game"]
        while state["status"] != "FINISHED":
            assert sum(sent.values()) < MAX_ACTIONS, "no end"
            seat = state["seatToAct"]
            if state["viewerSeat"] != seat:
                state = (await seats[seat](GAME, {"id": game_id}))["game"]
            if state["prompts"]:
                # Out of turn: the defender owes the answer, and nobody else may act.
                prompted += 1
                (prompt,) = state["prompts"]
                assert prompt["seat"] == seat != state["currentPlayer"]
                assert prompt["kind"] == "holdGround"
                assert [f["__typename"] for f in state["legalActions"]] == ["LegalHoldGround"]
            # The game's own state, in its own type: this round's order and the muster.
            assert state["state"]["__typename"] == "SkirmishState"
            assert state["state"]["recruitPoints"] == state["armiesToPlace"]
            drawn = [e["data"]["order"] for e in events if e["type"] == "TurnOrderDrawn"]
            if drawn:  # the first round's is among the start's events
                assert state["state"]["turnOrder"] == drawn[-1]
            else:
                assert sorted(state["state"]["turnOrder"]) == [0, 1, 2]
            artillery = [
                u["count"]
                for t in state["territories"]
                for u in t["units"]
                if u["kind"] == "artillery"
            ]
            artillery_seen += bool(artillery)
            assert max(artillery, default=0) <= 2  # the artillery limit the game was created with
            action = choose(state, rnd)
            variables = {
                "input": {"gameId": game_id, "action": action, "expectedVersion": state["version"]}
            }
            submitted = (await seats[seat](SUBMIT, variables))["submitAction"]
            assert submitted["userErrors"] == [], (action, submitted["userErrors"])
            (kind,) = action
            sent[kind] = sent.get(kind, 0) + 1
            events += submitted["events"]
            state = submitted["game"]

        final = (await anonymous(FINAL, {"id": game_id}))["game"]

    assert {"recruit", "assault", "holdGround", "endTurn"} <= set(sent), sent
    assert prompted
    assert artillery_seen
    types = {e["type"] for e in events}
    assert {
        "Recruited",
        "AssaultDeclared",
        "AssaultRolled",
        "SpaceTaken",
        "TurnOrderDrawn",
        "RoundEnded",  # its own event (variants/skirmish/events.py), through the server
    } <= types
    ended = [e["data"] for e in events if e["type"] == "RoundEnded"]
    assert [r["round"] for r in ended] == list(range(1, len(ended) + 1))
    assert all(sum(r["spaces"]) == 7 for r in ended)
    # Every round drew its order; over a game's rounds the first seat was not always the same.
    orders = [tuple(e["data"]["order"]) for e in events if e["type"] == "TurnOrderDrawn"]
    assert len(orders) >= 3
    assert len({order[0] for order in orders}) > 1
    assert any(m for e in events if e["type"] == "AssaultRolled" for m in e["data"]["modifiers"])

    assert final["status"] == "FINISHED"
    assert final["seatToAct"] is None
    assert final["legalActions"] == []
    assert final["prompts"] == []
    outcome = final["outcome"]
    assert outcome["reason"] in {"round_limit", "last_player"}
    held = {p["seat"]: p["territories"] for p in final["players"]}
    assert sum(held.values()) == 7
    assert [entry["points"] for entry in outcome["ranking"]] == sorted(held.values(), reverse=True)
