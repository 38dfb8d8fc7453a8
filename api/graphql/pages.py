"""Relay connections (api/paging.py cuts their pages): `PageInfo`, a game's events and a
finished game's action log as connections, and the cursors of each. The games' connection
is with `Game`, in game.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any, TypeVar

import strawberry
from graphql import GraphQLError
from strawberry.scalars import JSON

from api.graphql.events import GameEvent, event_type
from api.graphql.ids import from_global_id, to_global_id
from api.paging import DEFAULT_PAGE, MAX_PAGE, Listing, Page, PageError, read_page
from api.stores.base import LogEntry, RecordedEvent
from api.text_inputs import GLOBAL_ID

T = TypeVar("T")
A = TypeVar("A")
Count = Callable[[], Awaitable[int]]

FIRST = Annotated[
    int | None,
    strawberry.argument(
        description=f"The first items after `after`: 0 to {MAX_PAGE} (more reads {MAX_PAGE}; "
        f"{DEFAULT_PAGE} when neither first nor last is given)."
    ),
]
LAST = Annotated[
    int | None,
    strawberry.argument(
        description=f"The last items before `before`: 0 to {MAX_PAGE} (more reads {MAX_PAGE})."
    ),
]
AFTER = Annotated[
    str | None,
    strawberry.argument(
        description=f"A cursor (an edge's, or endCursor): the items after it ({GLOBAL_ID.rule})."
    ),
]
BEFORE = Annotated[
    str | None,
    strawberry.argument(
        description=f"A cursor (an edge's, or startCursor): the items before it ({GLOBAL_ID.rule})."
    ),
]


@strawberry.type(description="Where a page of a Relay connection lies in its list.")
class PageInfo:
    has_previous_page: bool = strawberry.field(
        default=False,
        description="More items come before this page (with `last`: before it; with only "
        "`first` and `after`: at or before `after`).",
    )
    has_next_page: bool = strawberry.field(
        description="More items follow this page (with `first`: beyond it; with only `last` "
        "and `before`: at or after `before`)."
    )
    start_cursor: str | None = strawberry.field(
        default=None, description="The cursor of the page's first edge; null for an empty page."
    )
    end_cursor: str | None = strawberry.field(
        description="The cursor of the page's last edge; null for an empty page."
    )


def page_info(page: Page[Any], cursors: Sequence[str]) -> PageInfo:
    return PageInfo(
        has_next_page=page.has_next,
        end_cursor=cursors[-1] if cursors else None,
        has_previous_page=page.has_previous,
        start_cursor=cursors[0] if cursors else None,
    )


async def cut(
    listing: Listing[T, A],
    first: int | None,
    last: int | None,
    after: A | None,
    before: A | None,
) -> Page[T]:
    """The page, or BAD_USER_INPUT for a negative count."""
    try:
        return await read_page(listing, first, last, after, before)
    except PageError as error:
        raise GraphQLError(str(error), extensions={"code": "BAD_USER_INPUT"}) from None


def not_a_cursor() -> GraphQLError:
    return GraphQLError("not a cursor of this connection", extensions={"code": "BAD_USER_INPUT"})


def game_cursor(game_id: str) -> str:
    return str(to_global_id("Cursor", game_id))


def cursor_game(cursor: str | None) -> str | None:
    """The game id a games cursor stands for (None for none); BAD_USER_INPUT if it is not one."""
    if cursor is None:
        return None
    decoded = from_global_id(cursor, "Cursor")
    if decoded is None:
        raise not_a_cursor()
    return decoded[1]


def seq_cursor(kind: str, game_id: str, seq: int) -> str:
    return str(to_global_id(kind, f"{game_id}:{seq}"))


async def cut_by_seq(
    listing: Listing[T, int],
    kind: str,
    game_id: str,
    counts: tuple[int | None, int | None],
    cursors: tuple[str | None, str | None],
) -> Page[T]:
    """The page of a game's list whose positions are numbers (its events, its log), from
    (first, last) and the cursors (after, before) of that game and kind."""
    after, before = (cursor_seq(kind, game_id, cursor) for cursor in cursors)
    return await cut(listing, *counts, after, before)


def _seq_edges(
    kind: str, game_id: str, page: Page[T], seq: Callable[[T], int]
) -> tuple[list[tuple[str, T]], PageInfo]:
    cursors = [seq_cursor(kind, game_id, seq(item)) for item in page.items]
    return list(zip(cursors, page.items, strict=True)), page_info(page, cursors)


def cursor_seq(kind: str, game_id: str, cursor: str | None) -> int | None:
    """The number a cursor of this game's events or log stands for; BAD_USER_INPUT for
    anything else (another game's cursor too)."""
    if cursor is None:
        return None
    decoded = from_global_id(cursor, kind)
    game, _, seq = ("", "", "") if decoded is None else decoded[1].rpartition(":")
    if game != game_id or not seq.isdigit():
        raise not_a_cursor()
    return int(seq)


EVENT_CURSOR = "EventCursor"
LOG_CURSOR = "LogCursor"


@strawberry.type(description="An event of a game's history, with its cursor.")
class GameEventEdge:
    cursor: str = strawberry.field(description="Its place: pass it as `after` or `before`.")
    node: GameEvent = strawberry.field(description="The event, as the viewer may see it.")


@strawberry.type(
    description="A game's history as the viewer may see it, oldest first (a Relay connection)."
)
class GameEventConnection:
    edges: list[GameEventEdge] = strawberry.field(description="The events of this page.")
    page_info: PageInfo = strawberry.field(description="Where this page lies in the history.")
    count: strawberry.Private[Count]

    @strawberry.field(description="How many events the viewer may see in the whole history.")
    async def total_count(self) -> int:
        return await self.count()


def event_connection(game_id: str, page: Page[RecordedEvent], count: Count) -> GameEventConnection:
    edges, info = _seq_edges(EVENT_CURSOR, game_id, page, lambda event: event.seq)
    return GameEventConnection(
        edges=[GameEventEdge(cursor=cursor, node=event_type(event)) for cursor, event in edges],
        page_info=info,
        count=count,
    )


@strawberry.type(description="An accepted change of a game: a lobby move or a game action.")
class ActionLogEntry:
    seq: int = strawberry.field(description="Its place in the log: the game version it made.")
    kind: str = strawberry.field(
        description="create, join, leave, start, abandon (the lobby's); action (a seat's), "
        "proxy and bot (the server's, for a seat: they replay as the seat's action), resign, "
        "expire (the time limit)."
    )
    seat: int | None = strawberry.field(description="The seat that made it; null: the server.")
    payload: JSON = strawberry.field(
        description="What it was, as stored: a game action's fields with its `kind` (as the "
        "engine's action log: domain.actions.action_from_dict), or the lobby move's data."
    )


def log_entry_type(entry: LogEntry) -> ActionLogEntry:
    return ActionLogEntry(
        seq=entry.seq, kind=entry.kind, seat=entry.seat, payload=JSON(entry.payload)
    )


@strawberry.type(description="A page of a finished game's action log.")
class ActionLogPage:
    entries: list[ActionLogEntry] = strawberry.field(description="The entries, oldest first.")
    has_more: bool = strawberry.field(description="More entries follow the last one.")


@strawberry.type(description="An entry of a finished game's action log, with its cursor.")
class ActionLogEdge:
    cursor: str = strawberry.field(description="Its place: pass it as `after` or `before`.")
    node: ActionLogEntry = strawberry.field(description="The entry.")


@strawberry.type(description="A finished game's action log, oldest first (a Relay connection).")
class ActionLogConnection:
    edges: list[ActionLogEdge] = strawberry.field(description="The entries of this page.")
    page_info: PageInfo = strawberry.field(description="Where this page lies in the log.")
    total_count: int = strawberry.field(
        description="How many entries the whole log holds (the game's version)."
    )


def log_connection(game_id: str, page: Page[LogEntry], total: int) -> ActionLogConnection:
    edges, info = _seq_edges(LOG_CURSOR, game_id, page, lambda entry: entry.seq)
    return ActionLogConnection(
        edges=[ActionLogEdge(cursor=cursor, node=log_entry_type(entry)) for cursor, entry in edges],
        page_info=info,
        total_count=total,
    )
