"""S.P.Q.RisiKo! through the API, in-process: its options, its board of provinces and sea
areas, its state (neutral armies, triremes, power centres, victory points) and every new
action, sent from the ready inputs of `legalActions` or refused with its typed code.

The game is scripted on a fixed seed: the occupation takes the first free province and the
first neutral colour each time, which leaves seat 2 (who moves first) on Sicilia and Africa,
seat 0 on Cisalpina and seat 1 on Corsica, all around the Tyrrhenian sea.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from api.graphql.codes import ErrorCode
from domain import errors
from tests.integration.api_support import (
    CREATE,
    JOIN,
    START,
    Api,
    body,
    data,
    game_count,
    in_process,
    submit,
)

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
SEED = "spqr-api"

STATE = """
query($id: ID!) {
  game(id: $id) {
    version status phase round seatToAct viewerSeat currentPlayer armiesToPlace
    neutralColours pendingTriremes pendingPowerCentres powerCentresLeft
    piecesToPlace { kind count } markersLeft { kind count }
    objective { id }
    hand { id symbol territory }
    options { victoryPoints defenderDice minimumGarrison protectedRounds }
    players { seat colour territories armies victoryPoints triremes }
    territories {
      id owner armies neutral triremes { seat count } controlledBy powerCentre
      units { kind count seat neutral } markers
    }
    outcome { winner reason }
    legalActions {
      __typename
      ... on LegalPlaceArmies { territories input }
      ... on LegalTradeCards { input }
      ... on LegalAttack { input }
      ... on LegalAttackUntil { input }
      ... on LegalOccupy { input }
      ... on LegalStrategicMove { source target input }
      ... on LegalEndTurn { input }
      ... on LegalClaimProvince { provinces input }
      ... on LegalPlaceNeutral { provinces colours input }
      ... on LegalPlacePowerCentre { provinces input }
      ... on LegalPlaceTrireme { seas input }
      ... on LegalBuildTrireme { province sea minTriremes maxTriremes input }
      ... on LegalDisbandTrireme { sea provinces input }
      ... on LegalMoveFleet { source target minTriremes maxTriremes input }
      ... on LegalNavalBattle { sea opponent minDice maxDice ongoing input }
      ... on LegalSeaAttack { source target sea minLegionaries maxLegionaries input }
    }
  }
}"""
CREATED = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    game { id options { victoryPoints defenderDice minimumGarrison objectives } }
    userErrors { code message }
  }
}"""
VARIANTS = """{ variants {
  name options { name default description }
  board { territories { id kind region } }
} }"""


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    async with in_process(tmp_path / "data") as running:
        yield running


def assert_generic_view_agrees(game: Json) -> None:
    """The generic fields (units, markers, piecesToPlace, markersLeft) say what the
    deprecated S.P.Q.RisiKo! fields say, in every state the tests reach."""
    pieces = {p["kind"]: p["count"] for p in game["piecesToPlace"]}
    assert pieces.get("trireme", 0) == game["pendingTriremes"]
    assert pieces.get("power_centre", 0) == game["pendingPowerCentres"]
    assert 0 not in pieces.values()
    left = {m["kind"]: m["count"] for m in game["markersLeft"]}
    assert left.get("power_centre", 0) == game["powerCentresLeft"]
    fleets: dict[int, int] = {}
    for space in game["territories"]:
        units = space["units"]
        assert all(stack["count"] > 0 for stack in units)
        armies = [stack for stack in units if stack["kind"] == "army"]
        assert sum(stack["count"] for stack in armies) == space["armies"]
        assert all(stack["seat"] == space["owner"] for stack in armies if stack["seat"] is not None)
        neutral = [stack["neutral"] for stack in armies if stack["neutral"] is not None]
        assert neutral == ([space["neutral"]] if space["neutral"] else [])
        triremes = [
            {"seat": stack["seat"], "count": stack["count"]}
            for stack in units
            if stack["kind"] == "trireme"
        ]
        assert triremes == space["triremes"]
        for fleet in triremes:
            fleets[fleet["seat"]] = fleets.get(fleet["seat"], 0) + fleet["count"]
        assert space["markers"] == (["power_centre"] if space["powerCentre"] else [])
    for player in game["players"]:
        assert player["triremes"] == fleets.get(player["seat"], 0)


@dataclass
class Table:
    """An S.P.Q.RisiKo! game under way and its seats' tokens."""

    api: Api
    id: str
    tokens: list[str]

    async def state(self, seat: int | None = None) -> Json:
        token = None if seat is None else self.tokens[seat]
        game = (await data(self.api.client, STATE, {"id": self.id}, token))["game"]
        assert isinstance(game, dict)
        assert_generic_view_agrees(game)
        return game

    async def act(self, seat: int, action: Json) -> Json:
        """Submit an action that must be accepted; its payload."""
        payload = await submit(self.api.client, self.id, self.tokens[seat], action)
        assert payload["userErrors"] == [], (action, payload)
        return payload

    async def refused(self, seat: int, action: Json, code: str) -> None:
        """Submit an action that must be refused with `code`, changing nothing."""
        before = (await self.state())["version"]
        payload = await submit(self.api.client, self.id, self.tokens[seat], action)
        [error] = payload["userErrors"]
        assert error["code"] == code, (action, error)
        assert error["message"]
        assert payload["version"] is None
        assert (await self.state())["version"] == before

    async def family(self, seat: int, typename: str, **fields: Any) -> Json | None:
        """The first legal family of that kind (whose fields match), or None."""
        for family in (await self.state(seat))["legalActions"]:
            if family["__typename"] == typename and all(
                family[name] == value for name, value in fields.items()
            ):
                assert isinstance(family, dict)
                return family
        return None

    async def ready(self, seat: int, typename: str, **fields: Any) -> Json:
        """Submit the ready input of a legal family that must be offered; the payload."""
        family = await self.family(seat, typename, **fields)
        assert family is not None, (typename, fields)
        return await self.act(seat, family["input"])


async def open_table(api: Api, options: Json | None = None, players: int = 3) -> Table:
    variables = {"input": {"variant": "spqr", "seed": SEED, "options": options}}
    created = (await data(api.client, CREATE, variables))["createGame"]
    assert created["userErrors"] == [], created
    game_id = created["game"]["id"]
    tokens = []
    for n in range(players):
        joined = await data(api.client, JOIN, {"input": {"gameId": game_id, "name": f"P{n}"}})
        assert joined["joinGame"]["userErrors"] == []
        tokens.append(joined["joinGame"]["token"])
    started = await data(api.client, START, {"input": {"gameId": game_id}}, tokens[0])
    assert started["startGame"]["userErrors"] == [], started
    return Table(api, game_id, tokens)


async def occupy_everything(table: Table) -> list[Json]:
    """The occupation, each seat sending the ready input of its first family; the events."""
    events: list[Json] = []
    while True:
        spectator = await table.state()
        if spectator["phase"] != "SETUP":
            return events
        seat = spectator["seatToAct"]
        state = await table.state(seat)
        assert state["armiesToPlace"] == 0
        kinds = {f["__typename"] for f in state["legalActions"]}
        assert kinds <= {"LegalClaimProvince", "LegalPlaceNeutral"}, kinds
        payload = await table.act(seat, state["legalActions"][0]["input"])
        events.extend(payload["events"])


def by_id(state: Json) -> dict[str, Json]:
    return {t["id"]: t for t in state["territories"]}


# --------------------------------------------------------------------------- options and board


async def test_create_game_takes_the_variants_options(api: Api) -> None:
    async def created(variant: str, options: Json | None) -> Json:
        variables = {"input": {"variant": variant, "options": options}}
        payload = (await data(api.client, CREATED, variables))["createGame"]
        assert isinstance(payload, dict)
        return payload

    default = (await created("spqr", None))["game"]["options"]
    assert default == {
        "victoryPoints": 20,
        "defenderDice": "MAXIMUM",
        "minimumGarrison": True,
        "objectives": "STANDARD",
    }
    chosen = await created("spqr", {"victoryPoints": 12, "roundLimit": 30, "protectedRounds": 2})
    assert chosen["userErrors"] == []
    assert chosen["game"]["options"]["victoryPoints"] == 12
    # Options the rules already fix may be restated.
    restated = await created("spqr", {"defenderDice": "MAXIMUM", "minimumGarrison": True})
    assert restated["userErrors"] == []
    assert (await created("classic", None))["game"]["options"]["victoryPoints"] is None

    games = await game_count(api.service)
    refusals: list[tuple[str, Json]] = [
        ("classic", {"victoryPoints": 10}),
        ("spqr", {"defenderDice": "DECLARE"}),
        ("spqr", {"minimumGarrison": False}),
        ("spqr", {"objectives": "TOURNAMENT"}),
        ("spqr", {"tournament": True}),
        ("spqr", {"victoryPoints": 0}),
        ("spqr", {"roundLimit": 0}),
    ]
    for variant, options in refusals:
        payload = await created(variant, options)
        assert payload["game"] is None, (variant, options)
        [error] = payload["userErrors"]
        assert error["code"] == "INVALID_OPTIONS", (variant, options, error)
        assert error["message"]
    assert await game_count(api.service) == games


async def test_variants_describe_the_spqr_options_and_board(api: Api) -> None:
    variants = {v["name"]: v for v in (await data(api.client, VARIANTS))["variants"]}
    spqr = variants["spqr"]
    options = {o["name"]: o for o in spqr["options"]}
    assert options["victory_points"]["default"] == 20
    assert "victory points" in options["victory_points"]["description"]
    # What the rules fix is no option.
    assert not {"defender_dice", "minimum_garrison", "objectives"} & set(options)
    assert {"protected_rounds", "round_limit", "time_limit_minutes"} <= set(options)
    classic = {o["name"] for o in variants["classic"]["options"]}
    assert "victory_points" not in classic
    assert "defender_dice" in classic

    spaces = spqr["board"]["territories"]
    assert len(spaces) == 57
    seas = [t for t in spaces if t["kind"] == "SEA"]
    assert len(seas) == 12
    assert all(t["region"] is None for t in seas)
    assert {t["kind"] for t in variants["classic"]["board"]["territories"]} == {"LAND"}


def test_every_rule_violation_has_an_error_code() -> None:
    """Every rule violation of the served games (the domain's and each game's own) has its
    code in the schema's enum."""
    from variants import served

    def codes(cls: type[errors.RisikoError]) -> set[str]:
        found = {cls.code} if served(cls) else set()
        for sub in cls.__subclasses__():
            found |= codes(sub)
        return found

    names = {code.value for code in ErrorCode}
    assert codes(errors.RuleViolation) <= names
    assert {
        "ONCE_PER_TURN",
        "NO_NAVAL_SUPERIORITY",
        "POWER_CENTRE_NOT_ALLOWED",
        "WRONG_KIND_OF_SPACE",
        "INVALID_OPTIONS",
    } <= names


async def test_a_classic_game_shows_no_spqr_state(api: Api) -> None:
    variables = {"input": {"variant": "classic", "seed": "classic-view"}}
    game_id = (await data(api.client, CREATE, variables))["createGame"]["game"]["id"]
    tokens = []
    for n in range(3):
        joined = await data(api.client, JOIN, {"input": {"gameId": game_id, "name": f"P{n}"}})
        tokens.append(joined["joinGame"]["token"])
    await data(api.client, START, {"input": {"gameId": game_id}}, tokens[0])
    state = await Table(api, game_id, tokens).state(0)
    assert state["neutralColours"] == []
    assert (state["pendingTriremes"], state["pendingPowerCentres"]) == (0, 0)
    assert state["powerCentresLeft"] == 0
    assert (state["piecesToPlace"], state["markersLeft"]) == ([], [])
    assert state["objective"] is not None
    assert all(p["victoryPoints"] == 0 and p["triremes"] == 0 for p in state["players"])
    for territory in state["territories"]:
        assert territory["owner"] is not None
        assert territory["neutral"] is None
        assert territory["triremes"] == []
        assert territory["controlledBy"] is None
        assert territory["powerCentre"] is False
        assert territory["markers"] == []
        assert territory["units"] == [
            {
                "kind": "army",
                "count": territory["armies"],
                "seat": territory["owner"],
                "neutral": None,
            }
        ]


# --------------------------------------------------------------------------- a game


async def test_an_spqr_game_through_the_api(api: Api) -> None:
    table = await open_table(api, {"victoryPoints": 15})
    lobby = await table.state()
    assert lobby["phase"] == "SETUP"
    assert lobby["neutralColours"] == ["verde", "nero"]
    assert lobby["powerCentresLeft"] == 12
    assert lobby["markersLeft"] == [{"kind": "power_centre", "count": 12}]
    assert all(t["units"] == [] and t["markers"] == [] for t in lobby["territories"])
    assert all(t["owner"] is None and t["armies"] == 0 for t in lobby["territories"])
    first = lobby["seatToAct"]
    assert first == 2

    # The occupation: what is refused first, then every turn from the ready inputs.
    await table.refused(first, {"claimProvince": {"province": "tyrrenum"}}, "WRONG_KIND_OF_SPACE")
    await table.refused(first, {"claimProvince": {"province": "atlantis"}}, "UNKNOWN_TERRITORY")
    await table.refused(0, {"claimProvince": {"province": "italia"}}, "NOT_YOUR_TURN")
    await table.refused(first, {"placeArmies": {"territory": "italia", "armies": 2}}, "WRONG_PHASE")
    await table.ready(first, "LegalClaimProvince")
    claimed = next(t["id"] for t in (await table.state())["territories"] if t["owner"] == first)
    await table.refused(first, {"claimProvince": {"province": "italia"}}, "ONCE_PER_TURN")
    neutral = {"province": claimed, "colour": "verde"}
    await table.refused(first, {"placeNeutral": neutral}, "OWN_TERRITORY")
    await table.refused(
        first, {"placeNeutral": {"province": "italia", "colour": "blu"}}, "INVALID_ACTION"
    )
    events = await occupy_everything(table)
    assert {"ProvinceClaimed", "NeutralPlaced", "DeckShuffled", "TurnStarted"} <= {
        e["type"] for e in events
    }

    state = await table.state(first)
    spaces = by_id(state)
    provinces = [t for t in state["territories"] if t["id"] not in SEAS]
    assert len(provinces) == 45
    neutrals = [t for t in provinces if t["neutral"] is not None]
    assert len(neutrals) == 18
    assert all(t["owner"] is None and t["armies"] == 3 for t in neutrals)
    assert {t["neutral"] for t in neutrals} == {"verde", "nero"}
    held = [t for t in provinces if t["owner"] is not None]
    assert len(held) == 27
    assert all(t["armies"] == 2 for t in held)
    assert all(spaces[sea]["owner"] is None and spaces[sea]["triremes"] == [] for sea in SEAS)
    assert [p["territories"] for p in state["players"]] == [9, 9, 9]
    assert (state["phase"], state["round"], state["currentPlayer"]) == ("REINFORCE", 1, first)
    assert state["armiesToPlace"] == 3
    assert state["objective"] is None
    assert state["hand"] == []
    [scored] = [e for e in events if e["type"] == "VictoryPointsScored"]
    assert scored["data"]["seat"] == first
    assert state["players"][first]["victoryPoints"] == scored["data"]["total"]

    # Seat 2, round 1: legionaries on Sicilia, then a trireme on the Tyrrhenian sea.
    sea_attack = {"source": "sicilia", "target": "corsica", "sea": "tyrrenum", "legionaries": 1}
    await table.refused(2, {"seaAttack": sea_attack}, "REINFORCEMENTS_PENDING")
    await table.act(2, {"placeArmies": {"territory": "sicilia", "armies": 3}})
    await table.refused(2, {"seaAttack": sea_attack}, "NO_NAVAL_SUPERIORITY")
    await table.refused(2, {"claimProvince": {"province": "italia"}}, "WRONG_PHASE")
    await table.refused(2, {"placeTrireme": {"sea": "tyrrenum"}}, "WRONG_PHASE")
    await table.refused(2, {"placePowerCentre": {"province": "sicilia"}}, "WRONG_PHASE")
    await table.refused(
        2, {"disbandTrireme": {"sea": "tyrrenum", "province": "sicilia"}}, ("NOT_ENOUGH_ARMIES")
    )
    naval = {"sea": "tyrrenum", "opponent": 0, "dice": 1}
    await table.refused(2, {"navalBattle": naval}, "NOT_ENOUGH_ARMIES")
    build = {"province": "sicilia", "sea": "britannicus", "triremes": 1}
    await table.refused(2, {"buildTrireme": build}, "NOT_ADJACENT")
    family = await table.family(2, "LegalBuildTrireme", province="sicilia", sea="tyrrenum")
    assert family is not None
    assert (family["minTriremes"], family["maxTriremes"]) == (1, 1)
    built = await table.act(2, family["input"])
    assert [e["type"] for e in built["events"]] == ["TriremesPlaced"]
    state = await table.state(2)
    assert state["phase"] == "NAVAL_REINFORCE"
    assert by_id(state)["tyrrenum"]["triremes"] == [{"seat": 2, "count": 1}]
    assert by_id(state)["tyrrenum"]["controlledBy"] == 2
    assert by_id(state)["sicilia"]["armies"] == 2
    assert state["players"][2]["triremes"] == 1
    await table.refused(
        2, {"disbandTrireme": {"sea": "tyrrenum", "province": "sicilia"}}, "WRONG_PHASE"
    )
    await table.act(2, {"endTurn": True})

    # Seat 0: a trireme on the same sea, from Cisalpina; seat 1: one off Corsica.
    await table.act(0, {"placeArmies": {"territory": "cisalpina", "armies": 3}})
    await table.ready(0, "LegalBuildTrireme", province="cisalpina", sea="tyrrenum")
    await table.act(0, {"endTurn": True})
    await table.act(1, {"placeArmies": {"territory": "corsica", "armies": 3}})
    await table.ready(1, "LegalBuildTrireme", province="corsica", sea="sinus_gallicus")
    await table.act(1, {"endTurn": True})
    state = await table.state()
    assert by_id(state)["tyrrenum"]["triremes"] == [
        {"seat": 0, "count": 1},
        {"seat": 2, "count": 1},
    ]
    assert by_id(state)["tyrrenum"]["controlledBy"] is None

    # Seat 2, round 2: a naval combat on the Tyrrhenian sea, one die a side.
    assert (state["round"], state["currentPlayer"]) == (2, 2)
    await table.act(2, {"placeArmies": {"territory": "sicilia", "armies": 3}})
    family = await table.family(2, "LegalNavalBattle", sea="tyrrenum", opponent=0)
    assert family is not None
    assert not family["ongoing"]
    assert family["maxDice"] == 1
    fought = await table.act(2, family["input"])
    [roll] = [e["data"] for e in fought["events"] if e["type"] == "NavalDiceRolled"]
    assert roll["over"]  # one trireme a side: one roll settles it
    state = await table.state(2)
    assert state["phase"] == "NAVAL_COMBAT"
    move = {"source": "tyrrenum", "target": "ionium", "triremes": 1}
    await table.refused(2, {"moveFleet": move}, "WRONG_PHASE")
    await table.refused(2, {"navalBattle": naval}, "ONCE_PER_TURN")
    # The dice sink seat 2's trireme: seat 0 holds the sea alone, so seat 2 cannot cross it.
    assert (roll["attacker_losses"], roll["defender_losses"]) == (1, 0)
    tyrrenum = by_id(state)["tyrrenum"]
    assert (tyrrenum["triremes"], tyrrenum["controlledBy"]) == ([{"seat": 0, "count": 1}], 0)
    assert await table.family(2, "LegalSeaAttack") is None
    across = {"source": "sicilia", "target": "cisalpina", "sea": "tyrrenum", "legionaries": 2}
    await table.refused(2, {"seaAttack": across}, "NO_NAVAL_SUPERIORITY")
    await table.act(2, {"endTurn": True})

    # Seat 0 crosses it to attack Corsica, with every legionary Cisalpina may spare.
    await table.act(0, {"placeArmies": {"territory": "cisalpina", "armies": 3}})
    family = await table.family(0, "LegalSeaAttack", source="cisalpina", target="corsica")
    assert family is not None
    assert family["sea"] == "tyrrenum"
    assert (family["minLegionaries"], family["maxLegionaries"]) == (1, 3)  # 2 stay: a border
    attacked = await table.act(0, family["input"])
    kinds = [e["type"] for e in attacked["events"]]
    assert kinds[0] == "SeaAttackLaunched"
    assert "DiceRolled" in kinds
    state = await table.state(0)
    assert state["phase"] == "SEA_ATTACK"
    assert by_id(state)["cisalpina"]["armies"] == 2
    if "TerritoryConquered" in kinds:
        assert by_id(state)["corsica"]["owner"] == 0
    await table.refused(0, family["input"], "ONCE_PER_TURN")
    await table.refused(0, {"moveFleet": move}, "WRONG_PHASE")
    await table.act(0, {"endTurn": True})

    # Seat 1 makes the naval move of its fleet off Corsica.
    await table.ready(1, "LegalPlaceArmies")
    family = await table.family(1, "LegalMoveFleet", source="sinus_gallicus")
    assert family is not None
    assert family["maxTriremes"] == 1
    moved = await table.act(1, family["input"])
    assert [e["type"] for e in moved["events"]] == ["FleetMoved"]
    assert (await table.state())["phase"] == "NAVAL_MOVE"
    await table.refused(1, family["input"], "ONCE_PER_TURN")
    await table.act(1, {"endTurn": True})

    # Round 3: seat 0 turns its trireme back into 2 legionaries, once.
    await table.ready(2, "LegalPlaceArmies")
    await table.act(2, {"endTurn": True})
    armies = by_id(await table.state())["cisalpina"]["armies"]
    family = await table.family(0, "LegalDisbandTrireme", sea="tyrrenum")
    assert family is not None
    assert "cisalpina" in family["provinces"]
    disband = {"sea": "tyrrenum", "province": "cisalpina"}
    disbanded = await table.act(0, {"disbandTrireme": disband})
    assert [e["type"] for e in disbanded["events"]] == ["TriremeDisbanded"]
    state = await table.state(0)
    assert by_id(state)["cisalpina"]["armies"] == armies + 2
    assert by_id(state)["tyrrenum"]["triremes"] == []
    assert state["players"][0]["triremes"] == 0
    await table.refused(0, {"disbandTrireme": disband}, "ONCE_PER_TURN")
    await table.ready(0, "LegalPlaceArmies")
    await table.act(0, {"endTurn": True})

    # Victory points are claimed at the start of each turn and shown per player.
    state = await table.state()
    scored_total: dict[int, int] = {}
    after = 0
    while True:
        page = await data(
            api.client,
            "query($id: ID!, $after: Int!) { game(id: $id) { events(after: $after, first: 100) {"
            " hasMore events { seq type data } } } }",
            {"id": table.id, "after": after},
        )
        found = page["game"]["events"]
        for event in found["events"]:
            if event["type"] == "VictoryPointsScored":
                scored_total[event["data"]["seat"]] = event["data"]["total"]
        if not found["hasMore"]:
            break
        after = found["events"][-1]["seq"]
    assert set(scored_total) == {0, 1, 2}
    assert {p["seat"]: p["victoryPoints"] for p in state["players"]} == scored_total
    assert sum(scored_total.values()) > 0

    # A rebuild from the store (snapshot and log) gives the same game.
    before = await table.state(2)
    api.service.sessions.clear()
    assert await table.state(2) == before


async def test_spqr_refusals_without_a_token_and_of_the_wrong_space(api: Api) -> None:
    table = await open_table(api)
    answer = await body(
        api.client,
        "mutation($input: SubmitActionInput!) { submitAction(input: $input) { version } }",
        {"input": {"gameId": table.id, "action": {"claimProvince": {"province": "italia"}}}},
    )
    assert answer["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
    payload = await submit(
        api.client, table.id, table.tokens[2], {"navalBattle": {"sea": "italia", "opponent": 0}}
    )
    assert payload["userErrors"][0]["code"] == "WRONG_KIND_OF_SPACE"


SEAS = {
    "britannicus",
    "cantabricum",
    "ibericum",
    "balearicum",
    "sinus_gallicus",
    "tyrrenum",
    "hadriaticum",
    "ionium",
    "syrtis",
    "aegeum",
    "creticum",
    "pontus_euxinus",
}
