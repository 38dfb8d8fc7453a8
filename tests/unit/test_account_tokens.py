"""Account tokens: their kinds tell at a glance, a scanner finds them, a checksum refuses a
mistyped one; scopes, and the throttle's rules with their numbers."""

from __future__ import annotations

import secrets

import pytest

from api.accounts.errors import CredentialRefused
from api.accounts.scopes import SESSION_SCOPES, Principal, Scope, scopes_of
from api.accounts.throttle import (
    LONGEST_WAIT,
    Rate,
    address_key,
    pair_succeeded,
    pair_try,
    pair_wait,
    take,
)
from api.accounts.tokens import (
    LENGTH,
    SCANNER_PATTERN,
    TokenKind,
    new_token,
    token_hash,
    token_kind,
)


@pytest.mark.parametrize(("kind", "prefix"), [(TokenKind.SESSION, "rks_"), (TokenKind.API, "rkp_")])
def test_a_token_says_its_kind_and_is_found_by_a_scanner(kind: TokenKind, prefix: str) -> None:
    token = new_token(kind)
    assert token.startswith(prefix)
    assert len(token) == LENGTH == 40
    assert token_kind(token) is kind
    assert SCANNER_PATTERN.findall(f"log line with {token} in it") == [token]


def test_tokens_differ_and_are_kept_as_their_sha256() -> None:
    tokens = {new_token(TokenKind.API) for _ in range(200)}
    assert len(tokens) == 200
    token = tokens.pop()
    assert len(token_hash(token)) == 64
    assert token not in token_hash(token)


def test_a_mistyped_made_up_or_seat_token_is_no_account_token() -> None:
    token = new_token(TokenKind.SESSION)
    typo = token[:10] + ("A" if token[10] != "A" else "B") + token[11:]
    assert token_kind(typo) is None
    assert token_kind(token[:-1]) is None
    assert token_kind(token + "x") is None
    assert token_kind("rks_" + "0" * 36) is None
    assert token_kind("rkx_" + token[4:]) is None
    assert token_kind(secrets.token_urlsafe(32)) is None  # a game's seat token
    assert token_kind("") is None
    assert SCANNER_PATTERN.search(secrets.token_urlsafe(32)) is None


def test_sessions_carry_every_scope_and_unknown_stored_scopes_are_never_granted() -> None:
    assert frozenset(Scope) == SESSION_SCOPES
    assert scopes_of(["games:read", "games:fly", "account:manage"]) == {
        Scope.GAMES_READ,
        Scope.ACCOUNT_MANAGE,
    }
    assert scopes_of("games:read") == frozenset()


def test_an_operation_outside_the_scopes_is_forbidden_naming_the_scope() -> None:
    principal = Principal("a", "ada", False, TokenKind.API, "t", frozenset({Scope.GAMES_READ}))
    principal.require(Scope.GAMES_READ)
    with pytest.raises(CredentialRefused) as refused:
        principal.require(Scope.GAMES_PLAY)
    assert (refused.value.code, refused.value.scope) == ("FORBIDDEN", "GAMES_PLAY")


def test_a_bucket_gives_its_burst_then_one_per_interval() -> None:
    rate = Rate(burst=3, every=10.0)
    state = None
    for _ in range(3):
        state, _, wait = take(state, 100.0, rate)
        assert wait is None
    unchanged, _, wait = take(state, 100.0, rate)
    assert unchanged == state
    assert wait == pytest.approx(10.0)
    assert take(state, 105.0, rate)[2] == pytest.approx(5.0)
    assert take(state, 110.0, rate)[2] is None
    assert take(state, 130.0, rate)[2] is None
    state, forget_at, _ = take(None, 100.0, rate)
    assert forget_at == 110.0  # an empty bucket's state is worth nothing after that


def test_a_pair_fails_five_times_freely_then_waits_twice_as_long_each_time() -> None:
    assert [pair_wait(n) for n in range(1, 10)] == [0, 0, 0, 0, 2, 4, 8, 16, 32]
    assert pair_wait(40) == LONGEST_WAIT == 900
    state = None
    now = 1000.0
    for _ in range(5):
        state, _, wait = pair_try(state, now)
        assert wait is None
    assert state is not None
    assert state["failures"] == 5
    assert pair_try(state, now + 1)[2] == pytest.approx(1.0)
    state, _, wait = pair_try(state, now + 2)
    assert wait is None
    assert state is not None
    assert state["failures"] == 6
    assert pair_try(state, now + 5)[2] == pytest.approx(1.0)  # 4 s after the 6th
    forgotten, _, wait = pair_try(state, now + 2 + 24 * 3600 + 1)
    assert wait is None
    assert forgotten is not None
    assert forgotten["failures"] == 1


def test_a_success_forgets_the_failures_and_knows_the_address_for_30_days() -> None:
    state, forget_at, _ = pair_succeeded({"failures": 9, "last": 10.0}, 100.0)
    assert state == {"failures": 0, "last": 100.0, "known_until": 100.0 + 30 * 24 * 3600}
    assert forget_at == state["known_until"]
    assert pair_try(state, 101.0)[2] is None


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
        (None, "unknown"),
        ("testclient", "testclient"),
    ],
)
def test_an_ipv6_address_counts_by_its_64(address: str | None, key: str) -> None:
    assert address_key(address) == key
