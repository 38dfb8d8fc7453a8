"""Tables for a later round: players of similar standing together, repeated opponents avoided.

The cost of a round's tables, compared in this order (docs/tournaments.md):

1. repeats: for every two players at one table, how many times they met before (a pair
   that met twice counts 2);
2. spread: for every table, its most points less its fewest, summed.

The search: a greedy seeding down the standings (each table takes the best-placed player
left, then the best-placed who has met nobody at it yet), then swaps of two players of
different tables. A descent takes, for each player who meets someone again, the swap that
lowers the repeats most (the spread deciding between equals), looking at the nearest tables
first; when no swap helps and repeats remain, a kick swaps a player who meets someone again
with one drawn at random from the round's stream, and the descent starts again, the best
tables found being kept (iterated local search, a bounded number of kicks). Last, swaps
between neighbouring tables lower the spread without raising the repeats. Players are
indices in standings order (0 the best placed); everything is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.rng import DerivedRandom

# Kicks without a better result before the search stops (the repeats it could not avoid).
PATIENCE = 60
# Kicks in all, at most: bounds the time of a round whose repeats cannot all be avoided.
MOST_KICKS = 400
# Passes of the spread's polishing, at most (each pass lowers it; few are ever needed).
POLISH_PASSES = 50

Met = Sequence[dict[int, int]]


class TablePlan:
    """The tables being searched: who sits where, and the costs of each table."""

    def __init__(self, tables: Sequence[Sequence[int]], met: Met, points: Sequence[int]) -> None:
        self.met = met
        self.points = points
        self.table_of = [0] * len(points)
        self._restore([list(table) for table in tables])

    # ------------------------------------------------------------------ costs

    def conflicts(self, player: int, table: Sequence[int], leaving: int) -> int:
        """The meetings again of `player` with the players of `table` other than `leaving`."""
        met = self.met[player]
        if not met:
            return 0
        return sum(met.get(other, 0) for other in table if other != leaving and other != player)

    def range_of(self, table: Sequence[int]) -> int:
        values = [self.points[player] for player in table]
        return max(values) - min(values)

    def repeats(self) -> int:
        total = sum(self.conflicts(p, self.tables[self.table_of[p]], p) for p in self._all())
        return total // 2

    def spread(self) -> int:
        return sum(self.range_of(table) for table in self.tables)

    def cost(self) -> tuple[int, int]:
        return self.repeats(), self.spread()

    def _all(self) -> range:
        return range(len(self.points))

    def swap_delta(self, a: int, b: int) -> tuple[int, int]:
        """How (repeats, spread) change if `a` and `b`, at different tables, change places."""
        table_a, table_b = self.tables[self.table_of[a]], self.tables[self.table_of[b]]
        before = self.conflicts(a, table_a, a) + self.conflicts(b, table_b, b)
        after = self.conflicts(b, table_a, a) + self.conflicts(a, table_b, b)
        old = self.range_of(table_a) + self.range_of(table_b)
        new_a = [b if player == a else player for player in table_a]
        new_b = [a if player == b else player for player in table_b]
        return after - before, self.range_of(new_a) + self.range_of(new_b) - old

    def swap(self, a: int, b: int) -> None:
        number_a, number_b = self.table_of[a], self.table_of[b]
        table_a, table_b = self.tables[number_a], self.tables[number_b]
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        self.table_of[a], self.table_of[b] = number_b, number_a

    # ------------------------------------------------------------------ the search

    def conflicted(self) -> list[int]:
        """The players who meet someone again, table by table, in seat order."""
        return [p for table in self.tables for p in table if self.conflicts(p, table, p)]

    def best_swap(self, a: int) -> tuple[tuple[int, int], int] | None:
        """The swap for `a` that lowers the repeats most, the nearest tables first: once one
        helps, tables farther than it are not looked at."""
        home = self.table_of[a]
        best: tuple[tuple[int, int], int] | None = None
        for distance in range(1, len(self.tables)):
            for number in (home - distance, home + distance):
                if not 0 <= number < len(self.tables):
                    continue
                for b in self.tables[number]:
                    delta = self.swap_delta(a, b)
                    if delta[0] < 0 and (best is None or delta < best[0]):
                        best = (delta, b)
            if best is not None:
                return best
        return None

    def descend(self) -> None:
        """Swaps that lower the repeats, until none does."""
        improved = True
        while improved:
            improved = False
            for a in self.conflicted():
                if not self.conflicts(a, self.tables[self.table_of[a]], a):
                    continue  # an earlier swap of this pass freed it
                found = self.best_swap(a)
                if found is not None:
                    self.swap(a, found[1])
                    improved = True

    def kick(self, rng: DerivedRandom) -> None:
        """Swap a player who meets someone again with one at another table, at random."""
        conflicted = self.conflicted()
        a = conflicted[rng.below(len(conflicted))]
        others = [p for p in self._all() if self.table_of[p] != self.table_of[a]]
        self.swap(a, others[rng.below(len(others))])

    def search(self, rng: DerivedRandom) -> None:
        """Descend, then kick and descend again while repeats remain, keeping the best."""
        self.descend()
        best_cost, best_tables = self.cost(), [list(table) for table in self.tables]
        stale = 0
        for _ in range(MOST_KICKS):
            if best_cost[0] == 0 or stale >= PATIENCE or len(self.tables) < 2:
                break
            self.kick(rng)
            self.descend()
            cost = self.cost()
            if cost < best_cost:
                best_cost, best_tables, stale = cost, [list(table) for table in self.tables], 0
            else:
                stale += 1
        self._restore(best_tables)
        self.polish()

    def polish(self) -> None:
        """Swaps between neighbouring tables that lower the spread and keep the repeats."""
        for _ in range(POLISH_PASSES):
            improved = False
            for number in range(len(self.tables) - 1):
                for a in list(self.tables[number]):
                    for b in list(self.tables[number + 1]):
                        if self.table_of[a] != number or self.table_of[b] != number + 1:
                            continue
                        if self.swap_delta(a, b) < (0, 0):
                            self.swap(a, b)
                            improved = True
            if not improved:
                return

    def _restore(self, tables: list[list[int]]) -> None:
        self.tables = tables
        for number, table in enumerate(tables):
            for player in table:
                self.table_of[player] = number


def greedy(sizes: Sequence[int], met: Met) -> list[list[int]]:
    """Down the standings: each table takes the best-placed player left, then the
    best-placed who has met nobody at it (or, if everyone left has, the fewest meetings)."""
    unseated = list(range(len(met)))
    tables: list[list[int]] = []
    for size in sizes:
        table = [unseated.pop(0)]
        while len(table) < size:
            table.append(unseated.pop(_first_fit(unseated, table, met)))
        tables.append(table)
    return tables


def _first_fit(unseated: Sequence[int], table: Sequence[int], met: Met) -> int:
    best_position, best_meetings = 0, -1
    for position, candidate in enumerate(unseated):
        known = met[candidate]
        meetings = sum(known.get(player, 0) for player in table) if known else 0
        if meetings == 0:
            return position
        if best_meetings < 0 or meetings < best_meetings:
            best_position, best_meetings = position, meetings
    return best_position
