"""The rules data of S.P.Q.RisiKo!: cards of four symbols, neutral armies, triremes, arenas."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from domain.board import Board
from domain.cards import Card, CardRules
from domain.errors import BoardDataError, InvalidCardSet
from domain.ruleset import Colour, Ruleset

TRIREME = "trireme"  # a kind of unit (domain/views.py)
POWER_CENTRE = "power_centre"  # a kind of marker


@dataclass(frozen=True, slots=True)
class SetValue:
    """What three cards are worth: legionaries (the set and its vessilli), and triremes and
    power centres to place."""

    legionaries: int
    triremes: int
    power_centres: int
    base: int  # the legionaries of the set alone, without its vessilli


@dataclass(frozen=True)
class SpqrRuleset(Ruleset):
    occupation_armies: int
    provinces_per_player: int
    neutral_group: int  # legionaries in a neutral group
    neutral_groups: int  # groups of each neutral colour
    neutrals_at_start: Mapping[int, tuple[tuple[str, int], ...]]  # players -> (province, groups)
    equal_set: int
    different_set: int
    rewards: Mapping[str, tuple[int, int, int]]  # symbol -> legionaries, triremes, centres
    power_centres: int
    legionaries_per_trireme: int
    legionaries_per_disbanded_trireme: int

    def marker_supply(self) -> dict[str, int]:
        return {POWER_CENTRE: self.power_centres}

    @classmethod
    def from_data(cls, board_data: Mapping[str, Any], rules: Mapping[str, Any]) -> SpqrRuleset:
        board = Board.from_data(board_data)
        try:
            return _parse(board, rules)
        except (KeyError, TypeError, ValueError) as error:
            raise BoardDataError(f"spqr rules: bad or missing {error}") from None

    def set_value(self, card_ids: Sequence[str]) -> SetValue:
        """The value of three cards: three equal or three different symbols."""
        if len(card_ids) != 3 or len(set(card_ids)) != 3:
            raise InvalidCardSet("a set is three different cards")
        symbols = [self.cards.cards[card_id].symbol for card_id in card_ids]
        distinct = len(set(symbols))
        if distinct == 2:
            raise InvalidCardSet(
                f"{', '.join(symbols)}: a set is three equal or three different symbols"
            )
        base = legionaries = self.equal_set if distinct == 1 else self.different_set
        triremes = centres = 0
        for symbol in symbols:
            extra_legionaries, extra_triremes, extra_centres = self.rewards.get(symbol, (0, 0, 0))
            legionaries += extra_legionaries
            triremes += extra_triremes
            centres += extra_centres
        return SetValue(legionaries, triremes, centres, base)

    def tradeable_sets(self, hand: Sequence[str]) -> list[tuple[str, str, str]]:
        """Every distinct tradeable triple in a hand (three equal or three different symbols),
        in hand order. Cards of one symbol are worth the same, but each triple is an action
        of its own that the engine accepts, so each is offered: a legal family for every
        accepted trade."""
        symbol = {card_id: self.cards.cards[card_id].symbol for card_id in hand}
        return [
            triple
            for triple in combinations(hand, 3)
            if len({symbol[card_id] for card_id in triple}) != 2
        ]


def _parse(board: Board, rules: Mapping[str, Any]) -> SpqrRuleset:
    cards: dict[str, Card] = {}
    for symbol, count in rules["cards"].items():
        for number in range(1, int(count) + 1):
            card_id = f"{symbol}_{number:02d}"
            cards[card_id] = Card(card_id, symbol, None)
    rewards: dict[str, tuple[int, int, int]] = {}
    for symbol, reward in rules["card_rewards"].items():
        if symbol not in rules["cards"]:
            raise BoardDataError(f"spqr rules: reward for unknown symbol {symbol!r}")
        rewards[symbol] = (
            int(reward.get("legionaries", 0)),
            int(reward.get("triremes", 0)),
            int(reward.get("power_centres", 0)),
        )
    at_start: dict[int, tuple[tuple[str, int], ...]] = {}
    for players, groups in rules["neutrals"]["placed_at_start"].items():
        for entry in groups:
            if entry["province"] not in board.index:
                raise BoardDataError(f"spqr rules: unknown province {entry['province']!r}")
        at_start[int(players)] = tuple((g["province"], int(g["groups"])) for g in groups)
    low, high = int(rules["players"]["min"]), int(rules["players"]["max"])
    colours = tuple(Colour(entry["id"], entry["name"]) for entry in rules["colours"])
    if high > len(colours):
        raise BoardDataError("spqr rules: more players than colours")
    occupation = rules["occupation"]
    per_player = int(occupation["provinces_per_player"])
    return SpqrRuleset(
        board=board,
        cards=CardRules(cards, {}, 0),
        objectives={},
        tournament_objectives={},
        tournament_objective_points=0,
        colours=colours,
        starting_armies={n: per_player * int(occupation["armies"]) for n in range(low, high + 1)},
        occupation_armies=int(occupation["armies"]),
        provinces_per_player=per_player,
        neutral_group=int(rules["neutrals"]["armies_per_group"]),
        neutral_groups=int(rules["neutrals"]["groups_per_colour"]),
        neutrals_at_start=at_start,
        equal_set=int(rules["card_sets"]["equal"]),
        different_set=int(rules["card_sets"]["different"]),
        rewards=rewards,
        power_centres=int(rules["power_centres"]),
        legionaries_per_trireme=int(rules["legionaries_per_trireme"]),
        legionaries_per_disbanded_trireme=int(rules["legionaries_per_disbanded_trireme"]),
    )
