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


# --------------------------------------------------------------------------- S.P.Q.RisiKo!


@register_family
@dataclass(frozen=True, slots=True)
class LegalClaimProvince(LegalAction):
    kind: ClassVar[str] = a.ClaimProvince.kind
    name: ClassVar[str] = "LegalClaimProvince"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo! occupation: claim one of these free provinces (2 legionaries)."
    )
    provinces: tuple[str, ...] = doc("The free provinces.")

    def ready(self) -> a.Action:
        return a.ClaimProvince(self.provinces[0])

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.ClaimProvince) and action.province in self.provinces

    def pick(self, rnd: random.Random) -> a.Action:
        return a.ClaimProvince(rnd.choice(self.provinces))

    def bounds(self) -> list[a.Action]:
        return [a.ClaimProvince(p) for p in (self.provinces[0], self.provinces[-1])]


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlaceNeutral(LegalAction):
    kind: ClassVar[str] = a.PlaceNeutral.kind
    name: ClassVar[str] = "LegalPlaceNeutral"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo! occupation: a group of 3 neutral legionaries of one of these colours "
        "on one of these free provinces."
    )
    provinces: tuple[str, ...] = doc("The free provinces.")
    colours: tuple[str, ...] = doc("Neutral colours with groups left.")

    def ready(self) -> a.Action:
        return a.PlaceNeutral(self.provinces[0], self.colours[0])

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


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlacePowerCentre(LegalAction):
    kind: ClassVar[str] = a.PlacePowerCentre.kind
    name: ClassVar[str] = "LegalPlacePowerCentre"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo!: build a power centre won with an arena card in one of these own "
        "provinces (none in or next to a province that has one)."
    )
    provinces: tuple[str, ...] = doc("Own provinces where it may stand.")

    def ready(self) -> a.Action:
        return a.PlacePowerCentre(self.provinces[0])

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.PlacePowerCentre) and action.province in self.provinces

    def pick(self, rnd: random.Random) -> a.Action:
        return a.PlacePowerCentre(rnd.choice(self.provinces))

    def bounds(self) -> list[a.Action]:
        return [a.PlacePowerCentre(p) for p in (self.provinces[0], self.provinces[-1])]


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlaceTrireme(LegalAction):
    kind: ClassVar[str] = a.PlaceTrireme.kind
    name: ClassVar[str] = "LegalPlaceTrireme"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo!: put a trireme won with a trireme card on one of these sea areas (each"
        " next to an own province)."
    )
    seas: tuple[str, ...] = doc("The sea areas allowed.")

    def ready(self) -> a.Action:
        return a.PlaceTrireme(self.seas[0])

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, a.PlaceTrireme) and action.sea in self.seas

    def pick(self, rnd: random.Random) -> a.Action:
        return a.PlaceTrireme(rnd.choice(self.seas))

    def bounds(self) -> list[a.Action]:
        return [a.PlaceTrireme(sea) for sea in (self.seas[0], self.seas[-1])]


@register_family
@dataclass(frozen=True, slots=True)
class LegalBuildTrireme(LegalAction):
    kind: ClassVar[str] = a.BuildTrireme.kind
    name: ClassVar[str] = "LegalBuildTrireme"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo! naval reinforcement: 3 legionaries of the province become a trireme on"
        " the sea area, minTriremes to maxTriremes times (one legionary stays)."
    )
    province: str = doc("The own coastal province that pays.")
    sea: str = doc("The sea area on its coast that gets the triremes.")
    min_triremes: int = doc("Fewest triremes to build.")
    max_triremes: int = doc("Most triremes to build.")

    def ready(self) -> a.Action:
        return a.BuildTrireme(self.province, self.sea, self.max_triremes)

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


@register_family
@dataclass(frozen=True, slots=True)
class LegalDisbandTrireme(LegalAction):
    kind: ClassVar[str] = a.DisbandTrireme.kind
    name: ClassVar[str] = "LegalDisbandTrireme"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo! (land reinforcements, once a turn): a trireme of the sea area becomes "
        "2 legionaries in one of these own provinces on its coast."
    )
    sea: str = doc("The sea area the trireme leaves.")
    provinces: tuple[str, ...] = doc("Own provinces on that sea area.")

    def ready(self) -> a.Action:
        return a.DisbandTrireme(self.sea, self.provinces[0])

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


@register_family
@dataclass(frozen=True, slots=True)
class LegalMoveFleet(LegalAction):
    kind: ClassVar[str] = a.MoveFleet.kind
    name: ClassVar[str] = "LegalMoveFleet"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo!'s naval move (one a turn, before any combat): triremes from a sea area"
        " to an adjacent one."
    )
    source: str = doc("The sea area they leave.")
    target: str = doc("The adjacent sea area they reach.")
    min_triremes: int = doc("Fewest triremes to move.")
    max_triremes: int = doc("Most triremes to move (all of them).")

    def ready(self) -> a.Action:
        return a.MoveFleet(self.source, self.target, self.max_triremes)

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


@register_family
@dataclass(frozen=True, slots=True)
class LegalNavalBattle(LegalAction):
    """A naval combat (or its next roll) against `opponent`'s triremes in `sea`."""

    kind: ClassVar[str] = a.NavalBattle.kind
    name: ClassVar[str] = "LegalNavalBattle"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo!: one roll of a naval combat against the opponent's triremes on the sea"
        " area. Ties remove nothing; it may go on while every roll removes a trireme."
    )
    sea: str = doc("The sea area.")
    opponent: int = doc("The seat whose triremes are attacked.")
    min_dice: int = doc("Fewest dice allowed.")
    max_dice: int = doc("Most dice allowed (one per own trireme).")
    ongoing: bool = doc("The next roll of the combat already begun, rather than a new combat.")

    def ready(self) -> a.Action:
        return a.NavalBattle(self.sea, self.opponent, self.max_dice)

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


@register_family
@dataclass(frozen=True, slots=True)
class LegalSeaAttack(LegalAction):
    kind: ClassVar[str] = a.SeaAttack.kind
    name: ClassVar[str] = "LegalSeaAttack"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo!: attack the target across the sea area with legionaries of the source "
        "declared in advance, fought to conquest or to the last of them."
    )
    source: str = doc("The own province the force leaves.")
    target: str = doc("The province attacked, on the same sea area.")
    sea: str = doc("The sea area crossed (more own triremes there than the defender's).")
    min_legionaries: int = doc("The smallest force.")
    max_legionaries: int = doc("The largest force.")

    def ready(self) -> a.Action:
        return a.SeaAttack(self.source, self.target, self.sea, self.max_legionaries)

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
