"""A seat reads its own hand through the API in every game's own cards, and nobody else does.

FutuRisiKo!'s cards are not territory cards: each is of a type and shows two colours. The hand
was once looked up in the classic cards' table, empty in FutuRisiKo!, so a seat holding a card
got INTERNAL_SERVER_ERROR for `game { hand }` and for `submitAction { game { hand } }`.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from api.graphql.generated import ready_input
from api.graphql.ids import from_global_id
from bots.policies import aggressive_policy
from domain.kernel import Kernel
from tests.integration.api_support import Api, body, data, in_process
from variants import get_variant
from variants.futurisiko.ruleset import CARD_TYPES, FutuRuleset

pytestmark = pytest.mark.anyio

HAND = "hand { id symbol territory colours }"
READ = f"query($id: ID!) {{ game(id: $id) {{ viewerSeat {HAND} players {{ cards }} }} }}"
SUBMIT = f"""
mutation($input: SubmitActionInput!) {{
  submitAction(input: $input) {{ userErrors {{ code }} game {{ viewerSeat {HAND} }} }}
}}"""
CREATE = """
mutation($input: CreateGameInput!) { createGame(input: $input) { game { id } } }
"""
JOIN = "mutation($input: JoinGameInput!) { joinGame(input: $input) { token } }"
START = "mutation($input: GameInput!) { startGame(input: $input) { userErrors { code } } }"


async def futurisiko_game(api: Api) -> tuple[str, list[str]]:
    """A started 3-seat FutuRisiKo! game on a full board (every seat has flags for cards)."""
    variables: dict[str, Any] = {
        "input": {"variant": "futurisiko", "seed": "hands", "options": {"fillBoard": True}}
    }
    game_id = (await data(api.client, CREATE, variables))["createGame"]["game"]["id"]
    tokens = []
    for name in ("Ada", "Bea", "Cy"):
        joined = await data(api.client, JOIN, {"input": {"gameId": game_id, "name": name}})
        tokens.append(joined["joinGame"]["token"])
    started = await data(api.client, START, {"input": {"gameId": game_id}}, tokens[0])
    assert started["startGame"]["userErrors"] == []
    return game_id, tokens


async def engine(api: Api, game_id: str) -> Kernel:
    decoded = from_global_id(game_id, "Game")
    assert decoded is not None
    game = (await api.service.session(decoded[1])).game
    assert game is not None
    return game


def faces(game: Kernel, seat: int) -> list[dict[str, Any]]:
    """The seat's hand as the API shows it, from the rules data: the type, the colours."""
    ruleset = get_variant("futurisiko").ruleset
    assert isinstance(ruleset, FutuRuleset)
    cards = [ruleset.card(card_id) for card_id in game.hand(seat)]
    return [
        {"id": card.id, "symbol": card.type, "territory": None, "colours": list(card.colours)}
        for card in cards
    ]


async def test_a_futurisiko_seat_reads_its_own_cards(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        game_id, tokens = await futurisiko_game(api)
        rnd = random.Random(1)
        dealt = False
        for _ in range(300):  # to the second round's cards phase: flags, production, moves
            game = await engine(api, game_id)
            seat = game.seat_to_act
            assert seat is not None
            action = next(iter(aggressive_policy(game, seat, rnd)))
            variables = {"input": {"gameId": game_id, "action": ready_input(action)}}
            answer = await body(api.client, SUBMIT, variables, tokens[seat])
            assert "errors" not in answer, answer  # was INTERNAL_SERVER_ERROR at `hand`
            payload = answer["data"]["submitAction"]
            assert payload["userErrors"] == []
            game = await engine(api, game_id)
            assert payload["game"]["hand"] == faces(game, seat)
            if game.hand(seat):
                dealt = True
                break
        assert dealt, "no card was dealt"

        # Each seat reads its own cards, as many as everyone sees it hold; a spectator none.
        game = await engine(api, game_id)
        for seat, token in enumerate(tokens):
            read = (await data(api.client, READ, {"id": game_id}, token))["game"]
            assert read["viewerSeat"] == seat
            assert read["hand"] == faces(game, seat)
            assert read["players"][seat]["cards"] == len(game.hand(seat))
        spectator = (await data(api.client, READ, {"id": game_id}))["game"]
        assert spectator["hand"] is None
        held = [card for seat in range(3) for card in faces(game, seat)]
        assert held
        assert all(card["symbol"] in CARD_TYPES and len(card["colours"]) == 2 for card in held)
