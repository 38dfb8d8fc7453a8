"""The change feed: with several API instances on one MongoDB, every event any instance
commits reaches the subscribers of every instance, in commit order, through a change stream.
A dropped stream resumes after the last event it delivered. Each event is read back typed
(api/stores/codec.py) by its game's variant, which a game keeps for life."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from pymongo.errors import PyMongoError

from api.broker import Broker
from api.lobby_events import PlayerJoined
from api.publishing import publish
from api.stores import codec
from api.stores.base import Store, StoredEvent
from api.stores.mongo import MongoStore
from api.unit_of_work import accounts_of

logger = logging.getLogger("risiko.feed")
VARIANTS_KEPT = 10_000  # games whose variant is remembered (a game's never changes)


class StoredEventPublisher:
    """Publishes an event read back from the store: typed by its game's variant, and, for a
    join, with the accounts seated in the game now (seatEvents follows them there)."""

    def __init__(self, store: Store, broker: Broker) -> None:
        self.store = store
        self.broker = broker
        self._variants: dict[str, str] = {}

    async def publish(self, game_id: str, event: StoredEvent) -> None:
        variant = self._variants.get(game_id)
        joined = event.data.get("type") == PlayerJoined.__name__
        record = None
        if variant is None or joined:  # a join: whose accounts sit there now (seatEvents)
            record = await self.store.get(game_id)
            if record is None:  # an event is written with its game's row: never
                logger.warning("an event of game %s, which has no row", game_id)
                return
            variant = record.variant
            if len(self._variants) >= VARIANTS_KEPT:
                self._variants.pop(next(iter(self._variants)))
            self._variants[game_id] = variant
        accounts = accounts_of(record) if joined and record is not None else []
        publish(self.broker, game_id, [codec.decode(variant, event)], accounts)


class ChangeFeed:
    def __init__(self, store: MongoStore, broker: Broker, retry_seconds: float = 1.0) -> None:
        self.store = store
        self.retry_seconds = retry_seconds
        self.resume_token: dict[str, Any] | None = None
        self.ready = asyncio.Event()  # set once the stream is open
        self._publisher = StoredEventPublisher(store, broker)

    async def run(self) -> None:
        while True:
            try:
                async for token, event, game_id in self.store.watch_events(
                    self.resume_token, on_open=self.ready.set
                ):
                    await self._publisher.publish(game_id, event)
                    self.resume_token = token
            except PyMongoError as error:
                self.ready.clear()
                logger.warning("change stream dropped (%s); resuming", error)
                await asyncio.sleep(self.retry_seconds)
