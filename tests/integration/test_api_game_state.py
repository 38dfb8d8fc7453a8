"""Game.state: each game's own state in its own GraphQL type behind the interface GameState,
read as a spectator through the API and held to the engine's state along a played game; and
the revision of its rules a game plays by."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.flow import Phase
from tests.integration.api_support import CREATE, data, in_process, new_game, play
from variants import get_variant

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


REVISIONS = """
query($id: ID!) {
  game(id: $id) { variant rulesRevision }
  variants { name rulesRevision rulesRevisions { revision change } }
}
"""


async def test_a_game_shows_the_rules_revision_it_plays_by_and_variants_their_history(
    tmp_path: Path,
) -> None:
    async with in_process(tmp_path / "data") as api:
        variables = {"input": {"variant": "futurisiko", "seed": "revisions"}}
        created = (await data(api.client, CREATE, variables))["createGame"]
        answer = await data(api.client, REVISIONS, {"id": created["game"]["id"]})
        assert answer["game"] == {"variant": "futurisiko", "rulesRevision": 2}
        classic = await new_game(api.client, start=False)
        answer = await data(api.client, REVISIONS, {"id": classic.id})
        assert answer["game"] == {"variant": "classic", "rulesRevision": 1}
        for variant in answer["variants"]:
            history = get_variant(variant["name"]).rules_revisions
            assert variant["rulesRevision"] == max(history)
            assert variant["rulesRevisions"] == [
                {"revision": revision, "change": change} for revision, change in history.items()
            ]
