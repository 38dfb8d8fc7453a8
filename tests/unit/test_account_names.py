"""Account names: one name, one key, whatever its case, width or Unicode form; the rules a
name keeps; reserved names refused."""

from __future__ import annotations

import unicodedata

import pytest

from api.accounts.errors import AccountError
from api.accounts.names import PLACEHOLDER, account_name, name_key
from domain.errors import ErrorCode


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Nicolò", "NICOLÒ"),
        ("Nicolò", unicodedata.normalize("NFD", "Nicolò")),  # a combining grave accent
        ("Nicolò", "\uff4e\uff49\uff43\uff4f\uff4cò"),  # full-width letters
        ("Straße", "STRASSE"),  # case folding, not only lower case
        ("Θεοδώρα_7", "ΘΕΟΔΏΡΑ_7"),
        ("kirill", "KIRILL"),
    ],
)
def test_names_differing_in_case_width_or_form_share_one_key(one: str, other: str) -> None:
    assert account_name(one).key == account_name(other).key
    assert name_key(one) == name_key(other) == account_name(one).key


def test_a_name_is_shown_as_registered_in_nfc_with_its_case() -> None:
    name = account_name("  " + unicodedata.normalize("NFD", "Nicolò") + " ")
    assert name.shown == "Nicolò"
    assert unicodedata.is_normalized("NFC", name.shown)
    # Full-width letters are mapped to their ordinary width.
    assert account_name("\uff21\uff22\uff23").shown == "ABC"


@pytest.mark.parametrize(
    "name",
    ["ada", "Ada.Lovelace", "ada_99", "r2-d2", "Jürgen", "Θεοδώρα", "Дмитрий", "山田太郎",
     "x" * 24],
)  # fmt: skip
def test_names_a_player_would_choose_are_taken(name: str) -> None:
    assert account_name(name).shown == name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("ab", "3 to 24"),
        ("x" * 25, "3 to 24"),
        ("x" * 101, "3 to 24"),
        ("ada lovelace", "U+0020"),
        ("ada\u200bx", "U+200B"),  # a zero-width space
        ("ada\u202ex", "U+202E"),  # a right-to-left override
        ("ada\x00x", "U+0000"),
        ("ada♥x", "U+2665"),  # a symbol
        ("ada@x", "'@'"),
        ("<script>", "'<'"),
        ("_ada", "starts and ends"),
        ("ada-", "starts and ends"),
        ("ad__a", "in a row"),
        ("a.-da", "in a row"),
        ("\u0430dmin42", "one script"),  # a Cyrillic a among Latin letters
        ("Ωmega" + "x", "one script"),  # Greek and Latin
        ("", "3 to 24"),
    ],
)
def test_a_name_outside_the_rules_is_invalid(name: str, why: str) -> None:
    with pytest.raises(AccountError) as refused:
        account_name(name)
    assert refused.value.code is ErrorCode.INVALID_NAME
    assert why in refused.value.message


@pytest.mark.parametrize(
    "name",
    ["admin", "ADMIN", "Admin", "a.d.m.i.n", "administrator", "admin42", "System", "root",
     PLACEHOLDER, "Anonymous", "risiko", "RisiKo_Official", "odds", "random", "moderator"],
)  # fmt: skip
def test_reserved_names_are_refused(name: str) -> None:
    with pytest.raises(AccountError) as refused:
        account_name(name)
    assert refused.value.code is ErrorCode.NAME_RESERVED


def test_a_name_no_account_can_have_gets_a_key_no_account_has() -> None:
    assert name_key("ada lovelace") == ""
    assert name_key("") == ""
    assert name_key("x" * 10_000) == ""
