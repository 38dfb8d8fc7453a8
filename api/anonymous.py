"""How the API shows a deleted account's seats: by the placeholder (`names.PLACEHOLDER`),
wherever the account's name would show, while the game's log and its events keep the name as
they were written, so that the game replays and verifies as it was played.

Which seats are a deleted account's is in the game's row (`SeatRecord.anonymous`, written
once: api/account_games.py), so reading a game needs no account: its players' names are the
row's; the events and the log entries that name a seat (PlayerJoined, GameStarted, the join
and start entries) are mapped as they are read, by the seat's name and colour (a seat keeps
its colour when the seats before it leave the lobby, and no two seats share one).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from api.accounts.names import PLACEHOLDER
from api.lobby_events import PlayerJoined
from api.stores.base import GameRecord, LogEntry, RecordedEvent, SeatRecord
from domain.events import GameStarted


def shown_name(seat: SeatRecord) -> str:
    """A seat's name as the API shows it."""
    return PLACEHOLDER if seat.anonymous else seat.name


@dataclass(frozen=True, slots=True)
class Anonymous:
    """The seats of one game that the API shows as the placeholder."""

    seats: frozenset[int]
    named: frozenset[tuple[str, str]]  # (name, colour) of each, as the log holds them

    @classmethod
    def of(cls, record: GameRecord) -> Anonymous | None:
        """None for a game with no such seat (nearly every game): nothing to map."""
        hidden = [seat for seat in record.seats if seat.anonymous]
        if not hidden:
            return None
        return cls(
            frozenset(seat.seat for seat in hidden),
            frozenset((seat.name, seat.colour) for seat in hidden),
        )

    def event(self, recorded: RecordedEvent) -> RecordedEvent:
        event = recorded.event
        if isinstance(event, PlayerJoined) and (event.name, event.colour) in self.named:
            return replace(recorded, event=replace(event, name=PLACEHOLDER))
        if isinstance(event, GameStarted):
            players = tuple(self._name(seat, name) for seat, name in enumerate(event.players))
            return replace(recorded, event=replace(event, players=players))
        return recorded

    def entry(self, entry: LogEntry) -> LogEntry:
        payload = entry.payload
        if entry.kind == "join" and (payload.get("name"), payload.get("colour")) in self.named:
            return replace(entry, payload={**payload, "name": PLACEHOLDER})
        if entry.kind == "start":
            seats: list[dict[str, Any]] = [
                {**seat, "name": self._name(index, seat["name"])}
                for index, seat in enumerate(payload["seats"])
            ]
            return replace(entry, payload={**payload, "seats": seats})
        return entry

    def _name(self, seat: int, name: str) -> str:
        return PLACEHOLDER if seat in self.seats else name


def shown_events(record: GameRecord, events: list[RecordedEvent]) -> list[RecordedEvent]:
    """A game's events as the API shows them."""
    anonymous = Anonymous.of(record)
    return events if anonymous is None else [anonymous.event(event) for event in events]


def shown_entries(record: GameRecord, entries: list[LogEntry]) -> list[LogEntry]:
    """A game's log entries as the API shows them."""
    anonymous = Anonymous.of(record)
    return entries if anonymous is None else [anonymous.entry(entry) for entry in entries]
