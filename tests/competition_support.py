"""Helpers for the tests and benchmarks of competition/: what a round's tables cost, counted
from their definition, and the least repeats any seating of a small round can have, found by
exhaustive search (so that "no repeats while avoidable" is checked, not assumed)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from competition.results import GameResult, from_ranking

Tables = Sequence[Sequence[str]]


def meetings(history: Sequence[Tables]) -> Counter[frozenset[str]]:
    """How many times each two players sat at one table in `history`."""
    met: Counter[frozenset[str]] = Counter()
    for tables in history:
        for table in tables:
            for i, first in enumerate(table):
                for second in table[i + 1 :]:
                    met[frozenset((first, second))] += 1
    return met


def repeats(tables: Tables, history: Sequence[Tables]) -> int:
    """For every two players at one of `tables`, the times they met before, summed."""
    met = meetings(history)
    return sum(
        met[frozenset((first, second))]
        for table in tables
        for i, first in enumerate(table)
        for second in table[i + 1 :]
    )


def spread(tables: Tables, points: Mapping[str, int]) -> int:
    return sum(max(points[p] for p in table) - min(points[p] for p in table) for table in tables)


def least_repeats(players: Sequence[str], sizes: Sequence[int], history: Sequence[Tables]) -> int:
    """The fewest repeats of any split of `players` into tables of `sizes`: branch and bound,
    the first player left opening the next table, once for each size still to fill."""
    met = meetings(history)
    best = [sum(met.values()) * len(players) + 1]

    def tables(left: Sequence[str], sizes_left: Sequence[int], cost: int) -> None:
        if cost >= best[0]:
            return
        if not sizes_left:
            best[0] = cost
            return
        for size in sorted(set(sizes_left)):
            rest = list(sizes_left)
            rest.remove(size)
            fill([left[0]], left[1:], 0, size, rest, cost)

    def fill(
        table: list[str], left: Sequence[str], start: int, size: int, rest: list[int], cost: int
    ) -> None:
        if cost >= best[0]:
            return
        if len(table) == size:
            tables([p for p in left if p not in table], rest, cost)
            return
        for index in range(start, len(left) - (size - len(table)) + 1):
            player = left[index]
            added = sum(met[frozenset((player, other))] for other in table)
            fill([*table, player], left, index + 1, size, rest, cost + added)

    tables(list(players), list(sizes), 0)
    return best[0]


def random_tables(
    players: Sequence[str], sizes: Sequence[int], rnd: random.Random
) -> list[list[str]]:
    """A random split of `players` into tables of `sizes`."""
    shuffled = list(players)
    rnd.shuffle(shuffled)
    tables, start = [], 0
    for size in sizes:
        tables.append(shuffled[start : start + size])
        start += size
    return tables


def ranked_result(game: str, players: tuple[str, ...], rng: random.Random) -> GameResult:
    """A table's result as the engine would rank it: distinct random points, best first."""
    points = rng.sample(range(90), len(players))
    order = sorted(range(len(players)), key=lambda seat: -points[seat])
    ranking = [(rank, seat, points[seat]) for rank, seat in enumerate(order, start=1)]
    return from_ranking(game, players, ranking, objective_seat=None)
