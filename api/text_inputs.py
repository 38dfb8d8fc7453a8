"""The bounds of the text clients send: every String and ID argument and input field of the
schema passes one of these rules before the service stores it, compares it or echoes it in
a message (tests/unit/test_text_inputs.py walks the schema to keep it so).

Every text is bounded in characters and may not hold a control, format, surrogate,
private-use or unassigned character (Unicode categories Cc, Cf, Cs, Co, Cn: NUL, the bidi
overrides, zero-width spaces and joiners…), nor a line or paragraph separator (Zl, Zp).
Names, which people read, are first stripped and normalised to NFC, so that one name has
one spelling and its length counts what a reader sees; ids, keys and seeds are compared as
they are sent.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
SHOWN = 40  # characters of a refused value a message repeats


class TextRefused(ValueError):
    """A text outside its bounds; the message says which bound, not the whole text."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class TextBound:
    """A text of `least` to `most` characters, none of them in REFUSED_CATEGORIES."""

    what: str  # what the text is, for the message: "a name", "a clientMutationId"
    most: int
    least: int = 0

    @property
    def rule(self) -> str:
        """The bound as a field's description states it."""
        if self.least:
            return f"{self.least} to {self.most} characters"
        return f"at most {self.most} characters"

    def check(self, value: str) -> str:
        """`value`, if it keeps to the bound (length first: a long text is not scanned)."""
        if not self.least <= len(value) <= self.most:
            raise TextRefused(f"{self.what} has {self.rule}, not {len(value)}")
        for char in value:
            if unicodedata.category(char) in REFUSED_CATEGORIES:
                raise TextRefused(
                    f"{self.what} may not hold U+{ord(char):04X} (a control, format, "
                    "separator or unassigned character)"
                )
        return value


NAME = TextBound("a name", 40, least=1)  # a player's or a bot's
SEED = TextBound("a seed", 200, least=1)
CLIENT_MUTATION_ID = TextBound("a clientMutationId", 100)
GLOBAL_ID = TextBound("an id", 100)  # a game's global id, a cursor (about 52 characters)
TOKEN = TextBound("a seat token", 100)  # tokens are 43 characters
# A name the data gives: a variant, a colour, a territory, a card, a kind of unit, an
# option's value (the longest is under 30 characters).
DATA_NAME = TextBound("a name of the game's data", 64)


def name(value: str) -> str:
    """A player's or a bot's name as it is kept: stripped, in NFC, then NAME's bound."""
    return NAME.check(unicodedata.normalize("NFC", value.strip()))


def shown(value: str) -> str:
    """`value` quoted for a message, cut to SHOWN characters: a refusal never echoes a
    client's whole text back to it (nor into a log)."""
    if len(value) <= SHOWN:
        return repr(value)
    return repr(value[:SHOWN]) + f"… ({len(value)} characters)"
