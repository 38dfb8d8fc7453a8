"""The bots' ladder in the API: `joinLadder`, `leaveLadder` (a bot account's credential with
GAMES_PLAY) and `me { ladder }` (docs/rated-play.md, "The bots' ladder")."""

from __future__ import annotations

from typing import Annotated

import strawberry
from graphql import GraphQLError

from api.accounts.scopes import Principal
from api.graphql.account_commands import run_as_account
from api.graphql.context import Info
from api.graphql.ids import to_global_id
from api.graphql.inputs import ECHOED_KEY, UserError
from api.graphql.rating_types import Speed
from api.ladder.records import LadderRecord
from api.ladder.service import Ladder
from api.ratings.records import Speed as RatingSpeed


@strawberry.type(description="An account on the bots' ladder.")
class LadderStatus:
    joined: bool = strawberry.field(
        description="Whether it is on the ladder: the server seats it in new rated games."
    )
    variant: str = strawberry.field(description="The ladder's game.")
    speed: Speed = strawberry.field(
        description="The speed its games are rated in (their clock's): `leaderboard`'s."
    )
    games: list[strawberry.ID] = strawberry.field(
        description="The ladder's games it sits in now (`game(id:)`), oldest first; each is "
        "on its account stream (`seatEvents`) too. A game stays here after the account "
        "leaves, until it ends."
    )


@strawberry.input(description="A ladder command of the request's account.")
class LadderInput:
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.type(description="The account on the ladder after the command, or why not.")
class LadderPayload:
    ladder: LadderStatus | None = strawberry.field(description="Null when refused.")
    user_errors: list[UserError] = strawberry.field(description="Why it was refused.")
    client_mutation_id: str | None = strawberry.field(description="As given.")


def ladder_of(info: Info) -> Ladder:
    """The app's ladder (kept in its state, as the request reaches the app)."""
    request = info.context.request
    ladder = getattr(getattr(getattr(request, "app", None), "state", None), "ladder", None)
    if not isinstance(ladder, Ladder):
        raise GraphQLError("the ladder is not served here", extensions={"code": "NOT_FOUND"})
    return ladder


def ladder_status(ladder: Ladder, record: LadderRecord, account: str) -> LadderStatus:
    return LadderStatus(
        joined=account in record.members,
        variant=ladder.settings.variant,
        speed=Speed[RatingSpeed(ladder.settings.speed).name],
        games=[
            strawberry.ID(str(to_global_id("Game", game.game))) for game in record.games_of(account)
        ],
    )


async def my_ladder(info: Info, principal: Principal) -> LadderStatus:
    """`me { ladder }`."""
    ladder = ladder_of(info)
    return ladder_status(ladder, await ladder.record(), principal.account_id)


@strawberry.type
class LadderMutation:
    @strawberry.mutation(
        description="Put your bot account on the bots' ladder (GAMES_PLAY): the server seats "
        "it in rated games against the other bots on it, continuously; it plays them with its "
        "own credential. BOTS_ONLY for a person's account; joining twice changes nothing."
    )
    async def join_ladder(
        self, info: Info, input: Annotated[LadderInput, strawberry.argument(description="It.")]
    ) -> LadderPayload:
        return await _run(info, input, join=True)

    @strawberry.mutation(
        description="Take your account off the ladder: no new game (those it sits in go on)."
    )
    async def leave_ladder(
        self, info: Info, input: Annotated[LadderInput, strawberry.argument(description="It.")]
    ) -> LadderPayload:
        return await _run(info, input, join=False)


async def _run(info: Info, input: LadderInput, *, join: bool) -> LadderPayload:
    key = input.client_mutation_id

    async def command(principal: Principal) -> LadderRecord:
        ladder = ladder_of(info)
        return await (ladder.join if join else ladder.leave)(principal)

    answered = await run_as_account(info, key, command)
    record = answered.record
    status = None
    if record is not None:
        status = ladder_status(ladder_of(info), record, answered.principal.account_id)
    return LadderPayload(ladder=status, user_errors=answered.user_errors, client_mutation_id=key)
