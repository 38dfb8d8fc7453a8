"""The handlers of what a player does with an account: each takes the shared `Accounts` and
one command, checks everything before it writes anything, and answers or raises
AccountError (a user error, nothing changed) or CredentialRefused (the credential cannot).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace

from api import text_inputs
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
    TokenMade,
)
from api.accounts.errors import AccountError, CredentialRefused
from api.accounts.names import account_name, name_key
from api.accounts.passwords import check_length
from api.accounts.scopes import Principal, Scope
from api.accounts.service import Accounts
from api.accounts.tokens import TokenKind, new_token, token_hash
from api.stores.accounts import AccountRecord, CredentialRecord, NameTaken
from domain.errors import ErrorCode

TOKEN_NAME = text_inputs.TextBound("a token's name", 40, least=1)
CHANGE_ATTEMPTS = 5


async def register(accounts: Accounts, command: Register) -> LoggedIn:
    """A new account, and a session for it."""
    name = account_name(command.name)
    check_length(command.password)
    # Counted before the costly part (judging and hashing the password: 20 to 80 ms of a
    # core), so that nobody makes the server hash without limit.
    await accounts.throttle.registration(command.address)
    if await accounts.store.account_by_key(name.key) is not None:
        raise _taken()
    password_hash = await accounts.passwords.new_hash(command.password, [name.shown])
    account = AccountRecord(
        id=uuid.uuid4().hex,
        name=name.shown,
        key=name.key,
        password_hash=password_hash,
        created_at=accounts.clock(),
    )
    try:
        await accounts.store.create_account(account)
    except NameTaken:  # registered meanwhile, on this instance or another
        raise _taken() from None
    await accounts.throttle.password_proved(name.key, command.address)  # a known address
    return await _new_session(accounts, account)


async def log_in(accounts: Accounts, command: LogIn) -> LoggedIn:
    """A session, for the right password. A wrong password and a name no account has get the
    same answer, in about the same time (the password is checked against a dummy hash)."""
    key = name_key(command.name)
    await accounts.throttle.password_attempt(key, command.address)
    account = await accounts.store.account_by_key(key) if key else None
    usable = account is not None and not account.deleted
    hashed = account.password_hash if account is not None and usable else None
    right, rehashed = await accounts.passwords.verify(hashed, command.password)
    if account is None or not right:
        raise AccountError(ErrorCode.LOGIN_FAILED, "wrong name or password")
    await accounts.throttle.password_proved(key, command.address)
    if account.disabled:
        raise AccountError(ErrorCode.ACCOUNT_DISABLED, "this account is disabled")
    if rehashed is not None:  # made with older parameters: made again with today's
        # Unless the account changed meanwhile (a new password): then the next login.
        await accounts.store.replace_account(replace(account, password_hash=rehashed), account)
    return await _new_session(accounts, account)


async def log_out(accounts: Accounts, command: LogOut) -> int:
    """End the credential used (and, `everywhere`, every session); how many ended."""
    principal = command.principal
    ended = await accounts.store.delete_credentials(
        principal.account_id, ids=[principal.credential_id]
    )
    if command.everywhere:
        ended += await accounts.store.delete_credentials(
            principal.account_id, kind=TokenKind.SESSION.value
        )
    return ended


async def change_password(accounts: Accounts, command: ChangePassword) -> int:
    """A new password, for the current one; every other session ends (and every API token,
    if asked). How many credentials ended."""
    principal = command.principal
    principal.require(Scope.ACCOUNT_MANAGE)
    check_length(command.new)
    account = await _proved(accounts, principal, command.current, command.address)
    password_hash = await accounts.passwords.new_hash(command.new, [account.name])
    await replace_proved(accounts, replace(account, password_hash=password_hash), account)
    ended = await accounts.store.delete_credentials(
        account.id, kind=TokenKind.SESSION.value, keep=principal.credential_id
    )
    if command.end_api_tokens:
        ended += await accounts.store.delete_credentials(account.id, kind=TokenKind.API.value)
    return ended


async def delete_account(accounts: Accounts, command: DeleteAccount) -> None:
    """The account is deleted, for its password: its credentials end, its name stays taken
    (nobody may pass for it), and the games it played are told (`AccountGames`)."""
    principal = command.principal
    principal.require(Scope.ACCOUNT_MANAGE)
    account = await _proved(accounts, principal, command.password, command.address)
    await erase(accounts, account)


async def erase(accounts: Accounts, account: AccountRecord) -> None:
    """What deleting an account does, in an order that is safe if it stops halfway: once
    the record is a tombstone, no credential of it is accepted any more."""
    tombstone = replace(account, name="", password_hash=None, deleted_at=accounts.clock())
    await replace_proved(accounts, tombstone, account)
    await accounts.store.delete_credentials(account.id)
    await accounts.games.account_deleted(account.id)


async def become_bot(accounts: Accounts, command: BecomeBot) -> AccountRecord:
    """The account is a bot account from now on, for good; only before it has played."""
    command.principal.require(Scope.ACCOUNT_MANAGE)
    account = await _account(accounts, command.principal)
    if account.bot:
        return account
    if await accounts.games.has_played(account.id):
        raise AccountError(
            ErrorCode.ALREADY_PLAYED, "an account that has played cannot become a bot account"
        )
    return await change_account(accounts, account.id, lambda current: replace(current, bot=True))


async def create_api_token(accounts: Accounts, command: CreateApiToken) -> TokenMade:
    principal = command.principal
    principal.require(Scope.ACCOUNT_MANAGE)
    scopes = tuple(dict.fromkeys(command.scopes))
    if not scopes:
        raise AccountError(ErrorCode.INVALID_SCOPES, "a token needs at least one scope")
    for scope in scopes:
        principal.require(scope)  # a token never makes one that can do more than itself
    try:
        name = TOKEN_NAME.check(command.name.strip())
    except text_inputs.TextRefused as refused:
        raise AccountError(ErrorCode.INVALID_NAME, refused.message) from None
    days = command.expires_in_days
    longest = accounts.limits.longest_token_days
    if days is not None and not 1 <= days <= longest:
        raise AccountError(
            ErrorCode.INVALID_EXPIRY, f"a token expires in 1 to {longest} days, or never"
        )
    held = await accounts.store.credentials(principal.account_id, TokenKind.API.value)
    if len(held) >= accounts.limits.tokens_per_account:
        raise AccountError(
            ErrorCode.TOO_MANY_TOKENS,
            f"an account holds at most {accounts.limits.tokens_per_account} API tokens: "
            "revoke one first",
        )
    now = accounts.clock()
    expires_at = None if days is None else now + days * 24 * 3600.0
    token = new_token(TokenKind.API)
    credential = _credential(
        principal.account_id, TokenKind.API, token, now, expires_at, name, scopes
    )
    await accounts.store.add_credential(credential)
    return TokenMade(token, credential)


async def revoke_api_token(accounts: Accounts, command: RevokeApiToken) -> None:
    command.principal.require(Scope.ACCOUNT_MANAGE)
    revoked = await accounts.store.delete_credentials(
        command.principal.account_id, kind=TokenKind.API.value, ids=[command.token_id]
    )
    if not revoked:
        raise AccountError(ErrorCode.TOKEN_NOT_FOUND, "this account has no such API token")


async def api_tokens(accounts: Accounts, principal: Principal) -> list[CredentialRecord]:
    """The account's API tokens (never the tokens themselves), oldest first."""
    principal.require(Scope.ACCOUNT_MANAGE)
    return await accounts.store.credentials(principal.account_id, TokenKind.API.value)


async def change_account(
    accounts: Accounts, account_id: str, change: Callable[[AccountRecord], AccountRecord]
) -> AccountRecord:
    """The account changed by `change`, applied to it as it is in the store, again if
    another change got there first."""
    for _ in range(CHANGE_ATTEMPTS):
        current = await accounts.store.account(account_id)
        if current is None or current.deleted:
            raise AccountError(ErrorCode.ACCOUNT_NOT_FOUND, "there is no such account")
        changed = change(current)
        if changed == current or await accounts.store.replace_account(changed, current):
            return changed
    raise _changed_meanwhile()


async def replace_proved(accounts: Accounts, record: AccountRecord, proved: AccountRecord) -> None:
    """Write `record` over the account whose password was just proved, unless the account
    changed since (its password, above all): then nothing is written."""
    if not await accounts.store.replace_account(record, proved):
        raise _changed_meanwhile()


def _changed_meanwhile() -> AccountError:
    return AccountError(
        ErrorCode.STALE_VERSION, "the account changed meanwhile: nothing was done, try again"
    )


async def _proved(
    accounts: Accounts, principal: Principal, password: str, address: str | None
) -> AccountRecord:
    """The principal's account, once its password is given again (throttled as a login
    is); WRONG_PASSWORD otherwise."""
    account = await _account(accounts, principal)
    await accounts.throttle.password_attempt(account.key, address)
    right, _ = await accounts.passwords.verify(account.password_hash, password)
    if not right:
        raise AccountError(ErrorCode.WRONG_PASSWORD, "the password is wrong")
    await accounts.throttle.password_proved(account.key, address)
    return account


async def _account(accounts: Accounts, principal: Principal) -> AccountRecord:
    account = await accounts.store.account(principal.account_id)
    if account is None or account.deleted:
        raise CredentialRefused("UNAUTHENTICATED", "this token's account is deleted")
    return account


async def _new_session(accounts: Accounts, account: AccountRecord) -> LoggedIn:
    """A session for the account; past the most an account holds, the least recently used
    end."""
    now = accounts.clock()
    token = new_token(TokenKind.SESSION)
    expires_at = now + accounts.limits.session_lifetime
    credential = _credential(account.id, TokenKind.SESSION, token, now, expires_at, "", ())
    await accounts.store.add_credential(credential)
    sessions = await accounts.store.credentials(account.id, TokenKind.SESSION.value)
    surplus = len(sessions) - accounts.limits.sessions_per_account
    if surplus > 0:
        oldest = sorted(sessions, key=lambda s: (s.last_used_at, s.created_at))[:surplus]
        ids = [s.id for s in oldest if s.id != credential.id]
        await accounts.store.delete_credentials(account.id, ids=ids)
    return LoggedIn(account, token, credential)


def _credential(
    account_id: str,
    kind: TokenKind,
    token: str,
    now: float,
    expires_at: float | None,
    name: str,
    scopes: tuple[Scope, ...],
) -> CredentialRecord:
    return CredentialRecord(
        id=uuid.uuid4().hex[:16],
        token_hash=token_hash(token),
        account_id=account_id,
        kind=kind.value,
        name=name,
        scopes=tuple(scope.value for scope in scopes),
        created_at=now,
        last_used_at=now,
        expires_at=expires_at,
    )


def _taken() -> AccountError:
    return AccountError(ErrorCode.NAME_TAKEN, "this name is taken")
