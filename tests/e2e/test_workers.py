"""`risiko serve --workers 2` (RISIKO_WORKERS=2) on the embedded store: two processes on one
port and one SQLite file. Requests and sockets land on either; every subscriber receives every
event of a game, in order, once, whichever process committed it (api/sqlite_feed.py; the
deterministic two-process case is tests/e2e/test_instances.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.support import Server
from tests.e2e.test_instances import (
    GAME_EVENTS,
    Clients,
    Json,
    caught_up,
    create,
    following,
    history,
    increasing,
    request_for,
    seat_players,
    start,
    state_as_seat_to_act,
    submit,
    wait_until,
)

pytestmark = pytest.mark.anyio

SUBSCRIBERS = 6
ACTIONS = 30


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "data", env={"RISIKO_WORKERS": "2"}).start()
    try:
        yield running
    finally:
        running.stop()


def workers_of(server: Server) -> list[int]:
    """The server's worker processes: the children uvicorn spawned."""
    assert server.process is not None
    children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children")
    found = []
    for pid in children.read_text().split():
        with contextlib.suppress(FileNotFoundError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
    return found


async def test_every_subscriber_of_either_process_gets_every_event_once_in_order(
    server: Server,
) -> None:
    assert len(workers_of(server)) == 2
    fresh = httpx.Limits(max_keepalive_connections=0)  # each request: a new connection
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30, limits=fresh) as one,
        httpx.AsyncClient(base_url=server.url, timeout=30, limits=fresh) as other,
        contextlib.AsyncExitStack() as stack,
    ):
        clients = Clients(one, other)
        game_id = await create(one, "workers")
        table = await seat_players(clients, game_id, 3)
        received: list[list[Json]] = [[] for _ in range(SUBSCRIBERS)]
        for sink in received:  # spectators, each on a socket of its own
            await stack.enter_async_context(
                following(server.ws_url, GAME_EVENTS, sink, {"id": game_id})
            )
        await start(one, table)
        seat = 0
        for n in range(ACTIONS):
            http = clients.of(n)
            state = await state_as_seat_to_act(http, table, seat)
            seat = state["seatToAct"]
            answer = await submit(http, table, seat, request_for(table, state, f"w-{n}"))
            assert answer["userErrors"] == [], answer
        expected = await history(one, table, None)
        for n, sink in enumerate(received):
            await wait_until(caught_up(sink, expected[-1]["seq"]), f"subscriber {n}")
        await asyncio.sleep(0.2)  # anything extra (a duplicate) would arrive now
    for sink in received:
        assert increasing(sink)
        assert sink == expected
