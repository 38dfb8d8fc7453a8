"""The application service: the one road every change of state takes.

authorize the seat -> load the game (cache, or replay of its log) -> apply in the domain ->
append to the store (unique game and sequence: optimistic concurrency) -> publish the events
-> answer. Lobby moves (create, join, leave, start) and the clock take the same road.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from api import text_inputs
from api.broker import Broker
from api.clock import ANSWER, TURN, Absence, ClockState, PlayedByProxy, TimeControl
from api.stores.base import (
    GameRecord,
    GameStatus,
    Idempotency,
    LogEntry,
    SeatRecord,
    Store,
    StoredEvent,
    VersionConflict,
)
from bots.seated import BotPolicy, seated_choice
from domain import actions as a
from domain.errors import (
    CodedError,
    ErrorCode,
    InvalidOptions,
    RisikoError,
    RuleViolation,
    SnapshotFormatError,
)
from domain.events import Event
from domain.kernel import Kernel
from domain.rng import SEED_BYTES, commitment, contribution_problem, derive_seed
from variants import VARIANTS, get_variant

LOBBY, ACTIVE, FINISHED = GameStatus.LOBBY, GameStatus.ACTIVE, GameStatus.FINISHED
logger = logging.getLogger("risiko.service")
SNAPSHOT_EVERY = 10
# The clock's steps in one go for one game (a bot's turn, a proxy's): then the other games'
# turn; the next tick comes back to it.
CLOCK_STEPS = 200
# Entries of a game that replay as the seat's action: its own, the clock's proxy's for it, and
# a seated bot's.
PLAYED = frozenset({"action", "proxy", "bot"})


class ServiceError(CodedError):
    """A request the lobby or the store refuses (no such game, a stale version, a full game):
    a user error, like the rules' own violations, which reach the API as they are."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


class AuthError(RisikoError):
    """A missing or wrong seat token: a top-level error of the request, not a user error."""


class Unauthenticated(AuthError):
    code = "UNAUTHENTICATED"


class Forbidden(AuthError):
    """A valid token of another game."""

    code = "FORBIDDEN"


@dataclass(frozen=True, slots=True)
class Session:
    """A loaded game: its row, the live engine once started, and its last event's number."""

    record: GameRecord
    game: Kernel | None
    last_event: int


# The lobby's own events, public, in the game's history before and beside the engine's.
@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    seat: int
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class BotJoined(Event):
    """A bot the server plays took a seat (addBot)."""

    seat: int
    name: str
    colour: str
    policy: str


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class GameAbandoned(Event):
    """Nobody started the game before its lobby time ran out."""

    reason: str


@dataclass(frozen=True, slots=True)
class Submitted:
    version: int
    events: tuple[StoredEvent, ...]  # only those the caller may see
    # The game just after the action, for an answer that shows it without reading it again;
    # None for an answer repeated from the idempotency store.
    session: Session | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "events": [
                {"seq": e.seq, "log_seq": e.log_seq, "visible_to": e.visible_to, "data": e.data}
                for e in self.events
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Submitted:
        return cls(
            data["version"],
            tuple(
                StoredEvent(e["seq"], e["log_seq"], e["visible_to"], e["data"])
                for e in data["events"]
            ),
        )


@dataclass(frozen=True, slots=True)
class Joined:
    record: GameRecord
    seat: int
    token: str
    # Whether the seat's client seed was recorded (False: none given, or a chosen seed's game).
    client_seed_accepted: bool = False


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# Who gave a seat's contribution (SeatRecord.client_seed_source).
SEAT_SEED, START_SEED, SERVER_SEED = "seat", "start", "server"

# Lobby events that change who sits where: a stream judges its viewer again after each.
SEAT_CHANGES = frozenset({"PlayerJoined", "BotJoined", "PlayerLeft"})
STREAM_PAGE = 100


@dataclass(slots=True)
class _Reader:
    """Where one stream stands: the last event passed, and the seat it reads as."""

    viewer: int | None
    last: int
    seat_now: Callable[[], Awaitable[int | None]] | None

    async def judge(self, event: StoredEvent) -> bool:
        """After an event that changes the seats, the viewer's seat as it is now; whether
        it changed."""
        if self.seat_now is None or event.data.get("type") not in SEAT_CHANGES:
            return False
        seat = await self.seat_now()
        changed, self.viewer = seat != self.viewer, seat
        return changed


@dataclass(frozen=True, slots=True)
class LobbyLimits:
    """What keeps the lobby from filling up with games nobody starts (0: no limit)."""

    max_unstarted_per_creator: int = 50
    unstarted_ttl_seconds: float = 24 * 3600.0


class GameService:
    def __init__(
        self,
        store: Store,
        broker: Broker,
        clock: Callable[[], float] = time.time,
        cache_size: int = 1000,
        publish_locally: bool = True,
        lobby: LobbyLimits = LobbyLimits(),
    ) -> None:
        self.store = store
        self.lobby_limits = lobby
        self.broker = broker
        # With several instances on one database, a change feed publishes every instance's
        # events (this one's too) to this instance's subscribers instead.
        self.publish_locally = publish_locally
        self.clock = clock
        self._sessions: dict[str, Session] = {}
        # Time limits of games started before game clocks (their rows have no clock state):
        # game id -> when the limit expires. Every newer game keeps its deadline in its row.
        self.deadlines: dict[str, float] = {}
        self._clock_tasks: dict[str, asyncio.Task[None]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._cache_size = cache_size

    # ------------------------------------------------------------------ reading

    async def session(self, game_id: str) -> Session:
        """The game as it is now; ServiceError NOT_FOUND if there is no such game."""
        record = await self.store.get(game_id)
        if record is None:
            raise ServiceError(ErrorCode.GAME_NOT_FOUND, f"there is no game {game_id!r}")
        cached = self._sessions.get(game_id)
        if cached is not None and cached.record.version == record.version:
            return cached
        return await self._rebuild(record)

    async def _rebuild(self, record: GameRecord) -> Session:
        """Fold the log into a game: from the stored snapshot and the entries after it when
        there is one, else from the start. The log is the truth, the snapshot a shortcut."""
        game: Kernel | None = None
        after = 0
        if record.snapshot is not None and 0 < record.snapshot_version <= record.version:
            try:
                game = _start(record, _seats_payload(record))
                game.restore(record.snapshot)
                after = record.snapshot_version
            except SnapshotFormatError as error:  # written by another version of the engine
                logger.info("game %s: %s; replaying its log", record.id, error)
                game, after = None, 0
            except (KeyError, TypeError, ValueError, IndexError):
                logger.warning("game %s: unusable snapshot, replaying its log", record.id)
                game, after = None, 0
        for entry in await self.store.log(record.id, after):
            if entry.seq > record.version:
                break  # appended after the row was read: not part of this version
            game = _replay_entry(record, game, entry)
        last_event = await self.store.last_event_seq(record.id, record.version)
        session = Session(record, game, last_event)
        self._remember(session)
        return session

    def _remember(self, session: Session) -> None:
        self._sessions.pop(session.record.id, None)
        self._sessions[session.record.id] = session
        while len(self._sessions) > self._cache_size:
            self._sessions.pop(next(iter(self._sessions)))

    async def seat_for(self, token: str | None, game_id: str | None = None) -> tuple[str, int]:
        """The (game, seat) a token belongs to; AuthError if none, or another game's."""
        if not token:
            raise Unauthenticated("this needs a seat token")
        found = await self.store.seat_of(hash_token(token))
        if found is None:
            raise Unauthenticated("this seat token is not valid")
        return found if game_id is None else _of_game(found, game_id)

    async def events(
        self, game_id: str, viewer: int | None, after: int, first: int
    ) -> list[StoredEvent]:
        await self.session(game_id)  # NOT_FOUND for unknown games
        return await self.store.events(game_id, viewer, after, first)

    async def action_log(self, session: Session, after: int, first: int) -> list[LogEntry]:
        """A finished game's log entries after `after` (at most `first`), up to the version
        `session` shows. Never before the end (ValueError): an entry may hold what a seat may
        not know yet (a hidden territory, the cards of a set)."""
        record = session.record
        if record.status != FINISHED:
            raise ValueError("a game's action log is public only once the game is over")
        entries = await self.store.log(record.id, after, first)
        return [entry for entry in entries if entry.seq <= record.version]

    async def games(
        self, status: str | None, variant: str | None, after: str | None, first: int
    ) -> list[GameRecord]:
        return await self.store.games(status, variant, after, first)

    async def stream(
        self,
        game_id: str,
        viewer: int | None,
        after: int,
        seat_now: Callable[[], Awaitable[int | None]] | None = None,
    ) -> AsyncIterator[StoredEvent]:
        """Every event after `after` the viewer may see: first the stored ones, then live ones,
        in order, with no gap and no duplicate. `seat_now` tells the viewer's seat as its
        token is worth at that moment: asked again after every event that changes the game's
        seats (a seat that leaves the lobby moves the later ones up and loses its token), so
        no event is ever judged for a seat its reader no longer holds; it raises AuthError
        for a token worth nothing now, which ends the stream."""
        await self.session(game_id)
        reader = _Reader(viewer, after, seat_now)
        async with self.broker.subscribe(game_id) as queue:
            async for event in self._stored_events(game_id, reader):
                yield event
            if (await self.session(game_id)).record.status == FINISHED:
                return  # the whole history has been sent: nothing more will come
            while True:
                message = await queue.get()
                if message is None:
                    return  # this subscriber fell behind; the client resumes with `after`
                assert isinstance(message, StoredEvent)
                if message.seq <= reader.last:
                    continue  # already sent from the store
                if message.seq > reader.last + 1:
                    # Events private to others leave gaps in what this viewer sees; fetch what
                    # this viewer may see in between to be sure nothing was skipped.
                    async for event in self._stored_events(game_id, reader, message.seq):
                        yield event
                reader.last = message.seq
                if message.is_visible_to(reader.viewer):
                    yield message
                await reader.judge(message)
                if message.data.get("type") == "GameEnded":
                    return

    async def _stored_events(
        self, game_id: str, reader: _Reader, before: int | None = None
    ) -> AsyncIterator[StoredEvent]:
        """The stored events after `reader.last` (and before `before`) its viewer may see,
        page by page; a page read for a viewer whose seat then changed is read again."""
        while True:
            limit = STREAM_PAGE if before is None else max(1, before - reader.last - 1)
            page = await self.store.events(game_id, reader.viewer, reader.last, limit)
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

    async def lobby(self) -> AsyncIterator[dict[str, Any]]:
        async with self.broker.subscribe("__lobby__") as queue:
            while True:
                message = await queue.get()
                if message is None:
                    return
                assert isinstance(message, dict)
                yield message

    # ------------------------------------------------------------------ the lobby

    async def create_game(
        self,
        variant: str,
        options: dict[str, Any],
        seed: str | None = None,
        creator: str | None = None,
        time_control: dict[str, Any] | None = None,
    ) -> GameRecord:
        """A game in the lobby; `options` override the variant's defaults (plain values),
        `time_control` sets its clock (api/clock.TimeControl; none by default).
        `creator` (whoever asks: a seat, else an address) may have at most
        `lobby_limits.max_unstarted_per_creator` games not started at once."""
        if variant not in VARIANTS:
            known = ", ".join(sorted(VARIANTS))
            raise ServiceError(
                ErrorCode.UNKNOWN_VARIANT,
                f"unknown variant {text_inputs.shown(variant)}; known: {known}",
            )
        _check_text(ErrorCode.INVALID_OPTIONS, text_inputs.SEED, seed)
        for value in options.values():  # an option's value is a name of the data or no text
            _check_text(ErrorCode.INVALID_OPTIONS, text_inputs.DATA_NAME, value)
        try:
            parsed = VARIANTS[variant].options(options)
        except (InvalidOptions, TypeError) as error:
            raise ServiceError(ErrorCode.INVALID_OPTIONS, str(error)) from None
        control = None
        if time_control:
            try:
                control = TimeControl.from_dict(time_control).to_dict()
            except (InvalidOptions, TypeError) as error:
                raise ServiceError(ErrorCode.INVALID_OPTIONS, str(error)) from None
        creator_hash = hash_token(creator) if creator else ""
        bound = self.lobby_limits.max_unstarted_per_creator
        if creator_hash and bound and await self.store.count_lobby_games(creator_hash) >= bound:
            hours = self.lobby_limits.unstarted_ttl_seconds / 3600
            raise ServiceError(
                ErrorCode.TOO_MANY_UNSTARTED_GAMES,
                f"you have {bound} games that have not started; start them, or create more "
                f"when they expire ({hours:g} h after their last change)",
            )
        secret = seed.encode() if seed is not None else secrets.token_bytes(SEED_BYTES)
        now = self.clock()
        # The game plays by the rules of today for good: a later fix is for later games.
        revision = VARIANTS[variant].rules_revision
        chosen = seed is not None
        record = GameRecord(
            id=uuid.uuid4().hex,
            variant=variant,
            options=parsed.to_dict(),
            seed=secret,
            commitment=commitment(secret),
            status=LOBBY,
            version=1,
            created_at=now,
            updated_at=now,
            creator=creator_hash,
            time_control=control,
            rules_revision=revision,
            seed_chosen=chosen,
        )
        # Said to everyone, in the history too: a chosen seed's dice are known to its chooser.
        payload = {
            "variant": variant,
            "options": record.options,
            "commitment": record.commitment,
            "rules_revision": revision,
            "seed_chosen": chosen,
        }
        if control is not None:
            payload["time_control"] = control
        entry = LogEntry(1, "create", None, payload, now)
        event = StoredEvent(1, 1, None, {"type": "GameCreated", **payload})
        await self.store.create(record, entry, [event])
        self._remember(Session(record, None, 1))
        self._publish(record.id, [event])
        return record

    async def join_game(
        self,
        game_id: str,
        name: str,
        colour: str | None = None,
        client_seed: str | None = None,
    ) -> Joined:
        """A seat; `client_seed`, the seat's contribution to the game's randomness (1 to 64
        printable ASCII characters; ValueError otherwise), is recorded unless the game's seed
        was chosen (such a game must stay reproducible from its seed: `Joined` says so)."""
        _check_client_seed(client_seed)
        return await self._take_seat(game_id, name, colour, None, client_seed)

    async def add_bot(
        self,
        game_id: str,
        token: str | None,
        policy: BotPolicy = BotPolicy.ODDS,
        name: str | None = None,
        colour: str | None = None,
    ) -> Joined:
        """A bot at a free seat, which the server plays (any seated player, in the lobby).
        Its token is never given: nobody but the server acts for it."""
        await self.seat_for(token, game_id)
        if name is None:
            record = (await self.session(game_id)).record
            bots = sum(1 for seat in record.seats if seat.bot is not None)
            name = f"Bot {bots + 1} ({policy.value})"
        return await self._take_seat(game_id, name, colour, policy)

    async def _take_seat(
        self,
        game_id: str,
        name: str,
        colour: str | None,
        bot: BotPolicy | None,
        client_seed: str | None = None,
    ) -> Joined:
        try:
            name = text_inputs.name(name)
        except text_inputs.TextRefused as refused:
            raise ServiceError(ErrorCode.INVALID_NAME, refused.message) from None
        _check_text(ErrorCode.INVALID_COLOUR, text_inputs.DATA_NAME, colour)
        async with self._lock(game_id):
            session = await self.session(game_id)
            record = session.record
            if record.status != LOBBY:
                raise ServiceError(ErrorCode.GAME_ALREADY_STARTED, "this game has already started")
            ruleset = get_variant(record.variant).ruleset
            if len(record.seats) >= ruleset.max_players:
                raise ServiceError(
                    ErrorCode.GAME_FULL, f"this game is full ({ruleset.max_players})"
                )
            taken = {seat.colour for seat in record.seats}
            known = [c.id for c in ruleset.colours]
            if colour is None:
                colour = next(c for c in known if c not in taken)
            elif colour not in known:
                raise ServiceError(
                    ErrorCode.INVALID_COLOUR, f"unknown colour {colour!r}; use one of {known}"
                )
            elif colour in taken:
                raise ServiceError(ErrorCode.COLOUR_TAKEN, f"{colour} is already taken")
            token = secrets.token_urlsafe(32)
            seat = len(record.seats)
            policy = None if bot is None else bot.value
            source = None
            if record.seed_chosen:
                client_seed = None  # a chosen seed's game stays reproducible from its seed
            elif bot is not None:
                # A bot the server plays contributes from the server's own randomness.
                client_seed, source = secrets.token_hex(16), SERVER_SEED
            elif client_seed is not None:
                source = SEAT_SEED
            taken_seat = SeatRecord(
                seat, name, colour, hash_token(token), policy, client_seed, source
            )
            payload: dict[str, Any] = {"seat": seat, "name": name, "colour": colour}
            joined: Event = PlayerJoined(seat, name, colour)
            if bot is not None:
                payload["bot"] = policy
                joined = BotJoined(seat, name, colour, bot.value)
            if client_seed is not None:
                payload["client_seed"] = client_seed
                payload["client_seed_source"] = source
            updated = replace(record, seats=(*record.seats, taken_seat))
            record = await self._commit(session, updated, "join", None, payload, [joined])
            return Joined(record, seat, token, client_seed_accepted=source == SEAT_SEED)

    async def leave_game(self, game_id: str, token: str | None) -> GameRecord:
        _, seat = await self.seat_for(token, game_id)
        async with self._lock(game_id):
            session = await self.session(game_id)
            record = session.record
            if record.status == LOBBY:
                # Later seats move up one place, keeping their tokens.
                seats = tuple(
                    replace(s, seat=s.seat - (s.seat > seat))
                    for s in record.seats
                    if s.seat != seat
                )
                left = PlayerLeft(seat)
                return await self._commit(
                    session, replace(record, seats=seats), "leave", seat, {"seat": seat}, [left]
                )
            if record.status == FINISHED:
                raise ServiceError(ErrorCode.GAME_OVER, "the game is over")
            await self._apply(session, seat, a.Resign(), None)
            return (await self.session(game_id)).record

    async def start_game(
        self, game_id: str, token: str | None, client_seed: str | None = None
    ) -> GameRecord:
        """Start the game. `client_seed`: the starting seat's contribution, which replaces
        the one it gave when it joined. Given at the start, when every other contribution is
        fixed, it is the last: nobody (the server's operator either, who knows the secret)
        could have chosen a contribution of its own knowing it (docs/architecture.md, "A
        game's randomness"). Ignored in a game whose seed was chosen."""
        _check_client_seed(client_seed)
        _, seat = await self.seat_for(token, game_id)
        async with self._lock(game_id):
            session = await self.session(game_id)
            record = session.record
            if record.status != LOBBY:
                raise ServiceError(ErrorCode.GAME_ALREADY_STARTED, "this game has already started")
            variant = get_variant(record.variant)
            if len(record.seats) < variant.ruleset.min_players:
                raise ServiceError(
                    ErrorCode.NOT_ENOUGH_PLAYERS,
                    f"this game needs at least {variant.ruleset.min_players} players",
                )
            if client_seed is not None and not record.seed_chosen:
                seats = tuple(
                    replace(s, client_seed=client_seed, client_seed_source=START_SEED)
                    if s.seat == seat
                    else s
                    for s in record.seats
                )
                record = replace(record, seats=seats)
            if not record.seed_chosen:
                # Fixed now, in seat order: the dice's seed is derived from them and the secret.
                record = replace(record, contributions=tuple(s.client_seed for s in record.seats))
            payload = _seats_payload(record)
            game = _start(record, payload)
            updated = replace(record, status=ACTIVE)
            events = list(game.initial_events)
            control = _time_control(record)
            limit = game.options.time_limit_minutes
            if control is not None or limit is not None or any(_bots(record)):
                now = self.clock()
                limit_at = None if limit is None else now + limit * 60
                clock = ClockState.start(control, len(record.seats), limit_at)
                updated = replace(updated, clock=clock.to_plain())
                updated = self._follow_clock(updated, game, events, now, lambda state: state)
            return await self._commit(session, updated, "start", seat, payload, events, game=game)

    async def recover_deadlines(self) -> None:
        """After a restart: the time limits of the games under way, from their start entries."""
        after: str | None = None
        while True:
            page = await self.store.games(ACTIVE, None, after, 100)
            for record in page:
                limit = record.options.get("time_limit_minutes")
                if limit is None or record.clock is not None:
                    continue  # no limit, or one the game's clock keeps
                start = next(e for e in await self.store.log(record.id) if e.kind == "start")
                self.deadlines[record.id] = start.created_at + limit * 60
            if len(page) < 100:
                return
            after = page[-1].id

    async def expire_due(self) -> list[str]:
        """Declare the time limit of every game whose deadline has passed."""
        now = self.clock()
        due = [game_id for game_id, deadline in self.deadlines.items() if deadline <= now]
        for game_id in due:
            del self.deadlines[game_id]
            with contextlib.suppress(ServiceError):  # finished or gone meanwhile
                await self.expire_time(game_id)
        return due

    async def expire_lobby(self) -> list[str]:
        """Abandon the games that have not started and have not changed for
        `lobby_limits.unstarted_ttl_seconds`: they finish without a winner (GameAbandoned)."""
        ttl = self.lobby_limits.unstarted_ttl_seconds
        if not ttl:
            return []
        before = self.clock() - ttl
        abandoned: list[str] = []
        for game_id in await self.store.stale_lobby_games(before, 100):
            async with self._lock(game_id):
                session = await self.session(game_id)
                record = session.record
                if record.status != LOBBY or record.updated_at >= before:
                    continue  # joined or started meanwhile
                abandoned_event = GameAbandoned("not_started")
                outcome: dict[str, Any] = {"winner": None, "reason": "not_started", "ranking": []}
                abandon = replace(record, status=FINISHED, outcome=outcome)
                with contextlib.suppress(ServiceError):  # another instance abandoned it first
                    await self._commit(session, abandon, "abandon", None, {}, [abandoned_event])
                    abandoned.append(game_id)
        return abandoned

    # ------------------------------------------------------------------ playing

    async def submit_action(
        self,
        game_id: str,
        token: str | None,
        action: a.Action,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        token_seat: tuple[str, int] | None = None,
    ) -> Submitted:
        """`token_seat`: the token's (game, seat) when the caller has just looked it up (the
        API does, to charge the request): one store round trip fewer."""
        if token_seat is None or not token:
            token_seat = await self.seat_for(token, game_id)
        _, seat = _of_game(token_seat, game_id)
        if not action.by_seat:  # the clock's, and leaving (leaveGame)
            raise ServiceError(
                ErrorCode.INVALID_ACTION, "that is not an action a seat can submit here"
            )
        async with self._lock(game_id):
            first = await self._first_answer(game_id, seat, idempotency_key)
            if first is not None:
                return first
            try:
                session = await self.session(game_id)
                if await self._late(session, seat):
                    session = await self.session(game_id)
                if expected_version is not None and expected_version != session.record.version:
                    raise ServiceError(
                        ErrorCode.STALE_VERSION,
                        f"the game is at version {session.record.version}, not {expected_version}",
                    )
                return await self._apply(session, seat, action, idempotency_key)
            except CodedError:
                # Another instance may have committed this very request since the look-up
                # above (the key is unique in the store, written with the entry): then the
                # caller gets its answer, not the refusal of a second attempt.
                first = await self._first_answer(game_id, seat, idempotency_key)
                if first is not None:
                    return first
                raise

    async def _first_answer(self, game_id: str, seat: int, key: str | None) -> Submitted | None:
        """The answer given to the first request with this `clientMutationId`, if any."""
        if key is None:
            return None
        answer = await self.store.idempotent_response(game_id, seat, key)
        return None if answer is None else Submitted.from_dict(answer)

    async def expire_time(self, game_id: str) -> None:
        """The game's clock: the tournament time limit has passed."""
        async with self._lock(game_id):
            session = await self.session(game_id)
            if session.record.status == ACTIVE and session.game and not session.game.time_expired:
                await self._apply(session, None, a.ExpireTime(), None)

    async def _late(self, session: Session, seat: int) -> bool:
        """A move of a seat whose deadline has passed comes after the clock: the clock acts
        for it first (one step: its absence), and the move is judged on what follows."""
        clock = session.record.clock
        if clock is None or session.record.status != ACTIVE:
            return False
        state = ClockState.from_plain(clock)
        if state.holder != seat or state.deadline is None or state.deadline > self.clock():
            return False
        return await self._clock_step(session)

    async def _apply(
        self,
        session: Session,
        seat: int | None,
        action: a.Action,
        key: str | None,
        *,
        kind: str | None = None,
        note: Event | None = None,
        clock_update: Callable[[ClockState], ClockState] | None = None,
    ) -> Submitted:
        """Apply `action` for `seat` and commit it. `kind`: the log entry's kind, when not
        the action's own ("proxy", "bot"); `note`: an event that comes first (who played it);
        `clock_update`: what the move changes in the clock (default: the seat is present)."""
        record = session.record
        if record.status == LOBBY or session.game is None:
            raise ServiceError(ErrorCode.GAME_NOT_STARTED, "the game has not started")
        if record.status == FINISHED:
            raise ServiceError(ErrorCode.GAME_OVER, "the game is over")
        # The action is applied to a clone: readers keep seeing the committed game until the
        # store has accepted the new one, and a failed append leaves the cache as it was.
        game = session.game.clone()
        domain_events = game.apply(seat, action)  # a RuleViolation goes to the client as it is
        try:
            updated = replace(record, status=FINISHED if game.is_over else ACTIVE)
            if game.is_over:
                updated = replace(updated, winner=game.winner, outcome=_outcome(game))
            if kind is None:
                kind = {a.Resign: "resign", a.ExpireTime: "expire"}.get(type(action), "action")
            if note is not None:
                domain_events = [note, *domain_events]
            if updated.clock is not None:
                if isinstance(action, a.ExpireTime):  # the time limit is declared, once
                    clock_update = _limit_declared
                elif clock_update is None:
                    present = seat
                    clock_update = (
                        (lambda state: state.acted(present))
                        if present is not None and kind == "action"
                        else (lambda state: state)
                    )
                updated = self._follow_clock(
                    updated, game, domain_events, self.clock(), clock_update
                )
            payload = action.to_dict()
            stored = _number(session, domain_events)
            visible = tuple(e for e in stored if e.is_visible_to(seat))
            submitted = Submitted(record.version + 1, visible)
            idempotency = None if key is None else Idempotency(seat, key, submitted.to_dict())
            committed = await self._commit(
                session,
                updated,
                kind,
                seat,
                payload,
                domain_events,
                game=game,
                idempotency=idempotency,
                stored=stored,
            )
            return replace(submitted, session=self._sessions.get(committed.id))
        except BaseException:
            self._sessions.pop(record.id, None)
            raise

    def _follow_clock(
        self,
        record: GameRecord,
        game: Kernel,
        events: list[Event],
        now: float,
        update: Callable[[ClockState], ClockState],
    ) -> GameRecord:
        """The clock after `game`'s change: a ClockChanged event appended to `events` when
        what it shows changed, and the row's new state and deadline."""
        assert record.clock is not None
        before = ClockState.from_plain(record.clock)
        control = _time_control(record)
        after = update(before).follow(control, game, now)
        if control is not None and control.timed and after.shown() != before.shown():
            events.append(after.changed_event())
        deadline = None if game.is_over else after.due_at(_bots(record), now)
        return replace(record, clock=after.to_plain(), deadline=deadline)

    # ------------------------------------------------------------------ the clock

    async def tick(self) -> list[str]:
        """The games whose deadline has passed, each given to the clock (any instance may:
        the write path's version check lets one act)."""
        due = await self.store.due_games(self.clock(), 100)
        for game_id in due:
            self._kick(game_id)
        return due

    def _kick(self, game_id: str) -> None:
        if game_id in self._clock_tasks:
            return  # already at work on it
        task = asyncio.get_running_loop().create_task(self._run_clock(game_id))
        self._clock_tasks[game_id] = task
        task.add_done_callback(lambda _: self._clock_tasks.pop(game_id, None))

    async def _run_clock(self, game_id: str) -> None:
        try:
            for _ in range(CLOCK_STEPS):
                if not await self.act_on_clock(game_id):
                    return
        except ServiceError as error:  # another instance acted first, or the game is over
            logger.debug("game %s: the clock stops (%s)", game_id, error.message)
        except Exception:  # the store may be down for a while: the next tick comes back
            logger.exception("game %s: the clock could not act", game_id)

    async def settle(self) -> None:
        """Wait until the clock's work under way is done (tests, shutdown)."""
        while self._clock_tasks:
            await asyncio.gather(*list(self._clock_tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._clock_tasks.values()):
            task.cancel()
        await asyncio.gather(*list(self._clock_tasks.values()), return_exceptions=True)

    async def act_on_clock(self, game_id: str) -> bool:
        """One step the clock owes the game, if one is due; whether it acted."""
        async with self._lock(game_id):
            return await self._clock_step(await self.session(game_id))

    async def _clock_step(self, session: Session) -> bool:
        """The time limit, a seated bot's move, the proxy's for an absent seat, or an
        absence: whichever is due now (called under the game's lock)."""
        record, game = session.record, session.game
        if record.status != ACTIVE or game is None or record.clock is None:
            return False
        state = ClockState.from_plain(record.clock)
        now = self.clock()
        if state.limit_at is not None and state.limit_at <= now and not game.time_expired:
            await self._apply(session, None, a.ExpireTime(), None)
            return True
        seat = game.seat_to_act
        if seat is None:
            return False
        bot = record.seats[seat].bot
        control = _time_control(record)
        if bot is not None:
            await self._play_for(session, seat, BotPolicy(bot), "bot", None, None)
            return True
        if control is None:
            return False
        if state.kind == TURN and state.proxy[seat]:  # the rest of a turn it missed
            note = PlayedByProxy(seat, "turn_timeout", state.absences[seat])
            await self._play_for(session, seat, _proxy(control), "proxy", note, None)
            return True
        if state.deadline is None or state.deadline > now:
            return False
        absent = state.absent(seat, proxy_turn=state.kind == TURN)
        absences = absent.absences[seat]
        if absences >= control.resign_after:
            note = PlayedByProxy(seat, "absent_resigns", absences)
            await self._apply(
                session, seat, a.Resign(), None, note=note, clock_update=lambda _: absent
            )
        elif state.kind == ANSWER:
            note = PlayedByProxy(seat, "answer_timeout", absences)
            await self._apply(
                session,
                seat,
                game.least_action(seat),
                None,
                kind="proxy",
                note=note,
                clock_update=lambda _: absent,
            )
        else:
            note = PlayedByProxy(seat, "turn_timeout", absences)
            await self._play_for(session, seat, _proxy(control), "proxy", note, absent)
        return True

    async def _play_for(
        self,
        session: Session,
        seat: int,
        policy: BotPolicy | None,
        kind: str,
        note: Event | None,
        absent: ClockState | None,
    ) -> None:
        """One move for `seat`: a seated bot's, or the proxy's: a bot of `policy`, or the
        least the rules allow (None)."""
        game = session.game
        assert game is not None
        update = None if absent is None else (lambda _: absent)
        if policy is None:
            action = game.least_action(seat)
        else:
            rnd = random.Random(f"{session.record.id}/{session.record.version}")
            action = seated_choice(policy, game, seat, rnd)
        try:
            await self._apply(
                session, seat, action, None, kind=kind, note=note, clock_update=update
            )
        except RuleViolation:  # a bot's mistake must not stall the game: the least then
            logger.exception(
                "game %s: the %s move %r was refused; playing the least instead",
                session.record.id,
                kind,
                action,
            )
            await self._apply(
                session,
                seat,
                game.least_action(seat),
                None,
                kind=kind,
                note=note,
                clock_update=update,
            )

    async def _commit(
        self,
        session: Session,
        record: GameRecord,
        kind: str,
        seat: int | None,
        payload: dict[str, Any],
        events: Sequence[Event],
        *,
        game: Kernel | None = None,
        idempotency: Idempotency | None = None,
        stored: Sequence[StoredEvent] | None = None,
    ) -> GameRecord:
        now = self.clock()
        record = replace(record, version=session.record.version + 1, updated_at=now)
        live = game or session.game
        if live is not None and (
            record.version - record.snapshot_version >= SNAPSHOT_EVERY or live.is_over
        ):
            # Every few versions: a rebuild replays at most that many entries after it.
            record = replace(record, snapshot=live.snapshot(), snapshot_version=record.version)
        entry = LogEntry(record.version, kind, seat, payload, now)
        stored = stored if stored is not None else _number(session, events)
        try:
            await self.store.append(record, entry, stored, idempotency)
        except VersionConflict:
            self._sessions.pop(record.id, None)
            raise ServiceError(
                ErrorCode.STALE_VERSION,
                "another change was accepted first; load the game and retry",
            ) from None
        self._remember(Session(record, game or session.game, session.last_event + len(stored)))
        self._publish(record.id, stored)
        if record.deadline is not None and record.deadline <= now:
            self._kick(record.id)  # a bot, or the proxy, is to act at once
        return record

    def _publish(self, game_id: str, events: Sequence[StoredEvent]) -> None:
        if self.publish_locally:
            publish(self.broker, game_id, events)

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock


def publish(broker: Broker, game_id: str, events: Sequence[StoredEvent]) -> None:
    """A game's events to its subscribers, and the lobby's news they carry."""
    broker.publish(game_id, events)
    for event in events:
        kind = event.data.get("type")
        if kind in SEAT_CHANGES:
            broker.publish(seats_channel(game_id), [event])
        if kind == "GameCreated":
            broker.publish_lobby(
                {
                    "type": "GameCreated",
                    "game_id": game_id,
                    "variant": event.data.get("variant"),
                    "seed_chosen": event.data.get("seed_chosen", False),
                }
            )
        elif kind == "GameStarted":
            broker.publish_lobby({"type": "GameStarted", "game_id": game_id})
        elif kind == "GameAbandoned":
            broker.publish_lobby({"type": "GameFinished", "game_id": game_id, "winner": None})
        elif kind == "GameEnded":
            broker.publish_lobby(
                {"type": "GameFinished", "game_id": game_id, "winner": event.data.get("winner")}
            )


def seats_channel(game_id: str) -> str:
    """The broker channel that carries only a game's changes of seats: what a socket holding
    one of its tokens follows, to learn at once when that token stops being worth a seat."""
    return f"__seats__/{game_id}"


def _check_text(code: ErrorCode, bound: text_inputs.TextBound, value: object) -> None:
    """A user error of `code` when `value` is a text outside `bound` (None passes)."""
    if isinstance(value, str):
        try:
            bound.check(value)
        except text_inputs.TextRefused as refused:
            raise ServiceError(code, refused.message) from None


def _of_game(token_seat: tuple[str, int], game_id: str) -> tuple[str, int]:
    """A token's (game, seat), when the game is `game_id`; Forbidden otherwise."""
    if token_seat[0] != game_id:
        raise Forbidden("this seat token belongs to another game")
    return token_seat


def _number(session: Session, events: Sequence[Event]) -> list[StoredEvent]:
    """The events of the next log entry, numbered after the game's last one: typed until
    here, where the store's shape is made once."""
    log_seq = session.record.version + 1
    first = session.last_event + 1
    return [
        StoredEvent(first + offset, log_seq, event.visible_to, event.to_dict())
        for offset, event in enumerate(events)
    ]


def _seats_payload(record: GameRecord) -> dict[str, Any]:
    """The start entry's payload: the seats, and the contributions when the game has them
    (a game whose seed was chosen, or started before contributions, has none)."""
    payload: dict[str, Any] = {
        "seats": [{"name": s.name, "colour": s.colour} for s in record.seats]
    }
    if record.contributions is not None:
        payload["contributions"] = list(record.contributions)
    return payload


def _start(record: GameRecord, payload: dict[str, Any]) -> Kernel:
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


def _check_client_seed(client_seed: str | None) -> None:
    """A contribution the API has already bounded; ValueError for one that is not."""
    problem = None if client_seed is None else contribution_problem(client_seed)
    if problem is not None:
        raise ValueError(problem)


def _replay_entry(record: GameRecord, game: Kernel | None, entry: LogEntry) -> Kernel | None:
    if entry.kind == "start":
        return _start(record, entry.payload)
    if entry.kind in PLAYED or entry.kind in {"resign", "expire"}:
        assert game is not None, f"log entry {entry.seq} of {record.id} before the start"
        game.apply(entry.seat, a.action_from_dict(entry.payload))
    return game


def _time_control(record: GameRecord) -> TimeControl | None:
    if record.time_control is None:
        return None
    return TimeControl.from_dict(record.time_control)


def _proxy(control: TimeControl) -> BotPolicy | None:
    """The bot that plays for an absent seat; None: the least the rules allow."""
    return BotPolicy.ODDS if control.absence is Absence.PROXY else None


def _limit_declared(state: ClockState) -> ClockState:
    return replace(state, limit_at=None)


def _bots(record: GameRecord) -> tuple[bool, ...]:
    return tuple(seat.bot is not None for seat in record.seats)


def _outcome(game: Kernel) -> dict[str, Any]:
    return {
        "winner": game.winner,
        "reason": game.end_reason,
        "ranking": [{"rank": r, "seat": s, "points": p} for r, s, p in game.ranking],
    }
