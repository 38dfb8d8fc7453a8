"""What ties this instance to the others on one store: the feed that publishes every
instance's events to this one's subscribers, whichever instance committed them."""

from __future__ import annotations

import asyncio

from api.account_feed import AccountFeed
from api.broker import Broker
from api.feed import ChangeFeed
from api.sqlite_feed import SqliteChangeFeed
from api.stores.base import Store
from api.stores.mongo import MongoStore
from api.stores.sqlite import SqliteStore

GamesFeed = ChangeFeed | SqliteChangeFeed


def games_feed(store: Store, broker: Broker) -> GamesFeed | None:
    """MongoDB's change stream, or the embedded store's own feed (None for a store that
    is neither: a test's, say, whose instance publishes what it commits itself)."""
    if isinstance(store, MongoStore):
        return ChangeFeed(store, broker)
    return SqliteChangeFeed(store, broker) if isinstance(store, SqliteStore) else None


async def started(feed: GamesFeed | AccountFeed) -> asyncio.Task[None]:
    """A change feed running, once it is."""
    task = asyncio.create_task(feed.run())
    ready = asyncio.create_task(feed.ready.wait())
    await asyncio.wait({task, ready}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    ready.cancel()
    if task.done():  # it could not start: why
        task.result()
    if not feed.ready.is_set():
        task.cancel()
        raise TimeoutError("the change feed did not start within 30 s")
    return task
