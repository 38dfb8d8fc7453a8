"""The ratings' types of the schema: an account's rating per variant and speed, its history,
a rated game's expected ranking (docs/rated-play.md); the leaderboards are in ratings.py."""

from __future__ import annotations

import enum
from typing import Annotated

import strawberry
from graphql import GraphQLError

from api.graphql.clock import iso
from api.graphql.context import Info
from api.graphql.ids import from_global_id, page_size, to_global_id
from api.graphql.pages import PageInfo, not_a_cursor
from api.ratings.records import HistoryEntry, RatingRow
from api.ratings.records import Speed as RatingSpeed
from api.ratings.service import Expected, Ratings
from api.text_inputs import DATA_NAME
from competition.ratings import Rating as ModelRating
from variants import VARIANTS


@strawberry.enum(
    description="A rated game's pace, fixed at its creation by its clock: REAL_TIME with a "
    "time per turn of at most 15 minutes or a time bank of at most 3 hours; CORRESPONDENCE "
    "otherwise, and with no clock. Ratings are kept per variant and speed."
)
class Speed(enum.Enum):
    REAL_TIME = strawberry.enum_value(RatingSpeed.REAL_TIME, description="Played at a sitting.")
    CORRESPONDENCE = strawberry.enum_value(
        RatingSpeed.CORRESPONDENCE, description="Played over days, or with no clock."
    )


RATED_VARIANT = Annotated[
    str, strawberry.argument(description=f"The variant's name ({DATA_NAME.rule}).")
]
RATED_SPEED = Annotated[Speed, strawberry.argument(description="The speed.")]


def ratings_of(info: Info) -> Ratings:
    """The app's ratings (kept in its state, as the request reaches the app)."""
    request = info.context.request
    ratings = getattr(getattr(getattr(request, "app", None), "state", None), "ratings", None)
    if not isinstance(ratings, Ratings):
        raise GraphQLError("ratings are not served here", extensions={"code": "NOT_FOUND"})
    return ratings


def known_variant(variant: str) -> str:
    """UNKNOWN_VARIANT, nothing read, for a name no variant has."""
    if variant not in VARIANTS:
        raise GraphQLError(
            f"unknown variant; known: {', '.join(sorted(VARIANTS))}",
            extensions={"code": "UNKNOWN_VARIANT"},
        )
    return variant


@strawberry.type(description="A rating of the model (OpenSkill's Bradley-Terry, partial pairing).")
class RatingFigures:
    rating: int = strawberry.field(
        description="The number shown: 1500 + 48 * (mu - 25); a newcomer shows 1500, and 200 "
        "points is a 76 % chance to finish ahead, as in Elo."
    )
    mu: float = strawberry.field(description="The model's skill estimate (25 for a newcomer).")
    sigma: float = strawberry.field(
        description="The model's uncertainty about it (25/3 for a newcomer)."
    )
    provisional: bool = strawberry.field(
        description="Still uncertain (sigma above 6.0: about a dozen games); shown with a '?'."
    )


def figures(rating: ModelRating) -> RatingFigures:
    return RatingFigures(
        rating=rating.display, mu=rating.mu, sigma=rating.sigma, provisional=rating.provisional
    )


@strawberry.type(description="An account's rating in one variant and speed.")
class Rating:
    variant: str = strawberry.field(description="The variant's name.")
    speed: Speed = strawberry.field(description="The speed.")
    rating: int = strawberry.field(
        description="The number shown: 1500 + 48 * (mu - 25) (a newcomer's 1500)."
    )
    mu: float = strawberry.field(description="The model's skill estimate.")
    sigma: float = strawberry.field(description="The model's uncertainty about it.")
    games: int = strawberry.field(description="Its rated games of this variant and speed.")
    provisional: bool = strawberry.field(
        description="Still uncertain (sigma above 6.0: about a dozen games); shown with a '?' "
        "and kept off the leaderboards unless asked for."
    )


def rating_type(row: RatingRow) -> Rating:
    return Rating(
        variant=row.variant,
        speed=Speed[RatingSpeed(row.speed).name],
        rating=row.rating.display,
        mu=row.rating.mu,
        sigma=row.rating.sigma,
        games=row.games,
        provisional=row.rating.provisional,
    )


@strawberry.type(description="What one rated game did to an account's rating.")
class RatingChange:
    game_id: strawberry.ID = strawberry.field(description="The game's id (as Game.id).")
    number: int = strawberry.field(description="Its rated games of this variant and speed so far.")
    at: str = strawberry.field(description="When the game ended (ISO 8601, UTC).")
    before: RatingFigures = strawberry.field(description="Its rating before the game.")
    after: RatingFigures = strawberry.field(description="Its rating after the game.")


@strawberry.type(description="A rating change and its cursor.")
class RatingChangeEdge:
    cursor: str = strawberry.field(description="Its cursor, for `after`.")
    node: RatingChange = strawberry.field(description="The change.")


@strawberry.type(description="An account's rating history, newest first (a Relay connection).")
class RatingHistoryConnection:
    edges: list[RatingChangeEdge] = strawberry.field(description="The changes of this page.")
    page_info: PageInfo = strawberry.field(description="Where the page lies.")


def _change(entry: HistoryEntry) -> RatingChangeEdge:
    node = RatingChange(
        game_id=to_global_id("Game", entry.game),
        number=entry.number,
        at=iso(entry.at) or "",
        before=figures(entry.before),
        after=figures(entry.after),
    )
    return RatingChangeEdge(cursor=str(to_global_id("RatingChange", str(entry.number))), node=node)


async def rating_history(
    info: Info, account: str, key: tuple[str, Speed], first: int | None, after: str | None
) -> RatingHistoryConnection:
    """The account's changes in (variant, speed), newest first, after the cursor `after`."""
    variant, speed = known_variant(key[0]), RatingSpeed[key[1].name]
    size = page_size(first)
    below = None
    if after is not None:
        decoded = from_global_id(after, "RatingChange")
        if decoded is None or not decoded[1].isdigit():
            raise not_a_cursor()
        below = int(decoded[1])
    store = ratings_of(info).store
    found = await store.history(account, variant, speed, below, size + 1)
    edges = [_change(entry) for entry in found[:size]]
    end = edges[-1].cursor if edges else None
    start = edges[0].cursor if edges else None
    page = PageInfo(has_next_page=len(found) > size, start_cursor=start, end_cursor=end)
    return RatingHistoryConnection(edges=edges, page_info=page)


@strawberry.type(description="A seat of a rated game, as its table is expected to finish.")
class ExpectedPlace:
    seat: int = strawberry.field(description="The seat.")
    rating: RatingFigures = strawberry.field(
        description="Its account's rating the prediction is made from: its rating now until "
        "the game is rated, then the one it had before the game."
    )
    win_chance: float = strawberry.field(description="Its chance to finish first (0 to 1).")
    rank: int = strawberry.field(
        description="Its expected place, 1 the best (equal chances share a place)."
    )


def expected_places(expected: Expected) -> list[ExpectedPlace]:
    prediction = expected.prediction
    return [
        ExpectedPlace(
            seat=seat,
            rating=figures(standing.rating),
            win_chance=prediction.win[index],
            rank=prediction.ranks[index],
        )
        for index, (seat, _, standing) in enumerate(expected.seats)
    ]
