"""An account's name: how it is shown, and the key that keeps two accounts from sharing it.

A name is prepared as RFC 8265 (PRECIS) prepares a username, with the `precis-i18n` library:
full-width characters mapped to their ordinary width, Unicode normalisation (NFC), and only
letters, digits and printable ASCII admitted (no spaces, no symbols, no invisible or control
characters). The name shown keeps its case (`UsernameCasePreserved`). Its key is
`UsernameCaseMapped` (lower case), then case-folded and normalised with NFKC, so that names
differing only in case, width or Unicode form ("Nicolò" spelt with a combining grave, "NICOLÒ",
"ｎｉｃｏｌò", "STRASSE" and "Straße") are one name, and the second to register it is refused.

On top of PRECIS, as handles players type and mention: 3 to 24 characters; letters, digits,
marks and the separators `_`, `-` and `.`; a letter or a digit first and last, and no two
separators in a row; letters of one script among Latin, Greek and Cyrillic (a name mixing
them could pass for another: "admin" with a Cyrillic U+0430 for its "a"). Reserved names, and
names starting with a reserved prefix, are refused (NAME_RESERVED), compared on the key
without separators.
"""

from __future__ import annotations

import itertools
import unicodedata
from dataclasses import dataclass

from precis_i18n import get_profile

from api.accounts.errors import AccountError
from domain.errors import ErrorCode

SHORTEST, LONGEST = 3, 24
# Longer than this is refused before any preparation (a name is never near it).
LONGEST_SENT = 100
SEPARATORS = frozenset("_-.")
# Scripts whose letters look alike: a name takes letters of one of them at most.
LOOK_ALIKE_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC"})
# What a deleted account's name becomes in the games it played (the games half of issue 29
# writes it there); reserved, so that no account is ever called that.
PLACEHOLDER = "anonymous"
RESERVED = frozenset(
    {
        PLACEHOLDER,
        "admin",
        "administrator",
        "api",
        "bot",
        "bots",
        "deleted",
        "everyone",
        "guest",
        "me",
        "mod",
        "moderator",
        "null",
        "nobody",
        "operator",
        "owner",
        "root",
        "server",
        "spectator",
        "staff",
        "support",
        "system",
        "undefined",
        "viewer",
        # The server's own players: the seated bots' policies, the clock's proxy.
        "aggressive",
        "odds",
        "proxy",
        "random",
    }
)
RESERVED_PREFIXES = ("admin", "moderator", "official", "risiko")

_SHOWN = get_profile("UsernameCasePreserved")
_MAPPED = get_profile("UsernameCaseMapped")


@dataclass(frozen=True, slots=True)
class AccountName:
    shown: str  # as registered, in NFC, case preserved
    key: str  # unique among accounts: case-folded, NFKC


def account_name(sent: str) -> AccountName:
    """The name as shown and its key; AccountError INVALID_NAME or NAME_RESERVED."""
    if len(sent) > LONGEST_SENT:
        raise _invalid(f"a name has {SHORTEST} to {LONGEST} characters, not {len(sent)}")
    shown = _prepared(sent.strip())
    if not SHORTEST <= len(shown) <= LONGEST:
        raise _invalid(f"a name has {SHORTEST} to {LONGEST} characters, not {len(shown)}")
    for char in shown:
        if char.isascii() and not char.isalnum() and char not in SEPARATORS:
            raise _invalid(f"a name may not hold {char!r}: letters, digits, '_', '-' or '.'")
    if not (_is_letter_or_digit(shown[0]) and _is_letter_or_digit(shown[-1])):
        raise _invalid("a name starts and ends with a letter or a digit")
    if any(a in SEPARATORS and b in SEPARATORS for a, b in itertools.pairwise(shown)):
        raise _invalid("a name has no two of '_', '-' and '.' in a row")
    scripts = {_script(char) for char in shown if unicodedata.category(char).startswith("L")}
    if len(scripts & LOOK_ALIKE_SCRIPTS) > 1:
        raise _invalid("a name takes its letters from one script of Latin, Greek and Cyrillic")
    key = name_key(shown)
    bare = "".join(char for char in key if char not in SEPARATORS)
    if bare in RESERVED or bare.startswith(RESERVED_PREFIXES):
        raise AccountError(ErrorCode.NAME_RESERVED, "this name is reserved")
    return AccountName(shown, key)


def name_key(name: str) -> str:
    """The key of a name as sent (for a look-up: a login, a profile); a name that cannot be
    an account's gets a key no account has."""
    if len(name) > LONGEST_SENT:
        return ""
    try:
        mapped = _MAPPED.enforce(name.strip())
    except UnicodeError:
        return ""
    return unicodedata.normalize("NFKC", mapped.casefold())


def _prepared(name: str) -> str:
    try:
        prepared: str = _SHOWN.enforce(name)
    except UnicodeEncodeError as error:
        if not 0 <= error.start < len(error.object):  # empty
            raise _invalid(f"a name has {SHORTEST} to {LONGEST} characters, not 0") from None
        char = error.object[error.start]
        raise _invalid(
            f"a name may not hold U+{ord(char):04X} (a space, a symbol, an invisible or "
            "a control character)"
        ) from None
    except UnicodeError:  # not stable under the profile
        raise _invalid("a name may not hold such characters") from None
    return prepared


def _is_letter_or_digit(char: str) -> bool:
    return unicodedata.category(char)[0] in "LN"


def _script(char: str) -> str:
    """The script a letter belongs to, as the first word of its Unicode name says."""
    return unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]


def _invalid(message: str) -> AccountError:
    return AccountError(ErrorCode.INVALID_NAME, message)
