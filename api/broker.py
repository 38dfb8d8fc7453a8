"""In-process publish/subscribe: the events of each game, and the lobby's news, to every
subscriber of this process. Subscribers get bounded queues; one that falls too far behind is
dropped (its stream ends) rather than slowing the game down, and can resume with `after`."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TypedDict

from api.stores.base import RecordedEvent

QUEUE_SIZE = 1000
LOBBY = "__lobby__"


class LobbyNews(TypedDict, total=False):
    """News of the lobby: a game created, started or finished; and of an account (on its
    channel, api/accounts/changes.py): its credentials or itself changed, or it has taken a
    seat in a game."""

    type: str  # GameCreated, GameStarted, GameFinished; AccountChanged, AccountSeated
    game_id: str
    variant: str  # GameCreated
    seed_chosen: bool  # GameCreated
    winner: int | None  # GameFinished


Message = RecordedEvent | LobbyNews | None  # None ends a stream


class Broker:
    def __init__(self) -> None:
        self._subscribers: dict[str, set[asyncio.Queue[Message]]] = defaultdict(set)

    def publish(self, channel: str, messages: Sequence[RecordedEvent | LobbyNews]) -> None:
        for queue in list(self._subscribers.get(channel, ())):
            if queue.qsize() + len(messages) > QUEUE_SIZE:
                self._subscribers[channel].discard(queue)
                queue.put_nowait(None)  # too far behind: end the stream; it can resume
                continue
            for message in messages:
                queue.put_nowait(message)

    def publish_lobby(self, message: LobbyNews) -> None:
        self.publish(LOBBY, [message])

    @asynccontextmanager
    async def subscribe(self, channel: str, *more: str) -> AsyncIterator[asyncio.Queue[Message]]:
        """One queue of the messages of `channel` (and of the `more` channels, mixed)."""
        queue: asyncio.Queue[Message] = asyncio.Queue()  # bounded by hand in publish
        channels = (channel, *more)
        for name in channels:
            self._subscribers[name].add(queue)
        try:
            yield queue
        finally:
            for name in channels:
                subscribers = self._subscribers.get(name)
                if subscribers is not None:
                    subscribers.discard(queue)
                    if not subscribers:
                        del self._subscribers[name]

    def subscriber_count(self, channel: str) -> int:
        return len(self._subscribers.get(channel, ()))
