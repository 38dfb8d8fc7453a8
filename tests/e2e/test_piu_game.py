"""A whole RisiKo! Più game through the real server (both stores): three scripted seats play
over HTTP from `legalActions` until a winner, and what each seat keeps secret never reaches
another seat or a spectator.

Each seat sends the ready `input` of a family it is offered, adjusted only where a ready input
would play badly: it claims territories next to its own, writes its hidden armies' territory
on one it holds, reinforces its strongest border territory, plays a Generale on an attack it
is about to make, and attacks (by land, or by sea with the flagship) only where it outnumbers
the defender. Seats not in turn set their standing orders now and then, out of turn. The seed
is fixed, so the game is the same every run.

Hidden information, checked as every seat and as a spectator along the game: another seat's
hand, the hidden armies' territory (`Game.secrets`: the viewer's own only, null for a
spectator), and the private events (`CardsReceived`, `HiddenTerritoryChosen`, `SpyReport`,
`CardLost`, `StandingOrdersSet`) of another seat are never shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.e2e.support import GraphQLClient, Server

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
SEED = "piu-e2e"
SEATS = 3
MAX_ACTIONS = 1500
CHECK_EVERY = 15  # actions between two checks of what every viewer sees
ORDERS_EVERY = 20  # actions between two standing orders set out of turn
ORDERS = (("fortress", "let_through"), ("never", "block"), ("always", "block"))
HOLDS_BACK = 2  # the seat that brings its hidden armies out only out of turn
PRIVATE_TYPES = frozenset(
    {"CardsReceived", "HiddenTerritoryChosen", "SpyReport", "CardLost", "StandingOrdersSet"}
)
OUT_OF_TURN = frozenset({"LegalStandingOrders", "LegalRevealHiddenArmies"})
SECRET_NAMES = ["hidden_territory", "hidden_armies_used", "marshal_orders", "spy_orders"]

STATE = """
fragment State on Game {
  version status seatToAct viewerSeat phase round
  territories { id owner armies }
  state { ... on PiuState { setupStep fortresses attackSource attackTarget general } }
  legalActions {
    __typename
    ... on LegalChooseFortress { territories input }
    ... on LegalClaimTerritory { territories input }
    ... on LegalWriteHiddenTerritory { territories input }
    ... on LegalPlaceArmies { territories maxArmies input }
    ... on LegalRevealHiddenArmies { territory armies input }
    ... on LegalPlayRinforzi { cards input }
    ... on LegalPlaySpy { cards players input }
    ... on LegalDiscardSpiedCard { player cards input }
    ... on LegalPlayDiplomat { input }
    ... on LegalPlayGeneral { cards sources targets input }
    ... on LegalAdmiralAttack { cards source targets maxArmies input }
    ... on LegalAttackUntil { source target input }
    ... on LegalOccupy { maxArmies input }
    ... on LegalStrategicMove { input }
    ... on LegalEndTurn { input }
    ... on LegalStandingOrders { marshal spy input }
  }
}
"""
CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    game { id seedCommitment variant } userErrors { code message }
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
    version events { type private data } userErrors { code message } game { ...State }
  }
}
"""
    + STATE
)
VARIANTS = """
{
  variants {
    name actionKinds
    board { version reconstructed territories { id kind } edges { a b kind } }
  }
}
"""
SECRETS = """
query($id: ID!) {
  game(id: $id) {
    viewerSeat seatToAct phase hand { id symbol } secrets { name value }
    legalActions { __typename } players { seat eliminated resigned }
  }
}
"""
FINAL = """
query($id: ID!) {
  game(id: $id) {
    status seatToAct seed seedCommitment legalActions { __typename }
    outcome { winner reason ranking { rank seat points } }
    players { seat territories eliminated cards }
    territories { id owner armies }
    state { ... on PiuState { fortresses bannerHolders } }
  }
}
"""
EVENTS = """
query($id: ID!, $after: Int!) {
  game(id: $id) {
    events(after: $after, first: 100) { hasMore events { seq type private data } }
  }
}
"""


@dataclass
class Board:
    lands: frozenset[str]
    land: Mapping[str, frozenset[str]]  # neighbours by land (and across dotted lines)


@dataclass
class Played:
    actions: int = 0
    kinds: dict[str, int] = field(default_factory=dict)  # ActionInput members sent
    events: set[str] = field(default_factory=set)  # event types acknowledged
    hidden: dict[int, str] = field(default_factory=dict)  # the territory each seat wrote
    revealed: set[int] = field(default_factory=set)  # the seats whose hidden armies came out
    orders: dict[int, tuple[str, str]] = field(default_factory=dict)  # each seat's last orders
    out_of_turn: int = 0  # standing orders set by a seat not to act
    checks: int = 0  # checks of what every viewer sees
    private: set[str] = field(default_factory=set)  # private event types a seat saw of its own


def load_board(variant: Json) -> Board:
    board = variant["board"]
    lands = frozenset(t["id"] for t in board["territories"] if t["kind"] == "LAND")
    land: dict[str, set[str]] = {t: set() for t in lands}
    for edge in board["edges"]:
        a, b = edge["a"], edge["b"]
        if a in lands and b in lands:
            land[a].add(b)
            land[b].add(a)
    return Board(lands, {t: frozenset(n) for t, n in land.items()})


def choose(state: Json, board: Board) -> Json:
    """The ActionInput the viewer's seat sends now."""
    me = state["viewerSeat"]
    owner = {t["id"]: t["owner"] for t in state["territories"]}
    armies = {t["id"]: t["armies"] for t in state["territories"]}
    families: dict[str, list[Json]] = {}
    for family in state["legalActions"]:
        families.setdefault(family["__typename"], []).append(family)

    def first(kind: str) -> Json | None:
        return dict(families[kind][0]["input"]) if kind in families else None

    if "LegalChooseFortress" in families:  # the territory of the empire with fewest enemies
        allowed = families["LegalChooseFortress"][0]["territories"]
        safest = min(allowed, key=lambda t: sum(owner[n] != me for n in board.land[t]))
        return {"chooseFortress": {"territory": safest}}
    if "LegalClaimTerritory" in families:
        free = families["LegalClaimTerritory"][0]["territories"]
        near = [t for t in free if any(owner[n] == me for n in board.land[t])]
        return {"claimTerritory": {"territory": (near or free)[0]}}
    if "LegalWriteHiddenTerritory" in families:  # one it holds, so they may come out
        allowed = families["LegalWriteHiddenTerritory"][0]["territories"]
        mine = [t for t in allowed if owner[t] == me]
        return {"writeHiddenTerritory": {"territory": (mine or allowed)[0]}}
    if me == HOLDS_BACK:  # it waits for another seat's turn
        families.pop("LegalRevealHiddenArmies", None)
    for kind in ("LegalDiscardSpiedCard", "LegalRevealHiddenArmies", "LegalPlayRinforzi"):
        ready = first(kind)
        if ready is not None:
            return ready
    if "LegalPlaceArmies" in families:
        family = families["LegalPlaceArmies"][0]
        border = [t for t in family["territories"] if any(owner[n] != me for n in board.land[t])]
        strongest = max(border or family["territories"], key=lambda t: armies[t])
        return {"placeArmies": {"territory": strongest, "armies": family["maxArmies"]}}
    if "LegalOccupy" in families:
        return {"occupy": {"armies": families["LegalOccupy"][0]["maxArmies"]}}
    for kind in ("LegalPlaySpy", "LegalPlayDiplomat"):
        ready = first(kind)
        if ready is not None:
            return ready

    def strong(source: str, target: str) -> bool:
        return bool(armies[source] > armies[target] + 1)

    piu = state["state"]
    under_way = (piu["attackSource"], piu["attackTarget"]) if piu["general"] else None
    for family in families.get("LegalAdmiralAttack", []):
        for target in family["targets"]:
            if family["maxArmies"] > armies[target] + 2:
                attack = {
                    "card": family["cards"][0],
                    "source": family["source"],
                    "target": target,
                    "armies": family["maxArmies"],
                    "stopAt": 0,
                }
                return {"admiralAttack": attack}
    attacks = [f for f in families.get("LegalAttackUntil", []) if strong(f["source"], f["target"])]
    for family in attacks:  # the attack a Generale was played on, first
        if (family["source"], family["target"]) == under_way:
            return dict(family["input"])
    for family in families.get("LegalPlayGeneral", []):
        for source, target in zip(family["sources"], family["targets"], strict=True):
            if under_way is None and any(
                (f["source"], f["target"]) == (source, target) for f in attacks
            ):
                general = {"card": family["cards"][0], "source": source, "target": target}
                return {"playGeneral": general}
    if attacks:
        return dict(attacks[0]["input"])
    return dict(families["LegalEndTurn"][0]["input"])


def own_only(events: list[Json], seat: int) -> None:
    """The events a seat's action returns to it: its own private ones, never another's (the
    cards the next player draws as its turn ends, what a Spia of another seat saw)."""
    for event in events:
        if event["private"]:
            assert event["data"]["seat"] == seat, (seat, event)
        else:
            assert event["type"] not in PRIVATE_TYPES, event


async def history(client: GraphQLClient, game_id: str) -> list[Json]:
    events: list[Json] = []
    after = 0
    while True:
        page = (await client(EVENTS, {"id": game_id, "after": after}))["game"]["events"]
        events += page["events"]
        if not page["hasMore"]:
            return events
        after = page["events"][-1]["seq"]


async def check_secrets(
    seats: dict[int, GraphQLClient], spectator: GraphQLClient, game_id: str, played: Played
) -> None:
    """What every seat and a spectator see: a seat its own hand and secrets, and the private
    events of its own seat only; a spectator no hand, no secrets, no private event."""
    played.checks += 1
    seen = (await spectator(SECRETS, {"id": game_id}))["game"]
    assert (seen["viewerSeat"], seen["hand"], seen["secrets"]) == (None, None, None)
    assert seen["legalActions"] == []
    public = await history(spectator, game_id)
    assert public
    for event in public:
        assert not event["private"], event
        assert event["type"] not in PRIVATE_TYPES, event
    public_seqs = [event["seq"] for event in public]
    hands: dict[int, list[str]] = {}
    for seat, client in seats.items():
        mine = (await client(SECRETS, {"id": game_id}))["game"]
        assert mine["viewerSeat"] == seat
        hands[seat] = [card["id"] for card in mine["hand"]]
        secrets = {secret["name"]: secret["value"] for secret in mine["secrets"]}
        assert sorted(secrets) == sorted(SECRET_NAMES), secrets
        assert secrets["hidden_territory"] == played.hidden.get(seat, "")
        assert secrets["hidden_armies_used"] == ("yes" if seat in played.revealed else "no")
        if mine["seatToAct"] != seat:  # out of turn: its orders, its hidden armies, no more
            offered = {family["__typename"] for family in mine["legalActions"]}
            assert offered <= OUT_OF_TURN, offered
            (me,) = (p for p in mine["players"] if p["seat"] == seat)
            under_way = mine["phase"] not in ("SETUP", "OVER")
            playing = under_way and not (me["eliminated"] or me["resigned"])
            assert ("LegalStandingOrders" in offered) == playing, (seat, offered, mine)
            if not playing:
                assert offered == set()
        marshal, spy = played.orders.get(seat, ("always", "block"))
        assert (secrets["marshal_orders"], secrets["spy_orders"]) == (marshal, spy)
        others = {territory for other, territory in played.hidden.items() if other != seat}
        assert not others & set(secrets.values()) - {played.hidden.get(seat, "")}
        events = await history(client, game_id)
        for event in events:
            if event["private"]:
                assert event["data"]["seat"] == seat, (seat, event)
                played.private.add(event["type"])
            else:
                assert event["type"] not in PRIVATE_TYPES, event
        # The seat sees every public event and its own private ones, nothing more.
        assert [e["seq"] for e in events if not e["private"]] == public_seqs
        for event in events:
            if event["type"] == "HiddenTerritoryChosen":
                assert event["data"]["territory"] == played.hidden[seat]
    held = [card for hand in hands.values() for card in hand]
    assert len(held) == len(set(held)), hands  # no card in two hands


async def set_orders_out_of_turn(
    seats: dict[int, GraphQLClient], game_id: str, state: Json, played: Played
) -> Json:
    """A seat not to act sets its standing orders: accepted, a new version, no event of it
    for anyone else (checked by `check_secrets`)."""
    to_act = state["seatToAct"]
    fortresses = state["state"]["fortresses"]
    for seat in sorted(seats, key=lambda s: (s - to_act) % SEATS):
        if seat == to_act or not fortresses[seat]:  # a seat out of the game has no orders
            continue
        marshal, spy = ORDERS[played.out_of_turn % len(ORDERS)]
        action = {"setStandingOrders": {"marshal": marshal, "spy": spy}}
        variables = {
            "input": {"gameId": game_id, "action": action, "expectedVersion": state["version"]}
        }
        submitted = (await seats[seat](SUBMIT, variables))["submitAction"]
        assert submitted["userErrors"] == [], submitted["userErrors"]
        assert submitted["version"] == state["version"] + 1
        assert [e["type"] for e in submitted["events"]] == ["StandingOrdersSet"]
        own_only(submitted["events"], seat)
        assert submitted["game"]["seatToAct"] == to_act  # the turn goes on
        played.orders[seat] = (marshal, spy)
        played.out_of_turn += 1
        return dict(submitted["game"])
    return state


async def reveal_out_of_turn(
    seats: dict[int, GraphQLClient], game_id: str, state: Json, played: Played
) -> Json:
    """HOLDS_BACK, not to act, brings its hidden armies out when it is offered them: accepted,
    a new version, and the seat in turn still to act."""
    if state["seatToAct"] == HOLDS_BACK or HOLDS_BACK in played.revealed:
        return state
    mine = (await seats[HOLDS_BACK](GAME, {"id": game_id}))["game"]
    offered = [f for f in mine["legalActions"] if f["__typename"] == "LegalRevealHiddenArmies"]
    if not offered:
        return state
    (family,) = offered
    assert family["territory"] == played.hidden[HOLDS_BACK]
    variables = {
        "input": {"gameId": game_id, "action": family["input"], "expectedVersion": mine["version"]}
    }
    submitted = (await seats[HOLDS_BACK](SUBMIT, variables))["submitAction"]
    assert submitted["userErrors"] == [], submitted["userErrors"]
    assert submitted["version"] == mine["version"] + 1
    assert [e["type"] for e in submitted["events"]] == ["HiddenArmiesRevealed"]
    revealed = submitted["events"][0]["data"]
    assert (revealed["seat"], revealed["territory"]) == (HOLDS_BACK, family["territory"])
    assert revealed["armies"] == family["armies"]
    assert submitted["game"]["seatToAct"] == state["seatToAct"]
    played.revealed.add(HOLDS_BACK)
    played.out_of_turn += 1
    played.kinds["revealHiddenArmies"] = played.kinds.get("revealHiddenArmies", 0) + 1
    return dict(submitted["game"])


async def play_to_end(
    seats: dict[int, GraphQLClient], spectator: GraphQLClient, game_id: str, board: Board
) -> Played:
    played = Played()
    state: Json = (await seats[0](GAME, {"id": game_id}))["game"]
    while state["status"] != "FINISHED":
        assert played.actions < MAX_ACTIONS, f"no end after {MAX_ACTIONS} actions"
        started = state["phase"] != "SETUP"
        if started and played.actions % CHECK_EVERY == 0:
            await check_secrets(seats, spectator, game_id, played)
        if started and played.actions % ORDERS_EVERY == ORDERS_EVERY - 1:
            state = await set_orders_out_of_turn(seats, game_id, state, played)
        if started:
            state = await reveal_out_of_turn(seats, game_id, state, played)
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
        if kind == "writeHiddenTerritory":
            played.hidden[seat] = action[kind]["territory"]
        if kind == "revealHiddenArmies":
            played.revealed.add(seat)
        played.kinds[kind] = played.kinds.get(kind, 0) + 1
        played.events |= {e["type"] for e in submitted["events"]}
        own_only(submitted["events"], seat)
        played.actions += 1
        state = submitted["game"]
    return played


async def test_a_piu_game_to_its_end(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        anonymous = GraphQLClient(http)
        variants = (await anonymous(VARIANTS))["variants"]
        piu = next(v for v in variants if v["name"] == "piu")
        assert piu["board"]["version"] == "reconstructed-1"
        assert piu["board"]["reconstructed"] is True
        reconstructed = {v["name"] for v in variants if v["board"]["reconstructed"]}
        assert reconstructed == {"piu", "futurisiko"}  # the printed boards are not
        assert {"chooseFortress", "setStandingOrders", "admiralAttack"} <= set(piu["actionKinds"])
        board = load_board(piu)
        assert len(board.lands) == 44

        variables = {"input": {"variant": "piu", "seed": SEED}}
        created = (await anonymous(CREATE, variables))["createGame"]
        assert created["userErrors"] == []
        game = created["game"]
        assert game["variant"] == "piu"
        seats: dict[int, GraphQLClient] = {}
        for n in range(SEATS):
            joined = (await anonymous(JOIN, {"input": {"gameId": game["id"], "name": f"P{n}"}}))[
                "joinGame"
            ]
            assert joined["userErrors"] == []
            seats[joined["seat"]] = GraphQLClient(http, joined["token"])
        started = (await seats[0](START, {"input": {"gameId": game["id"]}}))["startGame"]
        assert started["userErrors"] == []
        assert started["game"] == {"status": "ACTIVE", "phase": "SETUP"}

        played = await play_to_end(seats, anonymous, game["id"], board)
        await check_secrets(seats, anonymous, game["id"], played)
        final = (await anonymous(FINAL, {"id": game["id"]}))["game"]
        events = await history(anonymous, game["id"])
    print("PLAYED", played, final["outcome"])

    # The whole setup and a turn of every kind were played; cards in and out of turn.
    sent = {
        "chooseFortress",
        "claimTerritory",
        "placeArmies",
        "writeHiddenTerritory",
        "attackUntil",
        "endTurn",
    }
    assert sent <= set(played.kinds), played.kinds
    assert played.out_of_turn >= 3
    assert HOLDS_BACK in played.revealed  # out of turn
    assert played.checks >= 4
    assert played.private == PRIVATE_TYPES  # each kind of secret was there to be kept
    assert "EmpiresDrawn" in {e["type"] for e in events}
    assert {
        "FortressPlaced",
        "TerritoryClaimed",
        "HiddenTerritoryWritten",
        "TerritoryConquered",
        "FortressFallen",
        "PlayerEliminated",
    } <= played.events, played.events

    assert final["status"] == "FINISHED"
    assert final["seatToAct"] is None
    assert final["legalActions"] == []
    outcome = final["outcome"]
    winner = outcome["winner"]
    assert winner is not None
    assert outcome["reason"] in {"empires", "last_player"}
    assert outcome["ranking"][0]["seat"] == winner
    players = {p["seat"]: p for p in final["players"]}
    assert not players[winner]["eliminated"]
    fortresses = final["state"]["fortresses"]
    assert fortresses[winner]
    if outcome["reason"] == "last_player":
        assert all(players[s]["eliminated"] for s in players if s != winner)
        # The winner holds every banner.
        assert final["state"]["bannerHolders"] == [winner] * SEATS
    for seat, player in players.items():
        assert bool(fortresses[seat]) == (not player["eliminated"])
    assert events[-1]["type"] == "GameEnded"
    assert (events[-1]["data"]["winner"], events[-1]["data"]["reason"]) == (
        winner,
        outcome["reason"],
    )
