"""/readyz follows the database: not ready while MongoDB is unreachable, ready again by itself
when it comes back; /healthz says only that the process lives."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.support import Server
from tests.mongo_server import ENVIRONMENT, MongoServer


@pytest.fixture
def own_mongo() -> Iterator[MongoServer]:
    """A MongoDB server of this test's own, since the test stops it."""
    if MongoServer().external:
        pytest.skip(f"stops its own secantusdb; not done to the server of {ENVIRONMENT}")
    server = MongoServer().start()
    try:
        yield server
    finally:
        server.stop()


def wait_for(url: str, status: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = httpx.get(url, timeout=5).status_code
        except httpx.HTTPError:
            last = None
        if last == status:
            return
        time.sleep(0.2)
    raise AssertionError(f"{url} answered {last}, not {status}, within {timeout} s")


def test_readiness_follows_the_database(own_mongo: MongoServer, tmp_path: Path) -> None:
    api = Server(tmp_path, env={"RISIKO_STORE": own_mongo.uri_for("risiko_ready")}).start()
    try:
        assert httpx.get(f"{api.url}/readyz").status_code == 200
        own_mongo.pause()
        wait_for(f"{api.url}/readyz", 503)
        assert httpx.get(f"{api.url}/healthz").status_code == 200  # alive, just not ready
        own_mongo.resume()
        wait_for(f"{api.url}/readyz", 200)
        created = httpx.post(
            f"{api.url}/graphql",
            json={
                "query": "mutation { createGame(input: {}) { game { id } userErrors { code } } }"
            },
            timeout=30,
        ).json()
        assert created["data"]["createGame"]["userErrors"] == []
    finally:
        api.stop()
