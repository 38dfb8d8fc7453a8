"""S.P.Q.RisiKo!'s own actions, registered by kind (the log and the API find them by it).
Provinces and sea areas are spaces of the board and are named by ascii id like territories."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.actions import Action, doc, register_action


@register_action
@dataclass(frozen=True, slots=True)
class ClaimProvince(Action):
    """Initial occupation: put 2 own legionaries on a free province."""

    kind: ClassVar[str] = "claim_province"
    summary: ClassVar[str] = "S.P.Q.RisiKo! occupation: claim a province."
    about: ClassVar[str] = "S.P.Q.RisiKo! occupation: claim a free province (2 legionaries)."
    province: str = doc("A free province's id.")


@register_action
@dataclass(frozen=True, slots=True)
class PlaceNeutral(Action):
    """Initial occupation: put a group of 3 neutral legionaries of `colour` on a free province."""

    kind: ClassVar[str] = "place_neutral"
    summary: ClassVar[str] = "S.P.Q.RisiKo! occupation: place a neutral group."
    about: ClassVar[str] = (
        "S.P.Q.RisiKo! occupation: a group of 3 neutral legionaries on a free province."
    )
    province: str = doc("A free province's id.")
    colour: str = doc("A neutral colour id (see Game.neutralColours).")


@register_action
@dataclass(frozen=True, slots=True)
class PlacePowerCentre(Action):
    """Build a power centre won with an arena card in an own province."""

    kind: ClassVar[str] = "place_power_centre"
    summary: ClassVar[str] = "S.P.Q.RisiKo!: build a power centre won."
    about: ClassVar[str] = "S.P.Q.RisiKo!: build a power centre won with an arena card."
    province: str = doc("An own province with no power centre in it or next to it by land.")


@register_action
@dataclass(frozen=True, slots=True)
class PlaceTrireme(Action):
    """Put a trireme won with a trireme card on a sea area next to an own province."""

    kind: ClassVar[str] = "place_trireme"
    summary: ClassVar[str] = "S.P.Q.RisiKo!: place a trireme won."
    about: ClassVar[str] = "S.P.Q.RisiKo!: put a trireme won with a trireme card."
    sea: str = doc("A sea area next to an own province.")


@register_action
@dataclass(frozen=True, slots=True)
class BuildTrireme(Action):
    """Naval reinforcement: 3 legionaries of a coastal province become a trireme, each, on an
    adjacent sea area."""

    kind: ClassVar[str] = "build_trireme"
    summary: ClassVar[str] = "S.P.Q.RisiKo!: legionaries become triremes."
    about: ClassVar[str] = (
        "S.P.Q.RisiKo! naval reinforcement: 3 legionaries of a coastal province become a "
        "trireme, each, on a sea area of its coast."
    )
    province: str = doc("The own coastal province (one legionary stays).")
    sea: str = doc("A sea area on its coast.")
    triremes: int = doc("How many triremes to build.", 1)


@register_action
@dataclass(frozen=True, slots=True)
class DisbandTrireme(Action):
    """Land reinforcement: a trireme becomes 2 legionaries in an own province on its sea."""

    kind: ClassVar[str] = "disband_trireme"
    summary: ClassVar[str] = "S.P.Q.RisiKo!: a trireme becomes legionaries."
    about: ClassVar[str] = (
        "S.P.Q.RisiKo! (land reinforcements, once a turn): a trireme becomes 2 legionaries in "
        "an own province on its sea area."
    )
    sea: str = doc("The sea area of the trireme.")
    province: str = doc("An own province on that sea area.")


@register_action
@dataclass(frozen=True, slots=True)
class MoveFleet(Action):
    """The naval move: triremes from one sea area to an adjacent one, before any combat."""

    kind: ClassVar[str] = "move_fleet"
    summary: ClassVar[str] = "S.P.Q.RisiKo!: the naval move."
    about: ClassVar[str] = (
        "S.P.Q.RisiKo!'s naval move, once a turn before any combat: triremes to an adjacent "
        "sea area."
    )
    source: str = doc("The sea area they leave.")
    target: str = doc("An adjacent sea area.")
    triremes: int = doc("How many own triremes move.")


@register_action
@dataclass(frozen=True, slots=True)
class NavalBattle(Action):
    """One roll of a naval combat against `opponent` (a seat) in `sea`. Repeat it to go on,
    which is allowed while every roll removes at least one trireme."""

    kind: ClassVar[str] = "naval_battle"
    summary: ClassVar[str] = "S.P.Q.RisiKo!: one roll of a naval combat."
    about: ClassVar[str] = (
        "S.P.Q.RisiKo!: one roll of a naval combat; send it again to go on, which is allowed "
        "while every roll removes a trireme."
    )
    sea: str = doc("The sea area.")
    opponent: int = doc("The seat whose triremes are attacked.")
    dice: int = doc("1 to 3, at most the own triremes there.", 3)


@register_action
@dataclass(frozen=True, slots=True)
class SeaAttack(Action):
    """Attack `target` from `source` across `sea` with `legionaries` declared in advance,
    fought to the end: conquest or the whole force lost."""

    kind: ClassVar[str] = "sea_attack"
    summary: ClassVar[str] = "S.P.Q.RisiKo!: an attack across a sea area."
    about: ClassVar[str] = (
        "S.P.Q.RisiKo!: attack a province across a sea area where the attacker has more "
        "triremes than the defender, with a force declared in advance and fought to the end."
    )
    source: str = doc("The own province the force leaves.")
    target: str = doc("The province attacked, on the same sea area.")
    sea: str = doc("The sea area crossed.")
    legionaries: int = doc("The force; it moves in if it conquers.")
