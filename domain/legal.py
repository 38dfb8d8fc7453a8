"""Legal actions: families of actions with their ranges, in the shapes actions are sent.

A family such as "attack Ontario from Quebec with 1 to 3 dice" stands for every action in its
range; listing each army count would explode. `allows` says whether an action is in the family,
`pick` draws one uniformly (for bots and tests), `bounds` lists its extreme members.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from domain import actions as a


@dataclass(frozen=True, slots=True)
class LegalAction:
    kind: ClassVar[str] = "legal_action"

    def allows(self, action: a.Action) -> bool:
        raise NotImplementedError

    def pick(self, rnd: random.Random) -> a.Action:
        raise NotImplementedError

    def bounds(self) -> list[a.Action]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class LegalPlace(LegalAction):
    kind: ClassVar[str] = a.PlaceArmies.kind
    territories: tuple[str, ...]
    min_armies: int
    max_armies: int

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


@dataclass(frozen=True, slots=True)
class LegalTrade(LegalAction):
    kind: ClassVar[str] = a.TradeCards.kind
    cards: tuple[str, str, str]
    armies: int  # what the trade is worth now, territory bonus included

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.TradeCards) and sorted(action.cards) == sorted(self.cards)

    def pick(self, rnd: random.Random) -> a.Action:
        return a.TradeCards(self.cards)

    def bounds(self) -> list[a.Action]:
        return [a.TradeCards(self.cards)]


@dataclass(frozen=True, slots=True)
class LegalAttack(LegalAction):
    kind: ClassVar[str] = a.Attack.kind
    source: str
    target: str
    min_dice: int
    max_dice: int

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


@dataclass(frozen=True, slots=True)
class LegalAttackUntil(LegalAction):
    """Repeated attacks; `dice` may be anything from `min_dice` to 3 (each roll uses as many
    as the armies allow), `stop_at` anything in its range."""

    kind: ClassVar[str] = a.AttackUntil.kind
    source: str
    target: str
    min_dice: int
    min_stop_at: int
    max_stop_at: int

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


@dataclass(frozen=True, slots=True)
class LegalDefend(LegalAction):
    kind: ClassVar[str] = a.Defend.kind
    min_dice: int
    max_dice: int

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.Defend) and self.min_dice <= action.dice <= self.max_dice

    def pick(self, rnd: random.Random) -> a.Action:
        return a.Defend(rnd.randint(self.min_dice, self.max_dice))

    def bounds(self) -> list[a.Action]:
        return [a.Defend(self.min_dice), a.Defend(self.max_dice)]


@dataclass(frozen=True, slots=True)
class LegalOccupy(LegalAction):
    kind: ClassVar[str] = a.Occupy.kind
    source: str
    target: str
    min_armies: int
    max_armies: int

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.Occupy) and self.min_armies <= action.armies <= self.max_armies

    def pick(self, rnd: random.Random) -> a.Action:
        return a.Occupy(rnd.randint(self.min_armies, self.max_armies))

    def bounds(self) -> list[a.Action]:
        return [a.Occupy(self.min_armies), a.Occupy(self.max_armies)]


@dataclass(frozen=True, slots=True)
class LegalStrategicMove(LegalAction):
    kind: ClassVar[str] = a.StrategicMove.kind
    source: str
    target: str
    min_armies: int
    max_armies: int

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


@dataclass(frozen=True, slots=True)
class LegalEndTurn(LegalAction):
    kind: ClassVar[str] = a.EndTurn.kind

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.EndTurn)

    def pick(self, rnd: random.Random) -> a.Action:
        return a.EndTurn()

    def bounds(self) -> list[a.Action]:
        return [a.EndTurn()]


# --------------------------------------------------------------------------- S.P.Q.RisiKo!


@dataclass(frozen=True, slots=True)
class LegalClaimProvince(LegalAction):
    kind: ClassVar[str] = a.ClaimProvince.kind
    provinces: tuple[str, ...]

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.ClaimProvince) and action.province in self.provinces

    def pick(self, rnd: random.Random) -> a.Action:
        return a.ClaimProvince(rnd.choice(self.provinces))

    def bounds(self) -> list[a.Action]:
        return [a.ClaimProvince(p) for p in (self.provinces[0], self.provinces[-1])]


@dataclass(frozen=True, slots=True)
class LegalPlaceNeutral(LegalAction):
    kind: ClassVar[str] = a.PlaceNeutral.kind
    provinces: tuple[str, ...]
    colours: tuple[str, ...]  # neutral colours with groups left

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, a.PlaceNeutral)
            and action.province in self.provinces
            and action.colour in self.colours
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return a.PlaceNeutral(rnd.choice(self.provinces), rnd.choice(self.colours))

    def bounds(self) -> list[a.Action]:
        return [a.PlaceNeutral(self.provinces[0], c) for c in self.colours]


@dataclass(frozen=True, slots=True)
class LegalPlacePowerCentre(LegalAction):
    kind: ClassVar[str] = a.PlacePowerCentre.kind
    provinces: tuple[str, ...]

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.PlacePowerCentre) and action.province in self.provinces

    def pick(self, rnd: random.Random) -> a.Action:
        return a.PlacePowerCentre(rnd.choice(self.provinces))

    def bounds(self) -> list[a.Action]:
        return [a.PlacePowerCentre(p) for p in (self.provinces[0], self.provinces[-1])]


@dataclass(frozen=True, slots=True)
class LegalPlaceTrireme(LegalAction):
    kind: ClassVar[str] = a.PlaceTrireme.kind
    seas: tuple[str, ...]

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.PlaceTrireme) and action.sea in self.seas

    def pick(self, rnd: random.Random) -> a.Action:
        return a.PlaceTrireme(rnd.choice(self.seas))

    def bounds(self) -> list[a.Action]:
        return [a.PlaceTrireme(sea) for sea in (self.seas[0], self.seas[-1])]


@dataclass(frozen=True, slots=True)
class LegalBuildTrireme(LegalAction):
    kind: ClassVar[str] = a.BuildTrireme.kind
    province: str
    sea: str
    min_triremes: int
    max_triremes: int

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, a.BuildTrireme)
            and (action.province, action.sea) == (self.province, self.sea)
            and self.min_triremes <= action.triremes <= self.max_triremes
        )

    def pick(self, rnd: random.Random) -> a.Action:
        count = rnd.randint(self.min_triremes, self.max_triremes)
        return a.BuildTrireme(self.province, self.sea, count)

    def bounds(self) -> list[a.Action]:
        return [
            a.BuildTrireme(self.province, self.sea, n)
            for n in (self.min_triremes, self.max_triremes)
        ]


@dataclass(frozen=True, slots=True)
class LegalDisbandTrireme(LegalAction):
    kind: ClassVar[str] = a.DisbandTrireme.kind
    sea: str
    provinces: tuple[str, ...]

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, a.DisbandTrireme)
            and action.sea == self.sea
            and action.province in self.provinces
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return a.DisbandTrireme(self.sea, rnd.choice(self.provinces))

    def bounds(self) -> list[a.Action]:
        return [a.DisbandTrireme(self.sea, p) for p in (self.provinces[0], self.provinces[-1])]


@dataclass(frozen=True, slots=True)
class LegalMoveFleet(LegalAction):
    kind: ClassVar[str] = a.MoveFleet.kind
    source: str
    target: str
    min_triremes: int
    max_triremes: int

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, a.MoveFleet)
            and (action.source, action.target) == (self.source, self.target)
            and self.min_triremes <= action.triremes <= self.max_triremes
        )

    def pick(self, rnd: random.Random) -> a.Action:
        count = rnd.randint(self.min_triremes, self.max_triremes)
        return a.MoveFleet(self.source, self.target, count)

    def bounds(self) -> list[a.Action]:
        return [
            a.MoveFleet(self.source, self.target, n) for n in (self.min_triremes, self.max_triremes)
        ]


@dataclass(frozen=True, slots=True)
class LegalNavalBattle(LegalAction):
    """A naval combat (or its next roll) against `opponent`'s triremes in `sea`."""

    kind: ClassVar[str] = a.NavalBattle.kind
    sea: str
    opponent: int
    min_dice: int
    max_dice: int
    ongoing: bool  # the next roll of a combat already begun

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, a.NavalBattle)
            and (action.sea, action.opponent) == (self.sea, self.opponent)
            and self.min_dice <= action.dice <= self.max_dice
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return a.NavalBattle(self.sea, self.opponent, rnd.randint(self.min_dice, self.max_dice))

    def bounds(self) -> list[a.Action]:
        return [a.NavalBattle(self.sea, self.opponent, d) for d in (self.min_dice, self.max_dice)]


@dataclass(frozen=True, slots=True)
class LegalSeaAttack(LegalAction):
    kind: ClassVar[str] = a.SeaAttack.kind
    source: str
    target: str
    sea: str
    min_legionaries: int
    max_legionaries: int

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, a.SeaAttack)
            and (action.source, action.target, action.sea) == (self.source, self.target, self.sea)
            and self.min_legionaries <= action.legionaries <= self.max_legionaries
        )

    def pick(self, rnd: random.Random) -> a.Action:
        count = rnd.randint(self.min_legionaries, self.max_legionaries)
        return a.SeaAttack(self.source, self.target, self.sea, count)

    def bounds(self) -> list[a.Action]:
        return [
            a.SeaAttack(self.source, self.target, self.sea, n)
            for n in (self.min_legionaries, self.max_legionaries)
        ]


def is_legal(legal: list[LegalAction], action: a.Action) -> bool:
    return any(family.allows(action) for family in legal)
