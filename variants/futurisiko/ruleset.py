"""The rules data of FutuRisiKo! (rules.json): the colours, the box's supply of each piece,
what each unit costs, the explosion faces of the dice, and the deck of 60 two-coloured cards."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from domain.board import Board
from domain.cards import CardRules
from domain.errors import BoardDataError
from domain.ruleset import Colour, Ruleset

TANK = "tank"
AIRCRAFT = "aircraft"
SUBMARINE = "submarine"
FLAG = "flag"  # a kind of marker: who holds a territory

ARMA_SEGRETA = "arma_segreta"
MISSILI_BALISTICI = "missili_balistici"
SILURO_KILLER = "siluro_killer"
SCUDO_SPAZIALE = "scudo_spaziale"
SUPER_PRODUZIONE = "super_produzione"
TREGUA = "tregua"
TRADIMENTO = "tradimento"
CARD_TYPES = (
    ARMA_SEGRETA,
    MISSILI_BALISTICI,
    SILURO_KILLER,
    SCUDO_SPAZIALE,
    SUPER_PRODUZIONE,
    TREGUA,
    TRADIMENTO,
)


@dataclass(frozen=True, slots=True)
class FutuCard:
    id: str
    type: str  # one of CARD_TYPES
    colours: tuple[str, str]  # the two colour ids on its top corners


@dataclass(frozen=True)
class FutuRuleset(Ruleset):
    supply: Mapping[str, int]  # pieces of each kind per colour (units and flags)
    costs: Mapping[str, int]  # production points per unit
    explosion_faces: frozenset[int]
    flag_dice: int  # extra dice the defender rolls while its flag stands
    submarine_dice: int  # dice each submarine rolls at a coast
    victory_territories: int
    card_names: Mapping[str, str]  # card type -> display name
    deck: tuple[FutuCard, ...]

    def marker_supply(self) -> dict[str, int]:
        return {FLAG: self.supply[FLAG]}

    def card(self, card_id: str) -> FutuCard:
        return self._cards[card_id]

    @cached_property
    def _cards(self) -> dict[str, FutuCard]:
        return {card.id: card for card in self.deck}

    @cached_property
    def card_types(self) -> dict[str, str]:
        """The type of each card, by id."""
        return {card.id: card.type for card in self.deck}

    @cached_property
    def land_indices(self) -> tuple[int, ...]:
        return tuple(land.index for land in self.board.lands)

    @cached_property
    def move_reach(self) -> dict[str, tuple[tuple[int, ...], ...]]:
        """By kind of unit, by space: where its units may move from there, truces aside
        (nowhere from a space of the other kind: submarines move at sea, the others on land)."""
        board = self.board
        seas = [territory.is_sea for territory in board.territories]
        steps = {
            TANK: board.land_neighbours,
            AIRCRAFT: self.aircraft_reach,
            SUBMARINE: board.sea_neighbours,
        }
        return {
            kind: tuple(
                tuple(reach) if seas[space] == (kind == SUBMARINE) else ()
                for space, reach in enumerate(steps[kind])
            )
            for kind in steps
        }

    @cached_property
    def move_reach_ids(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        """`move_reach` by the spaces' ids."""
        ids = [territory.id for territory in self.board.territories]
        return {
            kind: tuple(tuple(ids[t] for t in reach) for reach in spaces)
            for kind, spaces in self.move_reach.items()
        }

    @cached_property
    def aircraft_reach(self) -> tuple[tuple[int, ...], ...]:
        """By space: the territories two steps away at most, over territories and seas, in
        order (the board is fixed: found once)."""
        neighbours = self.board.neighbours
        territories = self.board.territories
        reaches = []
        for source in range(len(territories)):
            reach = set(neighbours[source])
            for middle in neighbours[source]:
                reach.update(neighbours[middle])
            reaches.append(
                tuple(sorted(s for s in reach if s != source and not territories[s].is_sea))
            )
        return tuple(reaches)

    @classmethod
    def from_data(cls, board_data: Mapping[str, Any], rules: Mapping[str, Any]) -> FutuRuleset:
        board = Board.from_data(board_data)
        try:
            return _parse(board, rules)
        except (KeyError, TypeError, ValueError) as error:
            raise BoardDataError(f"futurisiko rules: bad or missing {error}") from None


def _parse(board: Board, rules: Mapping[str, Any]) -> FutuRuleset:
    colours = tuple(Colour(entry["id"], entry["name"]) for entry in rules["colours"])
    colour_ids = {colour.id for colour in colours}
    low, high = int(rules["players"]["min"]), int(rules["players"]["max"])
    if not 2 <= low <= high <= len(colours):
        raise BoardDataError("futurisiko rules: players must fit the colours")
    names = {str(kind): str(name) for kind, name in rules["card_types"].items()}
    if set(names) != set(CARD_TYPES):
        raise BoardDataError(f"futurisiko rules: the card types must be {CARD_TYPES}")
    deck = []
    for entry in rules["cards"]:
        pair = tuple(entry["colours"])
        if entry["card"] not in names or len(pair) != 2 or not set(pair) <= colour_ids:
            raise BoardDataError(f"futurisiko rules: bad card {entry!r}")
        deck.append(FutuCard(str(entry["id"]), str(entry["card"]), (pair[0], pair[1])))
    if len({card.id for card in deck}) != len(deck):
        raise BoardDataError("futurisiko rules: two cards share an id")
    faces = frozenset(int(face) for face in rules["explosion_faces"])
    if not faces <= set(range(1, 7)):
        raise BoardDataError("futurisiko rules: explosion faces are 1 to 6")
    return FutuRuleset(
        board=board,
        cards=CardRules({}, {}, 0),
        objectives={},
        tournament_objectives={},
        tournament_objective_points=0,
        colours=colours,
        starting_armies=dict.fromkeys(range(low, high + 1), 0),
        supply={kind: int(count) for kind, count in rules["supply"].items()},
        costs={kind: int(cost) for kind, cost in rules["costs"].items()},
        explosion_faces=faces,
        flag_dice=int(rules["flag_dice"]),
        submarine_dice=int(rules["submarine_dice"]),
        victory_territories=int(rules["victory_territories"]),
        card_names=names,
        deck=tuple(deck),
    )
