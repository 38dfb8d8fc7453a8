"""A tournament's standings, added up game by game.

The order, each key deciding only between players equal on the ones before
(docs/tournaments.md says why):

1. points: the sum of the player's scores (competition/results.py);
2. objectives achieved;
3. opponents' points (Buchholz): for each game the player played, the current points of each
   player it met at that table (an opponent met twice counts twice), so that the same points
   won against stronger tables come first;
4. the best single game;
5. the drawn lot (competition/draw.py): unique, so the order is total.

A game that ends costs one pass over its players and the opponents each has met
(`Standings.add`); reading the order sorts the players (`Standings.rows`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from competition.draw import lot
from competition.errors import CompetitionCode, CompetitionError
from competition.pairing import Entrant
from competition.results import GameResult


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    place: int  # 1 for the first
    player: str
    games: int
    points: int
    objectives: int
    opponents_points: int
    best_game: int
    lot: str


@dataclass(slots=True)
class _Tally:
    games: int = 0
    points: int = 0
    objectives: int = 0
    opponents_points: int = 0
    best_game: int = 0
    met: Counter[str] = field(default_factory=Counter)


class Standings:
    """The standings of one tournament, whose seed draws the lots."""

    def __init__(self, seed: bytes, players: Iterable[str] = ()) -> None:
        self._seed = seed
        self._tallies: dict[str, _Tally] = {}
        self._lots: dict[str, str] = {}
        self._games: set[str] = set()
        for player in players:
            self.register(player)

    @classmethod
    def from_results(
        cls, seed: bytes, players: Iterable[str], results: Iterable[GameResult]
    ) -> Standings:
        """The standings recomputed from scratch (what the incremental ones must equal)."""
        standings = cls(seed, players)
        for result in results:
            standings.add(result)
        return standings

    def register(self, player: str) -> None:
        """A player in the standings with nothing yet (a late entry too); again: nothing."""
        if player not in self._tallies:
            self._tallies[player] = _Tally()
            self._lots[player] = lot(self._seed, player)

    def add(self, result: GameResult) -> None:
        """Count a finished game: once only (RESULT_ALREADY_COUNTED the second time)."""
        if result.game in self._games:
            raise CompetitionError(
                CompetitionCode.RESULT_ALREADY_COUNTED, f"game {result.game!r} is already counted"
            )
        self._games.add(result.game)
        for line in result.players:
            self.register(line.player)
        tallies = self._tallies
        for line in result.players:
            tally, score = tallies[line.player], line.score
            tally.games += 1
            tally.points += score
            tally.objectives += line.objective
            tally.best_game = max(tally.best_game, score)
            for opponent, times in tally.met.items():  # they counted its points before
                tallies[opponent].opponents_points += score * times
        for line in result.players:
            tally = tallies[line.player]
            for other in result.players:
                if other.player != line.player:
                    tally.met[other.player] += 1
                    tally.opponents_points += tallies[other.player].points

    def rows(self) -> list[Standing]:
        """The standings, first place first."""
        ordered = sorted(self._tallies.items(), key=lambda item: self._key(*item))
        return [
            Standing(
                place,
                player,
                tally.games,
                tally.points,
                tally.objectives,
                tally.opponents_points,
                tally.best_game,
                self._lots[player],
            )
            for place, (player, tally) in enumerate(ordered, start=1)
        ]

    def _key(self, player: str, tally: _Tally) -> tuple[int, int, int, int, str]:
        return (
            -tally.points,
            -tally.objectives,
            -tally.opponents_points,
            -tally.best_game,
            self._lots[player],
        )

    def entrants(self, playing: Collection[str]) -> list[Entrant]:
        """The players of the next round in the order of the standings, for the seating
        (competition/pairing.py); a late entry not yet in the standings comes in with none."""
        for player in sorted(playing):
            self.register(player)
        return [Entrant(row.player, row.points) for row in self.rows() if row.player in playing]
