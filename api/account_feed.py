"""With several API instances on one MongoDB: every deletion of a credential and every change
of an account, whichever instance (or operator) wrote it, told to this instance's sockets at
once, through a change stream of the account collections. A socket holding such a credential
judges it again, and closes if it is worth nothing now (api/socket_handler.py).

Nothing is resumed after a dropped stream: what it missed meanwhile, each socket finds at its
next regular look (`Settings.credential_recheck_seconds`)."""

from __future__ import annotations

import asyncio
import logging

from pymongo.errors import PyMongoError

from api.accounts.changes import account_channel, credential_channel
from api.broker import Broker, LobbyNews
from api.stores.mongo_accounts import MongoAccountStore

logger = logging.getLogger("risiko.feed")


class AccountFeed:
    def __init__(
        self, store: MongoAccountStore, broker: Broker, retry_seconds: float = 1.0
    ) -> None:
        self.store = store
        self.broker = broker
        self.retry_seconds = retry_seconds
        self.ready = asyncio.Event()  # set once the stream is open

    async def run(self) -> None:
        while True:
            try:
                async for kind, key in self.store.watch_changes(on_open=self.ready.set):
                    channel = account_channel(key) if kind == "account" else credential_channel(key)
                    self.broker.publish(channel, [LobbyNews(type="AccountChanged")])
            except PyMongoError as error:
                self.ready.clear()
                logger.warning("the accounts' change stream dropped (%s); resuming", error)
                await asyncio.sleep(self.retry_seconds)
