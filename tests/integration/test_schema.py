"""The schema is first-class: checked in, exported from the code, described everywhere."""

from __future__ import annotations

from pathlib import Path

from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLObjectType,
    GraphQLUnionType,
    build_schema,
    find_breaking_changes,
)

from api.cli import main
from api.graphql.schema import schema

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = {"Query", "Mutation", "Subscription"}


def test_the_checked_in_schema_matches_the_code() -> None:
    """Regenerate with `risiko export-schema > schema.graphql` after changing the API."""
    assert (ROOT / "schema.graphql").read_text() == schema.as_str() + "\n"


def test_the_served_schema_is_the_exported_one_whatever_is_imported_first() -> None:
    """The server imports the app first, the CLI the schema: the same schema either way (the
    union of events once listed the service's kinds in the order their modules were loaded)."""
    import subprocess
    import sys

    program = "import {}; from api.graphql.schema import schema; print(schema.as_str())"
    for first in ("api.app", "api.clock", "api.lobby_events", "variants.spqr"):
        printed = subprocess.run(
            [sys.executable, "-c", program.format(first)],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout
        assert printed == (ROOT / "schema.graphql").read_text(), first


def test_export_schema_prints_it(capsys: object) -> None:
    import pytest

    assert isinstance(capsys, pytest.CaptureFixture)
    assert main(["export-schema"]) == 0
    assert capsys.readouterr().out == schema.as_str() + "\n"


def test_every_type_and_field_has_a_description() -> None:
    missing: list[str] = []
    for name, kind in schema._schema.type_map.items():
        if name.startswith("__") or name in {"String", "Int", "Float", "Boolean", "ID"}:
            continue
        if name not in BUILT_IN and not kind.description:
            missing.append(name)
        if isinstance(kind, GraphQLObjectType | GraphQLInterfaceType | GraphQLInputObjectType):
            for field_name, field in kind.fields.items():
                if not field.description:
                    missing.append(f"{name}.{field_name}")
                for argument_name, argument in getattr(field, "args", {}).items():
                    if not argument.description:
                        missing.append(f"{name}.{field_name}({argument_name})")
        elif isinstance(kind, GraphQLEnumType | GraphQLUnionType):
            pass
    assert missing == []


def test_no_breaking_change_to_the_released_schema() -> None:
    """Clients are written against docs/schema-released.graphql, the schema of the last
    release. A change that would break them (a field, type, argument or enum value removed,
    a type changed, an argument made required) fails here; deprecate instead, and remove at a
    release, by copying schema.graphql over the released one on purpose. Additions, and
    the "dangerous" changes graphql-core lists (a new enum value, a new optional argument),
    are fine."""
    released = build_schema((ROOT / "docs" / "schema-released.graphql").read_text())
    breaking = find_breaking_changes(released, schema._schema)
    assert [f"{change.type.name}: {change.description}" for change in breaking] == []


def test_the_breaking_change_check_sees_a_removed_field() -> None:
    released = build_schema((ROOT / "docs" / "schema-released.graphql").read_text())
    text = (ROOT / "schema.graphql").read_text()
    field = (
        '  """Grows by one with every accepted change; see expectedVersion."""\n  version: Int!\n'
    )
    without_version = text.replace(field, "", 1)
    assert without_version != text
    changes = find_breaking_changes(released, build_schema(without_version))
    assert [change.description for change in changes] == ["Field Game.version was removed."]
