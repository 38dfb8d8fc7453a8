"""Game.state: each game's own state in its own GraphQL type behind the interface GameState,
read as a spectator through the API and held to the engine's state along a played game."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.game import Phase
from tests.integration.api_support import data, in_process, new_game, play

pytestmark = pytest.mark.anyio

STATE = """
query($id: ID!) {
  game(id: $id) {
    armiesToPlace
    state {
      __typename turnOrder
      ... on ClassicState {
        firstPlayer setupQuota reinforcementsLeft conqueredThisTurn timeExpired
      }
    }
  }
}
"""


async def test_a_classic_games_own_state(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        game = await new_game(api.client)
        state = (await data(api.client, STATE, {"id": game.id}))["game"]
        mirror = game.game
        assert state["state"] == {
            "__typename": "ClassicState",
            "turnOrder": list(mirror.turn_order),
            "firstPlayer": mirror.first_player,
            "setupQuota": mirror.setup_quota,
            "reinforcementsLeft": 0,
            "conqueredThisTurn": False,
            "timeExpired": False,
        }
        assert state["armiesToPlace"] == mirror.setup_quota > 0
        await play(api.client, game, until=lambda m: m.phase is Phase.ATTACK and m.round >= 2)
        state = (await data(api.client, STATE, {"id": game.id}))["game"]["state"]
        mirror = game.game
        assert state["setupQuota"] == 0
        assert state["reinforcementsLeft"] == mirror.pending_reinforcements
        assert state["conqueredThisTurn"] == mirror.conquered_this_turn


async def test_a_game_not_started_has_no_state(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        game = await new_game(api.client, start=False)
        state = (await data(api.client, STATE, {"id": game.id}))["game"]
        assert state["state"] is None
