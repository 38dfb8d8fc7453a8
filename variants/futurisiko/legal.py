"""FutuRisiKo!'s legal families, in the shapes its actions are sent: "move 1 to n units of one
kind from A to one of these spaces", never one entry per unit or per count."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from domain.actions import Action, doc
from domain.legal import LegalAction, register_family
from variants.futurisiko import actions as fa


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlaceFlag(LegalAction):
    kind: ClassVar[str] = fa.PlaceFlag.kind
    name: ClassVar[str] = "LegalPlaceFlag"
    about: ClassVar[str] = "Put a flag on one of these free territories."
    territories: tuple[str, ...] = doc("The free territories.")

    def ready(self) -> Action:
        return fa.PlaceFlag(self.territories[0])

    def allows(self, action: Action) -> bool:
        return isinstance(action, fa.PlaceFlag) and action.territory in self.territories

    def pick(self, rnd: random.Random) -> Action:
        return fa.PlaceFlag(rnd.choice(self.territories))

    def bounds(self) -> list[Action]:
        return [fa.PlaceFlag(self.territories[0]), fa.PlaceFlag(self.territories[-1])]


@register_family
@dataclass(frozen=True, slots=True)
class LegalReceiveCards(LegalAction):
    kind: ClassVar[str] = fa.ReceiveCards.kind
    name: ClassVar[str] = "LegalReceiveCards"
    about: ClassVar[str] = "Discard one of these cards, or none (an empty id), then receive."
    discards: tuple[str, ...] = doc("The cards of your hand that may be discarded.")

    def ready(self) -> Action:
        return fa.ReceiveCards("")

    def allows(self, action: Action) -> bool:
        return isinstance(action, fa.ReceiveCards) and (
            action.discard == "" or action.discard in self.discards
        )

    def pick(self, rnd: random.Random) -> Action:
        return fa.ReceiveCards(rnd.choice(("", *self.discards)))

    def bounds(self) -> list[Action]:
        return [fa.ReceiveCards(""), *(fa.ReceiveCards(card) for card in self.discards[:1])]


@register_family
@dataclass(frozen=True, slots=True)
class LegalProduce(LegalAction):
    kind: ClassVar[str] = fa.Produce.kind
    name: ClassVar[str] = "LegalProduce"
    about: ClassVar[str] = "Build minCount to maxCount units of this kind on one of the spaces."
    unit: str = doc("tank, aircraft or submarine.")
    spaces: tuple[str, ...] = doc("Spaces that may receive them.")
    min_count: int = doc("Fewest units.")
    max_count: int = doc("Most units the points left and the box's supply allow.")

    def ready(self) -> Action:
        return fa.Produce(self.spaces[0], self.unit, self.max_count)

    def allows(self, action: Action) -> bool:
        return (
            isinstance(action, fa.Produce)
            and action.unit == self.unit
            and action.space in self.spaces
            and self.min_count <= action.count <= self.max_count
        )

    def pick(self, rnd: random.Random) -> Action:
        count = rnd.randint(self.min_count, self.max_count)
        return fa.Produce(rnd.choice(self.spaces), self.unit, count)

    def bounds(self) -> list[Action]:
        return [
            fa.Produce(space, self.unit, count)
            for space in (self.spaces[0], self.spaces[-1])
            for count in (self.min_count, self.max_count)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalPlayCard(LegalAction):
    kind: ClassVar[str] = fa.PlayCard.kind
    name: ClassVar[str] = "LegalPlayCard"
    about: ClassVar[str] = "Play this card at one of the targets, against one of the seats."
    card: str = doc("The card's type (one card of it is played).")
    targets: tuple[str, ...] = doc("Spaces it may aim at; an empty id where it aims at none.")
    against: tuple[int, ...] = doc("Seats it may aim at; -1 where it aims at none.")

    def ready(self) -> Action:
        return fa.PlayCard(self.card, self.targets[0], self.against[0])

    def allows(self, action: Action) -> bool:
        return (
            isinstance(action, fa.PlayCard)
            and action.card == self.card
            and action.target in self.targets
            and action.against in self.against
        )

    def pick(self, rnd: random.Random) -> Action:
        return fa.PlayCard(self.card, rnd.choice(self.targets), rnd.choice(self.against))

    def bounds(self) -> list[Action]:
        return [
            fa.PlayCard(self.card, target, seat)
            for target in (self.targets[0], self.targets[-1])
            for seat in (self.against[0], self.against[-1])
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalMoveUnits(LegalAction):
    kind: ClassVar[str] = fa.MoveUnits.kind
    name: ClassVar[str] = "LegalMoveUnits"
    about: ClassVar[str] = "Move minCount to maxCount units of this kind from source to a target."
    unit: str = doc("tank, aircraft or submarine.")
    source: str = doc("Where they are.")
    targets: tuple[str, ...] = doc("Where they may go.")
    min_count: int = doc("Fewest units.")
    max_count: int = doc("Most units (those that have not moved this turn).")

    def ready(self) -> Action:
        return fa.MoveUnits(self.source, self.targets[0], self.unit, self.max_count)

    def allows(self, action: Action) -> bool:
        return (
            isinstance(action, fa.MoveUnits)
            and (action.source, action.unit) == (self.source, self.unit)
            and action.target in self.targets
            and self.min_count <= action.count <= self.max_count
        )

    def pick(self, rnd: random.Random) -> Action:
        count = rnd.randint(self.min_count, self.max_count)
        return fa.MoveUnits(self.source, rnd.choice(self.targets), self.unit, count)

    def bounds(self) -> list[Action]:
        return [
            fa.MoveUnits(self.source, target, self.unit, count)
            for target in (self.targets[0], self.targets[-1])
            for count in (self.min_count, self.max_count)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalAmphibiousMove(LegalAction):
    kind: ClassVar[str] = fa.AmphibiousMove.kind
    name: ClassVar[str] = "LegalAmphibiousMove"
    about: ClassVar[str] = "Carry minCount to maxCount tanks from source over sea to a target."
    source: str = doc("The territory the tanks leave.")
    sea: str = doc("The sea area, with an own submarine that has not moved.")
    targets: tuple[str, ...] = doc("Territories on that sea they may reach.")
    min_count: int = doc("Fewest tanks.")
    max_count: int = doc("Most tanks (those that have not moved this turn).")

    def ready(self) -> Action:
        return fa.AmphibiousMove(self.source, self.targets[0], self.sea, self.max_count)

    def allows(self, action: Action) -> bool:
        return (
            isinstance(action, fa.AmphibiousMove)
            and (action.source, action.sea) == (self.source, self.sea)
            and action.target in self.targets
            and self.min_count <= action.count <= self.max_count
        )

    def pick(self, rnd: random.Random) -> Action:
        count = rnd.randint(self.min_count, self.max_count)
        return fa.AmphibiousMove(self.source, rnd.choice(self.targets), self.sea, count)

    def bounds(self) -> list[Action]:
        return [
            fa.AmphibiousMove(self.source, target, self.sea, count)
            for target in (self.targets[0], self.targets[-1])
            for count in (self.min_count, self.max_count)
        ]


@register_family
@dataclass(frozen=True, slots=True)
class LegalTorpedo(LegalAction):
    kind: ClassVar[str] = fa.Torpedo.kind
    name: ClassVar[str] = "LegalTorpedo"
    about: ClassVar[str] = "Fire minSubmarines to maxSubmarines submarines of sea at a target."
    sea: str = doc("The sea area of the submarines.")
    targets: tuple[str, ...] = doc("Coasts of that sea with enemy tanks or aircraft.")
    min_submarines: int = doc("Fewest submarines.")
    max_submarines: int = doc("Most submarines (those that have not fired this turn).")

    def ready(self) -> Action:
        return fa.Torpedo(self.sea, self.targets[0], self.max_submarines)

    def allows(self, action: Action) -> bool:
        return (
            isinstance(action, fa.Torpedo)
            and action.sea == self.sea
            and action.target in self.targets
            and self.min_submarines <= action.submarines <= self.max_submarines
        )

    def pick(self, rnd: random.Random) -> Action:
        count = rnd.randint(self.min_submarines, self.max_submarines)
        return fa.Torpedo(self.sea, rnd.choice(self.targets), count)

    def bounds(self) -> list[Action]:
        return [
            fa.Torpedo(self.sea, target, count)
            for target in (self.targets[0], self.targets[-1])
            for count in (self.min_submarines, self.max_submarines)
        ]


def _card_choices(cards: tuple[str, ...], required: str) -> list[tuple[str, ...]]:
    """Every subset of the card types `cards` that holds `required`."""
    subsets: list[tuple[str, ...]] = [()]
    for card in cards:
        subsets += [(*subset, card) for subset in subsets]
    return [subset for subset in subsets if not required or required in subset]


def _allowed_cards(played: tuple[str, ...], cards: tuple[str, ...], required: str) -> bool:
    """`played` is some of `cards`, each once, in any order, `required` among them."""
    return (
        len(set(played)) == len(played)
        and set(played) <= set(cards)
        and (not required or required in played)
    )


@register_family
@dataclass(frozen=True, slots=True)
class LegalBattle(LegalAction):
    kind: ClassVar[str] = fa.Battle.kind
    name: ClassVar[str] = "LegalBattle"
    about: ClassVar[str] = "Fight in territory, playing any of the cards (and the required one)."
    territory: str = doc("Where your units meet the enemy's.")
    cards: tuple[str, ...] = doc("Card types you may play first: arma_segreta, tradimento.")
    required: str = doc("tradimento when it must be played (a truce binds you), else empty.")

    def ready(self) -> Action:
        return fa.Battle(self.territory, (self.required,) if self.required else ())

    def allows(self, action: Action) -> bool:
        return (
            isinstance(action, fa.Battle)
            and action.territory == self.territory
            and _allowed_cards(action.cards, self.cards, self.required)
        )

    def pick(self, rnd: random.Random) -> Action:
        return fa.Battle(self.territory, rnd.choice(_card_choices(self.cards, self.required)))

    def bounds(self) -> list[Action]:
        return [fa.Battle(self.territory, c) for c in _card_choices(self.cards, self.required)]


@register_family
@dataclass(frozen=True, slots=True)
class LegalBattleCards(LegalAction):
    kind: ClassVar[str] = fa.BattleCards.kind
    name: ClassVar[str] = "LegalBattleCards"
    about: ClassVar[str] = "Defend territory, playing any of the cards first, or none."
    territory: str = doc("The territory attacked.")
    cards: tuple[str, ...] = doc("Card types you may play (arma_segreta); often none.")

    def ready(self) -> Action:
        return fa.BattleCards(())

    def allows(self, action: Action) -> bool:
        return isinstance(action, fa.BattleCards) and _allowed_cards(action.cards, self.cards, "")

    def pick(self, rnd: random.Random) -> Action:
        return fa.BattleCards(rnd.choice(_card_choices(self.cards, "")))

    def bounds(self) -> list[Action]:
        return [fa.BattleCards(c) for c in _card_choices(self.cards, "")]
