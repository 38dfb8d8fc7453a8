"""The read side: games as they are now (a cache of sessions, each rebuilt from its log when
it is not there), their histories as each viewer may see them (pages, and streams of stored
then live events), finished games' action logs, the listings of games, and whose a seat token
is. Nothing here changes a game; events come out typed (api/stores/codec.py)."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from api.anonymous import shown_entries, shown_events
from api.broker import Broker, LobbyNews
from api.lobby_events import SEAT_CHANGES
from api.service_errors import Forbidden, ServiceError, Unauthenticated
from api.stores import codec
from api.stores.base import GameRecord, GameStatus, LogEntry, RecordedEvent, Store
from domain import actions as a
from domain.errors import ErrorCode, SnapshotFormatError
from domain.events import GameEnded
from domain.kernel import Kernel
from domain.rng import derive_seed
from variants import get_variant

logger = logging.getLogger("risiko.service")
# Entries of a game that replay as the seat's action: its own, the clock's proxy's for it, and
# a seated bot's.
PLAYED = frozenset({"action", "proxy", "bot"})
STREAM_PAGE = 100


@dataclass(frozen=True, slots=True)
class Session:
    """A loaded game: its row, the live engine once started, and its last event's number."""

    record: GameRecord
    game: Kernel | None
    last_event: int


class Sessions:
    """The games as they are now: the `size` most recently used kept, any other rebuilt from
    its row, its snapshot and the log entries after it."""

    def __init__(self, store: Store, size: int = 1000) -> None:
        self.store = store
        self.size = size
        self._kept: dict[str, Session] = {}

    async def get(self, game_id: str) -> Session:
        """The game as it is now; ServiceError GAME_NOT_FOUND if there is no such game."""
        record = await self.store.get(game_id)
        if record is None:
            raise ServiceError(ErrorCode.GAME_NOT_FOUND, f"there is no game {game_id!r}")
        kept = self._kept.get(game_id)
        if kept is not None and kept.record.version == record.version:
            if kept.record.seats != record.seats:  # a finished game's seats made anonymous
                kept = Session(record, kept.game, kept.last_event)
                self.remember(kept)
            return kept
        if kept is not None and kept.game is not None and kept.record.version < record.version:
            return await self.catch_up(kept, record)
        return await self.rebuild(record)

    async def catch_up(self, kept: Session, record: GameRecord) -> Session:
        """The kept game, changed since by another instance: the entries after it folded
        into a copy of it (what a rebuild does from the snapshot, without starting over)."""
        game = kept.game.clone() if kept.game is not None else None
        return await self._folded(record, game, kept.record.version)

    async def rebuild(self, record: GameRecord) -> Session:
        """Fold the log into a game: from the stored snapshot and the entries after it when
        there is one, else from the start. The log is the truth, the snapshot a shortcut."""
        game, after = _from_snapshot(record)
        return await self._folded(record, game, after)

    async def _folded(self, record: GameRecord, game: Kernel | None, after: int) -> Session:
        """`game` (at version `after`) with the log's entries up to `record`'s version."""
        for entry in await self.store.log(record.id, after):
            if entry.seq > record.version:
                break  # appended after the row was read: not part of this version
            game = replay_entry(record, game, entry)
        last_event = await self.store.last_event_seq(record.id, record.version)
        session = Session(record, game, last_event)
        self.remember(session)
        return session

    def remember(self, session: Session) -> None:
        self._kept.pop(session.record.id, None)
        self._kept[session.record.id] = session
        while len(self._kept) > self.size:
            self._kept.pop(next(iter(self._kept)))

    def kept(self, game_id: str) -> Session | None:
        return self._kept.get(game_id)

    def forget(self, game_id: str) -> None:
        self._kept.pop(game_id, None)

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._kept


def _from_snapshot(record: GameRecord) -> tuple[Kernel | None, int]:
    """The game at its row's snapshot and the version it holds; (None, 0) without a usable
    one (none, written by another version of the engine, or damaged)."""
    if record.snapshot is None or not 0 < record.snapshot_version <= record.version:
        return None, 0
    try:
        game = start_engine(record, seats_payload(record))
        game.restore(record.snapshot)
    except SnapshotFormatError as error:  # written by another version of the engine
        logger.info("game %s: %s; replaying its log", record.id, error)
        return None, 0
    except (KeyError, TypeError, ValueError, IndexError):
        logger.warning("game %s: unusable snapshot, replaying its log", record.id)
        return None, 0
    return game, record.snapshot_version


# --------------------------------------------------------------------------- the engine


def seats_payload(record: GameRecord) -> dict[str, Any]:
    """The start entry's payload: the seats, and the contributions when the game has them
    (a game whose seed was chosen, or started before contributions, has none)."""
    payload: dict[str, Any] = {
        "seats": [{"name": s.name, "colour": s.colour} for s in record.seats]
    }
    if record.contributions is not None:
        payload["contributions"] = list(record.contributions)
    return payload


def start_engine(record: GameRecord, payload: dict[str, Any]) -> Kernel:
    """The game a start entry's `payload` starts, by the row's variant, options and rules."""
    variant = get_variant(record.variant)
    seats = payload["seats"]
    return variant.new_game(
        [s["name"] for s in seats],
        variant.options_class.from_dict(record.options),
        seed=engine_seed(record.seed, payload.get("contributions")),
        colours=[s["colour"] for s in seats],
        rules_revision=record.rules_revision,
    )


def engine_seed(secret: bytes, contributions: Sequence[str | None] | None) -> bytes:
    """The seed a game's dice come from: derived from the secret and the contributions its
    start fixed; the secret itself in a game without them (its seed chosen, or started
    before contributions: such a game replays as it was played)."""
    return secret if contributions is None else derive_seed(secret, contributions)


def replay_entry(record: GameRecord, game: Kernel | None, entry: LogEntry) -> Kernel | None:
    """The game after one more entry of its log."""
    if entry.kind == "start":
        return start_engine(record, entry.payload)
    if entry.kind in PLAYED or entry.kind in {"resign", "expire"}:
        assert game is not None, f"log entry {entry.seq} of {record.id} before the start"
        game.apply(entry.seat, a.action_from_dict(entry.payload))
    return game


# --------------------------------------------------------------------------- seat tokens


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def seat_for(store: Store, token: str | None, game_id: str | None = None) -> tuple[str, int]:
    """The (game, seat) a token belongs to; AuthError if none, or another game's."""
    if not token:
        raise Unauthenticated("this needs a seat token")
    found = await store.seat_of(hash_token(token))
    if found is None:
        raise Unauthenticated("this seat token is not valid")
    return found if game_id is None else of_game(found, game_id)


async def acting_seat(
    sessions: Sessions, token: str | None, account: str | None, game_id: str
) -> tuple[str, int]:
    """The (game, seat) of whoever acts in `game_id`: the seat bound to `account` there (read
    from the game's row as it is now), else the seat of `token`; AuthError if there is none
    (Forbidden: the account has no seat in this game)."""
    if account is None:
        return await seat_for(sessions.store, token, game_id)
    seat = (await sessions.get(game_id)).record.seat_of_account(account)
    if seat is None:
        raise Forbidden("this account has no seat in this game")
    return game_id, seat


def of_game(token_seat: tuple[str, int], game_id: str) -> tuple[str, int]:
    """A token's (game, seat), when the game is `game_id`; Forbidden otherwise."""
    if token_seat[0] != game_id:
        raise Forbidden("this seat token belongs to another game")
    return token_seat


# --------------------------------------------------------------------------- histories


@dataclass(slots=True)
class _Reader:
    """Where one stream stands: the last event passed, and the seat it reads as."""

    viewer: int | None
    last: int
    seat_now: Callable[[], Awaitable[int | None]] | None

    async def judge(self, event: RecordedEvent) -> bool:
        """After an event that changes the seats, the viewer's seat as it is now; whether
        it changed."""
        if self.seat_now is None or not isinstance(event.event, SEAT_CHANGES):
            return False
        seat = await self.seat_now()
        changed, self.viewer = seat != self.viewer, seat
        return changed


class Histories:
    """Games' events as each viewer may see them, their action logs and their listings."""

    def __init__(self, store: Store, sessions: Sessions, broker: Broker) -> None:
        self.store = store
        self.sessions = sessions
        self.broker = broker

    async def events(
        self, game_id: str, viewer: int | None, after: int, first: int
    ) -> list[RecordedEvent]:
        record = (await self.sessions.get(game_id)).record  # NOT_FOUND if unknown
        return await self._page(record, viewer, after, first)

    async def _page(
        self, record: GameRecord, viewer: int | None, after: int, first: int
    ) -> list[RecordedEvent]:
        stored = await self.store.events(record.id, viewer, after, first)
        return shown_events(record, [codec.decode(record.variant, event) for event in stored])

    async def action_log(self, session: Session, after: int, first: int) -> list[LogEntry]:
        """A finished game's log entries after `after` (at most `first`), up to the version
        `session` shows. Never before the end (ValueError): an entry may hold what a seat may
        not know yet (a hidden territory, the cards of a set)."""
        record = session.record
        if record.status != GameStatus.FINISHED:
            raise ValueError("a game's action log is public only once the game is over")
        entries = await self.store.log(record.id, after, first)
        return shown_entries(record, [entry for entry in entries if entry.seq <= record.version])

    async def games(
        self,
        status: str | None,
        variant: str | None,
        after: str | None,
        first: int,
        account: str | None = None,
    ) -> list[GameRecord]:
        return await self.store.games(status, variant, after, first, account)

    async def stream(
        self,
        game_id: str,
        viewer: int | None,
        after: int,
        seat_now: Callable[[], Awaitable[int | None]] | None = None,
    ) -> AsyncIterator[RecordedEvent]:
        """Every event after `after` the viewer may see: first the stored ones, then live ones,
        in order, with no gap and no duplicate. `seat_now` tells the viewer's seat as its
        token is worth at that moment: asked again after every event that changes the game's
        seats (a seat that leaves the lobby moves the later ones up and loses its token), so
        no event is ever judged for a seat its reader no longer holds; it raises AuthError
        for a token worth nothing now, which ends the stream."""
        record = (await self.sessions.get(game_id)).record
        reader = _Reader(viewer, after, seat_now)
        async with self.broker.subscribe(game_id) as queue:
            async for event in self._stored(record, reader):
                yield event
            if (await self.sessions.get(game_id)).record.status == GameStatus.FINISHED:
                return  # the whole history has been sent: nothing more will come
            while True:
                message = await queue.get()
                if message is None:
                    return  # this subscriber fell behind; the client resumes with `after`
                assert isinstance(message, RecordedEvent)
                if message.seq <= reader.last:
                    continue  # already sent from the store
                if message.seq > reader.last + 1:
                    # Events private to others leave gaps in what this viewer sees; fetch what
                    # this viewer may see in between to be sure nothing was skipped.
                    async for event in self._stored(record, reader, message.seq):
                        yield event
                reader.last = message.seq
                if message.is_visible_to(reader.viewer):
                    yield message
                await reader.judge(message)
                if isinstance(message.event, GameEnded):
                    return

    async def _stored(
        self, record: GameRecord, reader: _Reader, before: int | None = None
    ) -> AsyncIterator[RecordedEvent]:
        """The stored events after `reader.last` (and before `before`) its viewer may see,
        page by page; a page read for a viewer whose seat then changed is read again."""
        while True:
            limit = STREAM_PAGE if before is None else max(1, before - reader.last - 1)
            page = await self._page(record, reader.viewer, reader.last, limit)
            for event in page:
                if before is not None and event.seq >= before:
                    return
                reader.last = event.seq
                yield event
                if await reader.judge(event):
                    break  # the rest of the page was chosen for the seat it had
            else:
                if len(page) < limit:
                    return

    async def lobby(self) -> AsyncIterator[LobbyNews]:
        async with self.broker.subscribe("__lobby__") as queue:
            while True:
                message = await queue.get()
                if message is None:
                    return
                assert isinstance(message, dict)
                yield message
