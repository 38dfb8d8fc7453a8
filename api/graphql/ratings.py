"""The leaderboards: Query.leaderboard, people's and bots' apart (docs/rated-play.md)."""

from __future__ import annotations

from typing import Annotated

import strawberry

from api.graphql.account_types import Account, account_type, accounts_of
from api.graphql.context import Info
from api.graphql.ids import from_global_id, page_size, to_global_id
from api.graphql.pages import AFTER, FIRST, PageInfo, not_a_cursor
from api.graphql.rating_types import (
    RATED_SPEED,
    RATED_VARIANT,
    Rating,
    known_variant,
    rating_type,
    ratings_of,
)
from api.ratings.records import Speed as RatingSpeed

CURSOR = "Leaderboard"


@strawberry.type(description="A place on a leaderboard.")
class LeaderboardEntry:
    place: int = strawberry.field(description="Its place, from 1 (best conservative skill).")
    account: Account = strawberry.field(description="The account.")
    rating: Rating = strawberry.field(description="Its rating in the leaderboard's game.")


@strawberry.type(description="A leaderboard's entry and its cursor.")
class LeaderboardEdge:
    cursor: str = strawberry.field(description="Its cursor, for `after`.")
    node: LeaderboardEntry = strawberry.field(description="The entry.")


@strawberry.type(description="A leaderboard, best first (a Relay connection).")
class LeaderboardConnection:
    edges: list[LeaderboardEdge] = strawberry.field(description="The entries of this page.")
    page_info: PageInfo = strawberry.field(description="Where the page lies.")


def _offset(after: str | None) -> int:
    if after is None:
        return 0
    decoded = from_global_id(after, CURSOR)
    if decoded is None or not decoded[1].isdigit():
        raise not_a_cursor()
    return int(decoded[1])


@strawberry.type
class RatingQuery:
    @strawberry.field(
        description="The accounts rated in a variant and speed, best first: ordered by the "
        "conservative skill (mu - 3 sigma), so that a few lucky games do not put a newcomer on "
        "top. People and bots apart (`bots`); provisional ratings are left out unless "
        "`provisional` is true (then each says so). Deleted accounts are left out. "
        "UNKNOWN_VARIANT for a name no variant has."
    )
    async def leaderboard(
        self,
        info: Info,
        variant: RATED_VARIANT,
        speed: RATED_SPEED,
        bots: Annotated[
            bool, strawberry.argument(description="Bot accounts' board; false: people's.")
        ],
        provisional: Annotated[
            bool,
            strawberry.argument(description="Provisional ratings too (each marked so)."),
        ] = False,
        first: FIRST = None,
        after: AFTER = None,
    ) -> LeaderboardConnection:
        known_variant(variant)
        size, offset = page_size(first), _offset(after)
        rows = await ratings_of(info).store.leaderboard(
            variant, RatingSpeed[speed.name], bots, provisional, offset, size + 1
        )
        accounts = accounts_of(info).store
        edges = []
        for place, row in enumerate(rows[:size], start=offset + 1):
            record = await accounts.account(row.account)
            if record is None or record.deleted:
                continue  # deleted: its place stays counted, its name is not shown
            entry = LeaderboardEntry(
                place=place, account=account_type(record), rating=rating_type(row)
            )
            edges.append(LeaderboardEdge(cursor=str(to_global_id(CURSOR, str(place))), node=entry))
        end = str(to_global_id(CURSOR, str(offset + min(size, len(rows)))))
        page = PageInfo(
            has_next_page=len(rows) > size,
            start_cursor=edges[0].cursor if edges else None,
            end_cursor=end if rows else None,
        )
        return LeaderboardConnection(edges=edges, page_info=page)
