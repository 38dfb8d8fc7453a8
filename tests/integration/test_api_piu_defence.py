"""A RisiKo! Più defender declares its dice through the API (option defenderDice: DECLARE):
while an attack waits, the defender alone is offered LegalDefend, everyone sees who owes the
answer and its default, a declaration out of range or from another seat is refused with its
code and changes nothing, and the family's input (or any number it allows) is accepted and
rolled. The game is played by the example bot on a mirror engine (tests/integration/
api_support.py), each action sent through the API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain import actions as a
from domain.flow import Phase
from domain.risiko.defence import DefenderDice
from tests.integration.api_support import (
    CREATE,
    JOIN,
    START,
    Api,
    PlayedGame,
    Seat,
    data,
    in_process,
    play,
    submit,
)
from variants import get_variant
from variants.piu.game import PiuGame
from variants.piu.options import PiuOptions

pytestmark = pytest.mark.anyio

PIU = get_variant("piu")
SEED = "piu-declared-defence"
VIEW = """
query($id: ID!) {
  game(id: $id) {
    version seatToAct currentPlayer phase
    prompts { seat kind defaultInput }
    legalActions { __typename ... on LegalDefend { minDice maxDice input } }
    state { ... on PiuState { flagshipArmies } }
  }
}
"""
Json = dict[str, Any]


async def piu_table(api: Api, players: int = 3) -> PlayedGame[PiuGame]:
    """A started RisiKo! Più game whose defenders declare, and its mirror engine."""
    options = PiuOptions(defender_dice=DefenderDice.DECLARE)
    variables = {"input": {"variant": "piu", "seed": SEED, "options": {"defenderDice": "DECLARE"}}}
    created = (await data(api.client, CREATE, variables))["createGame"]
    assert created["userErrors"] == [], created
    game: PlayedGame[PiuGame] = PlayedGame(created["game"]["id"], SEED, options)
    for n in range(players):
        joined = (await data(api.client, JOIN, {"input": {"gameId": game.id, "name": f"P{n}"}}))[
            "joinGame"
        ]
        assert joined["userErrors"] == [], joined
        colour = PIU.ruleset.colours[n].id
        game.seats.append(Seat(joined["seat"], f"P{n}", colour, joined["token"]))
    started = (await data(api.client, START, {"input": {"gameId": game.id}}, game.token(0)))[
        "startGame"
    ]
    assert started["userErrors"] == [], started
    game.version = started["game"]["version"]
    mirror = PIU.new_game(
        [s.name for s in game.seats],
        options,
        seed=SEED.encode(),
        colours=[s.colour for s in game.seats],
    )
    assert isinstance(mirror, PiuGame)
    game.mirror = mirror
    return game


async def view(api: Api, game: PlayedGame[PiuGame], seat: int | None) -> Json:
    token = None if seat is None else game.token(seat)
    seen = (await data(api.client, VIEW, {"id": game.id}, token))["game"]
    assert isinstance(seen, dict)
    return seen


def waiting(mirror: PiuGame) -> bool:
    return mirror.phase is Phase.DEFEND


def most_dice(mirror: PiuGame) -> int:
    """The most dice the defender owing the open prompt may declare (0: none is owed)."""
    prompt = mirror.open_prompt()
    return min(3, mirror.armies[prompt.values[1]]) if prompt is not None else 0


async def test_the_defender_declares_its_dice_through_the_api(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        game = await piu_table(api)
        mirror = game.game
        await play(api.client, game, until=lambda mirror: most_dice(mirror) > 1)
        assert mirror.phase is Phase.DEFEND
        defender, attacker = mirror.seat_to_act, mirror.current
        assert defender is not None
        bystander = next(s for s in range(3) if s not in (defender, attacker))
        most = most_dice(mirror)

        # The defender alone is offered its dice; everyone sees who owes them, and the default.
        offered = (await view(api, game, defender))["legalActions"]
        assert offered == [
            {
                "__typename": "LegalDefend",
                "minDice": 1,
                "maxDice": most,
                "input": {"defend": {"dice": most}},
            }
        ]
        for seat in (attacker, bystander, None):
            seen = await view(api, game, seat)
            assert seen["legalActions"] == [], seat
            assert (seen["phase"], seen["seatToAct"], seen["currentPlayer"]) == (
                "DEFEND",
                defender,
                attacker,
            )
            assert seen["prompts"] == [
                {"seat": defender, "kind": "defend", "defaultInput": {"defend": {"dice": most}}}
            ]
            assert seen["state"] == {"flagshipArmies": 0}

        # Refusals change nothing and say why.
        refusals: list[tuple[int, Json, str]] = [
            (defender, {"defend": {"dice": most + 1}}, "INVALID_DICE"),
            (defender, {"defend": {"dice": 0}}, "INVALID_DICE"),
            (attacker, {"defend": {"dice": 1}}, "NOT_YOUR_TURN"),
            (attacker, {"endTurn": True}, "WRONG_PHASE"),
            (
                bystander,
                {"setStandingOrders": {"marshal": "never", "spy": "block"}},
                "NOT_YOUR_TURN",
            ),
        ]
        for seat, action, code in refusals:
            payload = await submit(api.client, game.id, game.token(seat), action)
            assert [e["code"] for e in payload["userErrors"]] == [code], (seat, action, payload)
            assert payload["version"] is None
        payload = await submit(api.client, game.id, game.token(defender), refusals[0][1])
        assert (
            payload["userErrors"][0]["message"] == f"defend with 1 to {most} dice, not {most + 1}"
        )
        assert (await view(api, game, None))["version"] == game.version

        # One die, fewer than the default: accepted, and the roll is of one defending die.
        assert most > 1
        payload = await submit(api.client, game.id, game.token(defender), {"defend": {"dice": 1}})
        assert payload["userErrors"] == [], payload
        mirror.apply(defender, a.Defend(1))
        game.version = payload["version"]
        (rolled,) = [e for e in payload["events"] if e["type"] == "DiceRolled"]
        assert len(rolled["data"]["defender_dice"]) == 1
        assert (await view(api, game, None))["prompts"] == []

        # The next defence is answered with the family's own input.
        await play(api.client, game, until=waiting)
        defender = mirror.seat_to_act
        assert defender is not None
        (family,) = (await view(api, game, defender))["legalActions"]
        payload = await submit(api.client, game.id, game.token(defender), family["input"])
        assert payload["userErrors"] == [], payload
        (rolled,) = [e for e in payload["events"] if e["type"] == "DiceRolled"]
        assert len(rolled["data"]["defender_dice"]) == family["maxDice"]


async def test_the_piu_variant_offers_the_defenders_dice_maximum_by_default(
    tmp_path: Path,
) -> None:
    query = "{ variants { name options { name default description } } }"
    async with in_process(tmp_path / "data") as api:
        variants = (await data(api.client, query))["variants"]
        created = await data(
            api.client,
            "mutation($input: CreateGameInput!) { createGame(input: $input) "
            "{ game { options { defenderDice } } userErrors { code } } }",
            {"input": {"variant": "piu"}},
        )
    piu = next(v for v in variants if v["name"] == "piu")
    options = {option["name"]: option for option in piu["options"]}
    assert options["defender_dice"]["default"] == "maximum"
    assert "DECLARE" in options["defender_dice"]["description"]
    assert created["createGame"]["game"]["options"] == {"defenderDice": "MAXIMUM"}
