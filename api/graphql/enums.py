"""The schema's enums: the domain's own, as they are (the options' enums: api/graphql/options)."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

import strawberry

import variants  # noqa: F401  (the games declare their phases on import)
from api.stores.base import GameStatus as StoredStatus
from domain.board import SpaceKind as DomainSpaceKind
from domain.flow import Phase as DomainPhase
from domain.odds import TieRule as DomainTieRule

# The domain's own enums, as they are (Strawberry marks the class itself): a value added
# there is in the schema at once, and resolvers hand the domain's members over unconverted.
GameStatus = StoredStatus
TieRule = DomainTieRule
SpaceKind = DomainSpaceKind
for _enum, _description in (
    (GameStatus, "Where a game is in its life."),
    (TieRule, "How dice ties are settled."),
    (SpaceKind, "What a space of the board is."),
):
    strawberry.enum(_enum, description=_description)


# The phases every game declares (domain.flow.Phase.declare), in the order they were declared:
# members known only once the games are imported, so built here, at run time.
_MEMBERS = [(phase.name, phase.value) for phase in DomainPhase.declared()]
_PHASES = enum.Enum("Phase", _MEMBERS)  # type: ignore[misc]
strawberry.enum(
    _PHASES,
    description="The part of the turn the game is in. S.P.Q.RisiKo! goes through REINFORCE, "
    "NAVAL_REINFORCE, NAVAL_MOVE, NAVAL_COMBAT, SEA_ATTACK and ATTACK in that order (its SETUP "
    "is the initial occupation); classic games use only SETUP, REINFORCE, ATTACK, DEFEND, "
    "OCCUPY and OVER.",
)
if TYPE_CHECKING:
    Phase = Any
else:
    Phase = _PHASES


def phase_member(phase: DomainPhase) -> Any:
    """The schema's member for a game's phase."""
    return _PHASES[phase.name]
