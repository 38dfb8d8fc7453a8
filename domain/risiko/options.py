"""The RisiKo! mechanics' options (each declared beside its mechanic), and what a game that
lacks them plays by."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from domain.options import OFF, GameOptions
from domain.risiko.attack import AttackOptions
from domain.risiko.defence import DefenceOptions
from domain.risiko.objectives import ObjectiveOptions
from domain.risiko.strategic import GarrisonOptions

MECHANICS_OPTIONS = (DefenceOptions, AttackOptions, GarrisonOptions, ObjectiveOptions)


def played_off(*offered: type[GameOptions], **fixed: Any) -> Mapping[str, Any]:
    """The `RETIRED` options of a game that offers only the mechanics' options of `offered`:
    each other one at the value a game without it plays by (its `off`), or at the value its
    rules fix (`fixed`), as plain values. A game stored with them still loads, and a client may
    restate them."""
    kept = {f.name for options in offered for f in fields(options)}
    retired: dict[str, Any] = {}
    for options in MECHANICS_OPTIONS:
        for field_ in fields(options):
            if field_.name in kept or field_.name in GameOptions.__dataclass_fields__:
                continue
            value = fixed.pop(field_.name, field_.metadata[OFF])
            retired[field_.name] = value.value if isinstance(value, enum.Enum) else value
    if fixed:
        raise TypeError(f"not an option of the RisiKo! mechanics: {', '.join(fixed)}")
    return retired
