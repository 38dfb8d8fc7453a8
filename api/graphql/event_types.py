"""The schema's share of the events the games register: the GameEventDetail union, one type
per kind of event of the games served (api/event_kinds.py), built as ActionInput and
LegalAction are (api/graphql/generated.py), so a game that tells events of its own is in the
schema with nothing written here.

A type is named after its kind, a variant's own kinds with the variant's name before it
(`FuturisikoPhaseTurnStarted`: two games may each have a kind of one name), and described by
its docstring; its fields are the event's, described by their `doc`: numbers, texts, lists,
the domain's enums where a field names one (a phase, a bot's policy: `domain.events.named`),
a type of their own for tuples of a fixed shape (`domain.events.entries`), and JSON for the
lobby's bags of options.
"""

from __future__ import annotations

import enum
import re
import typing
from collections.abc import Callable
from dataclasses import Field, fields
from types import NoneType, UnionType
from typing import TYPE_CHECKING, Annotated, Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types.enum import has_enum_definition

from api.event_kinds import UnknownEvent, served_kinds
from api.graphql import clock as _clock  # noqa: F401  (the service's enums, BotPolicy among them)
from api.graphql import enums
from domain.events import Event
from domain.flow import Phase
from variants import Variant

Convert = Callable[[Any], Any]


def type_name(variant: Variant | None, cls: type[Event]) -> str:
    """The GraphQL type of a kind of event: its name, after its variant's for a variant's own."""
    if variant is None:
        return cls.__name__
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", variant.name)) + (
        cls.__name__
    )


def _listed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_listed(item) for item in value]
    return value


def _as_is(value: Any) -> Any:
    return value


def _scalar(hint: Any) -> tuple[Any, Convert]:
    """The GraphQL type of a plain annotation, and how a value of it is shown."""
    if hint in (int, str, bool, float):
        return hint, _as_is
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        item, _ = _scalar(arguments[0])
        return list[item], _listed  # type: ignore[valid-type]
    if hint is dict or origin is dict:
        return JSON, JSON
    raise TypeError(f"no GraphQL type for an event field of type {hint!r}")


def _enum(values: object) -> tuple[Any, Convert]:
    """The schema's enum for a text naming one of `values`, and the member of a value."""
    if values is Phase:
        return enums.Phase, lambda value: enums.phase_member(Phase.of(value))
    if isinstance(values, type) and issubclass(values, enum.Enum):
        if not has_enum_definition(values):  # one the schema does not show yet
            strawberry.enum(values, description=values.__doc__)
        return values, values
    raise TypeError(f"no GraphQL enum for {values!r}")


_ENTRY_TYPES: dict[type, Any] = {}


def _entry(shape: type) -> tuple[Any, Convert]:
    """A type of its own for tuples of `shape` (a described dataclass), and a tuple's value."""
    if shape not in _ENTRY_TYPES:
        _ENTRY_TYPES[shape] = _object(shape.__name__, shape, shape.__doc__)
    entry_type, _ = _ENTRY_TYPES[shape]
    names = [f.name for f in fields(shape)]

    def convert(items: Any) -> Any:
        return [entry_type(**dict(zip(names, item, strict=True))) for item in items]

    return list[entry_type], convert  # type: ignore[valid-type]


def _field(field_: Field[Any], hint: Any) -> tuple[Any, Convert]:
    """The GraphQL type of an event's field, and how its value is shown."""
    optional = isinstance(hint, UnionType) and NoneType in typing.get_args(hint)
    if optional:
        hint = next(part for part in typing.get_args(hint) if part is not NoneType)
    if "values" in field_.metadata:
        shown, convert = _enum(field_.metadata["values"])
    elif "entry" in field_.metadata:
        shown, convert = _entry(field_.metadata["entry"])
    else:
        shown, convert = _scalar(hint)
    if not optional:
        return shown, convert
    return typing.Optional[shown], lambda value: None if value is None else convert(value)  # noqa: UP045


def _object(name: str, cls: type, description: str | None) -> tuple[Any, dict[str, Convert]]:
    """A GraphQL object type of the dataclass `cls`'s fields, and how each value is shown."""
    hints = typing.get_type_hints(cls)
    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {"__annotations__": annotations}
    converts: dict[str, Convert] = {}
    for field_ in fields(cls):
        annotations[field_.name], converts[field_.name] = _field(field_, hints[field_.name])
        namespace[field_.name] = strawberry.field(description=field_.metadata["doc"])
    return strawberry.type(type(name, (), namespace), description=description), converts


@strawberry.type(
    name="UnknownEvent",
    description="An event this server cannot read: stored by another version of it (a kind it "
    "does not know, or one of another shape).",
)
class UnknownEventType:
    stored_type: str = strawberry.field(description="The name its kind was stored under.")
    data: JSON = strawberry.field(description="What was stored, as it was.")


_TYPES: dict[type[Event], tuple[Any, dict[str, Convert]]] = {
    cls: _object(type_name(variant, cls), cls, cls.__doc__) for variant, cls in served_kinds()
}


def detail_of(event: Event) -> Any:
    """`event` as its type of the GameEventDetail union."""
    known = _TYPES.get(type(event))
    if known is None:
        return UnknownEventType(stored_type=event.type, data=JSON(event.to_dict()))
    shown, converts = known
    return shown(**{name: convert(getattr(event, name)) for name, convert in converts.items()})


if TYPE_CHECKING:
    GameEventDetail = Any
else:
    GameEventDetail = Annotated[
        typing.Union[(*(shown for shown, _ in _TYPES.values()), UnknownEventType)],
        strawberry.union(
            "GameEventDetail",
            description="What happened, typed: one type per kind of event of the games this "
            "server plays (select the fields of the ones you need with `... on`).",
        ),
    ]

__all__ = ["GameEventDetail", "UnknownEvent", "detail_of", "type_name"]
