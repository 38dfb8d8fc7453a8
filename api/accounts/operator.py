"""What the server's operator does to accounts (`risiko accounts …`): no credential, no
throttle, the same rules for names and passwords as the API's."""

from __future__ import annotations

import uuid
from dataclasses import replace

from api.accounts.errors import AccountError
from api.accounts.handlers import change_account
from api.accounts.names import account_name, name_key
from api.accounts.service import Accounts
from api.accounts.tokens import TokenKind
from api.stores.accounts import AccountRecord, NameTaken
from domain.errors import ErrorCode


async def create_account(
    accounts: Accounts, name: str, password: str, bot: bool = False
) -> AccountRecord:
    prepared = account_name(name)
    if await accounts.store.account_by_key(prepared.key) is not None:
        raise AccountError(ErrorCode.NAME_TAKEN, "this name is taken")
    account = AccountRecord(
        id=uuid.uuid4().hex,
        name=prepared.shown,
        key=prepared.key,
        password_hash=await accounts.passwords.new_hash(password, [prepared.shown]),
        created_at=accounts.clock(),
        bot=bot,
    )
    try:
        await accounts.store.create_account(account)
    except NameTaken:
        raise AccountError(ErrorCode.NAME_TAKEN, "this name is taken") from None
    return account


async def reset_password(
    accounts: Accounts, name: str, password: str, end_api_tokens: bool = False
) -> int:
    """A new password; every session ends (and every API token, if asked): how many."""
    account = await find(accounts, name)
    password_hash = await accounts.passwords.new_hash(password, [account.name])
    await change_account(
        accounts, account.id, lambda now: replace(now, password_hash=password_hash)
    )
    ended = await accounts.store.delete_credentials(account.id, kind=TokenKind.SESSION.value)
    if end_api_tokens:
        ended += await accounts.store.delete_credentials(account.id, kind=TokenKind.API.value)
    return ended


async def set_disabled(accounts: Accounts, name: str, disabled: bool) -> AccountRecord:
    """Disabled, no credential of the account is accepted and it cannot log in; enabled
    again, its sessions and tokens that have not expired work again."""
    account = await find(accounts, name)
    return await change_account(accounts, account.id, lambda now: replace(now, disabled=disabled))


async def find(accounts: Accounts, name: str) -> AccountRecord:
    account = await accounts.store.account_by_key(name_key(name))
    if account is None or account.deleted:
        raise AccountError(ErrorCode.ACCOUNT_NOT_FOUND, "there is no such account")
    return account
