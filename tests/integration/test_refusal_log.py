"""A document refused before it runs is logged once, with the status its client gets: 200
for a client of plain application/json (GraphQL over HTTP's legacy media type), 400 for one
that accepts application/graphql-response+json, 429 over budget; uvicorn's access log says
the same (tests/e2e/test_observability.py reads both)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from tests.integration.api_support import GRAPHQL_RESPONSE, in_process

pytestmark = pytest.mark.anyio

COSTLY = "{ games(first: 100) { edges { node { id players { seat name } } } } }"


async def test_a_refusal_is_logged_with_the_status_its_client_gets(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = {"budget_points": 1000, "budget_refill_per_second": 1}
    async with in_process(tmp_path / "data", **settings) as api:
        with caplog.at_level(logging.INFO, logger="risiko"):
            answers = [
                await api.client.post("/graphql", json={"query": "{ nope }"}),
                await api.client.post(
                    "/graphql", json={"query": "{ nope }"}, headers={"accept": GRAPHQL_RESPONSE}
                ),
                await api.client.post("/graphql", json={"query": COSTLY}),
            ]
    assert [answer.status_code for answer in answers] == [200, 400, 429]
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("refused")]
    logged = [re.search(r"\): (\d{3}) ([A-Z_]+):", line) for line in lines]
    assert [(m.group(1), m.group(2)) for m in logged if m] == [
        ("200", "GRAPHQL_VALIDATION_FAILED"),
        ("400", "GRAPHQL_VALIDATION_FAILED"),
        ("429", "RATE_LIMITED"),
    ]
