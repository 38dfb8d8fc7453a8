"""Telling the sockets of this instance, at once, that an account's credentials or the account
changed: a socket that holds one of its credentials judges it again then (api/socket_handler.py)
instead of at its next look. Other instances learn it from MongoDB's change stream
(`api/account_feed.py`), and every instance looks again now and then whatever it is told (a
store shared by several processes through one SQLite file tells nobody).

`TellingStore` wraps the account store the server's commands write through: a credential
deleted (logout, revocation, a password change, a deletion, the least recently used session
dropped) or an account replaced (disabled, deleted, made a bot) is told once written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from api.stores.accounts import AccountRecord, AccountStore


def account_channel(account_id: str) -> str:
    """The broker channel of one account: changes of its credentials, the account itself,
    and games in which it has just taken a seat (`seatEvents` follows them)."""
    return f"__account__/{account_id}"


def credential_channel(token_hash: str) -> str:
    """The broker channel of one credential, by its hash: its deletion, as another instance's
    change stream tells it (a deleted credential's account is no longer known there)."""
    return f"__credential__/{token_hash}"


class TellingStore:
    """An account store that calls `changed(account_id)` after each write that may end a
    credential's worth; everything else passes through."""

    def __init__(self, inner: AccountStore, changed: Callable[[str], None]) -> None:
        self.inner = inner
        self.changed = changed

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def delete_credentials(
        self,
        account_id: str,
        kind: str | None = None,
        ids: Sequence[str] | None = None,
        keep: str | None = None,
    ) -> int:
        deleted = await self.inner.delete_credentials(account_id, kind, ids, keep)
        if deleted:
            self.changed(account_id)
        return deleted

    async def replace_account(self, record: AccountRecord, expected: AccountRecord) -> bool:
        replaced = await self.inner.replace_account(record, expected)
        if replaced:
            self.changed(record.id)
        return replaced


def telling(store: AccountStore, changed: Callable[[str], None]) -> AccountStore:
    return cast(AccountStore, TellingStore(store, changed))
