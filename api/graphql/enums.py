"""The schema's enums: the domain's own, as they are."""

from __future__ import annotations

import strawberry

from api.stores.base import GameStatus as StoredStatus
from domain.board import SpaceKind as DomainSpaceKind
from domain.game import Phase as DomainPhase
from domain.odds import TieRule as DomainTieRule
from domain.options import DefenderDice as DomainDefenderDice
from domain.options import ObjectiveDeck as DomainObjectiveDeck

# The domain's own enums, as they are (Strawberry marks the class itself): a value added
# there is in the schema at once, and resolvers hand the domain's members over unconverted.
GameStatus = StoredStatus
Phase = DomainPhase
TieRule = DomainTieRule
DefenderDice = DomainDefenderDice
ObjectiveDeck = DomainObjectiveDeck
SpaceKind = DomainSpaceKind
for _enum, _description in (
    (GameStatus, "Where a game is in its life."),
    (
        Phase,
        "The part of the turn the game is in. S.P.Q.RisiKo! goes through REINFORCE, "
        "NAVAL_REINFORCE, NAVAL_MOVE, NAVAL_COMBAT, SEA_ATTACK and ATTACK in that order (its "
        "SETUP is the initial occupation); classic games use only SETUP, REINFORCE, ATTACK, "
        "DEFEND, OCCUPY and OVER.",
    ),
    (TieRule, "How dice ties are settled."),
    (DefenderDice, "How many dice a defender rolls."),
    (ObjectiveDeck, "Which deck of secret objectives is dealt."),
    (SpaceKind, "What a space of the board is."),
):
    strawberry.enum(_enum, description=_description)
