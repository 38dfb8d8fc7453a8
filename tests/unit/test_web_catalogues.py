"""The web client's words (web/src/locales/*.json, ICU MessageFormat): every code the API
answers with, every phase, every action and its fields, every event the served games and the
server tell, every colour, card, objective, unit and marker of every game has its words in
each language; and every message parses, naming the same arguments in every language."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from graphql import GraphQLEnumType, GraphQLInputObjectType, GraphQLUnionType

from api.event_kinds import served_kinds
from api.graphql.event_types import type_name
from api.graphql.schema import schema
from tests.node_tools import WEB, node
from variants import VARIANTS

LOCALES = WEB / "src" / "locales"
CATALOGUES = {path.stem: json.loads(path.read_text()) for path in sorted(LOCALES.glob("*.json"))}
TYPES = schema._schema.type_map


def _enum(name: str) -> set[str]:
    found = TYPES[name]
    assert isinstance(found, GraphQLEnumType)
    return set(found.values)


def _missing(keys: set[str]) -> dict[str, list[str]]:
    return {
        locale: sorted(keys - set(messages))
        for locale, messages in CATALOGUES.items()
        if keys - set(messages)
    }


def test_both_languages_and_the_same_messages() -> None:
    assert set(CATALOGUES) == {"it", "en"}
    assert set(CATALOGUES["it"]) == set(CATALOGUES["en"])


def test_every_error_code_is_a_sentence() -> None:
    # The rules' and the lobby's codes, and those of a refused request.
    request_codes = {"BAD_USER_INPUT", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "RATE_LIMITED"}
    assert _missing({f"error.{code}" for code in _enum("ErrorCode") | request_codes}) == {}


def test_every_phase_has_a_name() -> None:
    assert _missing({f"phase.{phase}" for phase in _enum("Phase")}) == {}


def test_every_action_and_its_fields_are_words() -> None:
    actions = TYPES["ActionInput"]
    assert isinstance(actions, GraphQLInputObjectType)
    keys = {f"action.{member}" for member in actions.fields}
    for member, field in actions.fields.items():
        shape = field.type
        if isinstance(shape, GraphQLInputObjectType):
            for name in shape.fields:
                own = f"param.{member}.{name}"
                keys.add(own if own in CATALOGUES["en"] else f"param.{name}")
    assert _missing(keys) == {}


def test_every_event_the_games_and_the_server_tell_is_a_sentence() -> None:
    """Every type of the GameEventDetail union (every kind of event of the served games and
    of the server, by the name the client sees it under) has its renderer, and its words in
    each language; the union holds every kind the games and the server tell."""
    union = TYPES["GameEventDetail"]
    assert isinstance(union, GraphQLUnionType)
    members = {member.name for member in union.types}
    told = {type_name(variant, cls) for variant, cls in served_kinds()} | {"UnknownEvent"}
    assert members == told
    renderers = "".join(
        (WEB / "src" / "events" / name).read_text() for name in ("common.ts", "games.ts")
    )
    assert {name for name in members if not re.search(rf"^  {name}: ", renderers, re.M)} == set()
    for locale, messages in CATALOGUES.items():
        without = {
            name
            for name in members
            if not any(
                key == f"event.{name}" or key.startswith(f"event.{name}.") for key in messages
            )
        }
        assert without == set(), locale


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_colour_card_objective_unit_and_marker_of_a_game_has_words(name: str) -> None:
    variant = VARIANTS[name]
    rules = variant._load("rules.json")
    keys = {f"colour.{colour['id']}" for colour in rules["colours"]}
    # Cards by kind: classic's by the symbol a territory's card shows, and its jollies;
    # S.P.Q.RisiKo!'s by kind; RisiKo! Più's deck; FutuRisiKo!'s types.
    cards = rules.get("cards") if isinstance(rules.get("cards"), dict) else {}
    kinds = set(cards.get("territories", {}).values()) | {k for k in cards if k != "territories"}
    kinds |= set(rules.get("deck", {})) | set(rules.get("card_types", {}))
    keys |= {f"card.{kind}" for kind in kinds}
    objectives = [
        o["id"] for o in rules.get("objectives", []) if not o["id"].startswith("destroy_")
    ]
    keys |= {f"objective.{objective}" for objective in objectives}
    game = variant.game_class
    keys |= {f"units.{kind}" for kind in game.UNIT_KINDS} | {
        f"unit.{kind}" for kind in game.UNIT_KINDS
    }
    keys |= {f"marker.{kind}" for kind in game.MARKER_KINDS}
    assert _missing(keys) == {}


def test_every_message_parses_and_names_the_same_arguments_in_every_language() -> None:
    done = subprocess.run(
        [node(WEB), "scripts/check-catalogues.mjs"],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["problems"] == []
    assert seen["messages"] == len(CATALOGUES["en"])
