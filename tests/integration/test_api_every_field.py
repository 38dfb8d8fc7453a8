"""Every field the schema offers on a game, asked through the API at many points of a seeded
random game of every registered variant, as every seat, a spectator and a foreign token (a
valid token of another game): no error without a documented code (never
INTERNAL_SERVER_ERROR), and nothing hidden shown to whoever may not see it. The selections come
from the served schema's introspection and the games from `variants.VARIANTS`, so a field or
a game is covered the day it exists (tests/integration/schema_walk.py).

The in-process app runs the real schema and HTTP app. The test game, which only a server
started with RISIKO_EXTRA_VARIANTS serves, is walked through a real server process
(tests/e2e/test_every_field.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.integration.api_support import Api, in_process, registered
from tests.integration.schema_walk import ROOTS, introspect, walk_game
from variants import VARIANTS

pytestmark = pytest.mark.anyio


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    async with in_process(tmp_path / "data", budget_points=0) as running:
        yield running


@pytest.mark.parametrize("other_options", [False, True], ids=["defaults", "other-options"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
async def test_every_field_of_a_game_as_every_viewer(
    api: Api, variant: str, other_options: bool
) -> None:
    types = await introspect(api.client, ROOTS)
    seed = f"every-field-{variant}-{other_options}"
    await walk_game(api.client, types, variant, seed, other_options=other_options)


async def test_the_walk_splits_what_the_limits_refuse(tmp_path: Path) -> None:
    """A server with tight limits gets the game's fields in several documents, each within
    them: the walk keeps working when the limits or the schema grow."""
    async with in_process(
        tmp_path / "data", budget_points=0, max_cost=1000, max_tokens=500
    ) as tight:
        types = await introspect(tight.client, ROOTS)
        walk = await walk_game(tight.client, types, "classic", "every-field-tight")
    assert len(walk.parts) > 2


@pytest.mark.parametrize("variant", ["classic", "piu"])
async def test_every_field_of_a_game_as_accounts_see_it(api: Api, variant: str) -> None:
    """Two seats taken by accounts (their sessions act for them), and an account seated in
    another game as the foreign viewer: each account sees its own seat's secrets, in this
    game and no other, and nothing more than a spectator elsewhere."""
    types = await introspect(api.client, ROOTS)
    accounts = [await registered(api, f"walker{n}-{variant}") for n in range(3)]
    seed = f"every-field-accounts-{variant}"
    await walk_game(api.client, types, variant, seed, accounts=accounts)
