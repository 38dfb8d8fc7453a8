"""The account commands on a real store, with a clock the tests move: what each does and
refuses (nothing changed), sessions and tokens, their expiry, and the throttle's numbers."""

from __future__ import annotations

import statistics
import time
import unicodedata
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from api.accounts import handlers, operator
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
from api.accounts.errors import AccountError, CredentialRefused
from api.accounts.passwords import Passwords
from api.accounts.scopes import Principal, Scope
from api.accounts.service import DAY, Accounts
from api.accounts.tokens import TokenKind
from api.stores.sqlite_accounts import SqliteAccountStore
from domain.errors import ErrorCode
from tests.unit.test_account_passwords import cheap

pytestmark = pytest.mark.anyio
PASSWORD = "a kettle of purple mongooses"
OTHER = "seven lazy otters at noon"
HOME = "192.0.2.1"


@dataclass
class Clock:
    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def accounts(tmp_path: Path) -> AsyncIterator[Accounts]:
    store = SqliteAccountStore(tmp_path / "risiko.sqlite3")
    await store.open()
    made = Accounts(store, Passwords(cheap()), clock=Clock())
    yield made
    made.close()
    await store.close()


def clock(accounts: Accounts) -> Clock:
    assert isinstance(accounts.clock, Clock)
    return accounts.clock


async def refused(code: ErrorCode, work: object) -> AccountError:
    with pytest.raises(AccountError) as error:
        await work  # type: ignore[misc]
    assert error.value.code is code, error.value.message
    return error.value


async def register(accounts: Accounts, name: str = "Ada", address: str = HOME) -> LoggedIn:
    return await handlers.register(accounts, Register(name, PASSWORD, address))


async def session_of(accounts: Accounts, logged_in: LoggedIn) -> Principal:
    return await accounts.authenticate(logged_in.token)


async def test_registering_makes_an_account_and_a_session(accounts: Accounts) -> None:
    made = await register(accounts)
    assert made.token.startswith("rks_")
    principal = await session_of(accounts, made)
    assert (principal.name, principal.bot, principal.kind) == ("Ada", False, TokenKind.SESSION)
    assert principal.scopes == frozenset(Scope)
    stored = await accounts.store.account(principal.account_id)
    assert stored is not None
    assert PASSWORD not in (stored.password_hash or "")


@pytest.mark.parametrize("again", ["ada", "ADA", "\uff21\uff24\uff21", "Ada "])
async def test_a_name_differing_in_case_width_or_form_is_taken(
    accounts: Accounts, again: str
) -> None:
    await register(accounts)
    await refused(ErrorCode.NAME_TAKEN, register(accounts, again))
    await register(accounts, unicodedata.normalize("NFD", "Nicolò"))
    await refused(ErrorCode.NAME_TAKEN, register(accounts, "NICOLÒ"))


async def test_a_refused_registration_stores_nothing(accounts: Accounts) -> None:
    for name, password, code in [
        ("admin", PASSWORD, ErrorCode.NAME_RESERVED),
        ("a b", PASSWORD, ErrorCode.INVALID_NAME),
        ("Ada", "short", ErrorCode.PASSWORD_TOO_SHORT),
        ("Ada", "x" * 129, ErrorCode.PASSWORD_TOO_LONG),
        ("Ada", "password12345678", ErrorCode.PASSWORD_TOO_WEAK),
        ("Ada", "adaadaadaadaadaada", ErrorCode.PASSWORD_TOO_WEAK),
    ]:
        await refused(code, handlers.register(accounts, Register(name, password, HOME)))
    assert await accounts.store.accounts(None, 10) == []


async def test_a_wrong_password_and_an_unknown_name_get_one_answer(accounts: Accounts) -> None:
    await register(accounts)
    wrong = await refused(
        ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn("Ada", OTHER, HOME))
    )
    unknown = await refused(
        ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn("Bob", PASSWORD, HOME))
    )
    malformed = await refused(
        ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn("a b\x00", "", HOME))
    )
    assert wrong.message == unknown.message == malformed.message
    assert (await handlers.log_in(accounts, LogIn("ada", PASSWORD, HOME))).token


async def test_a_disabled_account_cannot_log_in_nor_use_its_credentials(
    accounts: Accounts,
) -> None:
    made = await register(accounts)
    await operator.set_disabled(accounts, "ada", True)
    with pytest.raises(CredentialRefused):
        await session_of(accounts, made)
    await refused(ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn("Ada", OTHER, HOME)))
    await refused(
        ErrorCode.ACCOUNT_DISABLED, handlers.log_in(accounts, LogIn("Ada", PASSWORD, HOME))
    )
    await operator.set_disabled(accounts, "ada", False)
    assert (await session_of(accounts, made)).name == "Ada"


async def test_logging_out_ends_this_credential_or_every_session(accounts: Accounts) -> None:
    first = await register(accounts)
    second = await handlers.log_in(accounts, LogIn("Ada", PASSWORD, HOME))
    third = await handlers.log_in(accounts, LogIn("Ada", PASSWORD, HOME))
    assert await handlers.log_out(accounts, LogOut(await session_of(accounts, first))) == 1
    with pytest.raises(CredentialRefused):
        await session_of(accounts, first)
    assert (await session_of(accounts, second)).name == "Ada"
    everywhere = LogOut(await session_of(accounts, second), everywhere=True)
    assert await handlers.log_out(accounts, everywhere) == 2
    with pytest.raises(CredentialRefused):
        await session_of(accounts, third)


async def test_changing_the_password_ends_every_other_session(accounts: Accounts) -> None:
    here = await register(accounts)
    elsewhere = await handlers.log_in(accounts, LogIn("Ada", PASSWORD, HOME))
    principal = await session_of(accounts, here)
    token = await handlers.create_api_token(
        accounts, CreateApiToken(principal, "bot", [Scope.GAMES_PLAY])
    )
    await refused(
        ErrorCode.WRONG_PASSWORD,
        handlers.change_password(accounts, ChangePassword(principal, OTHER, OTHER, HOME)),
    )
    await refused(
        ErrorCode.PASSWORD_TOO_WEAK,
        handlers.change_password(
            accounts, ChangePassword(principal, PASSWORD, "password12345678", HOME)
        ),
    )
    change = ChangePassword(principal, PASSWORD, OTHER, HOME)
    assert await handlers.change_password(accounts, change) == 1
    assert (await session_of(accounts, here)).name == "Ada"
    with pytest.raises(CredentialRefused):
        await accounts.authenticate(elsewhere.token)
    assert (await accounts.authenticate(token.token)).kind is TokenKind.API  # kept
    await refused(ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn("Ada", PASSWORD, HOME)))
    again = ChangePassword(principal, OTHER, PASSWORD, HOME, end_api_tokens=True)
    assert await handlers.change_password(accounts, again) == 1
    with pytest.raises(CredentialRefused):
        await accounts.authenticate(token.token)


async def test_a_deleted_accounts_credentials_end_and_its_name_stays_taken(
    accounts: Accounts,
) -> None:
    made = await register(accounts)
    principal = await session_of(accounts, made)
    token = await handlers.create_api_token(
        accounts, CreateApiToken(principal, "bot", [Scope.GAMES_READ])
    )
    await refused(
        ErrorCode.WRONG_PASSWORD,
        handlers.delete_account(accounts, DeleteAccount(principal, OTHER, HOME)),
    )
    await handlers.delete_account(accounts, DeleteAccount(principal, PASSWORD, HOME))
    for credential in (made.token, token.token):
        with pytest.raises(CredentialRefused):
            await accounts.authenticate(credential)
    await refused(ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn("Ada", PASSWORD, HOME)))
    await refused(ErrorCode.NAME_TAKEN, register(accounts, "ADA"))
    stored = await accounts.store.account(principal.account_id)
    assert stored is not None
    assert (stored.name, stored.password_hash) == ("", None)


async def test_an_account_becomes_a_bot_for_good_before_it_has_played(
    accounts: Accounts,
) -> None:
    principal = await session_of(accounts, await register(accounts))
    assert (await handlers.become_bot(accounts, BecomeBot(principal))).bot
    assert (await handlers.become_bot(accounts, BecomeBot(principal))).bot  # already one
    assert (await handlers.log_in(accounts, LogIn("Ada", PASSWORD, HOME))).account.bot

    class Played:
        async def has_played(self, account_id: str) -> bool:
            return True

        async def account_deleted(self, account_id: str) -> None:
            return None

    accounts.games = Played()
    veteran = await session_of(accounts, await register(accounts, "Bob"))
    await refused(ErrorCode.ALREADY_PLAYED, handlers.become_bot(accounts, BecomeBot(veteran)))


async def test_an_api_token_has_its_scopes_and_makes_none_wider(accounts: Accounts) -> None:
    session = await session_of(accounts, await register(accounts))
    made = await handlers.create_api_token(
        accounts,
        CreateApiToken(session, " my bot ", [Scope.GAMES_PLAY, Scope.ACCOUNT_MANAGE], 30),
    )
    assert made.token.startswith("rkp_")
    assert made.credential.name == "my bot"
    assert made.credential.expires_at == clock(accounts).now + 30 * DAY
    token = await accounts.authenticate(made.token)
    assert token.scopes == {Scope.GAMES_PLAY, Scope.ACCOUNT_MANAGE}
    with pytest.raises(CredentialRefused) as forbidden:
        await handlers.create_api_token(
            accounts, CreateApiToken(token, "wider", [Scope.GAMES_PLAY, Scope.GAMES_CREATE])
        )
    assert (forbidden.value.code, forbidden.value.scope) == ("FORBIDDEN", "GAMES_CREATE")
    clock(accounts).now += 1
    narrower = await handlers.create_api_token(
        accounts, CreateApiToken(token, "narrower", [Scope.GAMES_PLAY])
    )
    reader = await accounts.authenticate(narrower.token)
    with pytest.raises(CredentialRefused) as forbidden:
        await handlers.api_tokens(accounts, reader)
    assert forbidden.value.scope == "ACCOUNT_MANAGE"
    listed = await handlers.api_tokens(accounts, session)
    assert [t.name for t in listed] == ["my bot", "narrower"]


async def test_a_refused_token_is_not_made(accounts: Accounts) -> None:
    session = await session_of(accounts, await register(accounts))
    for name, scopes, days, code in [
        ("x", [], None, ErrorCode.INVALID_SCOPES),
        ("", [Scope.GAMES_READ], None, ErrorCode.INVALID_NAME),
        ("x" * 41, [Scope.GAMES_READ], None, ErrorCode.INVALID_NAME),
        ("x", [Scope.GAMES_READ], 0, ErrorCode.INVALID_EXPIRY),
        ("x", [Scope.GAMES_READ], 367, ErrorCode.INVALID_EXPIRY),
    ]:
        command = CreateApiToken(session, name, scopes, days)
        await refused(code, handlers.create_api_token(accounts, command))
    assert await handlers.api_tokens(accounts, session) == []


async def test_an_account_holds_a_bounded_number_of_tokens_and_sessions(
    accounts: Accounts,
) -> None:
    first = await register(accounts)
    session = await session_of(accounts, first)
    limit = accounts.limits.tokens_per_account
    for n in range(limit):
        await handlers.create_api_token(
            accounts, CreateApiToken(session, f"t{n}", [Scope.GAMES_READ])
        )
    await refused(
        ErrorCode.TOO_MANY_TOKENS,
        handlers.create_api_token(
            accounts, CreateApiToken(session, "one more", [Scope.GAMES_READ])
        ),
    )
    for n in range(accounts.limits.sessions_per_account):
        clock(accounts).now += 10  # from new addresses: one a name's bucket gives every 10 s
        await handlers.log_in(accounts, LogIn("Ada", PASSWORD, f"198.51.100.{n}"))
    with pytest.raises(CredentialRefused):  # the least recently used ended
        await session_of(accounts, first)
    sessions = await accounts.store.credentials(session.account_id, "session")
    assert len(sessions) == accounts.limits.sessions_per_account


async def test_a_revoked_token_is_refused_at_once(accounts: Accounts) -> None:
    session = await session_of(accounts, await register(accounts))
    made = await handlers.create_api_token(
        accounts, CreateApiToken(session, "bot", [Scope.GAMES_PLAY])
    )
    await refused(
        ErrorCode.TOKEN_NOT_FOUND,
        handlers.revoke_api_token(accounts, RevokeApiToken(session, "nope")),
    )
    await refused(  # a session is not revoked as a token: logOut ends it
        ErrorCode.TOKEN_NOT_FOUND,
        handlers.revoke_api_token(accounts, RevokeApiToken(session, session.credential_id)),
    )
    await handlers.revoke_api_token(accounts, RevokeApiToken(session, made.credential.id))
    with pytest.raises(CredentialRefused):
        await accounts.authenticate(made.token)


async def test_tokens_expire_and_sessions_end_when_idle(accounts: Accounts) -> None:
    made = await register(accounts)
    session = await session_of(accounts, made)
    token = await handlers.create_api_token(
        accounts, CreateApiToken(session, "bot", [Scope.GAMES_READ], 2)
    )
    forever = await handlers.create_api_token(
        accounts, CreateApiToken(session, "f", [Scope.GAMES_READ])
    )
    clock(accounts).now += 2 * DAY - 1
    await accounts.authenticate(token.token)
    clock(accounts).now += 1
    with pytest.raises(CredentialRefused, match="expired"):
        await accounts.authenticate(token.token)
    clock(accounts).now += 29 * DAY  # the session was last used 31 days ago
    with pytest.raises(CredentialRefused, match="expired"):
        await session_of(accounts, made)
    assert (await accounts.authenticate(forever.token)).kind is TokenKind.API
    await accounts.sweep()
    assert await accounts.store.credentials(session.account_id, "session") == []
    assert [t.name for t in await accounts.store.credentials(session.account_id, "api")] == ["f"]


async def test_a_credentials_last_use_is_written_at_most_once_a_minute(
    accounts: Accounts,
) -> None:
    made = await register(accounts)
    start = clock(accounts).now
    for seconds in (10, 59, 60, 61, 119, 121):
        clock(accounts).now = start + seconds
        await session_of(accounts, made)
    found = await accounts.store.credential(made.credential.token_hash)
    assert found is not None
    assert found[0].last_used_at == start + 121
    clock(accounts).now = start + 150
    await session_of(accounts, made)
    found = await accounts.store.credential(made.credential.token_hash)
    assert found is not None
    assert found[0].last_used_at == start + 121


async def test_a_login_remakes_a_hash_of_older_parameters(accounts: Accounts) -> None:
    made = await register(accounts)
    old = (await accounts.store.account(made.account.id)).password_hash  # type: ignore[union-attr]
    from argon2 import PasswordHasher

    accounts.passwords.close()
    accounts.passwords = Passwords(PasswordHasher(time_cost=1, memory_cost=2048, parallelism=1))
    await handlers.log_in(accounts, LogIn("Ada", PASSWORD, HOME))
    new = (await accounts.store.account(made.account.id)).password_hash  # type: ignore[union-attr]
    assert old != new
    assert new is not None
    assert "m=2048,t=1,p=1" in new


async def test_failed_logins_back_off_per_address_and_never_lock_out_a_known_one(
    accounts: Accounts,
) -> None:
    await register(accounts)
    attacker = "203.0.113.9"
    for _ in range(5):
        await refused(
            ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn("Ada", OTHER, attacker))
        )
    waiting = await refused(
        ErrorCode.RATE_LIMITED, handlers.log_in(accounts, LogIn("Ada", PASSWORD, attacker))
    )
    assert waiting.retry_after == 2
    # Not from the owner's address, nor from a new one.
    assert await handlers.log_in(accounts, LogIn("Ada", PASSWORD, HOME))
    assert await handlers.log_in(accounts, LogIn("Ada", PASSWORD, "198.51.100.7"))
    clock(accounts).now += 2
    await refused(ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn("Ada", OTHER, attacker)))
    waiting = await refused(
        ErrorCode.RATE_LIMITED, handlers.log_in(accounts, LogIn("Ada", OTHER, attacker))
    )
    assert waiting.retry_after == 4


async def test_a_name_hammered_from_many_addresses_slows_only_new_addresses(
    accounts: Accounts,
) -> None:
    await register(accounts)
    for n in range(20):
        await refused(
            ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn("Ada", OTHER, f"203.0.113.{n}"))
        )
    waiting = await refused(
        ErrorCode.RATE_LIMITED, handlers.log_in(accounts, LogIn("Ada", PASSWORD, "198.51.100.1"))
    )
    assert waiting.retry_after == 10
    assert await handlers.log_in(accounts, LogIn("Ada", PASSWORD, HOME))  # registered there
    clock(accounts).now += 10
    assert await handlers.log_in(accounts, LogIn("Ada", PASSWORD, "198.51.100.1"))


async def test_an_unknown_name_is_throttled_as_a_known_one(accounts: Accounts) -> None:
    for _ in range(5):
        await refused(ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn("Bob", OTHER, HOME)))
    await refused(ErrorCode.RATE_LIMITED, handlers.log_in(accounts, LogIn("Bob", OTHER, HOME)))


async def test_one_address_tries_at_most_20_logins_at_once(accounts: Accounts) -> None:
    for n in range(20):
        await refused(
            ErrorCode.LOGIN_FAILED, handlers.log_in(accounts, LogIn(f"user{n}", OTHER, HOME))
        )
    waiting = await refused(
        ErrorCode.RATE_LIMITED, handlers.log_in(accounts, LogIn("user99", OTHER, HOME))
    )
    assert waiting.retry_after == 3


async def test_registrations_per_address_are_bounded(accounts: Accounts) -> None:
    for n in range(10):
        await register(accounts, f"player{n}")
    waiting = await refused(ErrorCode.RATE_LIMITED, register(accounts, "player10"))
    assert waiting.retry_after == 360
    await register(accounts, "player10", "198.51.100.1")


async def test_a_wrong_password_and_an_unknown_name_take_about_as_long(
    accounts: Accounts,
) -> None:
    """With the server's own Argon2id parameters: an unknown name is checked against a
    dummy hash, so that the time of an answer does not tell whether the name exists."""
    accounts.passwords.close()
    accounts.passwords = Passwords()
    await register(accounts)
    times: dict[str, list[float]] = {"Ada": [], "Nobody": []}
    for n in range(8):
        for name in times:
            started = time.perf_counter()
            await refused(
                ErrorCode.LOGIN_FAILED,
                handlers.log_in(accounts, LogIn(name, OTHER, f"198.51.100.{n}")),
            )
            times[name].append(time.perf_counter() - started)
    known, unknown = (statistics.median(times[name]) for name in times)
    assert 0.5 < unknown / known < 2.0, (known, unknown)
    assert unknown > 0.005  # a hash was checked: Argon2id with 19 MiB takes milliseconds
