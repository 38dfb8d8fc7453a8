"""Passwords: what a new one must be, and how it is kept and checked.

Kept as Argon2id hashes (`argon2-cffi`) with the parameters OWASP's Password Storage Cheat
Sheet recommends as its first choice of Argon2id: 19 MiB of memory (m=19456 KiB), 2 passes
(t=2), 1 lane (p=1); a 16-byte random salt, a 32-byte tag. A hash made with other parameters
is remade at the next login that proves the password (`check_needs_rehash`).

What a new password must be, as NIST SP 800-63B (revision 4) says, without composition rules:
at least 15 characters (its minimum for a password that is the only factor), at most 128, any
printable Unicode (spaces too), prepared as RFC 8265's OpaqueString profile says (non-ASCII
spaces mapped to the ASCII space, NFC) so that one password typed on two keyboards is one
password; and not among the most guessable. That is `zxcvbn`'s judgement (its dictionaries of
the most common passwords, names and words, keyboard walks, repeats, sequences, dates, with the
account's name and the server's as words of their own): a password it expects to fall within
10^6 guesses (its scores 0 and 1) is PASSWORD_TOO_WEAK.

Hashing takes about 20 ms of a core and 19 MiB: it runs on worker threads (Argon2 releases the
interpreter lock), at most `workers` at once, so a burst of logins neither stalls the event
loop nor takes the memory of a burst. A login for a name no account has is checked against a
hash of a random password made with the same parameters, so that it takes as long as a wrong
password does.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError
from precis_i18n import get_profile
from zxcvbn import zxcvbn

from api.accounts.errors import AccountError
from domain.errors import ErrorCode

T = TypeVar("T")
SHORTEST, LONGEST = 15, 128
# zxcvbn's score a new password needs at least: 2 is "somewhat guessable", 10^6 to 10^8
# guesses; 0 and 1 fall within a million.
LEAST_SCORE = 2
ZXCVBN_LONGEST = 72  # zxcvbn refuses longer; a password's first 72 characters are judged
SERVER_WORDS = ("risiko", "risk", "password", "graphql")

_OPAQUE = get_profile("OpaqueString")


def owasp_hasher() -> PasswordHasher:
    """Argon2id as OWASP recommends it (m=19 MiB, t=2, p=1)."""
    return PasswordHasher(
        time_cost=2, memory_cost=19_456, parallelism=1, hash_len=32, salt_len=16, type=Type.ID
    )


def prepared(password: str) -> str:
    """`password` as it is hashed (RFC 8265 OpaqueString); AccountError if it has none."""
    if len(password) > 4 * LONGEST:  # preparation may shorten a text, never by that much
        raise _too_long()
    try:
        prepared_password: str = _OPAQUE.enforce(password)
    except UnicodeEncodeError as error:
        if not 0 <= error.start < len(error.object):  # empty
            raise _too_short(0) from None
        char = error.object[error.start]
        raise AccountError(
            ErrorCode.INVALID_PASSWORD,
            f"a password may not hold U+{ord(char):04X} (a control or unassigned character)",
        ) from None
    except UnicodeError:  # not stable under the profile
        raise AccountError(
            ErrorCode.INVALID_PASSWORD, "a password may not hold such characters"
        ) from None
    return prepared_password


def check_length(password: str) -> str:
    """A new password prepared, if its characters and length may be a password's (quick);
    AccountError PASSWORD_TOO_SHORT, PASSWORD_TOO_LONG or INVALID_PASSWORD otherwise."""
    ready = prepared(password)
    if len(ready) < SHORTEST:
        raise _too_short(len(ready))
    if len(ready) > LONGEST:
        raise _too_long()
    return ready


def check_new(password: str, words: Sequence[str] = ()) -> str:
    """A new password prepared, if it may be one: `check_length`, then PASSWORD_TOO_WEAK if
    it is among the most guessable (a few milliseconds, up to 80 for a long one). `words`:
    what it must not be made of (the account's name)."""
    ready = check_length(password)
    judged = zxcvbn(ready[:ZXCVBN_LONGEST], user_inputs=[*words, *SERVER_WORDS])
    if judged["score"] < LEAST_SCORE:
        raise AccountError(
            ErrorCode.PASSWORD_TOO_WEAK,
            "this password is among the most guessable (common passwords, words, names, "
            "keyboard patterns, repeats): choose another, a few words of your own are enough",
        )
    return ready


class Passwords:
    """Hashes and checks passwords on worker threads, `workers` at once at most."""

    def __init__(self, hasher: PasswordHasher | None = None, workers: int = 2) -> None:
        self.hasher = hasher or owasp_hasher()
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2")
        self._dummy: str | None = None

    async def new_hash(self, password: str, words: Sequence[str] = ()) -> str:
        """The hash of a new password, once it passes `check_new` (AccountError if not)."""
        return await self._run(lambda: self.hasher.hash(check_new(password, words)))

    async def verify(self, hashed: str | None, password: str) -> tuple[bool, str | None]:
        """Whether `password` is the one `hashed` was made of, and, when it is and the hash
        was made with other parameters, its new hash. `hashed` None (no such account): a
        hash of a random password is checked instead, so that the answer takes as long."""
        return await self._run(lambda: self._verify(hashed, password))

    def _verify(self, hashed: str | None, password: str) -> tuple[bool, str | None]:
        try:
            ready = prepared(password)
        except AccountError:
            ready = ""  # cannot be anyone's; checked all the same, for the time it takes
        if hashed is None:
            hashed = self._dummy_hash()
            ready = ""
        try:
            self.hasher.verify(hashed, ready)
        except (VerificationError, InvalidHashError):
            return False, None
        if not ready:
            return False, None
        rehashed = self.hasher.hash(ready) if self.hasher.check_needs_rehash(hashed) else None
        return True, rehashed

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(24))
        return self._dummy

    async def _run(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    def close(self) -> None:
        self._executor.shutdown(wait=True)


def _too_short(length: int) -> AccountError:
    return AccountError(
        ErrorCode.PASSWORD_TOO_SHORT,
        f"a password has at least {SHORTEST} characters, not {length}: a few words will do",
    )


def _too_long() -> AccountError:
    return AccountError(ErrorCode.PASSWORD_TOO_LONG, f"a password has at most {LONGEST} characters")
