"""A skirmish's own actions (the end of a battle turn is the shared EndTurn)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.actions import Action, doc, register_action


@register_action
@dataclass(frozen=True, slots=True)
class Recruit(Action):
    kind: ClassVar[str] = "recruit"
    summary: ClassVar[str] = "Skirmish: recruit units on an own space (muster phase)."
    about: ClassVar[str] = "Spend recruit points: an army costs 1, an artillery piece 2."
    space: str = doc("An own space's id.")
    unit: str = doc("army or artillery.")
    count: int = doc("How many units.")


@register_action
@dataclass(frozen=True, slots=True)
class Assault(Action):
    kind: ClassVar[str] = "assault"
    summary: ClassVar[str] = "Skirmish: assault an adjacent enemy space (battle phase)."
    about: ClassVar[str] = "Commit 1 to 3 armies of source; the defender then holds its ground."
    source: str = doc("The assaulting space (own, at least 2 armies).")
    target: str = doc("An adjacent enemy space.")
    armies: int = doc("Armies committed: 1 to 3, at most the source's armies - 1.")


@register_action
@dataclass(frozen=True, slots=True)
class HoldGround(Action):
    kind: ClassVar[str] = "hold_ground"
    summary: ClassVar[str] = "Skirmish: the defender's answer to an assault (out of turn)."
    about: ClassVar[str] = "Roll 1 or 2 dice in defence of the assaulted space."
    dice: int = doc("1 or 2, at most the defending armies.")


@register_action
@dataclass(frozen=True, slots=True)
class March(Action):
    kind: ClassVar[str] = "march"
    summary: ClassVar[str] = "Skirmish: move units to an adjacent own space (battle phase)."
    about: ClassVar[str] = "Each unit moves once a turn; a space keeps at least one army."
    source: str = doc("An own space.")
    target: str = doc("An adjacent own space.")
    unit: str = doc("army or artillery.")
    count: int = doc("How many units.")
