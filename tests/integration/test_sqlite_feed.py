"""The embedded store's change feed (api/sqlite_feed.py): two instances on one SQLite file,
each with its own broker and feed, as two `risiko serve` processes (or `--workers 2`) have.
Whichever instance commits an event, each broker gets every event once, in commit order."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from api.broker import Broker, Message
from api.feeds import started
from api.service import GameService, ServiceError
from api.sqlite_feed import SqliteChangeFeed
from api.stores.base import RecordedEvent
from api.stores.sqlite import SqliteStore
from bots.policies import aggressive_policy
from domain.errors import ErrorCode, RuleViolation
from tests.integration.api_support import ServiceGame, service_game

pytestmark = pytest.mark.anyio


@dataclass
class Instance:
    store: SqliteStore
    broker: Broker
    feed: SqliteChangeFeed
    service: GameService
    received: dict[str, list[RecordedEvent]] = field(default_factory=dict)


@contextlib.asynccontextmanager
async def instance(path: Path) -> AsyncIterator[Instance]:
    store = SqliteStore(path)
    await store.open()
    broker = Broker()
    feed = SqliteChangeFeed(store, broker)
    task = await started(feed)
    try:
        yield Instance(store, broker, feed, GameService(store, broker, feed=feed))
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await store.close()


async def collect(queue: asyncio.Queue[Message], sink: list[RecordedEvent]) -> None:
    while True:
        message = await queue.get()
        assert isinstance(message, RecordedEvent)
        sink.append(message)


async def play(instances: list[Instance], game: ServiceGame, actions: int, seed: int) -> None:
    """`actions` actions of `game`, each sent to an instance drawn at random."""
    rnd = random.Random(seed)
    mirror = game.game
    for _ in range(actions):
        seat = mirror.seat_to_act
        assert seat is not None
        action = next(iter(aggressive_policy(mirror, seat, rnd)))
        try:
            mirror.apply(seat, action)
        except RuleViolation:
            raise AssertionError(f"the bot proposed {action}, refused") from None
        await rnd.choice(instances).service.submit_action(game.id, game.tokens[seat], action)


def caught_up(received: list[RecordedEvent], seq: int) -> bool:
    return bool(received) and received[-1].seq >= seq


async def until(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the feed did not catch up"
        await asyncio.sleep(0.01)


async def test_each_instance_publishes_every_event_of_every_instance_once_in_order(
    tmp_path: Path,
) -> None:
    path = tmp_path / "risiko.sqlite3"
    async with instance(path) as a, instance(path) as b, AsyncExitStack() as stack:
        games = [await service_game(x.service, seed=f"feed-{n}") for n, x in enumerate((a, b))]
        tasks = []
        for x in (a, b):
            for game in games:
                queue = await stack.enter_async_context(x.broker.subscribe(game.id))
                x.received[game.id] = []
                tasks.append(asyncio.create_task(collect(queue, x.received[game.id])))
        await asyncio.gather(*(play([a, b], g, 60, n) for n, g in enumerate(games)))
        for game in games:
            last = await a.store.last_event_seq(game.id)
            for x in (a, b):
                await until(functools.partial(caught_up, x.received[game.id], last))
                seqs = [e.seq for e in x.received[game.id]]
                assert seqs == list(range(seqs[0], last + 1)), "one lost, twice or out of order"
            # Each instance published the other's events decoded from the store, its own as
            # they were in memory: the same events.
            # (Each began with whatever its feed had not yet published when it subscribed.)
            first = max(x.received[game.id][0].seq for x in (a, b))
            assert [e for e in a.received[game.id] if e.seq >= first] == [
                e for e in b.received[game.id] if e.seq >= first
            ]
        assert not a.feed._hints, "a hint of its own events left behind"
        assert not b.feed._hints, "a hint of its own events left behind"
        for task in tasks:
            task.cancel()


async def test_a_commit_lost_to_another_instance_leaves_nothing_behind(tmp_path: Path) -> None:
    """Two instances race one action of one game: A commits it, B's commit is refused
    (STALE_VERSION), and what B expected to publish is forgotten."""
    path = tmp_path / "risiko.sqlite3"
    async with instance(path) as a, instance(path) as b, AsyncExitStack() as stack:
        game = await service_game(a.service, seed="race")
        tasks = []
        for x in (a, b):
            queue = await stack.enter_async_context(x.broker.subscribe(game.id))
            x.received[game.id] = []
            tasks.append(asyncio.create_task(collect(queue, x.received[game.id])))
        seat = game.game.seat_to_act
        assert seat is not None
        firsts = {
            next(iter(aggressive_policy(game.game, seat, random.Random(n)))) for n in range(9)
        }
        on_a, on_b = sorted(firsts, key=repr)[:2]  # B's would make other events than A's
        version = (await a.service.session(game.id)).record.version
        a_committed = asyncio.Event()
        append = b.store.append

        async def append_once_a_has(*args: Any, **kwargs: Any) -> None:
            await a_committed.wait()  # B has checked the version, and commits after A
            await append(*args, **kwargs)

        b.store.append = append_once_a_has  # type: ignore[method-assign]
        b_submits = asyncio.create_task(
            b.service.submit_action(game.id, game.tokens[seat], on_b, version)
        )
        while not b.feed._hints:  # B expects its events: it is at its commit
            await asyncio.sleep(0.001)
        await a.service.submit_action(game.id, game.tokens[seat], on_a, version)
        await asyncio.sleep(0.2)  # B's feed reads A's events while B's commit is under way
        a_committed.set()
        with pytest.raises(ServiceError) as refused:
            await b_submits
        assert refused.value.code == ErrorCode.STALE_VERSION
        last = await a.store.last_event_seq(game.id)
        for x in (a, b):
            await until(functools.partial(caught_up, x.received[game.id], last))
        # B published A's events, not those it expected of its own commit.
        assert b.received[game.id][-len(a.received[game.id]) :] == a.received[game.id]
        assert not a.feed._hints
        assert not b.feed._hints
        for task in tasks:
            task.cancel()
