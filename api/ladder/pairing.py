"""Who plays whom on the bots' ladder: a pure choice, no I/O.

Close ratings with some randomness: each free bot's displayed rating is shaken by a normal
draw (`noise` points, 100 by default: half the model's beta, so a bot is as likely to meet a
neighbour 100 points away as one next to it), the bots are ordered by the shaken ratings and
cut into tables in that order. Close ratings make the most informative tables (the rating
model compares each player with its neighbours in the ranking, and a table of near equals is
the one whose ranking is least known in advance); the noise keeps a bot from meeting the same
three forever, so that groups of bots are compared with each other and the whole ladder
converges, not each island of it. Newcomers (all 1500) mix at random at first."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

NOISE = 100.0


@dataclass(frozen=True, slots=True)
class Candidate:
    """A free bot: its account and its displayed rating in the ladder's game and speed."""

    account: str
    rating: float


def pair(
    free: Sequence[Candidate],
    table_size: int,
    tables: int,
    rng: random.Random,
    noise: float = NOISE,
) -> list[tuple[str, ...]]:
    """At most `tables` tables of exactly `table_size` distinct accounts of `free`, each of
    bots whose shaken ratings are neighbours; the bots left over wait for the next pass."""
    if table_size < 2 or tables <= 0:
        return []
    distinct = {candidate.account: candidate for candidate in free}
    shaken = sorted(distinct.values(), key=lambda c: (c.rating + rng.gauss(0.0, noise), c.account))
    count = min(tables, len(shaken) // table_size)
    if count == 0:
        return []
    # the bots left over are at either end, by chance, so that none is always left out
    skip = rng.randrange(len(shaken) - count * table_size + 1)
    seated = shaken[skip : skip + count * table_size]
    return [
        tuple(c.account for c in seated[start : start + table_size])
        for start in range(0, len(seated), table_size)
    ]
