"""The schema's enum ErrorCode, built from the registries: the codes every game shares
(domain.errors.ErrorCode) and the codes each served game declares in its folder (a
`RuleViolation` subclass with its `code`, described by its docstring). A game that brings a
code of its own is in the enum with nothing written here; a code string never changes."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

import strawberry

from domain.errors import RULE_CODES, code_description
from domain.errors import ErrorCode as SharedCode
from variants import served


def served_codes() -> list[str]:
    """The shared codes in their order, then the served games' own, alphabetically."""
    own = sorted(
        code
        for code, cls in RULE_CODES.items()
        if code not in SharedCode.__members__ and served(cls)
    )
    return [*(code.value for code in SharedCode), *own]


# Members known only once the games are imported: built here, at run time.
_CODES = enum.Enum(  # type: ignore[misc]
    "ErrorCode",
    {
        code: strawberry.enum_value(code, description=code_description(code))
        for code in served_codes()
    },
)
strawberry.enum(
    _CODES,
    description="Stable machine codes of user errors: the rules' (those every game shares and "
    "each game's own) and the lobby's.",
)
if TYPE_CHECKING:
    ErrorCode = Any
else:
    ErrorCode = _CODES


def code_member(code: str) -> Any:
    """The schema's member for a code (a shared one, or a served game's)."""
    return _CODES(code)
