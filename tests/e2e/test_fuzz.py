"""Generated GraphQL documents against a real server: no 5xx, no exception text, bounded time.

hypothesis-graphql builds documents from the served schema, valid ones (positive mode) and
invalid ones (negative mode). CI runs a few hundred; a longer run sets RISIKO_FUZZ_EXAMPLES,
e.g. `RISIKO_FUZZ_EXAMPLES=5000 python3 dev.py test tests/e2e/test_fuzz.py`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_graphql import Mode, from_schema

from tests.e2e.support import ROOT, Server

EXAMPLES = int(os.environ.get("RISIKO_FUZZ_EXAMPLES", "150"))
SDL = (ROOT / "schema.graphql").read_text()
# A Python exception's text in an answer: what the masking and the codes must never let out.
LEAKS = ("Traceback", "KeyError", "TypeError", "ValueError", "AttributeError", "RecursionError")
SECONDS_PER_REQUEST = 10  # behavioural: a document must not hold the server (it did, minutes)

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    server = Server(tmp_path_factory.mktemp("fuzz") / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=SECONDS_PER_REQUEST) as http:
            yield http
    finally:
        server.stop()


def check(client: httpx.Client, document: object) -> None:
    started = time.monotonic()
    response = client.post("/graphql", json={"query": document})
    assert time.monotonic() - started < SECONDS_PER_REQUEST
    assert response.status_code < 500, response.text
    for leak in LEAKS:
        assert leak not in response.text, (document, response.text)
    answer = response.json()
    for error in answer.get("errors") or []:
        assert isinstance(error["extensions"]["code"], str), error


@FUZZ
@given(document=from_schema(SDL, mode=Mode.POSITIVE))
def test_valid_documents(client: httpx.Client, document: object) -> None:
    check(client, document)


@FUZZ
@given(document=from_schema(SDL, mode=Mode.NEGATIVE))
def test_invalid_documents(client: httpx.Client, document: object) -> None:
    check(client, document)


@FUZZ
@given(document=st.text(max_size=300))
def test_arbitrary_text(client: httpx.Client, document: str) -> None:
    check(client, document)
