"""Passwords: the rules of a new one (length, weakness, characters), Argon2id with OWASP's
parameters, a rehash when the parameters change, and a check for a name no account has."""

from __future__ import annotations

import unicodedata

import pytest
from argon2 import PasswordHasher, Type
from argon2.profiles import CHEAPEST

from api.accounts.errors import AccountError
from api.accounts.passwords import LONGEST, SHORTEST, Passwords, check_new, owasp_hasher
from domain.errors import ErrorCode

pytestmark = pytest.mark.anyio
GOOD = "a kettle of purple mongooses"


def cheap() -> PasswordHasher:
    return PasswordHasher.from_parameters(CHEAPEST)


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("", ErrorCode.PASSWORD_TOO_SHORT),
        ("x" * (SHORTEST - 1), ErrorCode.PASSWORD_TOO_SHORT),
        ("é" * (LONGEST + 1), ErrorCode.PASSWORD_TOO_LONG),
        ("é" * 10_000, ErrorCode.PASSWORD_TOO_LONG),
        ("password12345678", ErrorCode.PASSWORD_TOO_WEAK),
        ("passwordpassword", ErrorCode.PASSWORD_TOO_WEAK),
        ("aaaaaaaaaaaaaaaaaaaa", ErrorCode.PASSWORD_TOO_WEAK),
        ("qwertyuiop123456", ErrorCode.PASSWORD_TOO_WEAK),
        ("123456789012345", ErrorCode.PASSWORD_TOO_WEAK),
        ("risikorisikorisiko", ErrorCode.PASSWORD_TOO_WEAK),
        ("a kettle of\x00purple mongooses", ErrorCode.INVALID_PASSWORD),
    ],
)
def test_a_new_password_outside_the_rules_is_refused(password: str, code: ErrorCode) -> None:
    with pytest.raises(AccountError) as refused:
        check_new(password)
    assert refused.value.code is code
    assert not password or password not in refused.value.message  # never echoed


def test_the_accounts_own_name_makes_a_password_weak() -> None:
    check_new("ilmiogattomangia")
    with pytest.raises(AccountError) as refused:
        check_new("ilmiogattomangia", ["ilmiogattomangia"])
    assert refused.value.code is ErrorCode.PASSWORD_TOO_WEAK


def test_no_composition_rule_a_long_phrase_of_lower_case_words_will_do() -> None:
    assert check_new(GOOD) == GOOD
    assert check_new("il mio gatto mangia pane") == "il mio gatto mangia pane"


def test_a_password_is_prepared_so_that_two_keyboards_type_one_password() -> None:
    composed = "caffè con la mia nonna"
    assert check_new(unicodedata.normalize("NFD", composed)) == composed
    assert check_new("caffè\u00a0con la mia nonna") == composed  # a no-break space


def test_the_hasher_is_argon2id_with_owasps_parameters() -> None:
    hasher = owasp_hasher()
    assert (hasher.type, hasher.memory_cost, hasher.time_cost, hasher.parallelism) == (
        Type.ID,
        19_456,
        2,
        1,
    )
    assert hasher.hash(GOOD).startswith("$argon2id$v=19$m=19456,t=2,p=1$")


async def test_a_hash_verifies_its_password_only() -> None:
    passwords = Passwords(cheap())
    hashed = await passwords.new_hash(GOOD)
    assert GOOD not in hashed
    assert await passwords.verify(hashed, GOOD) == (True, None)
    assert await passwords.verify(hashed, GOOD + "!") == (False, None)
    assert await passwords.verify(hashed, "") == (False, None)
    assert await passwords.verify(hashed, "\x00") == (False, None)
    assert await passwords.verify(hashed, unicodedata.normalize("NFD", GOOD)) == (True, None)
    passwords.close()


async def test_a_hash_made_with_other_parameters_is_made_again_at_login() -> None:
    old = Passwords(cheap())
    hashed = await old.new_hash(GOOD)
    new = Passwords(PasswordHasher(time_cost=2, memory_cost=1024, parallelism=1))
    right, rehashed = await new.verify(hashed, GOOD)
    assert right
    assert rehashed is not None
    assert "m=1024,t=2,p=1" in rehashed
    assert await new.verify(rehashed, GOOD) == (True, None)
    old.close()
    new.close()


async def test_no_account_checks_a_dummy_hash_and_never_succeeds() -> None:
    passwords = Passwords(cheap())
    assert await passwords.verify(None, GOOD) == (False, None)
    assert await passwords.verify(None, "") == (False, None)
    assert passwords._dummy is not None  # a real hash was checked, for the time it takes
    passwords.close()
