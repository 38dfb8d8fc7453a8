"""A skirmish's legal families, in the shapes its actions are sent."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from domain.actions import Action, doc
from domain.legal import LegalAction, register_family
from variants.skirmish import actions as sa


@register_family
@dataclass(frozen=True, slots=True)
class LegalRecruit(LegalAction):
    kind: ClassVar[str] = sa.Recruit.kind
    name: ClassVar[str] = "LegalRecruit"
    about: ClassVar[str] = "Recruit minCount to maxCount units of this kind on one of the spaces."
    unit: str = doc("army or artillery.")
    spaces: tuple[str, ...] = doc("Own spaces that may receive them.")
    min_count: int = doc("Fewest units.")
    max_count: int = doc("Most units the points left pay for.")

    def ready(self) -> Action:
        return sa.Recruit(self.spaces[0], self.unit, self.max_count)

    def allows(self, action: Action) -> bool:
        return (
            isinstance(action, sa.Recruit)
            and action.unit == self.unit
            and action.space in self.spaces
            and self.min_count <= action.count <= self.max_count
        )

    def pick(self, rnd: random.Random) -> Action:
        count = rnd.randint(self.min_count, self.max_count)
        return sa.Recruit(rnd.choice(self.spaces), self.unit, count)

    def bounds(self) -> list[Action]:
        return [
            sa.Recruit(space, self.unit, count)
            for space in (self.spaces[0], self.spaces[-1])
            for count in (self.min_count, self.max_count)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalAssault(LegalAction):
    kind: ClassVar[str] = sa.Assault.kind
    name: ClassVar[str] = "LegalAssault"
    about: ClassVar[str] = "Assault target from source with minArmies to maxArmies armies."
    source: str = doc("The assaulting space.")
    target: str = doc("The assaulted space.")
    min_armies: int = doc("Fewest armies committed.")
    max_armies: int = doc("Most armies committed.")

    def ready(self) -> Action:
        return sa.Assault(self.source, self.target, self.max_armies)

    def allows(self, action: Action) -> bool:
        return (
            isinstance(action, sa.Assault)
            and (action.source, action.target) == (self.source, self.target)
            and self.min_armies <= action.armies <= self.max_armies
        )

    def pick(self, rnd: random.Random) -> Action:
        armies = rnd.randint(self.min_armies, self.max_armies)
        return sa.Assault(self.source, self.target, armies)

    def bounds(self) -> list[Action]:
        return [sa.Assault(self.source, self.target, n) for n in (self.min_armies, self.max_armies)]


@register_family
@dataclass(frozen=True, slots=True)
class LegalHoldGround(LegalAction):
    kind: ClassVar[str] = sa.HoldGround.kind
    name: ClassVar[str] = "LegalHoldGround"
    about: ClassVar[str] = "Defend the assaulted space with minDice to maxDice dice."
    source: str = doc("The assaulting space.")
    target: str = doc("The assaulted space, yours.")
    min_dice: int = doc("Fewest dice.")
    max_dice: int = doc("Most dice.")

    def ready(self) -> Action:
        return sa.HoldGround(self.max_dice)

    def allows(self, action: Action) -> bool:
        return isinstance(action, sa.HoldGround) and self.min_dice <= action.dice <= self.max_dice

    def pick(self, rnd: random.Random) -> Action:
        return sa.HoldGround(rnd.randint(self.min_dice, self.max_dice))

    def bounds(self) -> list[Action]:
        return [sa.HoldGround(n) for n in (self.min_dice, self.max_dice)]


@register_family
@dataclass(frozen=True, slots=True)
class LegalMarch(LegalAction):
    kind: ClassVar[str] = sa.March.kind
    name: ClassVar[str] = "LegalMarch"
    about: ClassVar[str] = "Move minCount to maxCount units of this kind from source to target."
    source: str = doc("An own space.")
    target: str = doc("An adjacent own space.")
    unit: str = doc("army or artillery.")
    min_count: int = doc("Fewest units.")
    max_count: int = doc("Most units (those that have not moved this turn).")

    def ready(self) -> Action:
        return sa.March(self.source, self.target, self.unit, self.max_count)

    def allows(self, action: Action) -> bool:
        return (
            isinstance(action, sa.March)
            and (action.source, action.target, action.unit) == (self.source, self.target, self.unit)
            and self.min_count <= action.count <= self.max_count
        )

    def pick(self, rnd: random.Random) -> Action:
        count = rnd.randint(self.min_count, self.max_count)
        return sa.March(self.source, self.target, self.unit, count)

    def bounds(self) -> list[Action]:
        return [
            sa.March(self.source, self.target, self.unit, n)
            for n in (self.min_count, self.max_count)
        ]
