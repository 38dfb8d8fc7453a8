"""The data of a skirmish: the board, the colours, how many play, and the armies on each
space at the start. It has no cards and no objectives."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.board import Board
from domain.cards import CardRules
from domain.errors import BoardDataError
from domain.ruleset import Colour, Ruleset


@dataclass(frozen=True)
class SkirmishRuleset(Ruleset):
    armies_per_space: int = 2

    @classmethod
    def from_data(cls, board_data: Mapping[str, Any], rules: Mapping[str, Any]) -> Ruleset:
        board = Board.from_data(board_data)
        try:
            colours = tuple(Colour(entry["id"], entry["name"]) for entry in rules["colours"])
            low, high = int(rules["players"]["min"]), int(rules["players"]["max"])
            armies = int(rules["armies_per_space"])
        except KeyError as missing:
            raise BoardDataError(f"rules: missing {missing.args[0]!r}") from None
        if not 2 <= low <= high <= len(colours) or armies < 1:
            raise BoardDataError("rules: players must be 2 or more, armies_per_space 1 or more")
        return cls(
            board=board,
            cards=CardRules({}, {}, 0),
            objectives={},
            tournament_objectives={},
            tournament_objective_points=0,
            colours=colours,
            starting_armies=dict.fromkeys(range(low, high + 1), armies),
            armies_per_space=armies,
        )
