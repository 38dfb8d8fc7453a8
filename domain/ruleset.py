"""A ruleset: everything a variant's data files define, validated and ready for the engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.board import Board
from domain.cards import JOLLY, Card, CardRules, CardSet
from domain.errors import BoardDataError, InvalidOptions
from domain.objectives import HoldListedTerritories, Objective, parse_objectives


@dataclass(frozen=True, slots=True)
class Colour:
    id: str
    name: str


@dataclass(frozen=True)
class Ruleset:
    board: Board
    cards: CardRules
    objectives: Mapping[str, Objective]
    tournament_objectives: Mapping[str, HoldListedTerritories]
    tournament_objective_points: int
    colours: tuple[Colour, ...]
    starting_armies: Mapping[int, int]  # by number of players

    def marker_supply(self) -> dict[str, int]:
        """How many of each kind of marker the box holds, for the games that have markers."""
        return {}

    def seat_colours(self, count: int, colours: Sequence[str] | None) -> tuple[str, ...]:
        """The colours of `count` players: `colours`, or the first ones in their order;
        InvalidOptions for a number of players the rules do not seat, or colours that are
        not the rules', or not each another."""
        if not self.min_players <= count <= self.max_players:
            raise InvalidOptions(
                f"this game needs {self.min_players} to {self.max_players} players, not {count}"
            )
        known = [colour.id for colour in self.colours]
        chosen = list(colours) if colours is not None else known[:count]
        if len(chosen) != count or len(set(chosen)) != count:
            raise InvalidOptions("every player needs a different colour")
        for colour in chosen:
            if colour not in known:
                raise InvalidOptions(f"unknown colour {colour!r}: use one of {known}")
        return tuple(chosen)

    @property
    def min_players(self) -> int:
        return min(self.starting_armies)

    @property
    def max_players(self) -> int:
        return max(self.starting_armies)

    @classmethod
    def from_data(cls, board_data: Mapping[str, Any], rules: Mapping[str, Any]) -> Ruleset:
        board = Board.from_data(board_data)
        try:
            return _parse_rules(board, rules)
        except KeyError as missing:
            raise BoardDataError(f"rules: missing or unknown {missing.args[0]!r}") from None


def _parse_rules(board: Board, rules: Mapping[str, Any]) -> Ruleset:
    card_data = rules["cards"]
    cards: dict[str, Card] = {}
    symbols: set[str] = set()
    for territory_id, symbol in card_data["territories"].items():
        if territory_id not in board.index:
            raise BoardDataError(f"card for unknown territory {territory_id!r}")
        cards[territory_id] = Card(territory_id, symbol, territory_id)
        symbols.add(symbol)
    missing_cards = sorted(set(board.index) - set(cards))
    if missing_cards:
        raise BoardDataError(f"no card for territories: {', '.join(missing_cards)}")
    for number in range(1, int(card_data["jolly"]) + 1):
        cards[f"jolly_{number}"] = Card(f"jolly_{number}", JOLLY, None)

    sets: dict[tuple[str, ...], CardSet] = {}
    for entry in rules["card_sets"]:
        set_symbols = tuple(sorted(entry["symbols"]))
        unknown = sorted(set(set_symbols) - symbols - {JOLLY})
        if unknown or len(set_symbols) != 3:
            raise BoardDataError(f"card set {entry['id']!r}: bad symbols {entry['symbols']!r}")
        sets[set_symbols] = CardSet(entry["id"], set_symbols, int(entry["armies"]))

    objectives = parse_objectives(rules["objectives"], board)
    tournament: dict[str, HoldListedTerritories] = {}
    for objective_id, objective in parse_objectives(
        rules.get("tournament_objectives", []), board
    ).items():
        if not isinstance(objective, HoldListedTerritories):
            raise BoardDataError(f"tournament objective {objective_id!r} must list territories")
        tournament[objective_id] = objective

    colours = tuple(Colour(entry["id"], entry["name"]) for entry in rules["colours"])
    starting = {int(players): int(armies) for players, armies in rules["starting_armies"].items()}
    if max(starting) > len(colours):
        raise BoardDataError("more players than colours")
    return Ruleset(
        board=board,
        cards=CardRules(cards, sets, int(rules["card_territory_bonus"])),
        objectives=objectives,
        tournament_objectives=tournament,
        tournament_objective_points=int(rules.get("tournament_objective_points", 100)),
        colours=colours,
        starting_armies=starting,
    )
