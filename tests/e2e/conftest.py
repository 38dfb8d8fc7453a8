from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.support import Server


@pytest.fixture(params=["embedded", "mongodb"])
def store_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """The end-to-end tests run on both stores: the environment that selects each."""
    if request.param == "embedded":
        return {}
    uri = request.getfixturevalue("mongo_uri")
    assert isinstance(uri, str)
    return {"RISIKO_STORE": uri}


@pytest.fixture
def server(tmp_path: Path, store_env: dict[str, str]) -> Iterator[Server]:
    running = Server(tmp_path / "data", env=store_env).start()
    try:
        yield running
    finally:
        running.stop()
