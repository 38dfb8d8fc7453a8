"""The store interface. The log of accepted entries is the truth; everything else is a
projection written in the same transaction.

A game's `version` is the sequence number of its last log entry. `append` writes entry
`expected_version + 1` and fails with `VersionConflict` if another writer got there first:
optimistic concurrency on the unique (game, sequence) key.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from domain.events import Event, may_see


class GameStatus(enum.StrEnum):
    """Where a game is in its life; a record keeps its value."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"


class Admits(enum.StrEnum):
    """Who a game admits to its seats (Admission.admits); a record keeps its value."""

    ANYONE = "anyone"
    PEOPLE = "people"  # no bot: neither a bot account nor a bot the server plays
    BOTS = "bots"  # bot accounts, and the server's own bots


@dataclass(frozen=True, slots=True)
class Admission:
    """Who may take a seat: a choice of the lobby made at creation, not a rule of the game
    (so it lives in the game's row, not in its options). `accounts_required`: guests (seat
    tokens without an account) are refused; a game of bots only requires accounts."""

    accounts_required: bool = False
    admits: str = Admits.ANYONE  # an Admits (stored as its value)
    # A rated game (accounts only, dice nobody arranged), and its speed ("real-time" or
    # "correspondence": api/ratings/records.speed_of its time control), fixed at creation.
    rated: bool = False
    speed: str | None = None

    def to_plain(self) -> dict[str, Any] | None:
        """As a row keeps it; None for the default (anyone, guests welcome). An unrated
        game's has no `rated` (rows written before rated games read as unrated)."""
        if self == Admission():
            return None
        plain: dict[str, Any] = {
            "accounts_required": self.accounts_required,
            "admits": str(self.admits),
        }
        if self.rated:
            plain.update(rated=True, speed=self.speed)
        return plain

    @classmethod
    def from_plain(cls, data: dict[str, Any] | None) -> Admission:
        if not data:
            return cls()
        rated = bool(data.get("rated", False))
        speed = data.get("speed") if rated else None
        return cls(bool(data["accounts_required"]), str(data["admits"]), rated, speed)


ANYONE = Admission()  # the default: anyone may sit, guests too


class VersionConflict(Exception):
    """Another entry was appended at this version first."""


class GameExists(VersionConflict):
    """`create` of a game whose id is taken: another writer created it first. A conflict
    like any other to whoever treats it so; precise for whoever opens a game under an id
    every instance derives alike (api/bound_games.py), where it means "done already"."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    name: str
    colour: str
    token_hash: str
    bot: str | None = None  # the policy of a bot the server plays this seat with
    # The seat's contribution to the game's randomness (a client seed), and who gave it:
    # "seat" (joinGame), "start" (startGame, given by the seat that started the game) or
    # "server" (for a bot the server seats). None in a game whose seed was chosen.
    client_seed: str | None = None
    client_seed_source: str | None = None
    # The account the seat is bound to (joinGame with an account's credential), whether it
    # is a bot account (fixed for good once it has sat anywhere), and whether the account
    # has been deleted since: then the API shows the seat's name as `names.PLACEHOLDER`.
    account_id: str | None = None
    account_bot: bool = False
    anonymous: bool = False


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game's row: identity, settings, status and seats. `seed` is secret until the end:
    the server's secret, or the seed its creator chose (`seed_chosen`)."""

    id: str
    variant: str
    options: dict[str, Any]
    seed: bytes
    commitment: str
    status: str  # a GameStatus (stored as its value)
    version: int
    created_at: float
    updated_at: float
    seats: tuple[SeatRecord, ...] = ()
    winner: int | None = None
    outcome: dict[str, Any] | None = None
    # A cache of the engine's state at `snapshot_version`; the log stays the truth.
    snapshot: dict[str, Any] | None = None
    snapshot_version: int = 0
    # A hash of whoever created the game (its seat, else its address), to bound their lobby.
    creator: str = ""
    # The time control chosen at creation (api/clock.TimeControl), the clock's state (a
    # projection of the log: api/clock.ClockState), and when the game next needs the clock.
    time_control: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    deadline: float | None = None
    # The revision of its variant's rules the game plays by, the newest when it was created;
    # a row written before revisions existed reads as 1, the rules every such game played by.
    rules_revision: int = 1
    # Whoever created the game chose its seed, and so knows every roll and card to come.
    # False in rows stored before the flag (their seeds could have been chosen too).
    seed_chosen: bool = False
    # The seats' contributions fixed at the start, in seat order (None: a seat without one),
    # from which and the secret the dice's seed is derived (domain.rng.derive_seed). None:
    # the dice come from `seed` itself (a chosen seed, a game not started, or one started
    # before contributions). A projection of the start entry, for reads and snapshots.
    contributions: tuple[str | None, ...] | None = None
    # Who may take a seat (guests, people, bots): the lobby's choice at creation.
    admission: Admission = ANYONE

    def with_anonymous(self, seats: Sequence[int]) -> GameRecord:
        """The row with these seats marked as a deleted account's."""
        marked = tuple(replace(s, anonymous=True) if s.seat in seats else s for s in self.seats)
        return replace(self, seats=marked)

    def seat_of_account(self, account_id: str) -> int | None:
        """The seat bound to the account, if it has one here (it has at most one)."""
        return next((s.seat for s in self.seats if s.account_id == account_id), None)


@dataclass(frozen=True, slots=True)
class AccountRecordCounts:
    """An account's games, counted (Store.account_record)."""

    played: int = 0  # started, with a seat of the account
    finished: int = 0
    won: int = 0


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One accepted change: a lobby move (create, join, leave, start) or a game action."""

    seq: int
    kind: str
    seat: int | None
    payload: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as the store keeps it: its place in the game's history, who may see it
    (None: everyone) and its data (`Event.to_dict`). Above the store, events are typed
    (`RecordedEvent`; api/stores/codec.py turns one into the other)."""

    seq: int
    log_seq: int
    visible_to: int | None
    data: dict[str, Any]

    def is_visible_to(self, viewer: int | None) -> bool:
        return may_see(self.visible_to, viewer)


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event of a game's history, typed: its number, the log entry that made it, who may
    see it (None: everyone; the readers its kind declares, as the store keeps it) and the
    event itself."""

    seq: int
    log_seq: int
    visible_to: int | None
    event: Event

    def is_visible_to(self, viewer: int | None) -> bool:
        return may_see(self.visible_to, viewer)


@dataclass(frozen=True, slots=True)
class Idempotency:
    seat: int | None
    key: str
    response: dict[str, Any] = field(default_factory=dict)


class Store(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def ping(self) -> bool: ...

    async def create(
        self, record: GameRecord, entry: LogEntry, events: Sequence[StoredEvent]
    ) -> None:
        """A new game: its row, its first entry and events, atomically; GameExists if a game
        has its id already (nothing written)."""
        ...

    async def append(
        self,
        record: GameRecord,
        entry: LogEntry,
        events: Sequence[StoredEvent],
        idempotency: Idempotency | None = None,
        seats_changed: bool = True,
    ) -> None:
        """Write `entry` (seq = record.version) and its events, and replace the game's row
        with `record`, atomically; VersionConflict if that seq is taken. The seats' token
        look-up is rewritten from `record` unless the caller knows its seats are those of the
        version before (`seats_changed=False`: a move, most entries)."""
        ...

    async def get(self, game_id: str) -> GameRecord | None: ...

    async def log(self, game_id: str, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        """The entries after `after`, oldest first; at most `limit` of them, if given."""
        ...

    async def events(
        self, game_id: str, viewer: int | None, after: int, limit: int
    ) -> list[StoredEvent]:
        """Events after `after` that `viewer` may see (None: public ones only), as
        `domain.events.may_see` decides, in the store's own query."""
        ...

    async def last_event_seq(self, game_id: str, version: int | None = None) -> int:
        """The number of the game's last event (up to `version`, if given)."""
        ...

    async def games(
        self,
        status: str | None,
        variant: str | None,
        after: str | None,
        limit: int,
        account: str | None = None,
    ) -> list[GameRecord]:
        """Newest first; `after` is the id of the last game of the previous page. `account`:
        only the games with a seat bound to that account."""
        ...

    async def newer_games(
        self,
        status: str | None,
        variant: str | None,
        than: str | None,
        limit: int,
        account: str | None = None,
    ) -> list[GameRecord]:
        """The games newer than game `than` (None: every game), oldest first: those that
        come before it in the listing (newest first), nearest first."""
        ...

    async def count_games(
        self, status: str | None, variant: str | None, account: str | None = None
    ) -> int:
        """How many games the listing holds, with these filters."""
        ...

    async def account_record(self, account: str) -> AccountRecordCounts:
        """How many games the account sits in that have started, how many of them are
        finished, and how many of those it won."""
        ...

    async def mark_anonymous(self, game_id: str, version: int, seats: Sequence[int]) -> bool:
        """Mark these seats of a finished game as a deleted account's (SeatRecord.anonymous),
        without a new version: a finished game's row changes no more, and its log stays as
        it is. False, nothing written, if the game is not finished at `version`."""
        ...

    async def events_before(
        self, game_id: str, viewer: int | None, before: int, limit: int
    ) -> list[StoredEvent]:
        """Events numbered below `before` that `viewer` may see, newest first."""
        ...

    async def count_events(self, game_id: str, viewer: int | None) -> int:
        """How many of the game's events `viewer` may see."""
        ...

    async def seat_of(self, token_hash: str) -> tuple[str, int] | None: ...

    async def count_lobby_games(self, creator: str) -> int:
        """How many of `creator`'s games have not started."""
        ...

    async def stale_lobby_games(self, updated_before: float, limit: int) -> list[str]:
        """Ids of games not started and unchanged since `updated_before`, oldest first."""
        ...

    async def idempotent_response(
        self, game_id: str, seat: int | None, key: str
    ) -> dict[str, Any] | None: ...

    async def persisted_query(self, sha256: str) -> str | None:
        """The document kept under this SHA-256 (api/persisted.py), if one is."""
        ...

    async def persist_query(self, sha256: str, document: str, now: float, keep: int) -> None:
        """Keep `document` under its SHA-256 (a document already kept stays as it was), then
        drop the oldest kept beyond `keep`."""
        ...

    async def due_games(self, now: float, limit: int) -> list[str]:
        """Ids of games under way whose `deadline` is `now` or earlier, earliest first."""
        ...
