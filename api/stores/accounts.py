"""The account store's interface: accounts, their credentials, and the counters of the
login throttle, in tables (collections) of their own beside the games'.

Every instance reads the store at every use of a credential, so a revocation, a password
change or a disabled account holds on every instance at the next request; nothing is kept in
memory between requests. Names are unique by their key (`api/accounts/names.py`), ids and
token hashes by themselves: two instances registering one name at once, one of them wins and
the other gets `NameTaken`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class NameTaken(Exception):
    """Another account holds this name's key (or this id)."""


@dataclass(frozen=True, slots=True)
class AccountRecord:
    id: str
    name: str  # as shown; "" once deleted
    key: str  # unique: the name's key, kept after deletion so that nobody takes the name
    password_hash: str | None  # None once deleted
    created_at: float
    bot: bool = False
    disabled: bool = False
    deleted_at: float | None = None

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None


@dataclass(frozen=True, slots=True)
class CredentialRecord:
    """A session or a personal API token: its hash, never the token."""

    id: str  # public, to list and revoke it by
    token_hash: str
    account_id: str
    kind: str  # a TokenKind's value
    name: str  # an API token's, given by its owner; "" for a session
    scopes: tuple[str, ...]  # Scope values
    created_at: float
    last_used_at: float
    expires_at: float | None = None


# A throttle's counters as the policy keeps them (api/accounts/throttle.py), and their version.
ThrottleState = dict[str, Any]


class AccountStore(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_account(self, record: AccountRecord) -> None:
        """NameTaken if its key (or id) is another account's."""
        ...

    async def account(self, account_id: str) -> AccountRecord | None: ...

    async def account_by_key(self, key: str) -> AccountRecord | None: ...

    async def accounts(self, after_key: str | None, limit: int) -> list[AccountRecord]:
        """In the order of their keys, after `after_key`; deleted ones too."""
        ...

    async def replace_account(self, record: AccountRecord, expected: AccountRecord) -> bool:
        """Write `record` over the account of its id if the account is still `expected`
        (compare-and-set: two changes at once never undo one another); False, and nothing
        written, if it is not."""
        ...

    async def add_credential(self, record: CredentialRecord) -> None: ...

    async def credential(self, token_hash: str) -> tuple[CredentialRecord, AccountRecord] | None:
        """The credential of this hash and its account, read now."""
        ...

    async def credentials(self, account_id: str, kind: str) -> list[CredentialRecord]:
        """An account's credentials of one kind, oldest first."""
        ...

    async def delete_credentials(
        self,
        account_id: str,
        kind: str | None = None,
        ids: Sequence[str] | None = None,
        keep: str | None = None,
    ) -> int:
        """Delete an account's credentials (of `kind`, among `ids`, all but `keep`, when
        given); how many were deleted."""
        ...

    async def touch_credential(self, credential_id: str, at: float) -> None:
        """Record a use of the credential at `at`."""
        ...

    async def throttle(self, key: str) -> tuple[ThrottleState, int] | None:
        """A throttle's counters and their version; None if it has none."""
        ...

    async def put_throttle(
        self, key: str, state: ThrottleState | None, version: int, expires_at: float
    ) -> bool:
        """Replace the counters of `key` if they are still at `version` (0: if there are
        none), deleting them for None; False, and nothing written, if another writer got
        there first. Counters may be forgotten after `expires_at`."""
        ...

    async def sweep(self, now: float, idle_sessions_before: float) -> int:
        """Forget expired credentials, sessions unused since `idle_sessions_before`, and
        expired throttle counters; how many."""
        ...


def account_store_for(store: object) -> AccountStore:
    """The account store beside a game store: tables in the same SQLite file, or
    collections in the same MongoDB database, with the same write concern."""
    from api.stores.mongo import MongoStore
    from api.stores.mongo_accounts import MongoAccountStore
    from api.stores.sqlite import SqliteStore
    from api.stores.sqlite_accounts import SqliteAccountStore

    if isinstance(store, MongoStore):
        return MongoAccountStore(store.uri, store.write_concern.document.get("w", "majority"))
    if isinstance(store, SqliteStore):
        return SqliteAccountStore(store.path)
    raise TypeError(f"no account store goes with {type(store).__name__}")
