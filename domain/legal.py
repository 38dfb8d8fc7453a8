"""Legal actions: families of actions with their ranges, in the shapes actions are sent.

A family such as "attack Ontario from Quebec with 1 to 3 dice" stands for every action in its
range; listing each army count would explode. `allows` says whether an action is in the family,
`pick` draws one uniformly (for bots and tests), `bounds` lists its extreme members.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from domain import actions as a
from domain.actions import doc


@dataclass(frozen=True, slots=True)
class LegalAction:
    kind: ClassVar[str] = "legal_action"
    # For clients: the family's type name in the API, and what it offers.
    name: ClassVar[str] = "LegalAction"
    about: ClassVar[str] = ""

    def ready(self) -> a.Action:
        """One action of the family, ready to send: its first choice and its upper bound."""
        raise NotImplementedError

    def allows(self, action: a.Action) -> bool:
        raise NotImplementedError

    def pick(self, rnd: random.Random) -> a.Action:
        raise NotImplementedError

    def bounds(self) -> list[a.Action]:
        raise NotImplementedError


LEGAL_FAMILIES: list[type[LegalAction]] = []
F = TypeVar("F", bound=type[LegalAction])


def register_family(cls: F) -> F:
    """Make a family known to the API (apply it over @dataclass)."""
    if any(known.name == cls.name for known in LEGAL_FAMILIES):
        raise ValueError(f"two legal families are called {cls.name!r}")
    LEGAL_FAMILIES.append(cls)
    return cls


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlace(LegalAction):
    kind: ClassVar[str] = a.PlaceArmies.kind
    name: ClassVar[str] = "LegalPlaceArmies"
    about: ClassVar[str] = "Place 1 to maxArmies armies on one of these territories."
    territories: tuple[str, ...] = doc("Territories that may receive armies.")
    min_armies: int = doc("Fewest armies in one placement.")
    max_armies: int = doc("Most armies in one placement.")

    def ready(self) -> a.Action:
        return a.PlaceArmies(self.territories[0], self.max_armies)

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, a.PlaceArmies)
            and action.territory in self.territories
            and self.min_armies <= action.armies <= self.max_armies
        )

    def pick(self, rnd: random.Random) -> a.Action:
        territory = rnd.choice(self.territories)
        return a.PlaceArmies(territory, rnd.randint(self.min_armies, self.max_armies))

    def bounds(self) -> list[a.Action]:
        return [
            a.PlaceArmies(territory, armies)
            for territory in (self.territories[0], self.territories[-1])
            for armies in (self.min_armies, self.max_armies)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalTrade(LegalAction):
    kind: ClassVar[str] = a.TradeCards.kind
    name: ClassVar[str] = "LegalTradeCards"
    about: ClassVar[str] = "Trade this set of cards."
    cards: tuple[str, str, str] = doc("The three card ids of the set.")
    armies: int = doc("What it is worth now, bonus included.")

    def ready(self) -> a.Action:
        return a.TradeCards(self.cards)

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.TradeCards) and sorted(action.cards) == sorted(self.cards)

    def pick(self, rnd: random.Random) -> a.Action:
        return a.TradeCards(self.cards)

    def bounds(self) -> list[a.Action]:
        return [a.TradeCards(self.cards)]


@register_family
@dataclass(frozen=True, slots=True)
class LegalAttack(LegalAction):
    kind: ClassVar[str] = a.Attack.kind
    name: ClassVar[str] = "LegalAttack"
    about: ClassVar[str] = "Attack target from source with minDice to maxDice dice."
    source: str = doc("The attacking territory.")
    target: str = doc("The attacked territory.")
    min_dice: int = doc("Fewest dice allowed.")
    max_dice: int = doc("Most dice allowed.")

    def ready(self) -> a.Action:
        return a.Attack(self.source, self.target, self.max_dice)

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, a.Attack)
            and (action.source, action.target) == (self.source, self.target)
            and self.min_dice <= action.dice <= self.max_dice
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return a.Attack(self.source, self.target, rnd.randint(self.min_dice, self.max_dice))

    def bounds(self) -> list[a.Action]:
        return [a.Attack(self.source, self.target, d) for d in (self.min_dice, self.max_dice)]


@register_family
@dataclass(frozen=True, slots=True)
class LegalAttackUntil(LegalAction):
    """Repeated attacks; `dice` may be anything from `min_dice` to 3 (each roll uses as many
    as the armies allow), `stop_at` anything in its range."""

    kind: ClassVar[str] = a.AttackUntil.kind
    name: ClassVar[str] = "LegalAttackUntil"
    about: ClassVar[str] = "Attack repeatedly; dice from minDice to 3, stopAt in its range."
    source: str = doc("The attacking territory.")
    target: str = doc("The attacked territory.")
    min_dice: int = doc("Fewest dice per roll allowed (most: 3).")
    min_stop_at: int = doc("Lowest stopAt allowed.")
    max_stop_at: int = doc("Highest stopAt allowed.")

    def ready(self) -> a.Action:
        return a.AttackUntil(self.source, self.target, 3, self.min_stop_at)

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, a.AttackUntil)
            and (action.source, action.target) == (self.source, self.target)
            and self.min_dice <= action.dice <= 3
            and self.min_stop_at <= action.stop_at <= self.max_stop_at
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return a.AttackUntil(
            self.source,
            self.target,
            rnd.randint(self.min_dice, 3),
            rnd.randint(self.min_stop_at, self.max_stop_at),
        )

    def bounds(self) -> list[a.Action]:
        return [
            a.AttackUntil(self.source, self.target, dice, stop)
            for dice in (self.min_dice, 3)
            for stop in (self.min_stop_at, self.max_stop_at)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalDefend(LegalAction):
    kind: ClassVar[str] = a.Defend.kind
    name: ClassVar[str] = "LegalDefend"
    about: ClassVar[str] = "Declare the defending dice."
    min_dice: int = doc("Fewest dice allowed.")
    max_dice: int = doc("Most dice allowed.")

    def ready(self) -> a.Action:
        return a.Defend(self.max_dice)

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.Defend) and self.min_dice <= action.dice <= self.max_dice

    def pick(self, rnd: random.Random) -> a.Action:
        return a.Defend(rnd.randint(self.min_dice, self.max_dice))

    def bounds(self) -> list[a.Action]:
        return [a.Defend(self.min_dice), a.Defend(self.max_dice)]


@register_family
@dataclass(frozen=True, slots=True)
class LegalOccupy(LegalAction):
    kind: ClassVar[str] = a.Occupy.kind
    name: ClassVar[str] = "LegalOccupy"
    about: ClassVar[str] = "Move armies into the territory just conquered."
    source: str = doc("The territory the attack came from.")
    target: str = doc("The territory conquered.")
    min_armies: int = doc("The dice of the last roll: the fewest armies to move in.")
    max_armies: int = doc("The most armies that may move in.")

    def ready(self) -> a.Action:
        return a.Occupy(self.max_armies)

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.Occupy) and self.min_armies <= action.armies <= self.max_armies

    def pick(self, rnd: random.Random) -> a.Action:
        return a.Occupy(rnd.randint(self.min_armies, self.max_armies))

    def bounds(self) -> list[a.Action]:
        return [a.Occupy(self.min_armies), a.Occupy(self.max_armies)]


@register_family
@dataclass(frozen=True, slots=True)
class LegalStrategicMove(LegalAction):
    kind: ClassVar[str] = a.StrategicMove.kind
    name: ClassVar[str] = "LegalStrategicMove"
    about: ClassVar[str] = "The strategic move (it ends the turn)."
    source: str = doc("Where the armies leave.")
    target: str = doc("Where they arrive (adjacent, own).")
    min_armies: int = doc("Fewest armies to move.")
    max_armies: int = doc("Most armies to move.")

    def ready(self) -> a.Action:
        return a.StrategicMove(self.source, self.target, self.max_armies)

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, a.StrategicMove)
            and (action.source, action.target) == (self.source, self.target)
            and self.min_armies <= action.armies <= self.max_armies
        )

    def pick(self, rnd: random.Random) -> a.Action:
        armies = rnd.randint(self.min_armies, self.max_armies)
        return a.StrategicMove(self.source, self.target, armies)

    def bounds(self) -> list[a.Action]:
        return [
            a.StrategicMove(self.source, self.target, n) for n in (self.min_armies, self.max_armies)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalEndTurn(LegalAction):
    kind: ClassVar[str] = a.EndTurn.kind
    name: ClassVar[str] = "LegalEndTurn"
    about: ClassVar[str] = "End the turn."

    def ready(self) -> a.Action:
        return a.EndTurn()

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.EndTurn)

    def pick(self, rnd: random.Random) -> a.Action:
        return a.EndTurn()

    def bounds(self) -> list[a.Action]:
        return [a.EndTurn()]


def is_legal(legal: list[LegalAction], action: a.Action) -> bool:
    return any(family.allows(action) for family in legal)
