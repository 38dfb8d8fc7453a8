"""What the account commands share (the store, the passwords, the throttle, the clock, the
games' side), and `authenticate`: a bearer token to the principal it stands for.

A credential is judged at every use, from the store as it is then: no instance keeps a
session, a token or an account's state in memory, so a logout, a revocation, a password change,
a disabled or a deleted account holds on every instance from the next request on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from api.accounts.errors import unauthenticated
from api.accounts.passwords import Passwords
from api.accounts.scopes import SESSION_SCOPES, Principal, scopes_of
from api.accounts.throttle import Throttle, ThrottleLimits
from api.accounts.tokens import TokenKind, token_hash, token_kind
from api.stores.accounts import AccountRecord, AccountStore, CredentialRecord

logger = logging.getLogger("risiko.accounts")
DAY = 24 * 3600.0


@dataclass(frozen=True, slots=True)
class AccountLimits:
    session_idle: float = 30 * DAY  # a session unused this long has ended
    session_lifetime: float = 365 * DAY  # and any session this long after its login
    sessions_per_account: int = 50  # past it, the least recently used session ends
    tokens_per_account: int = 50  # API tokens; past it, TOO_MANY_TOKENS
    longest_token_days: int = 366  # an API token's expiry, if it has one
    touch_every: float = 60.0  # a credential's last use is written at most this often
    sweep_every: float = 600.0  # expired credentials and counters are forgotten this often


class AccountGames(Protocol):
    """What the accounts need to know of the games, and tell them: the games half of issue 29
    (seats bound to accounts) answers these; until then no account has played."""

    async def has_played(self, account_id: str) -> bool:
        """Whether the account has sat in a game (a bot account can no longer be made)."""
        ...

    async def account_deleted(self, account_id: str) -> None:
        """The account is gone: its name in the games it played becomes the placeholder
        (`api.accounts.names.PLACEHOLDER`); their logs stay as they are and replay."""
        ...


class NoGamesYet:
    async def has_played(self, account_id: str) -> bool:
        return False

    async def account_deleted(self, account_id: str) -> None:
        return None


@dataclass
class Accounts:
    store: AccountStore
    passwords: Passwords = field(default_factory=Passwords)
    clock: Callable[[], float] = time.time
    games: AccountGames = field(default_factory=NoGamesYet)
    limits: AccountLimits = field(default_factory=AccountLimits)
    throttle_limits: ThrottleLimits = field(default_factory=ThrottleLimits)
    throttle: Throttle = field(init=False)
    _upkeep: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.throttle = Throttle(self.store, self.clock, self.throttle_limits)

    async def authenticate(self, token: str | None) -> Principal:
        """The principal of an account token, as the store has it now; CredentialRefused
        (UNAUTHENTICATED) for no token, a malformed, unknown, revoked or expired one, or
        one whose account is disabled or deleted."""
        kind = token_kind(token or "")
        if token is None or kind is None:
            raise unauthenticated("this needs an account's token (a session or an API token)")
        hashed = token_hash(token)
        found = await self.store.credential(hashed)
        if found is None or not secrets.compare_digest(found[0].token_hash, hashed):
            raise unauthenticated("this token is not valid: revoked, ended or never issued")
        credential, account = found
        now = self.clock()
        if credential.kind != kind.value or self._expired(credential, now):
            raise unauthenticated("this token has expired")
        if account.deleted or account.disabled:
            raise unauthenticated("this token's account is disabled or deleted")
        if now - credential.last_used_at >= self.limits.touch_every:
            await self.store.touch_credential(credential.id, now)
        return principal_of(account, credential)

    def _expired(self, credential: CredentialRecord, now: float) -> bool:
        if credential.expires_at is not None and now >= credential.expires_at:
            return True
        idle = now - credential.last_used_at
        return credential.kind == TokenKind.SESSION.value and idle >= self.limits.session_idle

    async def sweep(self) -> int:
        """Forget expired credentials and throttle counters."""
        now = self.clock()
        return await self.store.sweep(now, now - self.limits.session_idle)

    async def start(self) -> None:
        """Open the store, and sweep it every `sweep_every` seconds until `stop`."""
        await self.store.open()
        self._upkeep = asyncio.create_task(self._sweep_now_and_then())

    async def stop(self) -> None:
        if self._upkeep is not None:
            self._upkeep.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._upkeep
        self.close()
        await self.store.close()

    async def _sweep_now_and_then(self) -> None:
        """Each instance sweeps; a sweep deletes what has expired, so two at once do no harm."""
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            try:
                await self.sweep()
            except Exception:  # the store may be down a while; next time
                logger.exception("could not forget expired credentials")

    def close(self) -> None:
        self.passwords.close()


def principal_of(account: AccountRecord, credential: CredentialRecord) -> Principal:
    kind = TokenKind(credential.kind)
    scopes = SESSION_SCOPES if kind is TokenKind.SESSION else scopes_of(credential.scopes)
    return Principal(account.id, account.name, account.bot, kind, credential.id, scopes)
