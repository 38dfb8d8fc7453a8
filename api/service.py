"""The application service: the one road every change of state takes, and the read side.

Every change is a command (api/commands.py) handled by one small function over a unit of work
(api/unit_of_work.py: under the game's lock, load the game, apply the change to a copy,
append it to the store, publish its events): the lobby's (api/lobby.py), a seat's move
(api/play.py), the clock's and the seated bots' (api/scheduler.py); every action takes the
same write (api/moves.py). Reads come from the read models (api/read_models.py): the games as
they are now, their histories, streams and listings. `GameService` wires them together and is
what the API, the app and the tests hold.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from api import lobby, play
from api.broker import Broker, LobbyNews
from api.commands import (
    AddBot,
    CreateGame,
    LeaveGame,
    LobbyLimits,
    SeatAccount,
    StartGame,
    SubmitAction,
    TakeSeat,
)
from api.lobby import Joined
from api.lobby_events import BotJoined, GameAbandoned, PlayerJoined, PlayerLeft
from api.moves import Submitted
from api.publishing import CommitsSeen, Publisher, publish, seats_channel
from api.read_models import PLAYED, Histories, Session, Sessions, engine_seed, hash_token
from api.read_models import seat_for as token_seat
from api.scheduler import Scheduler, declare_time_limit
from api.service_errors import AuthError, Forbidden, ServiceError, Unauthenticated
from api.stores.base import ANYONE, Admission, GameRecord, LogEntry, RecordedEvent, Store
from api.unit_of_work import SNAPSHOT_EVERY, Work
from bots.seated import BotPolicy
from domain import actions as a

DEFAULT_LOBBY = LobbyLimits()


class GameService:
    """The commands and the reads of the games of one store, for one process."""

    def __init__(
        self,
        store: Store,
        broker: Broker,
        clock: Callable[[], float] = time.time,
        cache_size: int = 1000,
        publish_locally: bool = True,
        lobby: LobbyLimits = DEFAULT_LOBBY,
        feed: CommitsSeen | None = None,
    ) -> None:
        self.store = store
        self.broker = broker
        self.clock = clock
        # The games as they are now, the most recently used kept (len(): how many).
        self.sessions = Sessions(store, cache_size)
        self.histories = Histories(store, self.sessions, broker)
        # With several instances on one database, a change feed publishes every instance's
        # events (this one's too) to this instance's subscribers instead.
        publisher = Publisher(broker, publish_locally, feed)
        self.work = Work(store, self.sessions, publisher, clock, lobby)
        self.scheduler = Scheduler(self.work)
        self.work.due = self.scheduler.kick

    # ------------------------------------------------------------------ reading

    async def session(self, game_id: str) -> Session:
        """The game as it is now; ServiceError GAME_NOT_FOUND if there is no such game."""
        return await self.sessions.get(game_id)

    async def seat_for(self, token: str | None, game_id: str | None = None) -> tuple[str, int]:
        """The (game, seat) a token belongs to; AuthError if none, or another game's."""
        return await token_seat(self.store, token, game_id)

    async def events(
        self, game_id: str, viewer: int | None, after: int, first: int
    ) -> list[RecordedEvent]:
        return await self.histories.events(game_id, viewer, after, first)

    async def action_log(self, session: Session, after: int, first: int) -> list[LogEntry]:
        return await self.histories.action_log(session, after, first)

    async def games(
        self,
        status: str | None,
        variant: str | None,
        after: str | None,
        first: int,
        account: str | None = None,
    ) -> list[GameRecord]:
        return await self.histories.games(status, variant, after, first, account)

    def stream(
        self,
        game_id: str,
        viewer: int | None,
        after: int,
        seat_now: Callable[[], Awaitable[int | None]] | None = None,
    ) -> AsyncIterator[RecordedEvent]:
        """The viewer's events after `after`, stored then live (read_models.Histories.stream)."""
        return self.histories.stream(game_id, viewer, after, seat_now)

    def lobby(self) -> AsyncIterator[LobbyNews]:
        return self.histories.lobby()

    # ------------------------------------------------------------------ the lobby

    async def create_game(
        self,
        variant: str,
        options: dict[str, Any],
        seed: str | None = None,
        creator: str | None = None,
        time_control: dict[str, Any] | None = None,
        admission: Admission = ANYONE,
    ) -> GameRecord:
        command = CreateGame(variant, dict(options), seed, creator, time_control, admission)
        return await lobby.create_game(self.work, command)

    async def join_game(
        self,
        game_id: str,
        name: str,
        colour: str | None = None,
        client_seed: str | None = None,
        account: SeatAccount | None = None,
    ) -> Joined:
        """A seat, a guest's (its token in the answer), or bound to `account`."""
        command = TakeSeat(game_id, name, colour, client_seed=client_seed, account=account)
        return await lobby.take_seat(self.work, command)

    async def add_bot(
        self,
        game_id: str,
        token: str | None,
        policy: BotPolicy = BotPolicy.ODDS,
        name: str | None = None,
        colour: str | None = None,
        account: str | None = None,
    ) -> Joined:
        command = AddBot(game_id, token, policy, name, colour, account)
        return await lobby.add_bot(self.work, command)

    async def leave_game(
        self, game_id: str, token: str | None, account: str | None = None
    ) -> GameRecord:
        return await lobby.leave_game(self.work, LeaveGame(game_id, token, account))

    async def start_game(
        self,
        game_id: str,
        token: str | None,
        client_seed: str | None = None,
        account: str | None = None,
    ) -> GameRecord:
        command = StartGame(game_id, token, client_seed, account)
        return await lobby.start_game(self.work, command)

    async def expire_lobby(self) -> list[str]:
        """Abandon the games nobody started in time (lobby.abandon_stale)."""
        return await lobby.abandon_stale(self.work)

    # ------------------------------------------------------------------ playing

    async def submit_action(
        self,
        game_id: str,
        token: str | None,
        action: a.Action,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        token_seat: tuple[str, int] | None = None,
        account: str | None = None,
    ) -> Submitted:
        """One action for the seat of `token`, or of `account` in the game."""
        command = SubmitAction(
            game_id, token, action, expected_version, idempotency_key, token_seat, account
        )
        return await play.submit_action(self.work, command)

    # ------------------------------------------------------------------ the clock

    async def expire_time(self, game_id: str) -> None:
        """The game's clock: the tournament time limit has passed."""
        await declare_time_limit(self.work, game_id)

    async def tick(self) -> list[str]:
        return await self.scheduler.tick()

    async def act_on_clock(self, game_id: str) -> bool:
        return await self.scheduler.act_on_clock(game_id)

    async def recover_deadlines(self) -> None:
        await self.scheduler.recover_deadlines()

    async def expire_due(self) -> list[str]:
        return await self.scheduler.expire_due()

    async def settle(self) -> None:
        """Wait until the clock's work under way is done (tests, shutdown)."""
        await self.scheduler.settle()

    async def close(self) -> None:
        await self.scheduler.close()


__all__ = [
    "PLAYED",
    "SNAPSHOT_EVERY",
    "AuthError",
    "BotJoined",
    "Forbidden",
    "GameAbandoned",
    "GameService",
    "Joined",
    "LobbyLimits",
    "PlayerJoined",
    "PlayerLeft",
    "SeatAccount",
    "ServiceError",
    "Session",
    "Submitted",
    "Unauthenticated",
    "engine_seed",
    "hash_token",
    "publish",
    "seats_channel",
]
