"""The schema's options types, built from the served games' options classes (as ActionInput is
built from their actions): names, types, defaults and descriptions come from each option's
declaration (`domain.options.option`), so a game that brings an option of its own is in the
schema with nothing written here.

- Per game: `<Name>Options`, what a game of it was created with (implementing the interface
  VariantOptions: what every game has), and `<Name>OptionsInput`, each field with its default:
  the members of the @oneOf `VariantOptionsInput` (CreateGameInput.variantOptions).
- For the clients written against the first release: `GameOptionsInput` and `GameOptions`, one
  bag of every served game's options, nullable where a game has no value for it.
"""

from __future__ import annotations

import enum
import typing
from collections.abc import Mapping
from dataclasses import fields
from typing import TYPE_CHECKING, Any

import strawberry
from strawberry.utils.str_converters import to_camel_case

from api.text_inputs import DATA_NAME
from domain.errors import InvalidOptions
from domain.options import DOC, OFF, is_optional, option_types, value_type
from domain.options import GameOptions as BaseOptions
from variants import VARIANTS, Variant

Namespace = dict[str, Any]


def _marked(kind: type) -> type:
    """An option's value type; an enum is marked for the schema once, with its docstring."""
    if issubclass(kind, enum.Enum) and not hasattr(kind, "_enum_definition"):
        strawberry.enum(kind, description=" ".join((kind.__doc__ or kind.__name__).split()))
    return kind


def _graphql_type(options: type[BaseOptions], name: str, *, nullable: bool = False) -> Any:
    hint = option_types(options)[name]
    kind = _marked(value_type(hint, name))
    return typing.Optional[kind] if nullable or is_optional(hint) else kind  # noqa: UP045


def _doc(options: type[BaseOptions], name: str) -> str:
    return str(options.__dataclass_fields__[name].metadata[DOC])


def _input_doc(options: type[BaseOptions], name: str, text: str) -> str:
    """An input field's description: a text's states its bound (api/text_inputs)."""
    if value_type(option_types(options)[name], name) is str:
        return f"{text} ({DATA_NAME.rule})"
    return text


def _typed(options: type[BaseOptions], name: str, value: Any) -> Any:
    """A stored plain value as the schema shows it (an enum's member)."""
    kind = value_type(option_types(options)[name], name)
    return kind(value) if value is not None and issubclass(kind, enum.Enum) else value


def _namespace() -> tuple[Namespace, dict[str, Any]]:
    annotations: dict[str, Any] = {}
    return {"__annotations__": annotations}, annotations


def type_stem(variant: Variant) -> str:
    """The stem of a variant's own types' names: classic → ClassicOptions."""
    camel = to_camel_case(variant.name)
    return camel[:1].upper() + camel[1:]


# ---------------------------------------------------------------------- each game's own


def _interface() -> Any:
    namespace, annotations = _namespace()
    for field_ in fields(BaseOptions):
        annotations[field_.name] = _graphql_type(BaseOptions, field_.name)
        namespace[field_.name] = strawberry.field(description=_doc(BaseOptions, field_.name))
    return strawberry.interface(
        type("VariantOptions", (), namespace),
        description="The options a game was created with, in its variant's own type "
        "(ClassicOptions, SpqrOptions, …: select yours with `... on`); here, what every "
        "game has.",
    )


def _own_type(variant: Variant, interface: Any) -> Any:
    options = variant.options_class
    namespace, annotations = _namespace()
    for field_ in fields(options):
        annotations[field_.name] = _graphql_type(options, field_.name)
        namespace[field_.name] = strawberry.field(description=_doc(options, field_.name))
    return strawberry.type(
        type(f"{type_stem(variant)}Options", (interface,), namespace),
        description=f"The options of a {variant.title} game.",
    )


def _own_input(variant: Variant) -> Any:
    options = variant.options_class
    defaults = options()
    namespace, annotations = _namespace()
    for field_ in fields(options):
        annotations[field_.name] = _graphql_type(options, field_.name)
        namespace[field_.name] = strawberry.field(
            default=getattr(defaults, field_.name),
            description=_input_doc(options, field_.name, _doc(options, field_.name)),
        )
    return strawberry.input(
        type(f"{type_stem(variant)}OptionsInput", (), namespace),
        description=f"Options of a new {variant.title} game: an option omitted takes the "
        "default shown; null, where an option takes it, is the option's own (no limit, no "
        "target).",
    )


def _members_input(inputs: Mapping[str, Any]) -> Any:
    namespace, annotations = _namespace()
    for name, variant in VARIANTS.items():
        member = to_camel_case(name)
        annotations[member] = typing.Optional[inputs[name]]  # noqa: UP045 (a runtime type)
        namespace[member] = strawberry.field(
            default=strawberry.UNSET, description=f"The options of a {variant.title} game."
        )
    return strawberry.input(
        type("VariantOptionsInput", (), namespace),
        one_of=True,
        description="Options of a new game, in its variant's own input type: exactly one "
        "member, the one of CreateGameInput.variant (else INVALID_OPTIONS).",
    )


_INTERFACE = _interface()
_OWN_TYPES: dict[str, Any] = {name: _own_type(v, _INTERFACE) for name, v in VARIANTS.items()}
_OWN_INPUTS: dict[str, Any] = {name: _own_input(v) for name, v in VARIANTS.items()}
OWN_OPTION_TYPES: tuple[Any, ...] = tuple(_OWN_TYPES.values())


def variant_options(variant: Variant, stored: Mapping[str, Any]) -> Any:
    """The options a game was created with (its row's), in its variant's own type."""
    options = variant.options_class
    values = options.from_dict(dict(stored))
    own: Any = _OWN_TYPES[variant.name]
    return own(**{f.name: getattr(values, f.name) for f in fields(options)})


# ---------------------------------------------------------------------- every game's, in one bag


def _everyone_s() -> dict[str, list[Variant]]:
    """Every served option by name, in the order the games declare them, with its games."""
    found: dict[str, list[Variant]] = {}
    for variant in VARIANTS.values():
        for field_ in fields(variant.options_class):
            found.setdefault(field_.name, []).append(variant)
    return found


_EVERYONE_S = _everyone_s()


def _owners(name: str) -> type[BaseOptions]:
    return _EVERYONE_S[name][0].options_class


def _bag_doc(name: str) -> str:
    """An option's description, saying which games have it when not all do."""
    games = _EVERYONE_S[name]
    text = _doc(_owners(name), name)
    if len(games) == len(VARIANTS):
        return text
    titles = " and ".join(v.title for v in games)
    if _everywhere(name):
        return f"{text} (An option of {titles}; the other games show the value they play by.)"
    return f"{text} (An option of {titles}; null in the other games.)"


_UNSET = object()


def _value_for(variant: Variant, name: str) -> Any:
    """What a game of `variant` shows for an option it lacks: its rules' value (a retired
    option), else the value a game without the option plays as (its `off`), else _UNSET."""
    options = variant.options_class
    if name in options.RETIRED:
        return _typed(_owners(name), name, options.RETIRED[name])
    return _owners(name).__dataclass_fields__[name].metadata.get(OFF, _UNSET)


def _everywhere(name: str) -> bool:
    """Whether every served game has a value for the option (else null in the others)."""
    games = _EVERYONE_S[name]
    return all(v in games or _value_for(v, name) is not _UNSET for v in VARIANTS.values())


def _bag_type() -> Any:
    namespace, annotations = _namespace()
    for name in _EVERYONE_S:
        options = _owners(name)
        annotations[name] = _graphql_type(options, name, nullable=not _everywhere(name))
        namespace[name] = strawberry.field(description=_bag_doc(name))
    return strawberry.type(
        type("GameOptions", (), namespace),
        description="The options a game was created with, every game's in one type (null "
        "where the game has no such option); Game.variantOptions has the game's own type.",
    )


def _bag_input() -> Any:
    namespace, annotations = _namespace()
    for name in _EVERYONE_S:
        annotations[name] = _graphql_type(_owners(name), name, nullable=True)
        text = _input_doc(_owners(name), name, _bag_doc(name))
        namespace[name] = strawberry.field(default=None, description=text)
    annotations["tournament"] = typing.Optional[bool]  # noqa: UP045 (a runtime type)
    namespace["tournament"] = strawberry.field(
        default=None, description="Start from the tournament preset; other fields override it."
    )
    return strawberry.input(
        type("GameOptionsInput", (), namespace),
        description="Options of a new game; every field omitted (or null) takes the variant's "
        "default. An option the variant does not have, or a value its rules refuse, is "
        "INVALID_OPTIONS. See Variant.options; CreateGameInput.variantOptions takes the "
        "variant's own input type instead.",
    )


def game_options(variant: Variant, stored: Mapping[str, Any]) -> Any:
    """The options a game was created with (its row's), in the one bag of every game's."""
    values: dict[str, Any] = {}
    for name in _EVERYONE_S:
        if name in stored:
            values[name] = _typed(_owners(name), name, stored[name])
        else:
            shown = _value_for(variant, name)
            values[name] = None if shown is _UNSET else shown
    bag: Any = _BAG
    return bag(**values)


# ---------------------------------------------------------------------- what createGame was given


def chosen_options(variant: str, given: Any | None, own: Any | None) -> dict[str, Any]:
    """The options a createGame input gives, as plain values over the variant's defaults (the
    service applies them to its options class): the bag's (the tournament preset first, then
    each field set) or the variant's own input's (every field, defaults included)."""
    if given is not None and own is not None:
        raise InvalidOptions("give options or variantOptions, not both")
    if own is not None:
        return _own_chosen(variant, own)
    if given is None:
        return {}
    overrides: dict[str, Any] = {}
    if given.tournament:
        chosen = VARIANTS.get(variant)
        overrides = (chosen.options_class if chosen else BaseOptions).tournament_overrides()
    for name in _EVERYONE_S:
        value = getattr(given, name)
        if value is not None:
            overrides[name] = value.value if isinstance(value, enum.Enum) else value
    return overrides


def _own_chosen(variant: str, own: Any) -> dict[str, Any]:
    given = [
        name
        for name in VARIANTS
        if getattr(own, to_camel_case(name), strawberry.UNSET) not in (strawberry.UNSET, None)
    ]
    if given != [variant]:
        raise InvalidOptions(f"variantOptions: give the member {to_camel_case(variant)} only")
    values = getattr(own, to_camel_case(variant))
    return {
        f.name: (v.value if isinstance(v := getattr(values, f.name), enum.Enum) else v)
        for f in fields(VARIANTS[variant].options_class)
    }


_BAG = _bag_type()
if TYPE_CHECKING:
    GameOptions = Any
    GameOptionsInput = Any
    VariantOptionsInput = Any
    VariantOptions = Any
else:
    GameOptions = _BAG
    GameOptionsInput = _bag_input()
    VariantOptionsInput = _members_input(_OWN_INPUTS)
    VariantOptions = _INTERFACE
