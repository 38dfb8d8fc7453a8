"""S.P.Q.RisiKo!'s own legal families, registered for the API (domain/legal.py says what a
family is)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from domain import actions as a
from domain.actions import doc
from domain.legal import LegalAction, register_family
from variants.spqr import actions as sa


@register_family
@dataclass(frozen=True, slots=True)
class LegalClaimProvince(LegalAction):
    kind: ClassVar[str] = sa.ClaimProvince.kind
    name: ClassVar[str] = "LegalClaimProvince"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo! occupation: claim one of these free provinces (2 legionaries)."
    )
    provinces: tuple[str, ...] = doc("The free provinces.")

    def ready(self) -> a.Action:
        return sa.ClaimProvince(self.provinces[0])

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, sa.ClaimProvince) and action.province in self.provinces

    def pick(self, rnd: random.Random) -> a.Action:
        return sa.ClaimProvince(rnd.choice(self.provinces))

    def bounds(self) -> list[a.Action]:
        return [sa.ClaimProvince(p) for p in (self.provinces[0], self.provinces[-1])]


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlaceNeutral(LegalAction):
    kind: ClassVar[str] = sa.PlaceNeutral.kind
    name: ClassVar[str] = "LegalPlaceNeutral"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo! occupation: a group of 3 neutral legionaries of one of these colours "
        "on one of these free provinces."
    )
    provinces: tuple[str, ...] = doc("The free provinces.")
    colours: tuple[str, ...] = doc("Neutral colours with groups left.")

    def ready(self) -> a.Action:
        return sa.PlaceNeutral(self.provinces[0], self.colours[0])

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, sa.PlaceNeutral)
            and action.province in self.provinces
            and action.colour in self.colours
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return sa.PlaceNeutral(rnd.choice(self.provinces), rnd.choice(self.colours))

    def bounds(self) -> list[a.Action]:
        return [sa.PlaceNeutral(self.provinces[0], c) for c in self.colours]


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlacePowerCentre(LegalAction):
    kind: ClassVar[str] = sa.PlacePowerCentre.kind
    name: ClassVar[str] = "LegalPlacePowerCentre"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo!: build a power centre won with an arena card in one of these own "
        "provinces (none in or next to a province that has one)."
    )
    provinces: tuple[str, ...] = doc("Own provinces where it may stand.")

    def ready(self) -> a.Action:
        return sa.PlacePowerCentre(self.provinces[0])

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, sa.PlacePowerCentre) and action.province in self.provinces

    def pick(self, rnd: random.Random) -> a.Action:
        return sa.PlacePowerCentre(rnd.choice(self.provinces))

    def bounds(self) -> list[a.Action]:
        return [sa.PlacePowerCentre(p) for p in (self.provinces[0], self.provinces[-1])]


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlaceTrireme(LegalAction):
    kind: ClassVar[str] = sa.PlaceTrireme.kind
    name: ClassVar[str] = "LegalPlaceTrireme"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo!: put a trireme won with a trireme card on one of these sea areas (each"
        " next to an own province)."
    )
    seas: tuple[str, ...] = doc("The sea areas allowed.")

    def ready(self) -> a.Action:
        return sa.PlaceTrireme(self.seas[0])

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, sa.PlaceTrireme) and action.sea in self.seas

    def pick(self, rnd: random.Random) -> a.Action:
        return sa.PlaceTrireme(rnd.choice(self.seas))

    def bounds(self) -> list[a.Action]:
        return [sa.PlaceTrireme(sea) for sea in (self.seas[0], self.seas[-1])]


@register_family
@dataclass(frozen=True, slots=True)
class LegalBuildTrireme(LegalAction):
    kind: ClassVar[str] = sa.BuildTrireme.kind
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
        return sa.BuildTrireme(self.province, self.sea, self.max_triremes)

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, sa.BuildTrireme)
            and (action.province, action.sea) == (self.province, self.sea)
            and self.min_triremes <= action.triremes <= self.max_triremes
        )

    def pick(self, rnd: random.Random) -> a.Action:
        count = rnd.randint(self.min_triremes, self.max_triremes)
        return sa.BuildTrireme(self.province, self.sea, count)

    def bounds(self) -> list[a.Action]:
        return [
            sa.BuildTrireme(self.province, self.sea, n)
            for n in (self.min_triremes, self.max_triremes)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalDisbandTrireme(LegalAction):
    kind: ClassVar[str] = sa.DisbandTrireme.kind
    name: ClassVar[str] = "LegalDisbandTrireme"
    about: ClassVar[str] = (
        "S.P.Q.RisiKo! (land reinforcements, once a turn): a trireme of the sea area becomes "
        "2 legionaries in one of these own provinces on its coast."
    )
    sea: str = doc("The sea area the trireme leaves.")
    provinces: tuple[str, ...] = doc("Own provinces on that sea area.")

    def ready(self) -> a.Action:
        return sa.DisbandTrireme(self.sea, self.provinces[0])

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, sa.DisbandTrireme)
            and action.sea == self.sea
            and action.province in self.provinces
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return sa.DisbandTrireme(self.sea, rnd.choice(self.provinces))

    def bounds(self) -> list[a.Action]:
        return [sa.DisbandTrireme(self.sea, p) for p in (self.provinces[0], self.provinces[-1])]


@register_family
@dataclass(frozen=True, slots=True)
class LegalMoveFleet(LegalAction):
    kind: ClassVar[str] = sa.MoveFleet.kind
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
        return sa.MoveFleet(self.source, self.target, self.max_triremes)

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, sa.MoveFleet)
            and (action.source, action.target) == (self.source, self.target)
            and self.min_triremes <= action.triremes <= self.max_triremes
        )

    def pick(self, rnd: random.Random) -> a.Action:
        count = rnd.randint(self.min_triremes, self.max_triremes)
        return sa.MoveFleet(self.source, self.target, count)

    def bounds(self) -> list[a.Action]:
        return [
            sa.MoveFleet(self.source, self.target, n)
            for n in (self.min_triremes, self.max_triremes)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalNavalBattle(LegalAction):
    """A naval combat (or its next roll) against `opponent`'s triremes in `sea`."""

    kind: ClassVar[str] = sa.NavalBattle.kind
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
        return sa.NavalBattle(self.sea, self.opponent, self.max_dice)

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, sa.NavalBattle)
            and (action.sea, action.opponent) == (self.sea, self.opponent)
            and self.min_dice <= action.dice <= self.max_dice
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return sa.NavalBattle(self.sea, self.opponent, rnd.randint(self.min_dice, self.max_dice))

    def bounds(self) -> list[a.Action]:
        return [sa.NavalBattle(self.sea, self.opponent, d) for d in (self.min_dice, self.max_dice)]


@register_family
@dataclass(frozen=True, slots=True)
class LegalSeaAttack(LegalAction):
    kind: ClassVar[str] = sa.SeaAttack.kind
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
        return sa.SeaAttack(self.source, self.target, self.sea, self.max_legionaries)

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, sa.SeaAttack)
            and (action.source, action.target, action.sea) == (self.source, self.target, self.sea)
            and self.min_legionaries <= action.legionaries <= self.max_legionaries
        )

    def pick(self, rnd: random.Random) -> a.Action:
        count = rnd.randint(self.min_legionaries, self.max_legionaries)
        return sa.SeaAttack(self.source, self.target, self.sea, count)

    def bounds(self) -> list[a.Action]:
        return [
            sa.SeaAttack(self.source, self.target, self.sea, n)
            for n in (self.min_legionaries, self.max_legionaries)
        ]
