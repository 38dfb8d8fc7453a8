"""Typed events to the data the stores keep, and back: the one place where an event becomes
data (`Event.to_dict`, beside it the seat that may read it) and data becomes a typed event
again, by its name among the kinds its game may hold (api/event_kinds.py). Above the stores
every event is typed (`RecordedEvent`); the stores keep `StoredEvent`s, their shape unchanged.
Data that no kind of this server reads (stored by another version of it) comes back as an
`UnknownEvent` that keeps it as it was."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from api.event_kinds import UnknownEvent, kinds_of
from api.stores.base import RecordedEvent, StoredEvent
from domain.events import Event


def encode(event: RecordedEvent) -> StoredEvent:
    return StoredEvent(event.seq, event.log_seq, event.visible_to, event.event.to_dict())


def decode(variant: str, event: StoredEvent) -> RecordedEvent:
    """A stored event of a game of `variant`, typed."""
    return RecordedEvent(event.seq, event.log_seq, event.visible_to, typed(variant, event.data))


def typed(variant: str, data: dict[str, Any]) -> Event:
    """The event `data` (`Event.to_dict`) stands for in a game of `variant`."""
    cls = kinds_of(variant).get(str(data.get("type")))
    if cls is None:
        return UnknownEvent(data)
    try:
        return cls.from_dict(data)
    except (TypeError, ValueError):
        return UnknownEvent(data)


def encode_answer(version: int, events: Sequence[StoredEvent]) -> dict[str, Any]:
    """The answer kept for a clientMutationId: the version reached and the events its seat
    may see (already encoded), as the stores keep it."""
    return {
        "version": version,
        "events": [
            {"seq": e.seq, "log_seq": e.log_seq, "visible_to": e.visible_to, "data": e.data}
            for e in events
        ],
    }


def decode_answer(variant: str, data: dict[str, Any]) -> tuple[int, tuple[RecordedEvent, ...]]:
    """A kept answer of a game of `variant`: its version and its events, typed."""
    events = tuple(
        decode(variant, StoredEvent(e["seq"], e["log_seq"], e["visible_to"], e["data"]))
        for e in data["events"]
    )
    return data["version"], events
