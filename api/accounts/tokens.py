"""The account credentials' format: what a token looks like, and how it is kept.

A token is a prefix naming its kind, 30 random characters and a checksum, 40 characters of
`[A-Za-z0-9_]` in all, as GitHub's tokens are made:

    rks_<30 random base62 characters><6 characters of checksum>   a session (logIn)
    rkp_<30 random base62 characters><6 characters of checksum>   a personal API token

- The prefix tells a person, a log reader and a secret scanner at a glance what leaked;
  `SCANNER_PATTERN` matches both kinds and nothing else.
- The 30 random characters hold 178 bits (`secrets`): nobody guesses one.
- The checksum (CRC32 of the prefix and the random part, in 6 base62 digits) lets a scanner
  tell a real token from a string that looks like one without asking the server, and lets the
  server refuse a mistyped or made-up one without reading its store.

A seat token (a game's, `secrets.token_urlsafe(32)`: 43 characters) never has this shape.

Kept as SHA-256 of the whole token, looked up by that hash. A slow password hash such as
Argon2 is for secrets a person chose, which an attacker holding the hashes could find by
trying the likely ones; a token is 178 random bits, out of reach of any such search, so a
slow hash would add nothing but 20 ms and 19 MiB to every request, and, being salted, could
not be looked up by an index.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import string
import zlib
from enum import StrEnum

ALPHABET = string.digits + string.ascii_uppercase + string.ascii_lowercase  # base62
RANDOM_LENGTH = 30
CHECKSUM_LENGTH = 6
SCANNER_PATTERN = re.compile(r"\brk[sp]_[0-9A-Za-z]{36}\b")


class TokenKind(StrEnum):
    """What a credential is, as stored and as its prefix says."""

    SESSION = "session"
    API = "api"


PREFIXES = {TokenKind.SESSION: "rks_", TokenKind.API: "rkp_"}
LENGTH = len(PREFIXES[TokenKind.SESSION]) + RANDOM_LENGTH + CHECKSUM_LENGTH


def new_token(kind: TokenKind) -> str:
    body = PREFIXES[kind] + "".join(secrets.choice(ALPHABET) for _ in range(RANDOM_LENGTH))
    return body + _checksum(body)


def token_kind(token: str) -> TokenKind | None:
    """The kind of an account token well made (its prefix, length, alphabet and checksum),
    or None for anything else: a seat token, a typo, a made-up string."""
    if len(token) != LENGTH or SCANNER_PATTERN.fullmatch(token) is None:
        return None
    body, checksum = token[:-CHECKSUM_LENGTH], token[-CHECKSUM_LENGTH:]
    if not secrets.compare_digest(_checksum(body), checksum):
        return None
    return next(kind for kind, prefix in PREFIXES.items() if token.startswith(prefix))


def token_hash(token: str) -> str:
    """What the store keeps of a token, and finds it by."""
    return hashlib.sha256(token.encode()).hexdigest()


def _checksum(body: str) -> str:
    value = zlib.crc32(body.encode())
    digits = []
    for _ in range(CHECKSUM_LENGTH):
        value, digit = divmod(value, len(ALPHABET))
        digits.append(ALPHABET[digit])
    return "".join(reversed(digits))
