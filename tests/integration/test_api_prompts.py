"""Game.prompts through the API: while an attack waits for the defender's dice, everyone sees
who owes the answer and its default, and the default, sent by that seat, is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.flow import Phase
from domain.legal import LegalDefend
from domain.risiko.defence import DefenderDice
from tests.integration.api_support import data, in_process, new_game, play, submit
from variants.classic.options import ClassicOptions

pytestmark = pytest.mark.anyio

PROMPTS = """
query($id: ID!) { game(id: $id) { seatToAct currentPlayer prompts { seat kind defaultInput } } }
"""


async def test_the_defenders_prompt_and_its_default(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        options = ClassicOptions(defender_dice=DefenderDice.DECLARE)
        game = await new_game(api.client, options=options)
        before = (await data(api.client, PROMPTS, {"id": game.id}))["game"]
        assert before["prompts"] == []
        await play(api.client, game, until=lambda mirror: mirror.phase is Phase.DEFEND)
        mirror = game.game
        assert mirror.phase is Phase.DEFEND
        defender = mirror.seat_to_act
        assert defender is not None
        seen = (await data(api.client, PROMPTS, {"id": game.id}))["game"]  # a spectator
        (prompt,) = seen["prompts"]
        assert prompt["seat"] == seen["seatToAct"] == defender != seen["currentPlayer"]
        assert prompt["kind"] == "defend"
        answers = mirror.prompts()[0].answers
        assert isinstance(answers, LegalDefend)
        assert prompt["defaultInput"] == {"defend": {"dice": answers.max_dice}}
        payload = await submit(api.client, game.id, game.token(defender), prompt["defaultInput"])
        assert payload["userErrors"] == []
        assert "DiceRolled" in [event["type"] for event in payload["events"]]
        after = (await data(api.client, PROMPTS, {"id": game.id}))["game"]
        assert after["prompts"] == []
