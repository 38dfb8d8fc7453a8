"""A game's options through the API, generated from each game's options class: every option in
its variant's own types (`<Name>Options`, `<Name>OptionsInput`, the @oneOf VariantOptionsInput)
with its declared type, default and description, the catalogue's descriptions from the same
declarations, and the released bag of every game's options (GameOptions, GameOptionsInput)
kept as it was."""

from __future__ import annotations

import enum
from collections.abc import AsyncIterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest
from graphql import (
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLNonNull,
    GraphQLObjectType,
)
from strawberry.utils.str_converters import to_camel_case

from api.graphql.options import type_stem
from api.graphql.schema import schema
from domain.options import DOC, OFF, GameOptions, option
from tests.integration.api_support import Api, data, game_count, in_process
from variants import VARIANTS, Variant

Json = dict[str, Any]
TYPES = schema._schema.type_map
pytestmark = pytest.mark.anyio

CREATED = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    game {
      options { victoryPoints roundLimit defenderDice }
      variantOptions {
        __typename roundLimit timeLimitMinutes
        ... on SpqrOptions { victoryPoints protectedRounds }
        ... on ClassicOptions { defenderDice objectives }
      }
    }
    userErrors { code message }
  }
}"""


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    async with in_process(tmp_path / "data") as running:
        yield running


async def create(api: Api, **given: Any) -> Json:
    payload = (await data(api.client, CREATED, {"input": given}))["createGame"]
    assert isinstance(payload, dict)
    return payload


def plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_each_game_has_its_own_options_types_as_declared(name: str) -> None:
    variant = VARIANTS[name]
    declared = fields(variant.options_class)
    defaults = variant.options_class()
    own = TYPES[f"{type_stem(variant)}Options"]
    given = TYPES[f"{type_stem(variant)}OptionsInput"]
    assert isinstance(own, GraphQLObjectType)
    assert isinstance(given, GraphQLInputObjectType)
    assert [i.name for i in own.interfaces] == ["VariantOptions"]
    assert list(own.fields) == [to_camel_case(f.name) for f in declared]
    assert list(given.fields) == list(own.fields)
    for field_ in declared:
        camel = to_camel_case(field_.name)
        assert own.fields[camel].description == field_.metadata[DOC]
        assert str(given.fields[camel].description).startswith(field_.metadata[DOC])
        default = given.fields[camel].default_value
        assert plain(default) == plain(getattr(defaults, field_.name)), camel
    members = TYPES["VariantOptionsInput"]
    assert isinstance(members, GraphQLInputObjectType)
    assert members.fields[to_camel_case(name)].type is given


def test_what_every_game_has_is_the_interface() -> None:
    interface = TYPES["VariantOptions"]
    assert isinstance(interface, GraphQLInterfaceType)
    assert list(interface.fields) == [to_camel_case(f.name) for f in fields(GameOptions)]


def test_the_bag_of_every_games_options_has_each_option_once() -> None:
    bag = TYPES["GameOptionsInput"]
    shown = TYPES["GameOptions"]
    assert isinstance(bag, GraphQLInputObjectType)
    assert isinstance(shown, GraphQLObjectType)
    names = {to_camel_case(f.name) for v in VARIANTS.values() for f in fields(v.options_class)}
    assert set(bag.fields) == names | {"tournament"}
    assert set(shown.fields) == names
    declared = {f.name: f for v in VARIANTS.values() for f in fields(v.options_class)}
    for name, field_ in declared.items():  # what a game may lack is null for it, unless...
        camel = to_camel_case(name)
        valued = all(  # ...every game has a value: its own, its rules' (retired) or the off
            name in {f.name for f in fields(v.options_class)}
            or name in v.options_class.RETIRED
            or OFF in field_.metadata
            for v in VARIANTS.values()
        )
        assert isinstance(shown.fields[camel].type, GraphQLNonNull) == (
            valued and not isinstance(field_.default, type(None))
        ), camel
        assert not isinstance(bag.fields[camel].type, GraphQLNonNull), camel


BAG = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    game { options { defenderDice minimumGarrison protectedRounds objectives victoryPoints } }
  }
}"""


@pytest.mark.parametrize(
    ("variant", "shown"),
    [
        ("classic", ("MAXIMUM", False, 4, "STANDARD", None)),
        ("spqr", ("MAXIMUM", True, 4, "STANDARD", 20)),  # its rules' dice and garrison
        ("piu", ("MAXIMUM", False, 0, "STANDARD", None)),
        ("futurisiko", ("MAXIMUM", False, 0, "STANDARD", None)),
    ],
)
async def test_the_bag_shows_what_each_game_plays_by(
    api: Api, variant: str, shown: tuple[Any, ...]
) -> None:
    made = (await data(api.client, BAG, {"input": {"variant": variant}}))["createGame"]
    assert tuple(made["game"]["options"].values()) == shown


async def test_a_game_is_created_with_its_own_options_input(api: Api) -> None:
    made = await create(api, variant="spqr", variantOptions={"spqr": {"victoryPoints": 12}})
    assert made["userErrors"] == []
    own = made["game"]["variantOptions"]
    assert own["__typename"] == "SpqrOptions"
    assert own["victoryPoints"] == 12
    assert own["protectedRounds"] == VARIANTS["spqr"].options().to_dict()["protected_rounds"]
    assert made["game"]["options"]["victoryPoints"] == 12  # the bag says the same
    unlimited = {"spqr": {"victoryPoints": None, "roundLimit": 10}}
    made = await create(api, variant="spqr", variantOptions=unlimited)
    assert made["userErrors"] == []
    assert made["game"]["variantOptions"]["victoryPoints"] is None
    assert made["game"]["variantOptions"]["roundLimit"] == 10
    classic = await create(api, variant="classic", variantOptions={"classic": {}})
    assert classic["game"]["variantOptions"]["__typename"] == "ClassicOptions"
    assert classic["game"]["options"]["victoryPoints"] is None


async def test_a_game_created_with_the_bag_shows_its_own_options_too(api: Api) -> None:
    made = await create(api, variant="spqr", options={"victoryPoints": 9, "roundLimit": 30})
    own = made["game"]["variantOptions"]
    assert (own["__typename"], own["victoryPoints"], own["roundLimit"]) == ("SpqrOptions", 9, 30)


@pytest.mark.parametrize(
    "given",
    [
        {"variant": "classic", "variantOptions": {"spqr": {}}},
        {"variant": "spqr", "variantOptions": {"spqr": {}}, "options": {"roundLimit": 3}},
        {"variant": "spqr", "variantOptions": {"spqr": {"victoryPoints": 0}}},
        {"variant": "classic", "variantOptions": {"classic": {"protectedRounds": -1}}},
    ],
)
async def test_wrong_own_options_are_refused_and_create_nothing(api: Api, given: Json) -> None:
    before = await game_count(api.service)
    made = await create(api, **given)
    assert made["game"] is None
    assert [e["code"] for e in made["userErrors"]] == ["INVALID_OPTIONS"]
    assert await game_count(api.service) == before


async def test_the_catalogue_describes_each_option_as_declared(api: Api) -> None:
    query = "{ variants { name options { name default description } } }"
    for shown in (await data(api.client, query))["variants"]:
        declared = VARIANTS[shown["name"]].options_class.__dataclass_fields__
        for entry in shown["options"]:
            assert entry["description"] == declared[entry["name"]].metadata[DOC]


def test_an_option_without_a_description_cannot_be_declared() -> None:
    @dataclass(frozen=True, slots=True)
    class Undescribed(GameOptions):
        speed: int = 3

    class Fast(VARIANTS["classic"].game_class):  # type: ignore[misc]
        OPTIONS_CLASS = Undescribed

    with pytest.raises(TypeError, match="speed"):
        Variant(name="fast", title="Fast", package="variants.classic", game_class=Fast)


def test_an_option_of_a_type_no_client_can_send_cannot_be_declared() -> None:
    @dataclass(frozen=True, slots=True)
    class Odd(GameOptions):
        ratio: float = option(0.5, "A ratio.")

    class Fast(VARIANTS["classic"].game_class):  # type: ignore[misc]
        OPTIONS_CLASS = Odd

    with pytest.raises(TypeError, match="ratio"):
        Variant(name="fast", title="Fast", package="variants.classic", game_class=Fast)
