"""The account queries and mutations: thin resolvers over the account handlers
(api/accounts/), merged into the schema's Query and Mutation (api/graphql/schema.py).

A refused command is a user error (nothing changed; `retryAfter` when RATE_LIMITED); a
credential that is missing, not valid, or lacks the scope needed fails the request
(UNAUTHENTICATED, FORBIDDEN with `extensions.scope`), as a wrong seat token does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

import strawberry
from graphql import GraphQLError

from api.accounts import handlers
from api.accounts.commands import (
    BecomeBot,
    ChangePassword,
    CreateApiToken,
    DeleteAccount,
    LoggedIn,
    LogIn,
    LogOut,
    Register,
    RevokeApiToken,
)
from api.accounts.errors import AccountError
from api.accounts.names import LONGEST_SENT, name_key
from api.accounts.scopes import Principal
from api.graphql.account_types import (
    Account,
    AccountInput,
    AccountPayload,
    ChangePasswordInput,
    CreateApiTokenInput,
    CreateApiTokenPayload,
    DeleteAccountInput,
    LogInInput,
    LogOutInput,
    MyAccount,
    RegisterInput,
    RevokeApiTokenInput,
    SessionPayload,
    account_scope,
    account_type,
    accounts_of,
    api_token_type,
    my_account_type,
    refused,
)
from api.graphql.context import Info
from api.graphql.ids import from_global_id
from api.graphql.inputs import UserError, user_error
from api.stores.accounts import AccountRecord
from api.text_inputs import CLIENT_MUTATION_ID, TextRefused

T = TypeVar("T")


def _echo(key: str | None) -> None:
    if key is not None:
        try:
            CLIENT_MUTATION_ID.check(key)
        except TextRefused as refusal:
            raise GraphQLError(refusal.message, extensions={"code": "BAD_USER_INPUT"}) from None


async def _attempt(work: Callable[[], Awaitable[T]]) -> T | tuple[list[UserError], int | None]:
    """The command's answer, or its user error and the seconds to wait if it was rate
    limited; a credential refused fails the request."""
    try:
        with refused():
            return await work()
    except AccountError as error:
        return [user_error(error)], error.retry_after


async def request_principal(info: Info) -> Principal:
    """The request's account, as its context judged it (once per request or operation)."""
    context = info.context
    if context.principal is not None or context.refusal is not None:
        return context.account()
    with refused():
        return await accounts_of(info).authenticate(context.token)


def _session(
    made: LoggedIn | tuple[list[UserError], int | None], key: str | None
) -> SessionPayload:
    if isinstance(made, tuple):
        errors, retry_after = made
        return SessionPayload(
            token=None,
            account=None,
            user_errors=errors,
            retry_after=retry_after,
            client_mutation_id=key,
        )
    return SessionPayload(
        token=made.token,
        account=account_type(made.account),
        user_errors=[],
        retry_after=None,
        client_mutation_id=key,
    )


def _done(outcome: object, key: str | None) -> AccountPayload:
    """The payload of a command's outcome: credentials ended (a count), the account as it
    is now (a record), nothing (None), or its user errors."""
    if isinstance(outcome, tuple):
        errors, retry_after = outcome
        return AccountPayload(
            ended=None,
            account=None,
            user_errors=errors,
            retry_after=retry_after,
            client_mutation_id=key,
        )
    return AccountPayload(
        ended=outcome if isinstance(outcome, int) else None,
        account=account_type(outcome) if isinstance(outcome, AccountRecord) else None,
        user_errors=[],
        retry_after=None,
        client_mutation_id=key,
    )


@strawberry.type
class AccountQuery:
    @strawberry.field(
        description="The account of the request's token (a session from logIn, or a "
        "personal API token), as its owner sees it; null without a token, or with a seat's. "
        "Any other token: UNAUTHENTICATED."
    )
    async def me(self, info: Info) -> MyAccount | None:
        if not info.context.token or info.context.token_seat is not None:
            return None  # no token, or a seat's
        principal = await request_principal(info)
        record = await accounts_of(info).store.account(principal.account_id)
        return None if record is None else my_account_type(record, principal)

    @strawberry.field(description="An account's public profile by its name; null if none.")
    async def account(
        self,
        info: Info,
        name: Annotated[
            str,
            strawberry.argument(
                description=f"The name, in any case or Unicode form (at most {LONGEST_SENT} "
                "characters)."
            ),
        ],
    ) -> Account | None:
        key = name_key(name)
        record = await accounts_of(info).store.account_by_key(key) if key else None
        if record is None or record.deleted or record.disabled:
            return None
        return account_type(record)


@strawberry.type
class AccountMutation:
    @strawberry.mutation(
        description="Register an account; the answer carries a session's token, once. "
        "Rate limited per address (RATE_LIMITED, retryAfter)."
    )
    async def register(
        self, info: Info, input: Annotated[RegisterInput, strawberry.argument(description="It.")]
    ) -> SessionPayload:
        _echo(input.client_mutation_id)
        command = Register(input.name, input.password, info.context.address)
        made = await _attempt(lambda: handlers.register(accounts_of(info), command))
        return _session(made, input.client_mutation_id)

    @strawberry.mutation(
        description="Log in: a session's token, once. A wrong password and an unknown name "
        "are both LOGIN_FAILED; failed attempts slow down (RATE_LIMITED, retryAfter)."
    )
    async def log_in(
        self, info: Info, input: Annotated[LogInInput, strawberry.argument(description="Who.")]
    ) -> SessionPayload:
        _echo(input.client_mutation_id)
        command = LogIn(input.name, input.password, info.context.address)
        made = await _attempt(lambda: handlers.log_in(accounts_of(info), command))
        return _session(made, input.client_mutation_id)

    @strawberry.mutation(description="End the request's credential (a session or a token).")
    async def log_out(
        self,
        info: Info,
        input: Annotated[LogOutInput, strawberry.argument(description="What to end.")],
    ) -> AccountPayload:
        _echo(input.client_mutation_id)
        principal = await request_principal(info)
        command = LogOut(principal, input.everywhere)
        ended = await _attempt(lambda: handlers.log_out(accounts_of(info), command))
        return _done(ended, input.client_mutation_id)

    @strawberry.mutation(
        description="Change the password, for the current one (ACCOUNT_MANAGE): every other "
        "session ends. Failed attempts slow down as logins do."
    )
    async def change_password(
        self,
        info: Info,
        input: Annotated[ChangePasswordInput, strawberry.argument(description="The change.")],
    ) -> AccountPayload:
        _echo(input.client_mutation_id)
        principal = await request_principal(info)
        command = ChangePassword(
            principal,
            input.current_password,
            input.new_password,
            info.context.address,
            input.end_api_tokens,
        )
        ended = await _attempt(lambda: handlers.change_password(accounts_of(info), command))
        return _done(ended, input.client_mutation_id)

    @strawberry.mutation(
        description="Delete the account, for its password (ACCOUNT_MANAGE): every credential "
        "ends, and its name can never be registered again."
    )
    async def delete_account(
        self,
        info: Info,
        input: Annotated[DeleteAccountInput, strawberry.argument(description="Proof.")],
    ) -> AccountPayload:
        _echo(input.client_mutation_id)
        principal = await request_principal(info)
        command = DeleteAccount(principal, input.password, info.context.address)
        deleted = await _attempt(lambda: handlers.delete_account(accounts_of(info), command))
        return _done(deleted, input.client_mutation_id)

    @strawberry.mutation(
        description="Make the account a bot account, for good (ACCOUNT_MANAGE); only before "
        "it has played (ALREADY_PLAYED)."
    )
    async def become_bot(
        self,
        info: Info,
        input: Annotated[AccountInput | None, strawberry.argument(description="The echo.")] = None,
    ) -> AccountPayload:
        key = input.client_mutation_id if input is not None else None
        _echo(key)
        principal = await request_principal(info)
        made = await _attempt(lambda: handlers.become_bot(accounts_of(info), BecomeBot(principal)))
        return _done(made, key)

    @strawberry.mutation(
        description="Make a personal API token (ACCOUNT_MANAGE); the token is shown once."
    )
    async def create_api_token(
        self,
        info: Info,
        input: Annotated[CreateApiTokenInput, strawberry.argument(description="The token.")],
    ) -> CreateApiTokenPayload:
        _echo(input.client_mutation_id)
        principal = await request_principal(info)
        command = CreateApiToken(
            principal,
            input.name,
            [account_scope(scope) for scope in input.scopes],
            input.expires_in_days,
        )
        made = await _attempt(lambda: handlers.create_api_token(accounts_of(info), command))
        if isinstance(made, tuple):
            return CreateApiTokenPayload(
                token=None,
                api_token=None,
                user_errors=made[0],
                client_mutation_id=input.client_mutation_id,
            )
        return CreateApiTokenPayload(
            token=made.token,
            api_token=api_token_type(made.credential),
            user_errors=[],
            client_mutation_id=input.client_mutation_id,
        )

    @strawberry.mutation(description="Revoke a personal API token (ACCOUNT_MANAGE), at once.")
    async def revoke_api_token(
        self,
        info: Info,
        input: Annotated[RevokeApiTokenInput, strawberry.argument(description="Which.")],
    ) -> AccountPayload:
        _echo(input.client_mutation_id)
        principal = await request_principal(info)
        decoded = from_global_id(input.id, "ApiToken")
        command = RevokeApiToken(principal, decoded[1] if decoded else "")
        revoked = await _attempt(lambda: handlers.revoke_api_token(accounts_of(info), command))
        return _done(revoked, input.client_mutation_id)
