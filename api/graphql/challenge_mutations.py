"""The challenge mutations: challenge accounts, accept, decline, cancel. Each answers the
challenge as it is after, or the user error that refused it (nothing changed)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from api.accounts.names import LONGEST_SENT
from api.accounts.scopes import Principal
from api.challenges.errors import ChallengeError
from api.challenges.records import ChallengeRecord
from api.challenges.service import CHALLENGED, ChallengeAccounts
from api.graphql.account_commands import run_as_account
from api.graphql.arguments import bounded
from api.graphql.challenges import (
    CHALLENGE_ID,
    Challenge,
    challenge_id_of,
    challenge_type,
    challenges_of,
)
from api.graphql.clock import TimeControlInput
from api.graphql.context import Info
from api.graphql.inputs import ECHOED_KEY, UserError
from api.stores.base import Admits
from api.text_inputs import DATA_NAME, TextBound
from domain.errors import ErrorCode

Command = Callable[[Principal], Awaitable[ChallengeRecord]]
NAME = TextBound("an account's name", LONGEST_SENT, least=1)


@strawberry.input(
    description="A challenge (the scope GAMES_CREATE): 2 to 5 accounts by name, and the game."
)
class ChallengeAccountsInput:
    names: list[str] = strawberry.field(
        description=f"The accounts challenged, {CHALLENGED[0]} to {CHALLENGED[1]}, by name "
        f"(each {NAME.rule}; the game's seats follow: 3 to 6 with yours)."
    )
    variant: str = strawberry.field(
        default="classic", description=f"The game (see `variants`; {DATA_NAME.rule})."
    )
    options: JSON | None = strawberry.field(
        default=None,
        description="The game's options as plain values by their names (as a game's row "
        "keeps them); omitted, its defaults. Options the game refuses: INVALID_CHALLENGE.",
    )
    clock: TimeControlInput | None = strawberry.field(
        default=None, description="The game's clock, as `createGame` takes it; omitted: none."
    )
    rated: bool = strawberry.field(
        default=False,
        description="A rated game: accounts only, with dice nobody arranged (no seed).",
    )
    admits: Admits = strawberry.field(
        default=Admits.ANYONE,
        description="PEOPLE: no bot account may be challenged (PEOPLE_ONLY); BOTS: bots only.",
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.input(description="A challenge to answer or cancel.")
class ChallengeInput:
    challenge_id: strawberry.ID = strawberry.field(description=CHALLENGE_ID)
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.type(description="The challenge after the command, or why it was refused.")
class ChallengePayload:
    challenge: Challenge | None = strawberry.field(description="Null when refused.")
    user_errors: list[UserError] = strawberry.field(description="Why it was refused.")
    client_mutation_id: str | None = strawberry.field(description="As given.")


async def _run(info: Info, key: str | None, command: Command) -> ChallengePayload:
    answered = await run_as_account(info, key, command)
    record = answered.record
    shown = None if record is None else challenge_type(record, challenges_of(info).now())
    return ChallengePayload(
        challenge=shown, user_errors=answered.user_errors, client_mutation_id=key
    )


def _command(input: ChallengeAccountsInput) -> ChallengeAccounts:
    bounded(DATA_NAME, input.variant)
    if len(input.names) > CHALLENGED[1] + 1:
        raise ChallengeError(ErrorCode.INVALID_CHALLENGE, f"at most {CHALLENGED[1]} accounts")
    for name in input.names:
        bounded(NAME, name)
    options: Any = input.options or {}
    if not isinstance(options, dict):
        raise ChallengeError(ErrorCode.INVALID_CHALLENGE, "options are an object of values")
    return ChallengeAccounts(
        tuple(input.names),
        input.variant,
        dict(options),
        None if input.clock is None else input.clock.to_plain(),
        input.rated,
        input.admits,
    )


@strawberry.type
class ChallengeMutation:
    @strawberry.mutation(
        description="Challenge 2 to 5 accounts to a game (GAMES_CREATE); it starts when all "
        "accept, the seats drawn."
    )
    async def challenge_accounts(
        self,
        info: Info,
        input: Annotated[ChallengeAccountsInput, strawberry.argument(description="It.")],
    ) -> ChallengePayload:
        async def challenge(principal: Principal) -> ChallengeRecord:
            return await challenges_of(info).challenge(principal, _command(input))

        return await _run(info, input.client_mutation_id, challenge)

    @strawberry.mutation(
        description="Accept a challenge made to your account (GAMES_PLAY); the last acceptance "
        "creates the game, seats everyone and starts it."
    )
    async def accept_challenge(
        self, info: Info, input: Annotated[ChallengeInput, strawberry.argument(description="It.")]
    ) -> ChallengePayload:
        return await _run(
            info,
            input.client_mutation_id,
            lambda p: challenges_of(info).accept(p, challenge_id_of(input.challenge_id)),
        )

    @strawberry.mutation(description="Decline a challenge made to your account (GAMES_PLAY).")
    async def decline_challenge(
        self, info: Info, input: Annotated[ChallengeInput, strawberry.argument(description="It.")]
    ) -> ChallengePayload:
        return await _run(
            info,
            input.client_mutation_id,
            lambda p: challenges_of(info).decline(p, challenge_id_of(input.challenge_id)),
        )

    @strawberry.mutation(description="Cancel your open challenge (GAMES_CREATE).")
    async def cancel_challenge(
        self, info: Info, input: Annotated[ChallengeInput, strawberry.argument(description="It.")]
    ) -> ChallengePayload:
        return await _run(
            info,
            input.client_mutation_id,
            lambda p: challenges_of(info).cancel(p, challenge_id_of(input.challenge_id)),
        )
