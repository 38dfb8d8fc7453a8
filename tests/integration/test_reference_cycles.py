"""A request leaves nothing for the garbage collector: everything it allocated is freed by
reference counting when it ends. A cycle left per request waits for the collector's older
generations, whose pauses were the p99 of a busy server (docs/performance.md)."""

from __future__ import annotations

import gc
import random
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bots.policies import aggressive_policy
from tests.integration.api_support import (
    action_input,
    data,
    in_process,
    new_game,
    submit,
)

# The test's own HTTP client (httpx) keeps each response and its stream in a cycle: not the
# server's, so not counted.
CLIENT_MODULES = ("httpx", "httpcore")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@contextmanager
def collector_paused() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


async def cycles_left_by(request: Callable[[], Awaitable[Any]]) -> tuple[Any, list[str]]:
    """`request`'s answer, and the types of the server's objects that only the collector
    could free after it."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    answer = await request()
    gc.collect()
    left = [
        f"{type(thing).__module__}.{type(thing).__qualname__}"
        for thing in gc.garbage
        if not type(thing).__module__.startswith(CLIENT_MODULES)
        and type(thing).__module__ != "builtins"
    ]
    gc.garbage.clear()
    gc.set_debug(0)
    return answer, left


READ = "query($id: ID!) { game(id: $id) { version territories { id armies } } }"


@pytest.mark.anyio
async def test_actions_and_reads_leave_no_reference_cycle(tmp_path: Path) -> None:
    """Once a document is known (its first request parses and validates it, which leaves
    cycles in graphql-core's validation: once per document, the cache bounds them)."""
    async with in_process(tmp_path) as api:
        game = await new_game(api.client)
        mirror = game.game
        rnd = random.Random(7)
        await data(api.client, READ, {"id": game.id}, game.token(0))
        with collector_paused():
            for played in range(15):
                seat = mirror.seat_to_act
                assert seat is not None
                action = next(iter(aggressive_policy(mirror, seat, rnd)))
                mirror.apply(seat, action)

                act = partial(submit, api.client, game.id, game.token(seat), action_input(action))
                payload, left = await cycles_left_by(act)
                assert payload["userErrors"] == [], payload
                if played > 0:  # the first parsed and validated submitAction's document
                    assert left == []

            read = partial(data, api.client, READ, {"id": game.id}, game.token(0))
            answer, left = await cycles_left_by(read)
            assert answer["game"]["version"] == payload["version"]
            assert left == []
