"""A game's history as the viewer may see it."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from api.graphql.event_types import GameEventDetail, detail_of
from api.identity_memo import IdentityMemo
from api.stores.base import RecordedEvent


@strawberry.type(description="An event of a game's history, as the viewer may see it.")
class GameEvent:
    seq: int = strawberry.field(description="Position in the game's history, from 1.")
    version: int = strawberry.field(description="The game version that produced it.")
    type: str = strawberry.field(
        description="GameCreated, PlayerJoined, DiceRolled, … (the name of its kind).",
        deprecation_reason="Use `detail`: its `__typename`, or its fields, typed.",
    )
    private: bool = strawberry.field(description="Visible to the viewer's seat only.")
    recorded: strawberry.Private[RecordedEvent]
    # Set on the events of a subscription: (game, seq), under which the result of executing
    # a document on this event is shared by every subscriber who asked the same.
    shared_key: strawberry.Private[tuple[str, int] | None] = None

    @strawberry.field(
        description="The event's fields, as stored, with its `type`.",
        deprecation_reason="Use `detail`: the event's fields, typed and described.",
    )
    def data(self) -> JSON:
        return JSON(self.recorded.event.to_dict())

    @strawberry.field(description="What happened: the event, typed (one type per kind).")
    def detail(self) -> GameEventDetail:
        return detail_of(self.recorded.event)


def event_type(event: RecordedEvent) -> GameEvent:
    return GameEvent(
        seq=event.seq,
        version=event.log_seq,
        type=event.event.type,
        private=event.visible_to is not None,
        recorded=event,
    )


class SharedEvents:
    """One GameEvent for every subscriber of a live event: the broker hands each of them
    the same RecordedEvent, and the GameEvent (with its `shared_key`) is the same for all."""

    def __init__(self, size: int = 256) -> None:
        self._kept: IdentityMemo[RecordedEvent, GameEvent] = IdentityMemo(size)

    def of(self, event: RecordedEvent, game_id: str) -> GameEvent:
        kept = self._kept.get(event)
        if kept is not None and kept.shared_key == (game_id, event.seq):
            return kept
        shared = event_type(event)
        shared.shared_key = (game_id, event.seq)  # one execution for all who see it
        return self._kept.keep(event, shared)


SHARED_EVENTS = SharedEvents()


@strawberry.type(description="A page of a game's history.")
class EventPage:
    events: list[GameEvent] = strawberry.field(description="The events, oldest first.")
    has_more: bool = strawberry.field(description="More events follow the last one.")
