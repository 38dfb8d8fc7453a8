"""Which kinds of event a game may hold, found in the registry (domain.events.EVENT_TYPES) the
way the API finds the kinds of action (variants.served): the domain's shared kinds and the
service's own (the lobby's, the clock's) in every game, and a registered variant's own, those
its folder declares, in its games only. Two games may each have a kind of the same name
(FutuRisiKo! and the skirmish test game both tell a PhaseTurnStarted), so stored data is read
back by its name among its own game's kinds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.events import EVENT_TYPES, Event
from variants import VARIANTS, Variant

SHARED_MODULES = ("domain.", "api.")


def owner(cls: type[Event]) -> Variant | None:
    """The registered variant whose folder declares `cls`; None for any other kind."""
    module = cls.__module__
    for variant in VARIANTS.values():
        if module == variant.package or module.startswith(f"{variant.package}."):
            return variant
    return None


def shared(cls: type[Event]) -> bool:
    """A kind every game may hold: the domain's, or the service's own."""
    return cls.__module__.startswith(SHARED_MODULES)


def served_kinds() -> list[tuple[Variant | None, type[Event]]]:
    """Every kind of event of the games this process serves, with the variant that owns it
    (None: every game's): the shared kinds, then each variant's own, in the registry's order."""
    found: list[tuple[Variant | None, type[Event]]] = [
        (None, cls) for cls in sorted(filter(shared, EVENT_TYPES), key=_declared_order)
    ]
    for variant in VARIANTS.values():
        own = [cls for cls in EVENT_TYPES if owner(cls) is variant]
        found += [(variant, cls) for cls in sorted(own, key=_declared_order)]
    return found


def _declared_order(cls: type[Event]) -> tuple[bool, str, int]:
    """The domain's kinds first, then by module, then as each module declares them: an order
    that does not hang on which module a process happened to import first (the served schema
    is the exported one)."""
    return (not cls.__module__.startswith("domain."), cls.__module__, EVENT_TYPES.index(cls))


_KINDS: dict[tuple[str, int, int], Mapping[str, type[Event]]] = {}


def kinds_of(variant: str) -> Mapping[str, type[Event]]:
    """The kinds of event a game of `variant` may hold, by name."""
    key = (variant, len(EVENT_TYPES), len(VARIANTS))  # a kind or a game registered later
    known = _KINDS.get(key)
    if known is None:
        kinds: dict[str, type[Event]] = {}
        for cls in EVENT_TYPES:
            home = owner(cls)
            held = shared(cls) if home is None else home.name == variant
            if held and kinds.setdefault(cls.__name__, cls) is not cls:
                raise ValueError(f"two kinds of event of {variant} are called {cls.__name__}")
        known = _KINDS[key] = kinds
    return known


@dataclass(frozen=True, slots=True)
class UnknownEvent(Event):
    """An event this server cannot read: stored by another version of it (a kind it does not
    know, or of another shape). Its data is kept as it was, and goes back as it came."""

    data: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.data.get("type"))

    def to_dict(self) -> dict[str, Any]:
        return self.data
