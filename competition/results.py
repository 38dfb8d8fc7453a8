"""What a finished tournament game gives each of its players.

The points are the game's own, as the engine ranks them at the end (`GameEnded.ranking`):
for classic RisiKo! with the tournament objectives, seed 000's "Punteggi" (the values of the
territories of the player's objective that it holds at the end; 100 to the player who achieves
its objective); for S.P.Q.RisiKo!, the victory points (docs/tournaments.md says why these two).
A player who never showed up (`absent`: its seat was played by the clock's absence policy)
scores nothing; one who resigned keeps what the engine gives it, its armies having stayed on
the board.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from competition.errors import CompetitionCode, CompetitionError


class Presence(enum.StrEnum):
    PLAYED = "played"  # to the end of the game, or eliminated
    RESIGNED = "resigned"  # left the game (or the clock made it leave after its absences)
    ABSENT = "absent"  # never played a move of its own


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's line of a finished game."""

    player: str
    points: int  # the game's points for this player (Game.points at the end)
    rank: int  # its place in the game's ranking, 1 the best; ties share a rank
    objective: bool = False  # whether it achieved its objective (won by it)
    presence: Presence = Presence.PLAYED

    @property
    def score(self) -> int:
        """What the game adds to the player's tournament points."""
        return 0 if self.presence is Presence.ABSENT else self.points


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game of the tournament: its id (each game counts once) and its players'
    results in seat order."""

    game: str
    players: tuple[PlayerResult, ...]

    def __post_init__(self) -> None:
        problem = _problem(self.players)
        if problem is not None:
            raise CompetitionError(CompetitionCode.INVALID_RESULT, f"game {self.game!r}: {problem}")


def _problem(players: Sequence[PlayerResult]) -> str | None:
    if len(players) < 2:
        return "a game has at least 2 players"
    if len({result.player for result in players}) != len(players):
        return "a player is listed twice"
    for result in players:
        if result.points < 0:
            return f"{result.player!r} has negative points"
        if not 1 <= result.rank <= len(players):
            return f"{result.player!r} has rank {result.rank}, not 1 to {len(players)}"
        if result.objective and (result.rank != 1 or result.presence is not Presence.PLAYED):
            return f"{result.player!r} achieved its objective but is not a winner still playing"
    if sum(result.objective for result in players) > 1:
        return "only one player achieves its objective"
    return None


def from_ranking(
    game: str,
    players: Sequence[str],
    ranking: Sequence[tuple[int, int, int]],
    *,
    objective_seat: int | None,
    resigned: Collection[int] = (),
    absent: Collection[int] = (),
) -> GameResult:
    """A game's result from the engine's final ranking ((rank, seat, points), best first)
    and its seats' players; `objective_seat` achieved its objective, if any seat did; the
    `absent` seats never played (the service knows), the `resigned` ones left the game."""
    if sorted(seat for _, seat, _ in ranking) != list(range(len(players))):
        raise CompetitionError(
            CompetitionCode.INVALID_RESULT,
            f"game {game!r}: the ranking does not list each of the {len(players)} seats once",
        )
    by_seat = {seat: (rank, points) for rank, seat, points in ranking}
    lines = []
    for seat, player in enumerate(players):
        presence = Presence.PLAYED
        if seat in absent:
            presence = Presence.ABSENT
        elif seat in resigned:
            presence = Presence.RESIGNED
        rank, points = by_seat[seat]
        lines.append(PlayerResult(player, points, rank, seat == objective_seat, presence))
    return GameResult(game, tuple(lines))
