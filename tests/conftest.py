from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# The schema as a server builds it by default, before any test imports a game that is not
# among the default ones (variants.skirmish): ActionInput and the enums are made on import.
import api.graphql.schema  # noqa: F401
from api.graphiql import default_folder, fetch_assets
from tests.mongo_server import MongoServer

# No time limit per example: on a loaded machine (CI shares two cores) an example that takes
# 250 ms is not a defect. The tests assert behaviour; speed is for the benchmarks.
settings.register_profile("risiko", deadline=None)
settings.load_profile("risiko")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def mongo_server() -> Iterator[MongoServer]:
    """One MongoDB server for the whole run (secantusdb, or RISIKO_TEST_MONGODB_URI)."""
    server = MongoServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def mongo_uri(mongo_server: MongoServer) -> str:
    """A fresh database on the test MongoDB server."""
    return mongo_server.uri_for(f"risiko_test_{uuid.uuid4().hex[:12]}")


@pytest.fixture(scope="session")
def graphiql_assets() -> Path:
    """GraphiQL's real files from the npm registry, in the user's cache (fetched once)."""
    folder = default_folder()
    fetch_assets(folder)
    return folder
