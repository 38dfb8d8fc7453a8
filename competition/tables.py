"""How many tables a round has, and of which sizes.

A rule gives the smallest and largest table the game allows and the size it plays best
(docs/tournaments.md argues 4 for classic RisiKo! with the tournament rules). Every table is
full (no empty seat, nobody left out); among the ways to split the players, the best has:

1. as few short tables (below the preferred size) as possible;
2. then the sizes as close to the preferred one as possible (the sum of the differences);
3. then the larger tables first, so that the top of the standings plays at the fuller tables
   and the short ones, if any, come last.

For a given number of tables T the first two are known in closed form: with pT ≤ N players
to spare, no table is short and the N - pT extra players go one to a table; otherwise the
pT - N missing seats are taken from as few tables as possible (each down to the minimum).
"""

from __future__ import annotations

from dataclasses import dataclass

from competition.errors import CompetitionCode, CompetitionError

SMALLEST_TABLE = 2


@dataclass(frozen=True, slots=True)
class TableRule:
    """The sizes a round's tables may have: `minimum` to `maximum` players, `preferred` best."""

    minimum: int
    preferred: int
    maximum: int

    def __post_init__(self) -> None:
        if not SMALLEST_TABLE <= self.minimum <= self.preferred <= self.maximum:
            raise CompetitionError(
                CompetitionCode.INVALID_TABLE_RULE,
                f"a table rule needs {SMALLEST_TABLE} <= minimum <= preferred <= maximum, "
                f"not {self.minimum}, {self.preferred}, {self.maximum}",
            )

    def sizes(self, players: int) -> tuple[int, ...]:
        """The tables' sizes for `players` players, largest first."""
        if players < self.minimum:
            raise CompetitionError(
                CompetitionCode.TOO_FEW_PLAYERS,
                f"{players} players cannot fill a table of at least {self.minimum}",
            )
        fewest = -(-players // self.maximum)
        most = players // self.minimum
        if fewest > most:
            raise CompetitionError(
                CompetitionCode.TABLES_IMPOSSIBLE,
                f"{players} players cannot be split into full tables of {self.minimum} "
                f"to {self.maximum}",
            )
        best = min(range(fewest, most + 1), key=lambda tables: self._cost(players, tables))
        return self._split(players, best)

    def _cost(self, players: int, tables: int) -> tuple[int, int]:
        """(short tables, distance from the preferred size) with `tables` tables."""
        missing = self.preferred * tables - players
        if missing <= 0:
            return 0, -missing
        return -(-missing // (self.preferred - self.minimum)), missing

    def _split(self, players: int, tables: int) -> tuple[int, ...]:
        sizes = [self.preferred] * tables
        spare = players - self.preferred * tables
        position = 0
        while spare > 0:  # one more to each table in turn, as evenly as the maximum allows
            if sizes[position] < self.maximum:
                sizes[position] += 1
                spare -= 1
            position = (position + 1) % tables
        position = tables - 1
        while spare < 0:  # the missing seats from the last tables, each down to the minimum
            taken = min(-spare, sizes[position] - self.minimum)
            sizes[position] -= taken
            spare += taken
            position -= 1
        return tuple(sorted(sizes, reverse=True))


# Classic RisiKo! with the tournament rules: tables of 4, and 3 or 5 where the count needs it.
CLASSIC_TOURNAMENT = TableRule(minimum=3, preferred=4, maximum=5)
