"""The schema's share of what the games register: ActionInput's members from the kinds of
action (domain.actions.ACTION_TYPES), the LegalAction union from the legal families
(domain.legal.LEGAL_FAMILIES). A game that registers an action or a family of its own is in
the schema with nothing written here; names, fields, defaults and descriptions come from the
domain's declarations, and the ready `input` of a family is its `ready()` action in the very
shape ActionInput takes, so the two cannot drift apart.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import MISSING, Field, fields
from typing import TYPE_CHECKING, Annotated, Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types.arguments import InputContext
from strawberry.types.base import get_object_definition
from strawberry.utils.str_converters import to_camel_case

from api.text_inputs import DATA_NAME, TextRefused
from domain import actions as a
from domain import legal as lg
from domain.errors import InvalidAction
from domain.views import StateView
from variants import VARIANTS, served  # the variants register their kinds on import

_PLAIN_TYPES: dict[str, Any] = {"str": str, "int": int, "bool": bool}


def _graphql_type(field_: Field[Any]) -> Any:
    """The GraphQL-facing Python type of a domain field (annotations are strings here)."""
    written = str(field_.type)
    if written in _PLAIN_TYPES:
        return _PLAIN_TYPES[written]
    if written.endswith(" | None") and written[: -len(" | None")] in _PLAIN_TYPES:
        return typing.Optional[_PLAIN_TYPES[written[: -len(" | None")]]]  # noqa: UP045
    if written.startswith("tuple[str"):
        return list[str]
    if written.startswith("tuple[int"):
        return list[int]
    raise TypeError(f"no GraphQL type for a field of type {written!r}")


def _declared_fields(cls: type[Any], *, with_defaults: bool) -> dict[str, Any]:
    """Annotations and strawberry fields for a class body, one per dataclass field."""
    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {"__annotations__": annotations}
    for field_ in fields(cls):
        annotations[field_.name] = _graphql_type(field_)
        options: dict[str, Any] = {"description": field_.metadata.get("doc")}
        if with_defaults and field_.default is not MISSING:
            options["default"] = field_.default
        namespace[field_.name] = strawberry.field(**options)
    return namespace


def member(cls: type[a.Action]) -> str:
    """The ActionInput member of a kind of action: its kind in camelCase."""
    return to_camel_case(cls.kind)


_FIELDS: dict[type[a.Action], tuple[tuple[str, str], ...]] = {}


def _fields(cls: type[a.Action]) -> tuple[tuple[str, str], ...]:
    """Each field's name and its name in ActionInput, once per kind (asked on every submit
    and for every legal family of every state read)."""
    known = _FIELDS.get(cls)
    if known is None:
        known = _FIELDS[cls] = tuple((f.name, to_camel_case(f.name)) for f in fields(cls))
    return known


def _is_flag(cls: type[a.Action]) -> bool:
    """An action with no fields is a Boolean member (`endTurn: true`)."""
    return not _fields(cls)


SEAT_ACTIONS: tuple[type[a.Action], ...] = tuple(
    cls for cls in a.ACTION_TYPES.values() if cls.by_seat and served(cls)
)


def _input_type(cls: type[a.Action]) -> Any:
    name = "".join(part.capitalize() for part in cls.kind.split("_")) + "Input"
    body = _declared_fields(cls, with_defaults=True)
    return strawberry.input(type(name, (), body), description=cls.about or cls.summary)


_MEMBERS: tuple[tuple[str, type[a.Action]], ...] = tuple((member(c), c) for c in SEAT_ACTIONS)
_INPUT_TYPES: dict[str, Any] = {
    member(cls): (bool if _is_flag(cls) else _input_type(cls)) for cls in SEAT_ACTIONS
}


def _action_input() -> Any:
    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {"__annotations__": annotations}
    for cls in SEAT_ACTIONS:
        name = member(cls)
        annotations[name] = typing.Optional[_INPUT_TYPES[name]]  # noqa: UP045 (a runtime type)
        namespace[name] = strawberry.field(default=strawberry.UNSET, description=cls.summary)
    action_input = strawberry.input(
        type("ActionInput", (), namespace),
        one_of=True,
        description=f"Exactly one action. Each text in it (a territory, a card, a kind of unit…) "
        f"has {DATA_NAME.rule}, none of them control or format characters (INVALID_ACTION).",
    )
    get_object_definition(action_input, strict=True).from_input = _action_from_input
    return action_input


# ActionInput's members by GraphQL name: (Python name, type), filled on the first submit.
_MEMBER_TYPES: dict[str, tuple[str, Any]] = {}


def _action_from_input(cls: type, value: Mapping[str, Any], context: InputContext) -> Any:
    """An ActionInput from the one member a client sent (graphql-core checked `@oneOf`).

    Strawberry's own conversion names every field of an input type in GraphQL on every
    request, and ActionInput has a member for every kind of action of every game: a tenth of
    the server's work on each submitAction (benchmarks/suite.py --only held
    --profile-server). The members left out keep their default, UNSET.
    """
    if not _MEMBER_TYPES:
        for field_ in get_object_definition(cls, strict=True).fields:
            name = context.config.name_converter.from_field(field_)
            _MEMBER_TYPES[name] = (field_.python_name, field_.resolve_type())
    members = {}
    for name, given in value.items():
        python_name, member_type = _MEMBER_TYPES[name]
        members[python_name] = context.convert(given, member_type, name)
    return cls(**members)


def to_action(action: Any) -> a.Action:
    """The domain action an ActionInput names (raises InvalidAction for a bad value)."""
    for name, cls in _MEMBERS:
        value = getattr(action, name, strawberry.UNSET)
        if value is strawberry.UNSET or value is None:
            continue
        if _is_flag(cls):
            if value is not True:
                raise InvalidAction(f"{name} must be true to send it")
            return cls()
        values = {}
        for field_name, camel in _fields(cls):
            given = getattr(value, field_name)
            for text in given if isinstance(given, list) else (given,):
                _check_text(f"{name}.{camel}", text)
            values[field_name] = tuple(given) if isinstance(given, list) else given
        return cls(**values)
    raise InvalidAction("name exactly one action")


def _check_text(field_name: str, value: object) -> None:
    """An action's texts are names of the game's data: bounded before the rules read them
    (or repeat them in a refusal)."""
    if isinstance(value, str):
        try:
            DATA_NAME.check(value)
        except TextRefused as refused:
            raise InvalidAction(f"{field_name}: {refused.message}") from None


def ready_input(action: a.Action) -> dict[str, Any]:
    """`action` as an ActionInput, in JSON: what a client sends to submit it."""
    cls = type(action)
    if _is_flag(cls):
        return {member(cls): True}
    plain = action.to_dict()
    return {member(cls): {camel: plain[name] for name, camel in _fields(cls)}}


def _legal_type(cls: type[lg.LegalAction]) -> Any:
    body = _declared_fields(cls, with_defaults=False)
    body["__annotations__"]["input"] = JSON
    body["input"] = strawberry.field(description="A ready ActionInput from this family.")
    return strawberry.type(type(cls.name, (), body), description=cls.about)


_LEGAL_TYPES: dict[type[lg.LegalAction], Any] = {
    cls: _legal_type(cls) for cls in lg.LEGAL_FAMILIES if served(cls)
}


def legal_type(family: lg.LegalAction) -> Any:
    """The GraphQL shape of a family, with a ready-to-send ActionInput."""
    values = {
        f.name: list(value) if isinstance(value := getattr(family, f.name), tuple) else value
        for f in fields(family)
    }
    return _LEGAL_TYPES[type(family)](**values, input=JSON(ready_input(family.ready())))


@strawberry.interface(
    description="What a game shows of its own state, beyond the fields every game has: one "
    "type per game (ClassicState, SpqrState, …); select the fields of yours with `... on`."
)
class GameState:
    turn_order: list[int] = strawberry.field(
        description="The seats in the order they play (this round's, in games that draw it "
        "every round)."
    )


def _state_type(cls: type[StateView]) -> Any:
    body = _declared_fields(cls, with_defaults=False)
    return strawberry.type(type(cls.name, (GameState,), body), description=cls.__doc__)


# One type per kind of state the registered games show, in the order of the variants.
_STATE_TYPES: dict[type[StateView], Any] = {
    cls: _state_type(cls)
    for cls in dict.fromkeys(variant.game_class.STATE_VIEW for variant in VARIANTS.values())
}
STATE_TYPES: tuple[Any, ...] = tuple(_STATE_TYPES.values())


def state_type(view: StateView) -> GameState:
    """A game's state view in its GraphQL type."""
    values = {
        f.name: list(value) if isinstance(value := getattr(view, f.name), tuple) else value
        for f in fields(view)
    }
    state: GameState = _STATE_TYPES[type(view)](**values)
    return state


if TYPE_CHECKING:
    ActionInput = Any
    LegalAction = Any
else:
    ActionInput = _action_input()
    LegalAction = Annotated[
        typing.Union[tuple(_LEGAL_TYPES.values())],  # noqa: UP007 (built at run time)
        strawberry.union("LegalAction", description="A family of actions the viewer may submit."),
    ]
