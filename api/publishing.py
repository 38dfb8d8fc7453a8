"""Publishing a game's committed events: to its subscribers, and the news some of them carry
to the lobby's subscribers and to the sockets that follow the game's seats. Which news an
event carries is decided by its type."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from api.accounts.changes import account_channel
from api.broker import Broker, LobbyNews
from api.lobby_events import SEAT_CHANGES, GameAbandoned, GameCreated, PlayerJoined
from api.stores.base import RecordedEvent
from domain.events import Event, GameEnded, GameStarted


def publish(
    broker: Broker, game_id: str, events: Sequence[RecordedEvent], accounts: Sequence[str] = ()
) -> None:
    """A game's events to its subscribers, and the lobby's news they carry; `accounts`, those
    seated in the game after these events: told when a player joins (one of them has just
    sat down, and the stream of its games follows it there: api/seat_stream.py)."""
    broker.publish(game_id, events)
    for recorded in events:
        event = recorded.event
        if isinstance(event, SEAT_CHANGES):
            broker.publish(seats_channel(game_id), [recorded])
        if isinstance(event, PlayerJoined):
            seated = LobbyNews(type="AccountSeated", game_id=game_id)
            for account in accounts:
                broker.publish(account_channel(account), [seated])
        news = lobby_news(game_id, event)
        if news is not None:
            broker.publish_lobby(news)


def lobby_news(game_id: str, event: Event) -> LobbyNews | None:
    """What the lobby is told of `event`, if anything: a game created, started, finished."""
    match event:
        case GameCreated():
            return LobbyNews(
                type="GameCreated",
                game_id=game_id,
                variant=event.variant,
                seed_chosen=event.seed_chosen is True,
            )
        case GameStarted():
            return LobbyNews(type="GameStarted", game_id=game_id)
        case GameAbandoned():
            return LobbyNews(type="GameFinished", game_id=game_id, winner=None)
        case GameEnded():
            return LobbyNews(type="GameFinished", game_id=game_id, winner=event.winner)
    return None


def seats_channel(game_id: str) -> str:
    """The broker channel that carries only a game's changes of seats: what a socket holding
    one of its tokens follows, to learn at once when that token stops being worth a seat."""
    return f"__seats__/{game_id}"


class CommitsSeen(Protocol):
    """A change feed that reads back what this instance commits (api/sqlite_feed.py): told
    of the events before their commit, so that it publishes them as they are in memory."""

    def expect(
        self, game_id: str, events: Sequence[RecordedEvent], accounts: Sequence[str]
    ) -> None: ...

    def forget(self, game_id: str, events: Sequence[RecordedEvent]) -> None: ...

    def committed(self, game_id: str, events: Sequence[RecordedEvent]) -> None: ...


class Publisher:
    """Publishes what this instance commits. With several instances on one MongoDB, a change
    feed (api/feed.py) publishes every instance's events, this one's too, instead; on the
    embedded store, its feed (api/sqlite_feed.py) does, told of this instance's by `feed`."""

    def __init__(
        self, broker: Broker, locally: bool = True, feed: CommitsSeen | None = None
    ) -> None:
        self.broker = broker
        self.locally = locally
        self.feed = feed

    def expect(
        self, game_id: str, events: Sequence[RecordedEvent], accounts: Sequence[str] = ()
    ) -> None:
        """`events` are about to be committed."""
        if self.feed is not None:
            self.feed.expect(game_id, events, accounts)

    def forget(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        """`events` were not committed after all."""
        if self.feed is not None:
            self.feed.forget(game_id, events)

    def publish(
        self, game_id: str, events: Sequence[RecordedEvent], accounts: Sequence[str] = ()
    ) -> None:
        """`events` are committed."""
        if self.feed is not None:
            self.feed.committed(game_id, events)
        elif self.locally:
            publish(self.broker, game_id, events, accounts)
