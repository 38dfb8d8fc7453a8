"""The change feed: with several API instances on one MongoDB, every event any instance
commits reaches the subscribers of every instance, in commit order, through a change stream.
A dropped stream resumes after the last event it delivered."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from pymongo.errors import PyMongoError

from api.broker import Broker
from api.service import publish
from api.stores.mongo import MongoStore

logger = logging.getLogger("risiko.feed")


class ChangeFeed:
    def __init__(self, store: MongoStore, broker: Broker, retry_seconds: float = 1.0) -> None:
        self.store = store
        self.broker = broker
        self.retry_seconds = retry_seconds
        self.resume_token: dict[str, Any] | None = None
        self.ready = asyncio.Event()  # set once the stream is open

    async def run(self) -> None:
        while True:
            try:
                async for token, event, game_id in self.store.watch_events(
                    self.resume_token, on_open=self.ready.set
                ):
                    publish(self.broker, game_id, [event])
                    self.resume_token = token
            except PyMongoError as error:
                self.ready.clear()
                logger.warning("change stream dropped (%s); resuming", error)
                await asyncio.sleep(self.retry_seconds)
