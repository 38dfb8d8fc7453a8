"""An account's games as a Relay connection (`me.games`, and the public profile's `games`), and
the pages of games that it and the lobby's `games` share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated

import strawberry
from graphql import GraphQLError

from api.graphql.context import Info
from api.graphql.enums import GameStatus
from api.graphql.game import Game, GameConnection, GameEdge, game_type
from api.graphql.pages import Count, PageInfo, cursor_game, cut, game_cursor, page_info
from api.listings import GameListing
from api.paging import Page
from api.service import Session
from api.stores.base import GameRecord
from api.text_inputs import DATA_NAME, TextRefused

STATUS = Annotated[GameStatus | None, strawberry.argument(description="Only games in this status.")]
VARIANT = Annotated[
    str | None,
    strawberry.argument(description=f"Only games of this variant ({DATA_NAME.rule})."),
]


def bounded_variant(variant: str | None) -> None:
    """BAD_USER_INPUT, nothing read, for a variant's name no variant could have."""
    if variant is not None:
        try:
            DATA_NAME.check(variant)
        except TextRefused as refused:
            raise GraphQLError(refused.message, extensions={"code": "BAD_USER_INPUT"}) from None


@dataclass(frozen=True, slots=True)
class GamesPage:
    """A page of a games listing, with each game's cursor and its session."""

    page: Page[GameRecord]
    cursors: list[str]
    sessions: list[Session]

    @property
    def info(self) -> PageInfo:
        return page_info(self.page, self.cursors)


async def games_page(
    info: Info,
    listing: GameListing,
    counts: tuple[int | None, int | None],
    cursors: tuple[str | None, str | None],
) -> GamesPage:
    """The page of `listing` that (first, last) and (after, before) cut, every game read."""
    store = info.context.service.store
    start, end = (cursor_game(cursor) for cursor in cursors)
    page = await cut(
        listing,
        *counts,
        None if start is None else await store.get(start),
        None if end is None else await store.get(end),
    )
    sessions = [await info.context.service.session(record.id) for record in page.items]
    return GamesPage(page, [game_cursor(record.id) for record in page.items], sessions)


def game_connection(found: GamesPage, count: Count) -> GameConnection:
    """The lobby's listing: each game as a spectator sees it."""
    edges = [
        GameEdge(cursor=cursor, node=game_type(session, None))
        for cursor, session in zip(found.cursors, found.sessions, strict=True)
    ]
    return GameConnection(edges=edges, page_info=found.info, count=count)


@strawberry.type(description="A game of an account, with its cursor and the account's place.")
class AccountGameEdge:
    cursor: str = strawberry.field(description="Its place: pass it as `after` or `before`.")
    node: Game = strawberry.field(
        description="The game: in me.games as the account's own seat sees it (with the scope "
        "GAMES_READ), in a profile as a spectator sees it."
    )
    seat: int = strawberry.field(description="The account's seat in it.")
    rank: int | None = strawberry.field(
        description="The account's place in the final ranking (1: the best; ties share it); "
        "null before the end, and in a game abandoned before it started."
    )
    won: bool = strawberry.field(description="The account won the game.")


@strawberry.type(description="An account's games, newest first (a Relay connection).")
class AccountGameConnection:
    edges: list[AccountGameEdge] = strawberry.field(description="The games of this page.")
    page_info: PageInfo = strawberry.field(description="Where this page lies in the listing.")
    count: strawberry.Private[Count]

    @strawberry.field(description="How many games the listing holds, with its filters.")
    async def total_count(self) -> int:
        return await self.count()


def _rank(record: GameRecord, seat: int) -> int | None:
    ranking: Sequence[dict[str, int]] = (record.outcome or {}).get("ranking") or []
    return next((entry["rank"] for entry in ranking if entry["seat"] == seat), None)


async def account_games(
    info: Info,
    account_id: str,
    filters: tuple[GameStatus | None, str | None],
    counts: tuple[int | None, int | None],
    cursors: tuple[str | None, str | None],
    own: bool,
) -> AccountGameConnection:
    """The account's games with these filters (status, variant), cut by (first, last) and
    (after, before): each seen by the account's seat when `own`, else as a spectator."""
    status, variant = filters
    listing = GameListing(
        info.context.service.store, status.value if status else None, variant, account_id
    )
    found = await games_page(info, listing, counts, cursors)
    edges = []
    for cursor, session in zip(found.cursors, found.sessions, strict=True):
        record = session.record
        seat = record.seat_of_account(account_id)
        if seat is None:  # left the lobby since the page was read
            continue
        edges.append(
            AccountGameEdge(
                cursor=cursor,
                node=game_type(session, seat if own else None),
                seat=seat,
                rank=_rank(record, seat),
                won=record.status == GameStatus.FINISHED and record.winner == seat,
            )
        )
    return AccountGameConnection(edges=edges, page_info=found.info, count=listing.count)
