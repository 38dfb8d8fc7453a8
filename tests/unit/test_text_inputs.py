"""The bounds of the text clients send (api/text_inputs.py), and that every text the schema
takes states its bound."""

from __future__ import annotations

import unicodedata

import pytest
from graphql import (
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLObjectType,
    get_named_type,
)
from hypothesis import given
from hypothesis import strategies as st

from api import text_inputs
from api.graphql.generated import SEAT_ACTIONS
from api.graphql.schema import schema
from api.text_inputs import NAME, REFUSED_CATEGORIES, TextBound, TextRefused

UNSEEN = {
    "NUL": "\x00",
    "escape": "\x1b",
    "right-to-left override": "\u202e",
    "left-to-right isolate": "\u2066",
    "zero-width space": "\u200b",
    "zero-width joiner": "\u200d",
    "byte order mark": "\ufeff",
    "line separator": "\u2028",
    "paragraph separator": "\u2029",
    "private use": "\ue000",
    "lone surrogate": "\ud800",
    "unassigned": "\u0378",
}


@pytest.mark.parametrize("char", UNSEEN.values(), ids=UNSEEN.keys())
def test_a_name_with_an_unseen_character_is_refused(char: str) -> None:
    # At either end, white space (the separators) is stripped like a space: within, refused.
    ends = () if char.isspace() else (f"{char}Anna", f"Anna{char}")
    for name in (f"Ann{char}a", *ends):
        with pytest.raises(TextRefused, match=f"U\\+{ord(char):04X}"):
            text_inputs.name(name)


def test_a_name_is_stripped_normalised_and_counted_as_read() -> None:
    assert text_inputs.name("  Anna \t") == "Anna"
    decomposed = "Ren" + "e\u0301"  # é as e and a combining accent: NFC makes one character
    assert text_inputs.name(decomposed) == "René"
    assert len(text_inputs.name("e\u0301" * 40)) == 40  # 80 code points sent, 40 read
    assert text_inputs.name("Ünal Çelik 王小明 Ἀλέξανδρος") == "Ünal Çelik 王小明 Ἀλέξανδρος"
    assert text_inputs.name("n" * 40) == "n" * 40
    for refused in ("", "   ", "n" * 41, "\u3000"):  # an ideographic space is stripped too
        with pytest.raises(TextRefused, match="1 to 40 characters"):
            text_inputs.name(refused)


@given(st.text(max_size=60))
def test_a_kept_name_keeps_every_rule(sent: str) -> None:
    try:
        kept = text_inputs.name(sent)
    except TextRefused:
        return
    assert 1 <= len(kept) <= NAME.most
    assert kept == kept.strip() == unicodedata.normalize("NFC", kept)
    assert not any(unicodedata.category(char) in REFUSED_CATEGORIES for char in kept)
    assert text_inputs.name(kept) == kept


def test_a_bound_checks_the_length_before_the_characters() -> None:
    bound = TextBound("a key", 10)
    assert bound.check("") == ""
    assert bound.check("k" * 10) == "k" * 10
    with pytest.raises(TextRefused, match="a key has at most 10 characters, not 60000"):
        bound.check("\x00" * 60_000)


def test_a_refused_text_is_shown_cut() -> None:
    assert text_inputs.shown("Atlantide") == "'Atlantide'"
    long = text_inputs.shown("x" * 60_000)
    assert len(long) < 70
    assert long.endswith("… (60000 characters)")


def schema_texts() -> list[tuple[str, str, str | None]]:
    """(type, field or argument, its description) of every String and ID the schema takes,
    but in the actions' own inputs (ActionInput's description states their bound)."""
    actions = {f"{''.join(p.capitalize() for p in c.kind.split('_'))}Input" for c in SEAT_ACTIONS}
    texts = []
    for type_ in schema._schema.type_map.values():
        if type_.name.startswith("__") or type_.name in actions:
            continue
        if isinstance(type_, GraphQLInputObjectType):
            for name, input_field in type_.fields.items():
                if get_named_type(input_field.type).name in ("String", "ID"):
                    texts.append((type_.name, name, input_field.description))
        if isinstance(type_, GraphQLObjectType | GraphQLInterfaceType):
            for field_name, field in type_.fields.items():
                for name, argument in field.args.items():
                    if get_named_type(argument.type).name in ("String", "ID"):
                        texts.append((type_.name, f"{field_name}({name})", argument.description))
    return texts


def test_every_text_the_schema_takes_states_its_bound() -> None:
    texts = schema_texts()
    assert len(texts) >= 20  # clientMutationId in each mutation, ids, names, seeds, colours…
    unbounded = [(type_, name) for type_, name, about in texts if "characters" not in (about or "")]
    assert unbounded == []
    action_input = schema._schema.type_map["ActionInput"]
    assert "at most 64 characters" in (action_input.description or "")
