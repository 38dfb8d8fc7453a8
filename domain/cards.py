"""Territory cards and the sets (tris) that are traded for armies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from domain.errors import InvalidCardSet

JOLLY = "jolly"


@dataclass(frozen=True, slots=True)
class Card:
    """A card as its holder sees it, in every game: what it is (`symbol`: a set's symbol, a
    kind, a type) and what it shows besides (a territory, colours)."""

    id: str
    symbol: str
    territory: str | None  # None for a jolly, and in the games whose cards show none
    colours: tuple[str, ...] = ()  # colour ids shown on it, in the games whose cards have them


@dataclass(frozen=True, slots=True)
class CardSet:
    """A tradeable combination, as its symbols in sorted order, and the armies it is worth."""

    id: str
    symbols: tuple[str, ...]
    armies: int


@dataclass(frozen=True, slots=True)
class CardRules:
    cards: Mapping[str, Card]
    sets: Mapping[tuple[str, ...], CardSet]
    territory_bonus: int

    def value(self, card_ids: Sequence[str], owned: set[str] | frozenset[str]) -> tuple[int, int]:
        """(set armies, territory bonus) for three cards, or InvalidCardSet."""
        if len(card_ids) != 3 or len(set(card_ids)) != 3:
            raise InvalidCardSet("a set is three different cards")
        cards = [self.cards[card_id] for card_id in card_ids]
        symbols = tuple(sorted(card.symbol for card in cards))
        card_set = self.sets.get(symbols)
        if card_set is None:
            shown = ", ".join(card.symbol for card in cards)
            raise InvalidCardSet(f"{shown} is not a set that can be traded")
        bonus = sum(self.territory_bonus for card in cards if card.territory in owned)
        return card_set.armies, bonus

    def tradeable_sets(self, hand: Sequence[str]) -> list[tuple[str, str, str]]:
        """Every distinct tradeable triple in a hand, cards in hand order."""
        found: list[tuple[str, str, str]] = []
        for triple in combinations(hand, 3):
            symbols = tuple(sorted(self.cards[card_id].symbol for card_id in triple))
            if symbols in self.sets:
                found.append(triple)
        return found
