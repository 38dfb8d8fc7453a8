"""Every field the schema offers on a game, as every seat, a spectator and a foreign token,
at many points of seeded random games through a real server (both stores): the games the
in-process walk cannot reach (those only RISIKO_EXTRA_VARIANTS serves: the test game), and
FutuRisiKo!, whose hands once answered INTERNAL_SERVER_ERROR to their own seat. See
tests/integration/test_api_every_field.py and tests/integration/schema_walk.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.support import Server
from tests.integration.schema_walk import ROOTS, introspect, walk_game
from variants import VARIANTS

pytestmark = pytest.mark.anyio

EXTRA = "variants.skirmish"


@pytest.fixture
def walked_server(tmp_path: Path, store_env: dict[str, str]) -> Iterator[Server]:
    env = {**store_env, "RISIKO_EXTRA_VARIANTS": EXTRA, "RISIKO_BUDGET_POINTS": "0"}
    running = Server(tmp_path / "data", env=env).start()
    try:
        yield running
    finally:
        running.stop()


async def test_every_field_of_the_games_a_real_server_serves(walked_server: Server) -> None:
    async with httpx.AsyncClient(base_url=walked_server.url, timeout=30) as client:
        types = await introspect(client, ROOTS)
        catalogue = (await client.post("/graphql", json={"query": "{ variants { name } }"})).json()
        served = {variant["name"] for variant in catalogue["data"]["variants"]}
        # Every game the server plays is walked: here, or by the in-process test.
        here = [*sorted(served - set(VARIANTS)), "futurisiko"]
        assert "skirmish" in here
        for variant in here:
            await walk_game(client, types, variant, f"every-field-e2e-{variant}", walk_every=25)
    assert "Traceback" not in walked_server.log()
