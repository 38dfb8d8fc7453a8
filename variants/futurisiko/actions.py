"""FutuRisiKo!'s own actions (the end of a seat's part of a phase is the shared EndTurn)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.actions import Action, doc, register_action


@register_action
@dataclass(frozen=True, slots=True)
class PlaceFlag(Action):
    kind: ClassVar[str] = "place_flag"
    summary: ClassVar[str] = "FutuRisiKo!: put a flag on a free territory (setup)."
    about: ClassVar[str] = "Put one of your flags on a free territory."
    territory: str = doc("A free territory's id.")


@register_action
@dataclass(frozen=True, slots=True)
class ReceiveCards(Action):
    kind: ClassVar[str] = "receive_cards"
    summary: ClassVar[str] = "FutuRisiKo!: discard a card or none, then receive (cards phase)."
    about: ClassVar[str] = "Discard one card (or none), then receive one card per three flags."
    discard: str = doc("A card id of your hand, or an empty string to keep them all.", "")


@register_action
@dataclass(frozen=True, slots=True)
class Produce(Action):
    kind: ClassVar[str] = "produce"
    summary: ClassVar[str] = "FutuRisiKo!: build units with production points (production)."
    about: ClassVar[str] = "A tank costs 1 point, an aircraft 2, a submarine 5."
    space: str = doc("An own territory (tanks, aircraft) or a sea area next to one (submarines).")
    unit: str = doc("tank, aircraft or submarine.")
    count: int = doc("How many units.")


@register_action
@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    kind: ClassVar[str] = "play_card"
    summary: ClassVar[str] = "FutuRisiKo!: play a card outside a battle."
    about: ClassVar[str] = (
        "Super Produzione, Scudo Spaziale, Missili Balistici (production), Siluro Killer "
        "(combat), Tregua (cards phase)."
    )
    card: str = doc("The type of a card you hold (super_produzione, missili_balistici...).")
    target: str = doc("The space it aims at (Missili Balistici, Siluro Killer), or empty.", "")
    against: int = doc("The seat it aims at (Siluro Killer, Tregua), or -1.", -1)


@register_action
@dataclass(frozen=True, slots=True)
class MoveUnits(Action):
    kind: ClassVar[str] = "move_units"
    summary: ClassVar[str] = "FutuRisiKo!: move units of one kind (movement)."
    about: ClassVar[str] = (
        "Tanks one step over land or a black line; aircraft two steps over territories and "
        "seas, ending on a territory; submarines one sea area. Each unit moves once a turn."
    )
    source: str = doc("Where the units are.")
    target: str = doc("Where they go.")
    unit: str = doc("tank, aircraft or submarine.")
    count: int = doc("How many units.")


@register_action
@dataclass(frozen=True, slots=True)
class AmphibiousMove(Action):
    kind: ClassVar[str] = "amphibious_move"
    summary: ClassVar[str] = "FutuRisiKo!: move tanks across a sea holding your submarine."
    about: ClassVar[str] = "Tanks between two territories on one sea; that submarine moves no more."
    source: str = doc("The territory the tanks leave.")
    target: str = doc("Another territory on the same sea.")
    sea: str = doc("The sea area, where an own submarine has not moved this turn.")
    count: int = doc("How many tanks.")


@register_action
@dataclass(frozen=True, slots=True)
class Torpedo(Action):
    kind: ClassVar[str] = "torpedo"
    summary: ClassVar[str] = "FutuRisiKo!: submarines attack a coast (combat)."
    about: ClassVar[str] = "Each submarine, once a turn, rolls two dice at an enemy coast."
    sea: str = doc("The sea area of the submarines.")
    target: str = doc("A territory on that sea with enemy tanks or aircraft.")
    submarines: int = doc("How many of your submarines there fire (each once a turn).")


@register_action
@dataclass(frozen=True, slots=True)
class Battle(Action):
    kind: ClassVar[str] = "battle"
    summary: ClassVar[str] = "FutuRisiKo!: fight the battle where your units meet the enemy's."
    about: ClassVar[str] = "Volleys of explosion dice until one side is gone."
    territory: str = doc("A territory where your units meet enemy units or an enemy flag.")
    cards: tuple[str, ...] = doc("Card types to play first: arma_segreta, tradimento.", ())


@register_action
@dataclass(frozen=True, slots=True)
class BattleCards(Action):
    kind: ClassVar[str] = "battle_cards"
    summary: ClassVar[str] = "FutuRisiKo!: the defender's cards before a battle (out of turn)."
    about: ClassVar[str] = "Every defender is asked; an empty list plays nothing."
    cards: tuple[str, ...] = doc("Card types to play: arma_segreta, or none.", ())
