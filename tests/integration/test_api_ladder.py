"""The bots' ladder through the in-process app: a person's account is refused (BOTS_ONLY), a
token without GAMES_PLAY is FORBIDDEN, a bot joins once, `me { ladder }` lists the ladder's
game the server seats it in (rated, its seats bound to the bots), and a bot that leaves keeps
its game to its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.ladder.service import Ladder
from tests.integration.api_support import body, data, error_codes, in_process, registered

pytestmark = pytest.mark.anyio

PAYLOAD = "{ ladder { joined variant speed games } userErrors { code } }"
JOIN = f"mutation {{ joinLadder(input: {{}}) {PAYLOAD} }}"
LEAVE = f"mutation {{ leaveLadder(input: {{}}) {PAYLOAD} }}"
MINE = "{ me { ladder { joined games } } }"
READER = 'mutation { createApiToken(input: {name: "r", scopes: [GAMES_READ]}) { token } }'
GAME = """query($g: ID!) { game(id: $g) { status rated speed players { name } } }"""


async def test_bots_join_the_ladder_and_are_seated_in_a_rated_game(tmp_path: Path) -> None:
    async with in_process(tmp_path) as api:
        person = await registered(api, "Anna")
        refused = (await data(api.client, JOIN, token=person))["joinLadder"]
        assert refused == {"ladder": None, "userErrors": [{"code": "BOTS_ONLY"}]}
        bots = [await registered(api, f"Bot{n}", bot=True) for n in range(4)]
        reader = (await data(api.client, READER, token=bots[0]))["createApiToken"]["token"]
        assert error_codes(await body(api.client, JOIN, token=reader)) == ["FORBIDDEN"]
        assert (await data(api.client, MINE, token=bots[0]))["me"]["ladder"] == {
            "joined": False,
            "games": [],
        }
        for token in [*bots, bots[0]]:  # joining twice changes nothing
            joined = (await data(api.client, JOIN, token=token))["joinLadder"]
            assert joined["userErrors"] == []
            assert joined["ladder"]["joined"] is True
        assert joined["ladder"]["variant"] == "classic"
        assert joined["ladder"]["speed"] == "REAL_TIME"
        ladder: Ladder = api.app.state.ladder
        assert len((await ladder.record()).members) == 4
        await ladder.tick()  # or the background pass did it first
        games = [(await data(api.client, MINE, token=t))["me"]["ladder"] for t in bots]
        (game,) = games[0]["games"]
        assert games == [{"joined": True, "games": [game]}] * 4
        shown = (await data(api.client, GAME, {"g": game}))["game"]
        assert shown["status"] == "ACTIVE"
        assert shown["rated"] is True
        assert shown["speed"] == "REAL_TIME"
        assert sorted(player["name"] for player in shown["players"]) == [
            f"Bot{n}" for n in range(4)
        ]
        left = (await data(api.client, LEAVE, token=bots[0]))["leaveLadder"]["ladder"]
        assert left == {"joined": False, "variant": "classic", "speed": "REAL_TIME"} | {
            "games": [game]
        }
