"""What one submitAction costs the store: the token's seat once (the same lookup charges the
request and authorises the action), the game's row once (is the cached game still the
latest?), and one append; the answer's `game` is the game just committed, not read again."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from api.graphql.generated import ready_input
from tests.integration.api_support import data, headers_for, in_process, new_game

pytestmark = pytest.mark.anyio

SUBMIT = """
mutation($input: SubmitActionInput!) {
  submitAction(input: $input) {
    version userErrors { code }
    events { seq type }
    game { version phase players { seat armies } }
  }
}"""
READS = ("seat_of", "get", "log", "last_event_seq", "events", "idempotent_response", "append")


async def test_a_warm_submit_reads_the_row_once_and_appends_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with in_process(tmp_path / "data") as api:
        game = await new_game(api.client)
        mirror = game.game
        calls: Counter[str] = Counter()
        store = api.service.store
        for name in READS:
            original: Callable[..., Awaitable[Any]] = getattr(store, name)

            async def counted(
                *args: Any, _name: str = name, _call: Any = original, **kwargs: Any
            ) -> Any:
                calls[_name] += 1
                return await _call(*args, **kwargs)

            monkeypatch.setattr(store, name, counted)
        for _ in range(3):  # three actions in a row, the cache warm after the start
            seat = mirror.seat_to_act
            assert seat is not None
            action = mirror.legal_actions(seat)[0].ready()
            calls.clear()
            variables = {"input": {"gameId": game.id, "action": ready_input(action)}}
            answer = await data(api.client, SUBMIT, variables, game.token(seat))
            payload = answer["submitAction"]
            assert payload["userErrors"] == []
            mirror.apply(seat, action)
            assert payload["game"]["version"] == payload["version"]
            assert calls == Counter({"seat_of": 1, "get": 1, "append": 1})


async def test_a_token_of_another_game_is_still_refused(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        first = await new_game(api.client, seed="first")
        second = await new_game(api.client, seed="second")
        seat = first.game.seat_to_act
        assert seat is not None
        action = first.game.legal_actions(seat)[0].ready()
        variables = {"input": {"gameId": second.id, "action": ready_input(action)}}
        answer = await api.client.post(
            "/graphql",
            json={"query": SUBMIT, "variables": variables},
            headers=headers_for(first.token(seat)),
        )
        body = answer.json()
        assert body["errors"][0]["extensions"]["code"] == "FORBIDDEN"
