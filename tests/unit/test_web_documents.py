"""The documents the web client sends (its `/* GraphQL */` templates in web/src): valid against
the schema, asking for no deprecated field (the events as the typed GameEvent union, not
`type` + `data`), and its reading of a game's history, a page of 100 events each with every
kind's fields, well within what the server lets a document cost."""

from __future__ import annotations

import re

import pytest
from graphql import parse, validate
from graphql.validation import NoDeprecatedCustomRule

from api.graphql.limits import Limits, measure
from api.graphql.limits import check_document as check
from api.graphql.schema import schema
from tests.node_tools import WEB

SCHEMA = schema._schema


def _templates() -> dict[str, str]:
    templates: dict[str, str] = {}
    for path in sorted((WEB / "src").rglob("*.ts")):
        if "generated" not in path.parts:
            found = re.findall(
                r"export const (\w+) = /\* GraphQL \*/ `(.*?)`", path.read_text(), re.S
            )
            templates.update(found)
    return templates


def _documents() -> dict[str, str]:
    """Each operation, with the fragments it interpolates."""
    templates = _templates()
    return {
        name: re.sub(r"\$\{(\w+)\}", lambda spread: templates[spread.group(1)], body)
        for name, body in templates.items()
        if not body.lstrip().startswith("fragment")
    }


DOCUMENTS = _documents()


def test_the_documents_are_found() -> None:
    assert {"GAME_STATE", "EVENT_PAGE", "EVENTS", "SUBMIT"} <= set(DOCUMENTS)


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_each_document_is_valid_and_asks_for_nothing_deprecated(name: str) -> None:
    document = parse(DOCUMENTS[name])
    assert validate(SCHEMA, document) == []
    assert [error.message for error in validate(SCHEMA, document, [NoDeprecatedCustomRule])] == []


@pytest.mark.parametrize("name", ["EVENT_PAGE", "EVENTS"])
def test_the_events_are_well_within_the_limits(name: str) -> None:
    """A tenth of the default cost, half its aliases: the server counts the dearest kind of
    each event, not every kind."""
    document = parse(DOCUMENTS[name])
    default = Limits()
    limits = Limits(max_cost=default.max_cost // 10, max_aliases=default.max_aliases // 2)
    assert check(SCHEMA, document, limits) == []
    # A page is measured as 100 events, a live event as one.
    assert measure(SCHEMA, document).cost > (1_000 if name == "EVENT_PAGE" else 10)
