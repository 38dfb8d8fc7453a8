"""Answers that never change while the server runs (api/graphql/static_reads.py): the
catalogue and introspection are executed once per document and variables, then served from
memory, still charged to their client; anything else runs every time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from graphql import ExecutionResult

from api.graphql.catalogue import variant_type
from api.graphql.static_reads import StaticAnswers, encode_response
from tests.integration.api_support import body, data, in_process, new_game, play

pytestmark = pytest.mark.anyio

# A refill too slow to make up for a charge while a loaded machine answers the next request.
SLOW_REFILL = {"budget_refill_per_second": 0.001}
BOARD = "{ variants { name board { territories { id name } edges { a b kind } } } }"
MIXED = "{ variants { name } games(first: 1) { edges { cursor } } }"
TYPE = "query($n: String!) { __type(name: $n) { name kind } }"


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The variants whose GraphQL description the resolvers built, in order."""
    names: list[str] = []

    def counted(variant: Any) -> Any:
        names.append(variant.name)
        return variant_type(variant)

    monkeypatch.setattr("api.graphql.query.variant_type", counted)
    return names


async def test_the_catalogue_runs_once_and_is_still_charged(
    tmp_path: Path, built: list[str]
) -> None:
    async with in_process(tmp_path / "data", **SLOW_REFILL) as api:
        first = await body(api.client, BOARD)
        runs = len(built)
        assert runs == len(first["data"]["variants"]) > 0
        second = await body(api.client, BOARD)
        assert second["data"] == first["data"]
        assert len(built) == runs  # answered from memory
        charged = [answer["extensions"]["cost"] for answer in (first, second)]
        assert charged[0]["requested"] == charged[1]["requested"] > 0
        assert charged[1]["remaining"] < charged[0]["remaining"]


async def test_a_document_that_reads_anything_else_runs_every_time(
    tmp_path: Path, built: list[str]
) -> None:
    async with in_process(tmp_path / "data") as api:
        for _ in range(2):
            answer = await body(api.client, MIXED)
            assert "errors" not in answer
        assert len(built) == 2 * len(answer["data"]["variants"])


async def test_variables_are_part_of_the_key(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        names = []
        for name in ("Game", "Variant", "Game"):
            answer = await body(api.client, TYPE, {"n": name})
            names.append(answer["data"]["__type"]["name"])
        assert names == ["Game", "Variant", "Game"]


def test_the_least_recently_used_answer_goes_first() -> None:
    answers = StaticAnswers(size=2)
    one, two, three = (ExecutionResult({"n": n}) for n in (1, 2, 3))
    answers.keep(("a", None, "{}", ()), one)
    answers.keep(("b", None, "{}", ()), two)
    assert answers.get(("a", None, "{}", ())) is one  # now the most recently used
    answers.keep(("c", None, "{}", ()), three)
    assert answers.get(("b", None, "{}", ())) is None
    assert answers.get(("a", None, "{}", ())) is one
    assert answers.get(("c", None, "{}", ())) is three


async def test_a_kept_answer_is_sent_as_strawberry_would_encode_it(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data", **SLOW_REFILL) as api:
        answers = [await api.client.post("/graphql", json={"query": BOARD}) for _ in range(3)]
    texts = [answer.text for answer in answers]
    for text in texts:  # the bytes strawberry's own encoding gives: compact, in this order
        assert text == json.dumps(json.loads(text), separators=(",", ":"))
        assert list(json.loads(text)) == ["data", "extensions"]
    # The data is spliced from one encoding; the budget in the extensions is each request's.
    assert len({json.dumps(json.loads(text)["data"]) for text in texts}) == 1
    remaining = [json.loads(text)["extensions"]["cost"]["remaining"] for text in texts]
    assert remaining[0] > remaining[1] > remaining[2]


def test_only_a_kept_answers_data_is_spliced() -> None:
    answers = StaticAnswers(size=1)
    kept, other = ExecutionResult({"n": [1, "é"]}), ExecutionResult({"n": [1, "é"]})
    answers.keep(("a", None, "{}", ()), kept)
    with_extensions = {"data": kept.data, "extensions": {"cost": {"remaining": 3}}}
    for response in ({"data": kept.data}, with_extensions):
        assert encode_response(answers, response) == json.dumps(response, separators=(",", ":"))
    # Equal data that is not the kept object, errors, or another shape: encoded as usual.
    assert encode_response(answers, {"data": other.data}) is None
    assert encode_response(answers, {"data": kept.data, "errors": []}) is None
    assert encode_response(answers, {"extensions": {}, "data": kept.data}) is None
    # An answer pushed out of memory takes its encoding with it.
    answers.keep(("b", None, "{}", ()), other)
    assert encode_response(answers, {"data": kept.data}) is None
    assert encode_response(answers, {"data": other.data}) == '{"data":{"n":[1,"\\u00e9"]}}'


# --------------------------------------------------------------------------- games

STATE = "query($id: ID!) { game(id: $id) { version hand { id } territories { id armies } } }"


@pytest.fixture
def views(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The viewers whose Game the resolvers built, in order."""
    seen: list[int | None] = []
    from api.graphql.game import game_type

    def counted(session: Any, viewer: int | None) -> Any:
        seen.append(viewer)
        return game_type(session, viewer)

    monkeypatch.setattr("api.graphql.query.game_type", counted)
    return seen


async def test_spectators_share_one_execution_per_version(
    tmp_path: Path, views: list[int | None]
) -> None:
    async with in_process(tmp_path / "data") as api:
        game = await new_game(api.client)
        views.clear()  # the payloads of joining and starting
        first = await body(api.client, STATE, {"id": game.id})
        again = await body(api.client, STATE, {"id": game.id})
        assert again["data"] == first["data"]
        assert views == [None]  # the second spectator was answered from memory
        target = game.game.seq + 1
        await play(api.client, game, until=lambda m: m.seq >= target)  # a new version
        views.clear()  # the players' own reads
        after = await body(api.client, STATE, {"id": game.id})
        assert after["data"]["game"]["version"] == first["data"]["game"]["version"] + 1
        assert after["data"] != first["data"]
        assert views == [None]
        charged = [answer["extensions"]["cost"] for answer in (first, again)]
        # Still charged for the answer kept (the budget's refill between the two requests may
        # make up for it on a slow machine, so the charge itself is compared, not what is left).
        assert charged[1]["requested"] == charged[0]["requested"] > 0


async def test_a_seats_answer_is_never_anothers(tmp_path: Path, views: list[int | None]) -> None:
    async with in_process(tmp_path / "data") as api:
        game = await new_game(api.client)
        await play(api.client, game, until=lambda mirror: any(mirror.hands))
        holder = next(seat for seat, hand in enumerate(game.game.hands) if hand)
        variables = {"id": game.id}
        views.clear()  # the players' own reads
        seat_view = await data(api.client, STATE, variables, game.token(holder))
        spectator = await data(api.client, STATE, variables)
        other = await data(api.client, STATE, variables, game.token((holder + 1) % 4))
        assert [c["id"] for c in seat_view["game"]["hand"]] == game.game.hands[holder]
        assert spectator["game"]["hand"] is None
        other_hand = [c["id"] for c in other["game"]["hand"]]
        assert other_hand == game.game.hands[(holder + 1) % 4]
        assert views == [holder, None, (holder + 1) % 4]  # three viewers, three executions
        assert await data(api.client, STATE, variables, game.token(holder)) == seat_view
        assert len(views) == 3


async def test_an_unknown_game_or_a_bad_token_is_answered_as_usual(tmp_path: Path) -> None:
    async with in_process(tmp_path / "data") as api:
        game = await new_game(api.client)
        unknown = await body(api.client, STATE, {"id": "R2FtZTpub3BlOm5vcGU="})
        assert unknown["errors"][0]["extensions"]["code"] == "NOT_FOUND"
        bad = await body(api.client, STATE, {"id": game.id}, "not-a-token")
        assert bad["errors"][0]["extensions"]["code"] in {"UNAUTHENTICATED", "FORBIDDEN"}
