"""A round's tables and the order of their seats, from the players who play it.

The input is only who plays this round, in the order of the standings, with their points,
and the tables of the rounds before: a late entry is a player with no past tables, a
withdrawn or removed player is simply not among this round's players.

- Round 1 is drawn: the players in the order of their ids, shuffled with the round's stream
  of the tournament's seed (competition/draw.py), cut into tables.
- Later rounds are Swiss-like (competition/search.py): players of similar standing together,
  repeated opponents avoided as far as possible.

Then each table's seats are ordered so that, over the rounds, a player sits at each place
about as often as at any other, and sits right after (plays after, clockwise) the same
player as seldom as possible: of every order of the table, the one with the fewest past
sittings at those places, then the fewest such neighbours again, ties drawn from the round's
stream. Everything follows from the inputs and the seed (competition/record.py checks it).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from competition.draw import round_random
from competition.errors import CompetitionCode, CompetitionError
from competition.search import TablePlan, greedy
from competition.tables import TableRule
from domain.rng import DerivedRandom

# A round's tables: each a sequence of player ids in seat order.
Tables = Sequence[Sequence[str]]


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of this round, with the points of its standing."""

    player: str
    points: int = 0


@dataclass(frozen=True, slots=True)
class Seating:
    """A round's tables, the best placed first, each in seat order; and what they cost:
    `repeats` counts, over every two players at one table, the times they met before;
    `spread` sums each table's most points less its fewest."""

    round: int
    tables: tuple[tuple[str, ...], ...]
    repeats: int
    spread: int


class _Past:
    """What the earlier rounds say about this round's players (by index)."""

    def __init__(self, players: Sequence[str], history: Sequence[Tables]) -> None:
        index = {player: position for position, player in enumerate(players)}
        self.met: list[dict[int, int]] = [{} for _ in players]
        self.seats: list[Counter[int]] = [Counter() for _ in players]
        self.after: Counter[tuple[int, int]] = Counter()
        for tables in history:
            for table in tables:
                here = [index.get(player, -1) for player in table]
                self._note(here)

    def _note(self, table: Sequence[int]) -> None:
        for seat, player in enumerate(table):
            if player < 0:
                continue  # a player who does not play this round
            self.seats[player][seat] += 1
            following = table[(seat + 1) % len(table)]
            if following >= 0 and following != player:
                self.after[player, following] += 1
            for other in table:
                if other >= 0 and other != player:
                    self.met[player][other] = self.met[player].get(other, 0) + 1


def seat_round(
    seed: bytes,
    round_number: int,
    entrants: Sequence[Entrant],
    history: Sequence[Tables],
    rule: TableRule,
) -> Seating:
    """The tables of round `round_number` (1 for the first) of `entrants`, given in the
    order of the standings, after the rounds of `history` (each a list of tables)."""
    if not 1 <= round_number < 1 << 32:
        raise CompetitionError(CompetitionCode.INVALID_ROUND, "rounds are numbered from 1")
    if round_number == 1:
        # The draw depends on who plays and on the seed, never on the order of the list.
        entrants = sorted(entrants, key=lambda entrant: entrant.player)
    players = [entrant.player for entrant in entrants]
    points = [entrant.points for entrant in entrants]
    _check_distinct(players)
    sizes = rule.sizes(len(players))
    rng = round_random(seed, round_number)
    past = _Past(players, history)
    if round_number == 1:
        order = list(range(len(players)))
        rng.shuffle(order)
        cuts = list(itertools.accumulate(sizes, initial=0))
        drawn = [order[cuts[i] : cuts[i + 1]] for i in range(len(sizes))]
        plan = TablePlan(drawn, past.met, points)
    else:
        plan = TablePlan(greedy(sizes, past.met), past.met, points)
        plan.search(rng)
    repeats, spread = plan.cost()
    tables = tuple(
        tuple(players[p] for p in _seat_order(table, past, rng)) for table in plan.tables
    )
    return Seating(round_number, tables, repeats, spread)


def _check_distinct(players: Sequence[str]) -> None:
    seen: set[str] = set()
    for player in players:
        if player in seen:
            raise CompetitionError(
                CompetitionCode.DUPLICATE_PLAYER, f"player {player!r} is listed twice"
            )
        seen.add(player)


def _seat_order(table: Sequence[int], past: _Past, rng: DerivedRandom) -> list[int]:
    """The order of a table's seats: the fewest past sittings at the same places, then the
    fewest times right after the same player; the table shuffled first, so ties are drawn."""
    players = list(table)
    rng.shuffle(players)
    best: tuple[int, int] | None = None
    chosen = players
    for order in itertools.permutations(players):
        cost = _order_cost(order, past.seats, past.after)
        if best is None or cost < best:
            best, chosen = cost, list(order)
            if cost == (0, 0):
                break
    return chosen


def _order_cost(
    order: Sequence[int], seats: Sequence[Counter[int]], after: Mapping[tuple[int, int], int]
) -> tuple[int, int]:
    places = sum(seats[player][seat] for seat, player in enumerate(order))
    size = len(order)
    neighbours = sum(after.get((order[i], order[(i + 1) % size]), 0) for i in range(size))
    return places, neighbours
