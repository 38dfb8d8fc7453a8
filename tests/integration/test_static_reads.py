"""Answers that never change while the server runs (api/graphql/static_reads.py): the
catalogue and introspection are executed once per document and variables, then served from
memory, still charged to their client; anything else runs every time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from graphql import ExecutionResult

from api.graphql.catalogue import variant_type
from api.graphql.static_reads import StaticAnswers
from tests.integration.api_support import body, in_process

pytestmark = pytest.mark.anyio

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

    monkeypatch.setattr("api.graphql.schema.variant_type", counted)
    return names


async def test_the_catalogue_runs_once_and_is_still_charged(
    tmp_path: Path, built: list[str]
) -> None:
    async with in_process(tmp_path / "data") as api:
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
    answers.keep(("a", None, "{}"), one)
    answers.keep(("b", None, "{}"), two)
    assert answers.get(("a", None, "{}")) is one  # now the most recently used
    answers.keep(("c", None, "{}"), three)
    assert answers.get(("b", None, "{}")) is None
    assert answers.get(("a", None, "{}")) is one
    assert answers.get(("c", None, "{}")) is three
