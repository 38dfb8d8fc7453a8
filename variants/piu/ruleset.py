"""The rules data of RisiKo! Più: the deck of six kinds of card, the Rinforzi track, the
reinforcement values, the starting armies; and the board's empires, blocks and bodies of water."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from domain.board import Board
from domain.cards import Card, CardRules
from domain.errors import BoardDataError
from domain.ruleset import Colour, Ruleset

# The six kinds of card (a card's symbol), by their printed names.
RINFORZI = "rinforzi"
SPIA = "spia"
GENERALE = "generale"
AMMIRAGLIO = "ammiraglio"
MARESCIALLO = "maresciallo"
DIPLOMATICO = "diplomatico"
CARD_KINDS = (RINFORZI, SPIA, GENERALE, AMMIRAGLIO, MARESCIALLO, DIPLOMATICO)

EMPIRE = "empire"
INDEPENDENT_BLOCK = "independent_block"

FORTRESS = "fortress"  # a kind of marker (domain/views.py): a player's standing fortress


@dataclass(frozen=True)
class PiuRuleset(Ruleset):
    board_version: str
    setup_armies_per_turn: int
    hand_size: int
    rinforzi_track: tuple[int, ...]
    per_enemy_banner: int
    per_independent_block: int
    per_empire: int
    all_three_blocks: int
    empires_to_win: int
    empires: tuple[int, ...]  # region positions of the empires, in board order
    blocks: tuple[int, ...]  # region positions of the independent blocks
    # The body of water of each land space's shores: a frozenset of body numbers (connected
    # components of the sea-sea graph); empty for a landlocked territory.
    waters: tuple[frozenset[int], ...]

    def marker_supply(self) -> dict[str, int]:
        return {FORTRESS: len(self.empires)}

    def rinforzi_value(self, played: int) -> int:
        """What the next Rinforzi card gives once `played` have been played in the game: the
        track's next step, from 3 again once all twelve are taken."""
        return self.rinforzi_track[played % len(self.rinforzi_track)]

    def by_sea(self, source: int, target: int) -> bool:
        """Whether the flagship can carry armies from `source` to `target`: both on a shore of
        one body of water (the Mar Nero alone is one, the other seas together the other)."""
        return not self.waters[source].isdisjoint(self.waters[target])

    @cached_property
    def shores(self) -> tuple[int, ...]:
        """The territories on a shore, in order."""
        return tuple(t for t, waters in enumerate(self.waters) if waters)

    @cached_property
    def sea_reach(self) -> tuple[tuple[int, ...], ...]:
        """By territory: the other shores the flagship reaches from it, in order (the board is
        fixed: found once)."""
        return tuple(
            tuple(t for t in self.shores if t != source and self.by_sea(source, t))
            for source in range(len(self.waters))
        )

    @classmethod
    def from_data(cls, board_data: Mapping[str, Any], rules: Mapping[str, Any]) -> PiuRuleset:
        board = Board.from_data(board_data)
        try:
            return _parse(board, board_data, rules)
        except (KeyError, TypeError, ValueError) as error:
            raise BoardDataError(f"piu rules: bad or missing {error}") from None


def _bodies_of_water(board: Board) -> tuple[frozenset[int], ...]:
    body: dict[int, int] = {}
    for sea in (t.index for t in board.seas):
        if sea in body:
            continue
        number = len(set(body.values()))
        stack = [sea]
        while stack:
            space = stack.pop()
            if space in body:
                continue
            body[space] = number
            stack.extend(board.sea_neighbours[space])
    return tuple(
        frozenset(body[sea] for sea in board.coasts[t.index]) if not t.is_sea else frozenset()
        for t in board.territories
    )


def _parse(board: Board, board_data: Mapping[str, Any], rules: Mapping[str, Any]) -> PiuRuleset:
    cards: dict[str, Card] = {}
    for kind, count in rules["deck"].items():
        if kind not in CARD_KINDS:
            raise BoardDataError(f"piu rules: unknown kind of card {kind!r}")
        for number in range(1, int(count) + 1):
            card_id = f"{kind}_{number:02d}"
            cards[card_id] = Card(card_id, kind, None)
    kinds = {entry["id"]: entry["kind"] for entry in board_data["regions"]}
    positions = {region.id: position for position, region in enumerate(board.regions)}
    empires = tuple(positions[r] for r, kind in kinds.items() if kind == EMPIRE)
    blocks = tuple(positions[r] for r, kind in kinds.items() if kind == INDEPENDENT_BLOCK)
    if len(empires) + len(blocks) != len(board.regions):
        raise BoardDataError("piu board: every region is an empire or an independent block")
    colours = tuple(Colour(entry["id"], entry["name"]) for entry in rules["colours"])
    starting = {int(players): int(armies) for players, armies in rules["starting_armies"].items()}
    if max(starting) > min(len(colours), len(empires)):
        raise BoardDataError("piu rules: more players than colours or empires")
    bonus = rules["reinforcements"]
    return PiuRuleset(
        board=board,
        cards=CardRules(cards, {}, 0),
        objectives={},
        tournament_objectives={},
        tournament_objective_points=0,
        colours=colours,
        starting_armies=starting,
        board_version=str(board_data["version"]),
        setup_armies_per_turn=int(rules["setup_armies_per_turn"]),
        hand_size=int(rules["hand_size"]),
        rinforzi_track=tuple(int(n) for n in rules["rinforzi_track"]),
        per_enemy_banner=int(bonus["per_enemy_banner"]),
        per_independent_block=int(bonus["per_independent_block"]),
        per_empire=int(bonus["per_empire"]),
        all_three_blocks=int(bonus["all_three_blocks"]),
        empires_to_win=int(rules["empires_to_win"]),
        empires=empires,
        blocks=blocks,
        waters=_bodies_of_water(board),
    )
