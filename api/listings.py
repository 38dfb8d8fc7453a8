"""The lists the API pages through (api/paging.py), read from the store: the lobby's games,
newest first; a game's events as one viewer may see them; a finished game's action log.

Counting: the games of a listing and a viewer's events are counted by the store, on the
indexes their pages read (a count over the listing's filter; over one game's events); the
log's entries are numbered 1 to the game's version, so its count and its pages backwards
are arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from api.anonymous import shown_entries, shown_events
from api.stores import codec
from api.stores.base import GameRecord, LogEntry, RecordedEvent, Store, StoredEvent

NO_END = 2**62  # beyond any event's number


@dataclass(frozen=True, slots=True)
class GameListing:
    """The games with these filters, newest first; a position is a game's row (its creation
    time, then its id, as the store orders them)."""

    store: Store
    status: str | None
    variant: str | None
    account: str | None = None  # only the games with a seat of this account

    async def following(self, anchor: GameRecord | None, limit: int) -> Sequence[GameRecord]:
        after = None if anchor is None else anchor.id
        return await self.store.games(self.status, self.variant, after, limit, self.account)

    async def preceding(self, anchor: GameRecord | None, limit: int) -> Sequence[GameRecord]:
        than = None if anchor is None else anchor.id
        return await self.store.newer_games(self.status, self.variant, than, limit, self.account)

    def anchor(self, item: GameRecord) -> GameRecord:
        return item

    def comes_before(self, first: GameRecord, second: GameRecord) -> bool:
        return (first.created_at, first.id) > (second.created_at, second.id)

    def holds(self, record: GameRecord) -> bool:
        return (
            (self.status is None or record.status == self.status)
            and (self.variant is None or record.variant == self.variant)
            and (self.account is None or record.seat_of_account(self.account) is not None)
        )

    async def any_at_or_before(self, anchor: GameRecord) -> bool:
        return self.holds(anchor) or bool(await self.preceding(anchor, 1))

    async def any_at_or_after(self, anchor: GameRecord) -> bool:
        return self.holds(anchor) or bool(await self.following(anchor, 1))

    async def count(self) -> int:
        return await self.store.count_games(self.status, self.variant, self.account)


@dataclass(frozen=True, slots=True)
class EventListing:
    """A game's events that `viewer` may see (None: a spectator), oldest first, typed as a
    game of `variant` tells them; a position is an event's number."""

    store: Store
    record: GameRecord  # the game's row: its variant, and the seats shown as anonymous
    viewer: int | None

    @property
    def game_id(self) -> str:
        return self.record.id

    async def following(self, anchor: int | None, limit: int) -> Sequence[RecordedEvent]:
        stored = await self.store.events(self.game_id, self.viewer, anchor or 0, limit)
        return self._typed(stored)

    async def preceding(self, anchor: int | None, limit: int) -> Sequence[RecordedEvent]:
        before = NO_END if anchor is None else anchor
        stored = await self.store.events_before(self.game_id, self.viewer, before, limit)
        return self._typed(stored)

    def _typed(self, stored: Sequence[StoredEvent]) -> list[RecordedEvent]:
        variant = self.record.variant
        return shown_events(self.record, [codec.decode(variant, event) for event in stored])

    def anchor(self, item: RecordedEvent) -> int:
        return item.seq

    def comes_before(self, first: int, second: int) -> bool:
        return first < second

    async def any_at_or_before(self, anchor: int) -> bool:
        return bool(await self.preceding(anchor + 1, 1))

    async def any_at_or_after(self, anchor: int) -> bool:
        return bool(await self.following(anchor - 1, 1))

    async def count(self) -> int:
        return await self.store.count_events(self.game_id, self.viewer)


@dataclass(frozen=True, slots=True)
class LogListing:
    """A game's log entries up to `version` (the version the reader sees), oldest first; a
    position is an entry's number, and they are numbered 1 to `version` without a gap."""

    store: Store
    record: GameRecord  # the game's row at the version the reader sees

    @property
    def game_id(self) -> str:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    async def following(self, anchor: int | None, limit: int) -> Sequence[LogEntry]:
        start = anchor or 0
        limit = min(limit, max(0, self.version - start))
        found = await self.store.log(self.game_id, start, limit) if limit else []
        return shown_entries(self.record, found)

    async def preceding(self, anchor: int | None, limit: int) -> Sequence[LogEntry]:
        end = self.version if anchor is None else min(anchor - 1, self.version)
        start = max(0, end - limit)
        if end <= start:
            return []
        found = await self.store.log(self.game_id, start, end - start)
        return list(reversed(shown_entries(self.record, found)))

    def anchor(self, item: LogEntry) -> int:
        return item.seq

    def comes_before(self, first: int, second: int) -> bool:
        return first < second

    async def any_at_or_before(self, anchor: int) -> bool:
        return min(anchor, self.version) >= 1

    async def any_at_or_after(self, anchor: int) -> bool:
        return anchor <= self.version

    async def count(self) -> int:
        return self.version
