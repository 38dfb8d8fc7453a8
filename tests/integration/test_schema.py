"""The schema is first-class: checked in, exported from the code, described everywhere."""

from __future__ import annotations

from pathlib import Path

from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLObjectType,
    GraphQLUnionType,
)

from api.cli import main
from api.graphql.schema import schema

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = {"Query", "Mutation", "Subscription"}


def test_the_checked_in_schema_matches_the_code() -> None:
    """Regenerate with `risiko export-schema > schema.graphql` after changing the API."""
    assert (ROOT / "schema.graphql").read_text() == schema.as_str() + "\n"


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
