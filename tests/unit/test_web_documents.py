"""The documents the web client sends, as its build lists them (api/web_client/documents.json,
the server's trusted documents): valid against the schema, asking for no deprecated field (the
events as the typed GameEvent union, not `type` + `data`), its legal actions' query asking
every family the schema has, and its reading of a game's history, a page of 100 events each
with every kind's fields, well within what the server lets a document cost."""

from __future__ import annotations

import hashlib
import json

import pytest
from graphql import (
    FieldNode,
    GraphQLUnionType,
    InlineFragmentNode,
    Visitor,
    get_operation_ast,
    parse,
    validate,
    visit,
)
from graphql.validation import NoDeprecatedCustomRule

from api.graphql.cost import measure
from api.graphql.limits import Limits
from api.graphql.limits import check_document as check
from api.graphql.schema import schema
from api.trusted import WEB_DOCUMENTS
from api.web_client import BUILT
from tests.node_tools import _missing

SCHEMA = schema._schema


def listed() -> dict[str, str]:
    """The manifest as the build wrote it: each document by its SHA-256."""
    manifest = BUILT / WEB_DOCUMENTS
    if not manifest.is_file():
        _missing("the web client is not built (python3 dev.py test builds it)")
    found: dict[str, str] = json.loads(manifest.read_text())
    return found


def documents() -> dict[str, str]:
    """Each document by the name of its operation."""
    named = {}
    for text in listed().values():
        operation = get_operation_ast(parse(text))
        assert operation is not None, text
        assert operation.name is not None, text
        named[operation.name.value] = text
    return named


def test_each_document_is_listed_by_its_hash() -> None:
    """As GraphQL Code Generator's persisted documents: a client may send the hash alone."""
    for hash_, text in listed().items():
        assert hashlib.sha256(text.encode()).hexdigest() == hash_


def test_the_documents_are_found() -> None:
    assert {"GameState", "EventPage", "GameEvents", "Legal", "SubmitAction"} <= set(documents())


def test_each_document_is_valid_and_asks_for_nothing_deprecated() -> None:
    for name, text in documents().items():
        document = parse(text)
        assert validate(SCHEMA, document) == [], name
        deprecated = validate(SCHEMA, document, [NoDeprecatedCustomRule])
        assert [error.message for error in deprecated] == [], name


def test_the_legal_actions_are_asked_with_every_field_of_every_family() -> None:
    """Written from the schema at build time (web/scripts/legal-actions.mjs): the client
    plays a game's new family with nothing written for it."""
    families = SCHEMA.type_map["LegalAction"]
    assert isinstance(families, GraphQLUnionType)
    asked = _Fragments()
    visit(parse(documents()["Legal"]), asked)
    assert asked.fields == {
        family.name: {name for name, field in family.fields.items() if not field.deprecation_reason}
        for family in families.types
    }


class _Fragments(Visitor):
    """The fields each inline fragment asks, by its type."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, set[str]] = {}

    def enter_inline_fragment(self, node: InlineFragmentNode, *_args: object) -> None:
        assert node.type_condition is not None
        selected = node.selection_set.selections
        names = {field.name.value for field in selected if isinstance(field, FieldNode)}
        self.fields[node.type_condition.name.value] = names


@pytest.mark.parametrize("name", ["EventPage", "GameEvents"])
def test_the_events_are_well_within_the_limits(name: str) -> None:
    """A tenth of the default cost, half its aliases: the server counts the dearest kind of
    each event, not every kind."""
    document = parse(documents()[name])
    default = Limits()
    limits = Limits(max_cost=default.max_cost // 10, max_aliases=default.max_aliases // 2)
    assert check(SCHEMA, document, limits) == []
    # A page is measured as 100 events, a live event as one.
    assert measure(SCHEMA, document).cost > (1_000 if name == "EventPage" else 10)
