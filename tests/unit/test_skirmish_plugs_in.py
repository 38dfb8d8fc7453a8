"""A game is one folder: the test game's own options, error codes, events and legal families
(read here from its modules, never written) are named by no file of the repository outside
variants/skirmish/ but the tests (which may name what they test), and a server that loads it
(RISIKO_EXTRA_VARIANTS=variants.skirmish) serves every one of them: its options in its own
types and in the bag of every game's, each described in the catalogue, its code in
ErrorCode, its families in LegalAction, its phases in Phase. Its event reaches the clients as
every event does (tests/e2e/test_skirmish_game.py reads it through the server). So adding it
needed nothing outside its folder: not even the checked-in schema, which serves the default
games only."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path

from strawberry.utils.str_converters import to_camel_case

from domain.errors import RULE_CODES, code_description
from domain.events import Event
from domain.legal import LEGAL_FAMILIES
from domain.options import GameOptions
from variants import Variant

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "variants.skirmish"
FOLDER = ROOT / "variants" / "skirmish"
SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".hypothesis", "dist", "build"}
SKIPPED_DIRS |= {".mypy_cache", ".ruff_cache", ".pytest_cache"}


def own_names() -> dict[str, set[str]]:
    """The names the game declares in its folder and no other game declares."""
    from variants import VARIANTS
    from variants.skirmish import VARIANT
    from variants.skirmish import events as own_events

    base = {f.name for f in fields(GameOptions)}
    options = {f.name for f in fields(VARIANT.options_class)} - base
    codes = {code for code, cls in RULE_CODES.items() if cls.__module__.startswith(PACKAGE)}
    others = {
        cls.__name__
        for cls in _subclasses(Event)
        if not cls.__module__.startswith(PACKAGE)
        and (cls.__module__.startswith("domain.") or _served(cls.__module__, VARIANTS))
    }
    events = {
        cls.__name__
        for cls in vars(own_events).values()
        if isinstance(cls, type)
        and issubclass(cls, Event)
        and cls.__module__ == own_events.__name__
    }
    families = {cls.name for cls in LEGAL_FAMILIES if cls.__module__.startswith(PACKAGE)}
    return {
        "options": options | {to_camel_case(name) for name in options},
        "codes": codes,
        "events": events - others,
        "families": families,
    }


def _served(module: str, variants: Mapping[str, Variant]) -> bool:
    return any(module.startswith(f"{v.package}.") for v in variants.values())


def _subclasses(cls: type[Event]) -> set[type[Event]]:
    found: set[type[Event]] = set()
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def repository_texts() -> list[Path]:
    """Every text file of the repository outside the game's folder and the tests: the code,
    the data, the documents, the web client, the checked-in schema."""
    found = []
    for path in ROOT.rglob("*"):
        relative = path.relative_to(ROOT)
        if set(relative.parts) & SKIPPED_DIRS or not path.is_file():
            continue
        if path.is_relative_to(FOLDER) or relative.parts[0] == "tests":
            continue
        if path.stat().st_size > 2_000_000:
            continue
        found.append(path)
    return found


def test_the_game_declares_an_option_a_code_an_event_and_families_of_its_own() -> None:
    names = own_names()
    assert len(names["options"]) >= 2  # one option, in snake and camel case
    assert names["codes"]
    assert names["events"]
    assert names["families"]


def test_nothing_outside_its_folder_names_what_it_declares() -> None:
    names = set().union(*own_names().values())
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names))) + r")\b")
    hits = []
    for path in repository_texts():
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
        for match in pattern.finditer(text):
            hits.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert hits == []


SERVED = """
import json
from api.graphql.catalogue import variant_type
from api.graphql.schema import schema
from variants import VARIANTS
options = {o.name: o.description for o in variant_type(VARIANTS["skirmish"]).options}
print(json.dumps({"sdl": schema.as_str(), "options": options}))
"""


def test_a_server_that_loads_it_serves_what_it_declares() -> None:
    from graphql import (
        GraphQLEnumType,
        GraphQLInputObjectType,
        GraphQLObjectType,
        GraphQLUnionType,
        build_schema,
    )

    from variants.skirmish import VARIANT

    env = {**os.environ, "RISIKO_EXTRA_VARIANTS": PACKAGE}
    done = subprocess.run(
        [sys.executable, "-c", SERVED], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    served = json.loads(done.stdout)
    schema = build_schema(served["sdl"])
    names = own_names()
    codes = schema.type_map["ErrorCode"]
    assert isinstance(codes, GraphQLEnumType)
    for code in names["codes"]:
        assert codes.values[code].description == code_description(code)
    options = {f.name for f in fields(VARIANT.options_class)} - {
        f.name for f in fields(GameOptions)
    }
    for type_name in ("SkirmishOptions", "SkirmishOptionsInput", "GameOptions", "GameOptionsInput"):
        shape = schema.type_map[type_name]
        assert isinstance(shape, GraphQLObjectType | GraphQLInputObjectType)
        assert {to_camel_case(name) for name in options} <= set(shape.fields), type_name
    declared = VARIANT.options_class.__dataclass_fields__
    for name in options:
        assert served["options"][name] == declared[name].metadata["doc"]
    union = schema.type_map["LegalAction"]
    assert isinstance(union, GraphQLUnionType)
    assert names["families"] <= {t.name for t in union.types}
    phases = schema.type_map["Phase"]
    assert isinstance(phases, GraphQLEnumType)
    assert {"MUSTER", "BATTLE"} <= set(phases.values)


def test_the_checked_in_schema_names_none_of_it() -> None:
    """The checked-in schema serves the default games: adding the test game did not touch it."""
    text = (ROOT / "schema.graphql").read_text()
    for name in set().union(*own_names().values()):
        assert not re.search(rf"\b{re.escape(name)}\b", text), name
