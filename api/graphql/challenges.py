"""The challenges' reads and news (api/challenges/): a challenge by id, an account's own
(`me { challenges }`), and `challengeNews`, its account's challenges as they change; merged
into the schema's Query and Subscription (api/graphql/schema.py). The mutations are in
challenge_mutations.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Annotated, cast

import strawberry
from graphql import GraphQLError
from strawberry.scalars import JSON

from api.accounts.scopes import Principal, Scope
from api.challenges.errors import ChallengeError
from api.challenges.records import ChallengeRecord, ChallengeStatus
from api.challenges.service import Challenges
from api.graphql.account_types import Account, account_type, accounts_of, refused
from api.graphql.challenge_enums import ChallengeDirection
from api.graphql.clock import TimeControl, iso, time_control_of
from api.graphql.context import Info
from api.graphql.ids import from_global_id, to_global_id
from api.stores.base import Admits
from api.text_inputs import GLOBAL_ID
from domain.errors import ErrorCode

strawberry.enum(ChallengeStatus, description="Where a challenge is.")
TYPE = "Challenge"
CHALLENGE_ID = f"The challenge's id ({GLOBAL_ID.rule})."
# How often a news stream reads its account's challenges (any instance may change them).
NEWS_EVERY_SECONDS = 1.0


def challenges_of(info: Info) -> Challenges:
    """The app's challenges (kept in its state, as the request reaches the app)."""
    request = info.context.request
    found = getattr(getattr(getattr(request, "app", None), "state", None), "challenges", None)
    if not isinstance(found, Challenges):
        raise GraphQLError("challenges are not served here", extensions={"code": "NOT_FOUND"})
    return found


def challenge_id_of(id: strawberry.ID) -> str:
    decoded = from_global_id(id, TYPE)
    if decoded is None:
        raise ChallengeError(ErrorCode.CHALLENGE_NOT_FOUND, "not a challenge id")
    return decoded[1]


async def _accounts(info: Info, ids: tuple[str, ...]) -> list[Account]:
    store = accounts_of(info).store
    found = [await store.account(account_id) for account_id in ids]
    return [account_type(record) for record in found if record is not None]


@strawberry.type(
    description="An invitation to a game from one account to 2 to 5 others: the game starts "
    "when all have accepted (then `gameId` is set); it expires a day after it was made."
)
class Challenge:
    id: strawberry.ID = strawberry.field(description=CHALLENGE_ID)
    variant: str = strawberry.field(description="The game.")
    options: JSON = strawberry.field(description="The game's options, as given (plain values).")
    clock: TimeControl | None = strawberry.field(description="The game's clock; null: none.")
    rated: bool = strawberry.field(description="A rated game (accounts only, dice unarranged).")
    admits: Admits = strawberry.field(description="Who may be challenged: people, bots, both.")
    status: ChallengeStatus = strawberry.field(description="Where it is now.")
    created_at: str = strawberry.field(description="When it was made (ISO 8601, UTC).")
    expires_at: str = strawberry.field(description="When it expires unless all accept.")
    game_id: strawberry.ID | None = strawberry.field(
        description="Its game (`game(id:)`), once all accepted; null before."
    )
    record: strawberry.Private[ChallengeRecord]

    @strawberry.field(description="Who challenged.")
    async def challenger(self, info: Info) -> Account | None:
        found = await _accounts(info, (self.record.challenger,))
        return found[0] if found else None

    @strawberry.field(description="The challenged accounts, in the order they were named.")
    async def challenged(self, info: Info) -> list[Account]:
        return await _accounts(info, self.record.challenged)

    @strawberry.field(description="The challenged accounts that accepted, in that order.")
    async def accepted(self, info: Info) -> list[Account]:
        return await _accounts(info, self.record.accepted)

    @strawberry.field(description="The account that declined it, if one did.")
    async def declined_by(self, info: Info) -> Account | None:
        declined = self.record.declined_by
        found = await _accounts(info, (declined,)) if declined else []
        return found[0] if found else None

    @strawberry.field(
        description="The players in seat order, drawn when the last acceptance came; empty before."
    )
    async def seats(self, info: Info) -> list[Account]:
        return await _accounts(info, self.record.seats)


def challenge_type(record: ChallengeRecord, now: float) -> Challenge:
    accepted = record.status is ChallengeStatus.ACCEPTED
    return Challenge(
        id=to_global_id(TYPE, record.id),
        variant=record.variant,
        options=cast(JSON, record.options),
        clock=time_control_of(record.clock),
        rated=record.rated,
        admits=Admits(record.admits),
        status=record.status_at(now),
        created_at=iso(record.created_at) or "",
        expires_at=iso(record.expires_at) or "",
        game_id=to_global_id("Game", record.game_id) if accepted else None,
        record=record,
    )


async def my_challenges(
    info: Info, principal: Principal, direction: ChallengeDirection, open_only: bool
) -> list[Challenge]:
    """`me { challenges }`: the account's, newest first (GAMES_READ)."""
    with refused():
        principal.require(Scope.GAMES_READ)
    challenges = challenges_of(info)
    account = principal.account_id
    records = await challenges.of_account(account, open_only)
    if direction is ChallengeDirection.INCOMING:
        records = [record for record in records if record.challenger != account]
    elif direction is ChallengeDirection.OUTGOING:
        records = [record for record in records if record.challenger == account]
    now = challenges.now()
    return [challenge_type(await challenges.settle(record), now) for record in records]


@strawberry.type(description="A challenge of the account changed: made, answered, started, over.")
class ChallengeNews:
    challenge: Challenge = strawberry.field(description="It, as it is now.")


@strawberry.type
class ChallengeQuery:
    @strawberry.field(description="A challenge, for its challenger and the challenged only.")
    async def challenge(
        self,
        info: Info,
        id: Annotated[strawberry.ID, strawberry.argument(description=CHALLENGE_ID)],
    ) -> Challenge | None:
        principal = info.context.account(Scope.GAMES_READ)
        challenges = challenges_of(info)
        decoded = from_global_id(id, TYPE)
        record = None if decoded is None else await challenges.store.challenge(decoded[1])
        if record is None or principal.account_id not in record.parties:
            return None
        return challenge_type(await challenges.settle(record), challenges.now())


@strawberry.type
class ChallengeSubscription:
    @strawberry.subscription(
        description="The socket's account's challenges (GAMES_READ): first its open ones, then "
        "each as it changes: one made to it or by it, an answer, a game started, a decline, a "
        "cancel, an expiry (each time as it is then). It reads "
        f"them every {NEWS_EVERY_SECONDS:g} s, whichever instance changed them; it ends only "
        "with the socket."
    )
    async def challenge_news(self, info: Info) -> AsyncGenerator[ChallengeNews, None]:
        account = info.context.account(Scope.GAMES_READ).account_id
        challenges = challenges_of(info)
        now = challenges.now()
        records = await challenges.of_account(account, False)
        for record in reversed(records):  # first what stands: the open ones, oldest first
            if record.is_open(now):
                yield ChallengeNews(challenge=challenge_type(record, now))
        seen = _states(records, now)
        while True:
            await asyncio.sleep(NEWS_EVERY_SECONDS)
            now = challenges.now()
            records = await challenges.of_account(account, False)
            states = _states(records, now)
            for record in reversed(records):  # oldest first
                if seen.get(record.id) != states[record.id]:
                    yield ChallengeNews(challenge=challenge_type(record, now))
            seen = states


def _states(records: list[ChallengeRecord], now: float) -> dict[str, tuple[int, ChallengeStatus]]:
    return {record.id: (record.version, record.status_at(now)) for record in records}
