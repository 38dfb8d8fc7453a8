"""The account types of the schema: public profiles, the caller's own account, its API
tokens, scopes, and the inputs and payloads of the account mutations."""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

import strawberry
from graphql import GraphQLError

from api.accounts import names, passwords
from api.accounts.errors import CredentialRefused
from api.accounts.handlers import TOKEN_NAME, api_tokens
from api.accounts.scopes import Principal
from api.accounts.scopes import Scope as AccountScope
from api.accounts.service import Accounts
from api.accounts.tokens import TokenKind
from api.graphql.account_games import (
    STATUS,
    VARIANT,
    AccountGameConnection,
    account_games,
    bounded_variant,
)
from api.graphql.challenge_enums import ChallengeDirection
from api.graphql.clock import iso
from api.graphql.context import Info, credential_error
from api.graphql.ids import to_global_id
from api.graphql.inputs import ECHOED_KEY, UserError

if TYPE_CHECKING:
    from api.graphql.pool import Seek
from api.graphql.pages import AFTER, BEFORE, FIRST, LAST
from api.graphql.rating_types import (
    RATED_SPEED,
    RATED_VARIANT,
    Rating,
    RatingHistoryConnection,
    rating_history,
    rating_type,
    ratings_of,
)
from api.stores.accounts import AccountRecord, CredentialRecord
from api.text_inputs import GLOBAL_ID

if TYPE_CHECKING:
    from api.graphql.challenges import Challenge
    from api.graphql.ladder import LadderStatus

NAME_RULE = (
    f"{names.SHORTEST} to {names.LONGEST} characters: letters, digits, marks and '_', '-', "
    "'.', a letter or a digit first and last (INVALID_NAME); case, width and Unicode form "
    "do not make another name (NAME_TAKEN)"
)
PASSWORD_RULE = (
    f"{passwords.SHORTEST} to {passwords.LONGEST} characters, spaces and any printable Unicode "
    "welcome, no composition rule; the most guessable are refused (PASSWORD_TOO_SHORT, "
    "PASSWORD_TOO_LONG, PASSWORD_TOO_WEAK, INVALID_PASSWORD)"
)
RETRY_AFTER = "When a user error is RATE_LIMITED: the seconds to wait before trying again."


def accounts_of(info: Info) -> Accounts:
    accounts = info.context.accounts
    if accounts is None:  # a schema executed without a server (export-schema, some tests)
        raise GraphQLError("accounts are not served here", extensions={"code": "NOT_FOUND"})
    return accounts


@contextlib.contextmanager
def refused() -> Iterator[None]:
    """A credential that cannot do what is asked fails the request (UNAUTHENTICATED, or
    FORBIDDEN with the scope it needs), as a wrong seat token does."""
    try:
        yield
    except CredentialRefused as error:
        raise credential_error(error) from None


@strawberry.enum(description="What a credential may do. A session (logIn) may do everything.")
class Scope(enum.Enum):
    GAMES_READ = strawberry.enum_value(
        AccountScope.GAMES_READ,
        description="Read the account's games and its private state in them (hands, objectives).",
    )
    GAMES_PLAY = strawberry.enum_value(
        AccountScope.GAMES_PLAY, description="Join games, act in them, leave them."
    )
    GAMES_CREATE = strawberry.enum_value(AccountScope.GAMES_CREATE, description="Create games.")
    TOURNAMENTS_ORGANISE = strawberry.enum_value(
        AccountScope.TOURNAMENTS_ORGANISE, description="Create and run tournaments."
    )
    ACCOUNT_MANAGE = strawberry.enum_value(
        AccountScope.ACCOUNT_MANAGE,
        description="Manage the account: its API tokens, bot status, password and deletion.",
    )


@strawberry.enum(description="What kind of credential a token is.")
class CredentialKind(enum.Enum):
    SESSION = strawberry.enum_value(
        TokenKind.SESSION, description="From logIn or register (rks_…): every scope."
    )
    API_TOKEN = strawberry.enum_value(
        TokenKind.API, description="A personal API token (rkp_…): the scopes it was made with."
    )


def scope_types(scopes: frozenset[AccountScope] | tuple[str, ...]) -> list[Scope]:
    """The schema's scopes, in its order, of scopes or their stored values (one and the
    same: a Scope is a StrEnum)."""
    return [scope for scope in Scope if account_scope(scope) in scopes]


def account_scope(scope: Scope) -> AccountScope:
    """The account's scope of the schema's (one name for both)."""
    return AccountScope[scope.name]


@strawberry.type(description="An account's games, counted.")
class AccountResults:
    played: int = strawberry.field(description="Games it has played (started, with its seat).")
    finished: int = strawberry.field(description="Those of them that are finished.")
    won: int = strawberry.field(description="Those of them that it won.")


@strawberry.type(description="An account as anyone sees it: a person or a bot that plays.")
class Account:
    name: str = strawberry.field(description="Its name as registered (NFC, its case kept).")
    bot: bool = strawberry.field(
        description="A bot account: it plays by program (made so for good, before it played)."
    )
    created_at: str = strawberry.field(description="When it was registered (ISO 8601, UTC).")
    account_id: strawberry.Private[str]

    @strawberry.field(description="Its games counted: played, finished, won.")
    async def results(self, info: Info) -> AccountResults:
        counts = await info.context.service.store.account_record(self.account_id)
        return AccountResults(played=counts.played, finished=counts.finished, won=counts.won)

    @strawberry.field(
        description="Its games, newest first, each as a spectator sees it, with its seat and "
        "its result (a Relay connection, as `games`)."
    )
    async def games(
        self,
        info: Info,
        status: STATUS = None,
        variant: VARIANT = None,
        first: FIRST = None,
        after: AFTER = None,
        last: LAST = None,
        before: BEFORE = None,
    ) -> AccountGameConnection:
        bounded_variant(variant)
        filters, counts, cursors = (status, variant), (first, last), (after, before)
        return await account_games(info, self.account_id, filters, counts, cursors, own=False)

    @strawberry.field(
        description="Its ratings, one per variant and speed it has played rated games of."
    )
    async def ratings(self, info: Info) -> list[Rating]:
        rows = await ratings_of(info).store.ratings(self.account_id)
        return [rating_type(row) for row in rows]

    @strawberry.field(
        description="What each of its rated games of a variant and speed did to its rating, "
        "newest first (a Relay connection). UNKNOWN_VARIANT for a name no variant has."
    )
    async def rating_history(
        self,
        info: Info,
        variant: RATED_VARIANT,
        speed: RATED_SPEED,
        first: FIRST = None,
        after: AFTER = None,
    ) -> RatingHistoryConnection:
        return await rating_history(info, self.account_id, (variant, speed), first, after)


def account_type(record: AccountRecord) -> Account:
    return Account(
        name=record.name,
        bot=record.bot,
        created_at=iso(record.created_at) or "",
        account_id=record.id,
    )


@strawberry.type(description="A personal API token, as its account lists it: never the token.")
class ApiToken:
    id: strawberry.ID = strawberry.field(description="Its id, to revoke it by.")
    name: str = strawberry.field(description="The name its owner gave it.")
    scopes: list[Scope] = strawberry.field(description="What it may do.")
    created_at: str = strawberry.field(description="When it was made (ISO 8601, UTC).")
    last_used_at: str | None = strawberry.field(
        description="When it was last used, to the minute; null if never."
    )
    expires_at: str | None = strawberry.field(description="When it expires; null: never.")


def api_token_type(record: CredentialRecord) -> ApiToken:
    used = record.last_used_at if record.last_used_at > record.created_at else None
    return ApiToken(
        id=to_global_id("ApiToken", record.id),
        name=record.name,
        scopes=scope_types(record.scopes),
        created_at=iso(record.created_at) or "",
        last_used_at=iso(used),
        expires_at=iso(record.expires_at),
    )


@strawberry.type(description="The credential a request carries.")
class Credential:
    kind: CredentialKind = strawberry.field(description="A session or an API token.")
    scopes: list[Scope] = strawberry.field(description="What it may do.")


@strawberry.type(description="The account of the request's credential, as its owner sees it.")
class MyAccount:
    name: str = strawberry.field(description="Its name as registered.")
    bot: bool = strawberry.field(description="A bot account.")
    created_at: str = strawberry.field(description="When it was registered (ISO 8601, UTC).")
    credential: Credential = strawberry.field(description="The credential of this request.")
    principal: strawberry.Private[Principal]

    @strawberry.field(
        description="The account's games, newest first, each as its own seat sees it, with "
        "its result (the scope GAMES_READ; FORBIDDEN otherwise): the same on every device."
    )
    async def games(
        self,
        info: Info,
        status: STATUS = None,
        variant: VARIANT = None,
        first: FIRST = None,
        after: AFTER = None,
        last: LAST = None,
        before: BEFORE = None,
    ) -> AccountGameConnection:
        with refused():
            self.principal.require(AccountScope.GAMES_READ)
        bounded_variant(variant)
        filters, counts, cursors = (status, variant), (first, last), (after, before)
        account = self.principal.account_id
        return await account_games(info, account, filters, counts, cursors, own=True)

    @strawberry.field(
        description="Its challenges, made (OUTGOING) and received (INCOMING), newest first: "
        "only the open ones unless `open` is false (then the 50 newest; the scope GAMES_READ)."
    )
    async def challenges(
        self,
        info: Info,
        direction: Annotated[
            ChallengeDirection, strawberry.argument(description="Made, received, or both.")
        ] = ChallengeDirection.BOTH,
        open: Annotated[
            bool, strawberry.argument(description="Only the open ones (not expired either).")
        ] = True,
    ) -> list[Annotated[Challenge, strawberry.lazy("api.graphql.challenges")]]:
        from api.graphql.challenges import my_challenges

        return await my_challenges(info, self.principal, direction, open)

    @strawberry.field(
        description="Its personal API tokens, oldest first (the scope ACCOUNT_MANAGE; "
        "FORBIDDEN otherwise)."
    )
    async def tokens(self, info: Info) -> list[ApiToken]:
        with refused():
            records = await api_tokens(accounts_of(info), self.principal)
        return [api_token_type(record) for record in records]

    @strawberry.field(
        description="Its seeks in the matchmaking pool, newest first (the last 20): an open "
        "one's state, a matched one's game (`gameId`)."
    )
    async def seeks(self, info: Info) -> list[Annotated[Seek, strawberry.lazy("api.graphql.pool")]]:
        from api.graphql.pool import seeks_of  # the pool's types import this module's

        return await seeks_of(info, self.principal.account_id)

    @strawberry.field(
        description="Whether it is on the bots' ladder, and the ladder's games it sits in now."
    )
    async def ladder(
        self, info: Info
    ) -> Annotated[LadderStatus, strawberry.lazy("api.graphql.ladder")]:
        from api.graphql.ladder import my_ladder  # the ladder's module imports this one

        return await my_ladder(info, self.principal)


def my_account_type(record: AccountRecord, principal: Principal) -> MyAccount:
    return MyAccount(
        name=record.name,
        bot=record.bot,
        created_at=iso(record.created_at) or "",
        credential=Credential(
            kind=CredentialKind(principal.kind), scopes=scope_types(principal.scopes)
        ),
        principal=principal,
    )


@strawberry.input(description="A new account.")
class RegisterInput:
    name: str = strawberry.field(description=f"Its name: {NAME_RULE}.")
    password: str = strawberry.field(description=f"Its password: {PASSWORD_RULE}.")
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.input(description="A name and its password, for a session.")
class LogInInput:
    name: str = strawberry.field(
        description=f"The account's name, in any case or Unicode form (at most "
        f"{names.LONGEST_SENT} characters)."
    )
    password: str = strawberry.field(
        description=f"Its password (at most {4 * passwords.LONGEST} characters)."
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.type(description="A new session, or why there is none.")
class SessionPayload:
    token: str | None = strawberry.field(
        description="The session's token, shown this once: send it as `Authorization: Bearer "
        "…`. It carries every scope; it ends at logOut, after 30 days unused, a year after "
        "it was made, or when the password changes elsewhere."
    )
    account: Account | None = strawberry.field(description="The account.")
    user_errors: list[UserError] = strawberry.field(description="Why there is no session.")
    retry_after: int | None = strawberry.field(description=RETRY_AFTER)
    client_mutation_id: str | None = strawberry.field(description="As given in the input.")


@strawberry.input(description="End this request's credential, or every session.")
class LogOutInput:
    everywhere: bool = strawberry.field(
        default=False, description="Also end every other session of the account."
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.input(description="A new password, for the current one.")
class ChangePasswordInput:
    current_password: str = strawberry.field(
        description=f"The current password (at most {4 * passwords.LONGEST} characters; "
        "WRONG_PASSWORD otherwise)."
    )
    new_password: str = strawberry.field(description=f"The new password: {PASSWORD_RULE}.")
    end_api_tokens: bool = strawberry.field(
        default=False, description="Also revoke every API token (the sessions end anyway)."
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.input(description="Delete the account, for its password.")
class DeleteAccountInput:
    password: str = strawberry.field(
        description=f"The account's password (at most {4 * passwords.LONGEST} characters)."
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.input(description="Only a mutation's echo.")
class AccountInput:
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.type(description="What a mutation of the account did, or why it did nothing.")
class AccountPayload:
    ended: int | None = strawberry.field(
        description="How many credentials ended (logOut, changePassword)."
    )
    account: Account | None = strawberry.field(description="The account, as it is now.")
    user_errors: list[UserError] = strawberry.field(description="Why nothing was done.")
    retry_after: int | None = strawberry.field(description=RETRY_AFTER)
    client_mutation_id: str | None = strawberry.field(description="As given in the input.")


@strawberry.input(description="A new personal API token.")
class CreateApiTokenInput:
    name: str = strawberry.field(
        description=f"What it is for ({TOKEN_NAME.rule} once trimmed; INVALID_NAME)."
    )
    scopes: list[Scope] = strawberry.field(
        description="What it may do: at least one scope (INVALID_SCOPES), none that the "
        "request's own credential lacks (FORBIDDEN)."
    )
    expires_in_days: int | None = strawberry.field(
        default=None, description="It expires in this many days, 1 to 366; null: never."
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.type(description="A new API token, or why there is none.")
class CreateApiTokenPayload:
    token: str | None = strawberry.field(
        description="The token, shown this once (rkp_…): the server keeps only its hash."
    )
    api_token: ApiToken | None = strawberry.field(description="The token as it is listed.")
    user_errors: list[UserError] = strawberry.field(description="Why there is no token.")
    client_mutation_id: str | None = strawberry.field(description="As given in the input.")


@strawberry.input(description="Revoke a personal API token.")
class RevokeApiTokenInput:
    id: strawberry.ID = strawberry.field(
        description=f"The token's id (ApiToken.id, {GLOBAL_ID.rule}; TOKEN_NOT_FOUND)."
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)
