"""How often a login (or any check of a password) and a registration may be tried.

The counters live in the account store, so that every instance sharing it counts the same
attempts: an attacker gains nothing by spreading its tries over instances. Each counter is
changed by compare-and-set (read, decide, write if unchanged since the read), so attempts
made at once, on one instance or several, are all counted.

The rules, for a login to the name N from the address A (an IPv6 address counts by its /64,
which one subscriber usually holds whole):

1. A, whatever the name: 20 attempts at once, then one more every 3 s (a token bucket, as
   GCRA keeps it). It bounds one address trying many names (credential stuffing).
2. The pair (N, A): 5 failures in a row are free; after the n-th (n >= 5) the pair waits
   2^(n-4) s before its next try, at most 15 min (2, 4, 8 s, ... ). A success resets it; a
   pair that has not failed for 24 hours starts again. It bounds one address guessing one
   password, and never touches the owner's own addresses.
3. N, from addresses it has not logged in from in the last 30 days: 20 attempts at once,
   then one every 10 s: at most 8,640 guesses a day at a password however many addresses an
   attacker has, where the weakest password a player may choose takes about a million. An
   address the account logged in from in the last 30 days is exempt from this rule (it still
   has its own pair's), so an attacker hammering a name cannot keep its owner out: from a
   known address not at all, from a new one for at most 10 s after the attacker's last try.

Attempts are counted before the password is checked (a burst of them in parallel is counted
whole), and an unknown name is counted exactly as a known one, so the counters say nothing
of which names exist. Registrations: 10 per address at once, then one every 6 minutes.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from api.accounts.errors import AccountError
from api.stores.accounts import AccountStore, ThrottleState
from domain.errors import ErrorCode

R = TypeVar("R")
DAY = 24 * 3600.0
KNOWN_FOR = 30 * DAY
FORGET_FAILURES_AFTER = DAY
FREE_FAILURES = 5
LONGEST_WAIT = 15 * 60.0
CAS_ATTEMPTS = 8


@dataclass(frozen=True, slots=True)
class Rate:
    """A token bucket: `burst` attempts at once, then one every `every` seconds."""

    burst: int
    every: float


@dataclass(frozen=True, slots=True)
class ThrottleLimits:
    login_per_address: Rate = Rate(20, 3.0)
    login_per_name: Rate = Rate(20, 10.0)
    registration_per_address: Rate = Rate(10, 360.0)


# A change of a throttle's state: (the new state, when it may be forgotten, the outcome).
Change = tuple[ThrottleState | None, float, R]


def take(state: ThrottleState | None, now: float, rate: Rate) -> Change[float | None]:
    """One attempt out of the bucket (GCRA: `tat`, the theoretical arrival time); the
    outcome is None if allowed, else the seconds to wait, and then nothing is taken."""
    tat = max(float((state or {}).get("tat", now)), now)
    tolerance = (rate.burst - 1) * rate.every
    if tat - now > tolerance:
        return state, tat, tat - now - tolerance
    return {"tat": tat + rate.every}, tat + rate.every, None


def pair_wait(failures: int) -> float:
    """How long a pair waits after its `failures`-th failure in a row."""
    if failures < FREE_FAILURES:
        return 0.0
    return min(2.0 ** (failures - FREE_FAILURES + 1), LONGEST_WAIT)


def pair_now(state: ThrottleState | None, now: float) -> tuple[int, float, float]:
    """(failures in a row, time of the last one, known until) of a pair, as they stand."""
    state = state or {}
    failures, last = int(state.get("failures", 0)), float(state.get("last", 0.0))
    if now - last > FORGET_FAILURES_AFTER:
        failures = 0
    return failures, last, float(state.get("known_until", 0.0))


def pair_try(state: ThrottleState | None, now: float) -> Change[float | None]:
    """Count an attempt of the pair as a failure before the password is checked (a success
    undoes it); the outcome is None if allowed, else the seconds to wait."""
    failures, last, known_until = pair_now(state, now)
    wait = last + pair_wait(failures) - now
    if wait > 0:
        return state, last + FORGET_FAILURES_AFTER, wait
    changed = {"failures": failures + 1, "last": now, "known_until": known_until}
    return changed, max(now + FORGET_FAILURES_AFTER, known_until), None


def pair_succeeded(state: ThrottleState | None, now: float) -> Change[None]:
    known_until = now + KNOWN_FOR
    return {"failures": 0, "last": now, "known_until": known_until}, known_until, None


def address_key(address: str | None) -> str:
    """An address as the throttle counts it: IPv6 by its /64, unknown ones together."""
    try:
        parsed = ipaddress.ip_address(address or "")
    except ValueError:
        return address or "unknown"
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:  # ::ffff:a.b.c.d is the IPv4 address a.b.c.d
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def _key(*parts: str) -> str:
    """A counter's key: a hash, of bounded length whatever the parts."""
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


class Throttle:
    def __init__(
        self,
        store: AccountStore,
        clock: Callable[[], float],
        limits: ThrottleLimits | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits or ThrottleLimits()

    async def registration(self, address: str | None) -> None:
        """Count a registration from `address`; RATE_LIMITED if there were too many."""
        rate = self.limits.registration_per_address
        await self._take(_key("register", address_key(address)), rate, "registrations")

    async def password_attempt(self, name_key: str, address: str | None) -> None:
        """Count a check of the password of `name_key` from `address`, before it is made;
        RATE_LIMITED (nothing counted that was not allowed) if it must wait."""
        where = address_key(address)
        await self._take(_key("login", where), self.limits.login_per_address, "attempts")
        pair = _key("pair", name_key, where)
        found = await self.store.throttle(pair)
        failures, last, known_until = pair_now(found[0] if found else None, self.clock())
        _refuse_for(last + pair_wait(failures) - self.clock(), "failed attempts")
        if known_until <= self.clock():
            await self._take(_key("name", name_key), self.limits.login_per_name, "attempts")
        _refuse_for(await self._update(pair, pair_try), "failed attempts")

    async def password_proved(self, name_key: str, address: str | None) -> None:
        """The password was right: the pair's failures are forgotten, the address known."""
        await self._update(_key("pair", name_key, address_key(address)), pair_succeeded)

    async def _take(self, key: str, rate: Rate, what: str) -> None:
        wait = await self._update(key, lambda state, now: take(state, now, rate))
        _refuse_for(wait, what)

    async def _update(
        self, key: str, change: Callable[[ThrottleState | None, float], Change[R]]
    ) -> R:
        for _ in range(CAS_ATTEMPTS):
            found = await self.store.throttle(key)
            state, version = found if found is not None else (None, 0)
            changed, expires_at, outcome = change(state, self.clock())
            if changed == state:
                return outcome
            if await self.store.put_throttle(key, changed, version, expires_at):
                return outcome
        raise AccountError(ErrorCode.RATE_LIMITED, "too many attempts at once: retry in 1 s", 1)


def _refuse_for(wait: float | None, what: str) -> None:
    if wait is not None and wait > 0:
        seconds = max(1, math.ceil(wait))
        raise AccountError(
            ErrorCode.RATE_LIMITED, f"too many {what}: retry in {seconds} s", seconds
        )
