"""RisiKo! Più's own legal families, registered for the API (domain/legal.py says what a family
is). A family of cards lists the cards of one kind the hand holds; any of them may be played."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from domain import actions as a
from domain.actions import doc
from domain.legal import LegalAction, register_family
from variants.piu import actions as pa


@dataclass(frozen=True, slots=True)
class _OneTerritory(LegalAction):
    """A family of one territory chosen among several (the setup's steps)."""

    territories: tuple[str, ...] = doc("The territories allowed.")

    def make(self, territory: str) -> a.Action:
        raise NotImplementedError

    def ready(self) -> a.Action:
        return self.make(self.territories[0])

    def allows(self, action: a.Action) -> bool:
        territory = getattr(action, "territory", None)
        return action == self.make(territory) if territory in self.territories else False

    def pick(self, rnd: random.Random) -> a.Action:
        return self.make(rnd.choice(self.territories))

    def bounds(self) -> list[a.Action]:
        return [self.make(t) for t in (self.territories[0], self.territories[-1])]


@register_family
@dataclass(frozen=True, slots=True)
class LegalChooseFortress(_OneTerritory):
    kind: ClassVar[str] = pa.ChooseFortress.kind
    name: ClassVar[str] = "LegalChooseFortress"
    about: ClassVar[str] = "RisiKo! Più setup: the fortress on one of these territories."

    def make(self, territory: str) -> a.Action:
        return pa.ChooseFortress(territory)


@register_family
@dataclass(frozen=True, slots=True)
class LegalClaimTerritory(_OneTerritory):
    kind: ClassVar[str] = pa.ClaimTerritory.kind
    name: ClassVar[str] = "LegalClaimTerritory"
    about: ClassVar[str] = "RisiKo! Più setup: one army on one of these free territories."

    def make(self, territory: str) -> a.Action:
        return pa.ClaimTerritory(territory)


@register_family
@dataclass(frozen=True, slots=True)
class LegalWriteHiddenTerritory(_OneTerritory):
    kind: ClassVar[str] = pa.WriteHiddenTerritory.kind
    name: ClassVar[str] = "LegalWriteHiddenTerritory"
    about: ClassVar[str] = (
        "RisiKo! Più setup: write one of these territories for the hidden armies."
    )

    def make(self, territory: str) -> a.Action:
        return pa.WriteHiddenTerritory(territory)


@register_family
@dataclass(frozen=True, slots=True)
class LegalRevealHiddenArmies(LegalAction):
    kind: ClassVar[str] = pa.RevealHiddenArmies.kind
    name: ClassVar[str] = "LegalRevealHiddenArmies"
    about: ClassVar[str] = "RisiKo! Più: the hidden armies may come out now."
    territory: str = doc("Where they come out.")
    armies: int = doc("How many they are.")

    def ready(self) -> a.Action:
        return pa.RevealHiddenArmies()

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, pa.RevealHiddenArmies)

    def pick(self, rnd: random.Random) -> a.Action:
        return pa.RevealHiddenArmies()

    def bounds(self) -> list[a.Action]:
        return [pa.RevealHiddenArmies()]


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlayRinforzi(LegalAction):
    kind: ClassVar[str] = pa.PlayRinforzi.kind
    name: ClassVar[str] = "LegalPlayRinforzi"
    about: ClassVar[str] = "RisiKo! Più: play one of these Rinforzi cards."
    cards: tuple[str, ...] = doc("The Rinforzi cards of the hand.")
    armies: int = doc("What the next one gives.")

    def ready(self) -> a.Action:
        return pa.PlayRinforzi(self.cards[0])

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, pa.PlayRinforzi) and action.card in self.cards

    def pick(self, rnd: random.Random) -> a.Action:
        return pa.PlayRinforzi(rnd.choice(self.cards))

    def bounds(self) -> list[a.Action]:
        return [pa.PlayRinforzi(card) for card in self.cards]


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlaySpy(LegalAction):
    kind: ClassVar[str] = pa.PlaySpy.kind
    name: ClassVar[str] = "LegalPlaySpy"
    about: ClassVar[str] = "RisiKo! Più: play one of these Spia cards on one of these players."
    cards: tuple[str, ...] = doc("The Spia cards of the hand.")
    players: tuple[int, ...] = doc("The opponents' seats.")

    def ready(self) -> a.Action:
        return pa.PlaySpy(self.cards[0], self.players[0])

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, pa.PlaySpy)
            and action.card in self.cards
            and action.player in self.players
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return pa.PlaySpy(rnd.choice(self.cards), rnd.choice(self.players))

    def bounds(self) -> list[a.Action]:
        return [pa.PlaySpy(self.cards[0], player) for player in self.players]


@register_family
@dataclass(frozen=True, slots=True)
class LegalDiscardSpiedCard(LegalAction):
    kind: ClassVar[str] = pa.DiscardSpiedCard.kind
    name: ClassVar[str] = "LegalDiscardSpiedCard"
    about: ClassVar[str] = "RisiKo! Più: discard one card of the hand the Spia saw."
    player: int = doc("The spied seat.")
    cards: tuple[str, ...] = doc("Its cards.")

    def ready(self) -> a.Action:
        return pa.DiscardSpiedCard(self.cards[0])

    def allows(self, action: a.Action) -> bool:
        return isinstance(action, pa.DiscardSpiedCard) and action.card in self.cards

    def pick(self, rnd: random.Random) -> a.Action:
        return pa.DiscardSpiedCard(rnd.choice(self.cards))

    def bounds(self) -> list[a.Action]:
        return [pa.DiscardSpiedCard(card) for card in self.cards]


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlayDiplomat(LegalAction):
    kind: ClassVar[str] = pa.PlayDiplomat.kind
    name: ClassVar[str] = "LegalPlayDiplomat"
    about: ClassVar[str] = (
        "RisiKo! Più: play one of these Diplomatico cards for a truce with one of these players."
    )
    cards: tuple[str, ...] = doc("The Diplomatico cards of the hand.")
    players: tuple[int, ...] = doc("The opponents' seats without a truce of yours.")

    def ready(self) -> a.Action:
        return pa.PlayDiplomat(self.cards[0], self.players[0])

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, pa.PlayDiplomat)
            and action.card in self.cards
            and action.player in self.players
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return pa.PlayDiplomat(rnd.choice(self.cards), rnd.choice(self.players))

    def bounds(self) -> list[a.Action]:
        return [pa.PlayDiplomat(self.cards[0], player) for player in self.players]


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlayGeneral(LegalAction):
    kind: ClassVar[str] = pa.PlayGeneral.kind
    name: ClassVar[str] = "LegalPlayGeneral"
    about: ClassVar[str] = (
        "RisiKo! Più: play one of these Generale cards on an attack about to start: "
        "sources[i] against targets[i]."
    )
    cards: tuple[str, ...] = doc("The Generale cards of the hand.")
    sources: tuple[str, ...] = doc("The attacking territory of each attack allowed.")
    targets: tuple[str, ...] = doc("The attacked territory of each attack allowed.")

    def ready(self) -> a.Action:
        return pa.PlayGeneral(self.cards[0], self.sources[0], self.targets[0])

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, pa.PlayGeneral)
            and action.card in self.cards
            and (action.source, action.target) in zip(self.sources, self.targets, strict=True)
        )

    def pick(self, rnd: random.Random) -> a.Action:
        position = rnd.randrange(len(self.sources))
        return pa.PlayGeneral(
            rnd.choice(self.cards), self.sources[position], self.targets[position]
        )

    def bounds(self) -> list[a.Action]:
        return [
            pa.PlayGeneral(self.cards[0], self.sources[p], self.targets[p])
            for p in (0, len(self.sources) - 1)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalAdmiralAttack(LegalAction):
    kind: ClassVar[str] = pa.AdmiralAttack.kind
    name: ClassVar[str] = "LegalAdmiralAttack"
    about: ClassVar[str] = (
        "RisiKo! Più: with one of these Ammiraglio cards, load 1 to maxArmies armies of source "
        "on the flagship against one of these targets; stopAt below the armies loaded."
    )
    cards: tuple[str, ...] = doc("The Ammiraglio cards of the hand.")
    source: str = doc("The own coastal territory the flagship loads at.")
    targets: tuple[str, ...] = doc("The enemy coastal territories it reaches.")
    max_armies: int = doc("Most armies loaded (one stays).")

    def ready(self) -> a.Action:
        return pa.AdmiralAttack(self.cards[0], self.source, self.targets[0], self.max_armies, 0)

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, pa.AdmiralAttack)
            and action.card in self.cards
            and action.source == self.source
            and action.target in self.targets
            and 1 <= action.armies <= self.max_armies
            and 0 <= action.stop_at < action.armies
        )

    def pick(self, rnd: random.Random) -> a.Action:
        armies = rnd.randint(1, self.max_armies)
        return pa.AdmiralAttack(
            rnd.choice(self.cards),
            self.source,
            rnd.choice(self.targets),
            armies,
            rnd.randrange(armies),
        )

    def bounds(self) -> list[a.Action]:
        return [
            pa.AdmiralAttack(self.cards[0], self.source, target, armies, 0)
            for target in (self.targets[0], self.targets[-1])
            for armies in (1, self.max_armies)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalStandingOrders(LegalAction):
    kind: ClassVar[str] = pa.SetStandingOrders.kind
    name: ClassVar[str] = "LegalStandingOrders"
    about: ClassVar[str] = (
        "RisiKo! Più: orders for the cards played out of turn (accepted at any time, even "
        "out of turn; private to the seat)."
    )
    marshal: tuple[str, ...] = doc("always, fortress or never.")
    spy: tuple[str, ...] = doc("block or let_through.")

    def ready(self) -> a.Action:
        return pa.SetStandingOrders(self.marshal[0], self.spy[0])

    def allows(self, action: a.Action) -> bool:
        return (
            isinstance(action, pa.SetStandingOrders)
            and action.marshal in self.marshal
            and action.spy in self.spy
        )

    def pick(self, rnd: random.Random) -> a.Action:
        return pa.SetStandingOrders(rnd.choice(self.marshal), rnd.choice(self.spy))

    def bounds(self) -> list[a.Action]:
        return [pa.SetStandingOrders(m, s) for m in self.marshal for s in self.spy]
