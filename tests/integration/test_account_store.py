"""The account store's contract, written once and run against both adapters (SQLite and the
real MongoDB process of tests/mongo_server.py): unique names, two instances racing to
register one name, credentials and their revocation seen by another instance at once,
compare-and-set of the throttle's counters, the sweep."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from api.accounts.errors import AccountError
from api.accounts.service import Accounts
from api.accounts.throttle import FREE_FAILURES, Throttle
from api.stores.accounts import AccountRecord, AccountStore, CredentialRecord, NameTaken
from api.stores.mongo_accounts import MongoAccountStore
from api.stores.sqlite_accounts import SqliteAccountStore
from domain.errors import ErrorCode

pytestmark = pytest.mark.anyio

Make = Callable[[], AccountStore]


@pytest.fixture(params=["sqlite", "mongo"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Make:
    """How to open another store object (another instance) on the same data."""
    if request.param == "sqlite":
        return lambda: SqliteAccountStore(tmp_path / "data" / "risiko.sqlite3")
    uri: str = request.getfixturevalue("mongo_uri")
    return lambda: MongoAccountStore(uri)


@pytest.fixture
async def stores(make: Make) -> AsyncIterator[tuple[AccountStore, AccountStore]]:
    """Two instances on one database."""
    first, second = make(), make()
    await first.open()
    await second.open()
    yield first, second
    await first.close()
    await second.close()


def account(key: str, **changes: object) -> AccountRecord:
    record = AccountRecord(uuid.uuid4().hex, key.title(), key, "$argon2id$hash", 1000.0)
    return replace(record, **changes)  # type: ignore[arg-type]


def credential(account_id: str, kind: str = "session", **changes: object) -> CredentialRecord:
    record = CredentialRecord(
        id=uuid.uuid4().hex[:16],
        token_hash=uuid.uuid4().hex * 2,
        account_id=account_id,
        kind=kind,
        name="" if kind == "session" else "bot",
        scopes=() if kind == "session" else ("games:read", "games:play"),
        created_at=1000.0,
        last_used_at=1000.0,
        expires_at=None,
    )
    return replace(record, **changes)  # type: ignore[arg-type]


async def test_an_account_is_found_by_id_and_key_and_its_key_is_unique(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    store, other = stores
    ada = account("ada", bot=True)
    await store.create_account(ada)
    assert await other.account(ada.id) == ada
    assert await other.account_by_key("ada") == ada
    assert await other.account_by_key("bob") is None
    with pytest.raises(NameTaken):
        await other.create_account(account("ada"))
    with pytest.raises(NameTaken):
        await other.create_account(account("eve", id=ada.id))
    assert await store.account_by_key("eve") is None


async def test_two_instances_racing_to_register_a_name_exactly_one_wins(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    first, second = stores
    for round_ in range(10):
        key = f"racer{round_}"
        attempts = [account(key), account(key), account(key), account(key)]
        outcomes = await asyncio.gather(
            *(
                (first if n % 2 else second).create_account(attempt)
                for n, attempt in enumerate(attempts)
            ),
            return_exceptions=True,
        )
        assert sum(outcome is None for outcome in outcomes) == 1, outcomes
        assert all(o is None or isinstance(o, NameTaken) for o in outcomes)
        winner = attempts[outcomes.index(None)]
        assert await first.account_by_key(key) == winner == await second.account_by_key(key)


async def test_accounts_are_listed_by_key_a_page_at_a_time(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    store, _ = stores
    for key in ("carla", "ada", "bruno", "dario"):
        await store.create_account(account(key))
    assert [a.key for a in await store.accounts(None, 3)] == ["ada", "bruno", "carla"]
    assert [a.key for a in await store.accounts("carla", 3)] == ["dario"]
    assert await store.accounts("dario", 3) == []


async def test_an_account_is_replaced_and_a_tombstone_keeps_its_key(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    store, other = stores
    ada = account("ada")
    await store.create_account(ada)
    tombstone = replace(ada, name="", password_hash=None, deleted_at=2000.0, disabled=True)
    assert await store.replace_account(tombstone, ada)
    assert await other.account(ada.id) == tombstone
    assert (await other.account(ada.id)).deleted  # type: ignore[union-attr]
    with pytest.raises(NameTaken):
        await other.create_account(account("ada"))
    nobody = account("nobody")
    assert not await store.replace_account(nobody, nobody)
    assert not await store.replace_account(replace(ada, id=nobody.id), ada)
    assert await other.account(ada.id) == tombstone


async def test_two_changes_of_one_account_at_once_never_undo_one_another(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    """Compare-and-set: a change made from a stale read (a login's rehash of the old
    password, racing a password change) is refused, not written over the other."""
    store, other = stores
    ada = account("ada")
    await store.create_account(ada)
    new_password = replace(ada, password_hash="$argon2id$new")
    rehash_of_old = replace(ada, password_hash="$argon2id$old-rehashed")
    assert await other.replace_account(new_password, ada)
    assert not await store.replace_account(rehash_of_old, ada)
    assert not await store.replace_account(replace(ada, bot=True), ada)
    assert await store.account(ada.id) == new_password
    assert await store.replace_account(replace(new_password, bot=True), new_password)
    assert await other.account(ada.id) == replace(new_password, bot=True)


async def test_a_credential_is_found_with_its_account_and_revoked_everywhere_at_once(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    store, other = stores
    ada, bob = account("ada"), account("bob")
    await store.create_account(ada)
    await store.create_account(bob)
    first = credential(ada.id, created_at=1.0)
    second = credential(ada.id, created_at=2.0)
    token = credential(ada.id, "api", expires_at=5000.0)
    bobs = credential(bob.id)
    for record in (second, first, token, bobs):
        await store.add_credential(record)
    assert await other.credential(token.token_hash) == (token, ada)
    assert await other.credential("0" * 64) is None
    assert await other.credentials(ada.id, "session") == [first, second]
    assert await other.credentials(ada.id, "api") == [token]
    assert await store.delete_credentials(ada.id, ids=[bobs.id]) == 0  # not ada's
    assert await store.delete_credentials(ada.id, kind="session", keep=second.id) == 1
    assert await other.credential(first.token_hash) is None
    assert await other.credential(second.token_hash) == (second, ada)
    assert await store.delete_credentials(ada.id, kind="session", ids=[token.id]) == 0
    assert await store.delete_credentials(ada.id, ids=[token.id, second.id]) == 2
    assert await other.credentials(ada.id, "api") == []
    assert await other.credential(bobs.token_hash) == (bobs, bob)
    assert await store.delete_credentials(bob.id) == 1


async def test_a_credentials_last_use_only_moves_forward(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    store, other = stores
    ada = account("ada")
    await store.create_account(ada)
    session = credential(ada.id)
    await store.add_credential(session)
    await store.touch_credential(session.id, 1100.0)
    await other.touch_credential(session.id, 1050.0)
    found = await other.credential(session.token_hash)
    assert found is not None
    assert found[0].last_used_at == 1100.0


async def test_throttle_counters_change_by_compare_and_set(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    store, other = stores
    assert await store.throttle("k") is None
    assert await store.put_throttle("k", {"tat": 1.0}, 0, 10.0)
    assert not await other.put_throttle("k", {"tat": 2.0}, 0, 10.0)  # not new any more
    assert await other.throttle("k") == ({"tat": 1.0}, 1)
    assert await other.put_throttle("k", {"tat": 3.0}, 1, 10.0)
    assert not await store.put_throttle("k", {"tat": 4.0}, 1, 10.0)  # stale version
    assert await store.throttle("k") == ({"tat": 3.0}, 2)
    assert not await store.put_throttle("k", None, 1, 10.0)
    assert await store.put_throttle("k", None, 2, 10.0)
    assert await other.throttle("k") is None


async def test_attempts_made_at_once_on_two_instances_are_all_counted(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    """Thirty logins to one name from one address at the same moment, half on each instance:
    the pair's free failures are let through, not one more."""
    now = 5000.0
    throttles = [Throttle(store, lambda: now) for store in stores]
    outcomes = await asyncio.gather(
        *(throttles[n % 2].password_attempt("ada", "192.0.2.1") for n in range(30)),
        return_exceptions=True,
    )
    assert sum(outcome is None for outcome in outcomes) == FREE_FAILURES
    for outcome in outcomes:
        assert outcome is None or isinstance(outcome, AccountError)
        assert outcome is None or outcome.code is ErrorCode.RATE_LIMITED


async def test_the_sweep_forgets_expired_credentials_idle_sessions_and_counters(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    store, other = stores
    ada = account("ada")
    await store.create_account(ada)
    idle = credential(ada.id, last_used_at=100.0)
    fresh = credential(ada.id, last_used_at=900.0)
    expired = credential(ada.id, "api", expires_at=500.0)
    lasting = credential(ada.id, "api", last_used_at=1.0)  # an API token never idles out
    for record in (idle, fresh, expired, lasting):
        await store.add_credential(record)
    await store.put_throttle("old", {"tat": 1.0}, 0, 600.0)
    await store.put_throttle("new", {"tat": 1.0}, 0, 2000.0)
    assert await other.sweep(now=1000.0, idle_sessions_before=500.0) == 3
    assert await store.credentials(ada.id, "session") == [fresh]
    assert await store.credentials(ada.id, "api") == [lasting]
    assert await store.throttle("old") is None
    assert await store.throttle("new") is not None


async def test_what_is_written_outlives_the_store_object(make: Make) -> None:
    store = make()
    await store.open()
    ada = account("ada")
    session = credential(ada.id)
    await store.create_account(ada)
    await store.add_credential(session)
    await store.close()
    again = make()
    await again.open()
    assert await again.credential(session.token_hash) == (session, ada)
    await again.close()


async def test_the_service_sees_a_revocation_made_by_another_instance(make: Make) -> None:
    """No instance keeps a credential in memory: one logged out on an instance is refused on
    the other at its next use."""
    from api.accounts import handlers
    from api.accounts.commands import LogIn, LogOut, Register
    from api.accounts.errors import CredentialRefused
    from api.accounts.passwords import Passwords
    from tests.unit.test_account_passwords import cheap

    first, second = make(), make()
    await first.open()
    await second.open()
    one = Accounts(first, Passwords(cheap()))
    two = Accounts(second, Passwords(cheap()))
    await handlers.register(one, Register("ada", "a kettle of purple mongooses", "192.0.2.1"))
    session = await handlers.log_in(two, LogIn("ADA", "a kettle of purple mongooses", None))
    principal = await one.authenticate(session.token)
    assert principal.name == "ada"
    await handlers.log_out(two, LogOut(principal))
    with pytest.raises(CredentialRefused):
        await one.authenticate(session.token)
    for accounts in (one, two):
        accounts.close()
    await first.close()
    await second.close()
