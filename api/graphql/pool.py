"""The matchmaking pool's API: joinSeek, cancelSeek, and `me { seeks }` (docs/rated-play.md,
"The pool, served"). A seek's game, once its table is formed, is `gameId`; the account's
stream (`seatEvents` with its credential) follows the game as it follows any it sits in."""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from typing import Annotated

import strawberry
from graphql import GraphQLError

from api.accounts.scopes import Principal
from api.graphql.account_commands import run_as_account
from api.graphql.arguments import bounded
from api.graphql.clock import TimeControl, TimeControlInput, iso, time_control_of
from api.graphql.context import Info
from api.graphql.ids import from_global_id, to_global_id
from api.graphql.inputs import ECHOED_KEY, UserError
from api.graphql.rating_types import Speed
from api.pool.records import CANCELLED, EXPIRED, OPEN, SeekRecord
from api.pool.service import MOST_SEEKS, JoinSeek, Pool, PoolError
from api.ratings.records import Speed as RatingSpeed
from api.text_inputs import DATA_NAME, GLOBAL_ID, SEED
from competition.matchmaking import Opponents
from domain.errors import ErrorCode

SHOWN_SEEKS = 20


@strawberry.enum(description="Where a seek stands.")
class SeekState(enum.Enum):
    OPEN = strawberry.enum_value("open", description="Waiting for a table.")
    MATCHED = strawberry.enum_value("matched", description="At a table: its game is `gameId`.")
    CANCELLED = strawberry.enum_value("cancelled", description="Cancelled by its account.")
    EXPIRED = strawberry.enum_value("expired", description="Outlived its lifetime unmatched.")


@strawberry.enum(description="Whom a seek accepts at its table.")
class SeekOpponents(enum.Enum):
    ANY = strawberry.enum_value(Opponents.ANY, description="People and bots.")
    PEOPLE = strawberry.enum_value(Opponents.PEOPLE, description="People only.")
    BOTS = strawberry.enum_value(Opponents.BOTS, description="Bots only.")


@strawberry.type(description="An account's wish for a game in the matchmaking pool.")
class Seek:
    id: strawberry.ID = strawberry.field(description="Its id (for cancelSeek).")
    variant: str = strawberry.field(description="The game.")
    players: int = strawberry.field(description="The table's size.")
    clock: TimeControl = strawberry.field(description="The game's clock.")
    speed: Speed = strawberry.field(description="The rating's speed of that clock.")
    rated: bool = strawberry.field(description="A rated game.")
    opponents: SeekOpponents = strawberry.field(description="Whom it accepts.")
    rating: int = strawberry.field(
        description="The account's shown rating in that game and speed when it joined, by "
        "which it is matched (a newcomer's: 1500)."
    )
    created_at: str = strawberry.field(description="When it joined (ISO 8601, UTC).")
    expires_at: str = strawberry.field(description="When it expires unmatched (ISO 8601, UTC).")
    state: SeekState = strawberry.field(description="Where it stands.")
    game_id: strawberry.ID | None = strawberry.field(
        description="Its table's game once matched (`game(id:)`): created, the table's accounts "
        "seated and started by the server."
    )


def seek_type(record: SeekRecord) -> Seek:
    state = {OPEN: SeekState.OPEN, CANCELLED: SeekState.CANCELLED, EXPIRED: SeekState.EXPIRED}
    table = record.table
    return Seek(
        id=strawberry.ID(to_global_id("Seek", record.id)),
        variant=record.variant,
        players=record.players,
        clock=time_control_of(record.clock),  # type: ignore[arg-type]
        speed=Speed(RatingSpeed(record.speed)),
        rated=record.rated,
        opponents=SeekOpponents[Opponents(record.opponents).name],
        rating=round(record.rating),
        created_at=iso(record.created) or "",
        expires_at=iso(record.expires) or "",
        state=state.get(record.state, SeekState.MATCHED),
        game_id=None if table is None else strawberry.ID(to_global_id("Game", table)),
    )


def pool_of(info: Info) -> Pool:
    """The app's pool (kept in its state, as the request reaches the app)."""
    request = info.context.request
    pool = getattr(getattr(getattr(request, "app", None), "state", None), "pool", None)
    if not isinstance(pool, Pool):
        raise GraphQLError("the pool is not served here", extensions={"code": "NOT_FOUND"})
    return pool


async def seeks_of(info: Info, account: str) -> list[Seek]:
    return [seek_type(record) for record in await pool_of(info).seeks_of(account, SHOWN_SEEKS)]


@strawberry.input(description="A seek: the game you want; the server forms the table.")
class JoinSeekInput:
    clock: TimeControlInput = strawberry.field(
        description="The game's clock (a time per turn or a bank: a pool game has one); only "
        "seeks of the very same clock meet."
    )
    variant: str = strawberry.field(
        default="classic", description=f"The game ({DATA_NAME.rule}); UNKNOWN_VARIANT if none."
    )
    players: int = strawberry.field(
        default=4, description="The table's size, within the game's range (INVALID_SEEK)."
    )
    rated: bool = strawberry.field(default=True, description="A rated game.")
    opponents: SeekOpponents = strawberry.field(
        default=SeekOpponents.ANY, description="Whom you accept (and who accepts you)."
    )
    seed: str | None = strawberry.field(
        default=None,
        description="Refused: the pool's dice are nobody's choice (RATED_GAME_SEEDED for a rated "
        f"seek, INVALID_SEEK otherwise; {SEED.rule}).",
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.input(description="A seek of yours to cancel.")
class CancelSeekInput:
    seek_id: strawberry.ID = strawberry.field(description=f"Its id ({GLOBAL_ID.rule}).")
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.type(description="The seek after the command, or why it was refused.")
class SeekPayload:
    seek: Seek | None = strawberry.field(description="Null when refused.")
    user_errors: list[UserError] = strawberry.field(description="Why it was refused.")
    client_mutation_id: str | None = strawberry.field(description="As given.")


async def _run(
    info: Info, key: str | None, command: Callable[[Principal], Awaitable[SeekRecord]]
) -> SeekPayload:
    answered = await run_as_account(info, key, command)
    shown = None if answered.record is None else seek_type(answered.record)
    return SeekPayload(seek=shown, user_errors=answered.user_errors, client_mutation_id=key)


def _seek_id(value: str) -> str:
    decoded = from_global_id(value, "Seek")
    if decoded is None:
        raise PoolError(ErrorCode.SEEK_NOT_FOUND, "no seek of that id")
    return decoded[1]


@strawberry.type
class PoolMutation:
    @strawberry.mutation(
        description="Join the matchmaking pool (GAMES_PLAY): the server seats you at a table of "
        f"compatible seeks by rating and starts the game. At most {MOST_SEEKS} open seeks "
        "(TOO_MANY_SEEKS); a real-time seek lives 30 minutes, a correspondence one a day."
    )
    async def join_seek(
        self, info: Info, input: Annotated[JoinSeekInput, strawberry.argument(description="It.")]
    ) -> SeekPayload:
        async def join(principal: Principal) -> SeekRecord:
            bounded(DATA_NAME, input.variant)
            bounded(SEED, input.seed)
            command = JoinSeek(
                input.variant,
                input.players,
                input.clock.to_plain(),
                input.rated,
                Opponents[input.opponents.name],
                input.seed,
            )
            return await pool_of(info).join(principal, command)

        return await _run(info, input.client_mutation_id, join)

    @strawberry.mutation(
        description="Cancel a seek of yours while it is open (NOT_YOUR_SEEK for another's); a "
        "matched seek stays matched."
    )
    async def cancel_seek(
        self, info: Info, input: Annotated[CancelSeekInput, strawberry.argument(description="It.")]
    ) -> SeekPayload:
        return await _run(
            info,
            input.client_mutation_id,
            lambda p: pool_of(info).cancel(p, _seek_id(input.seek_id)),
        )
