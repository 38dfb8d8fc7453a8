"""The ladder's pairing: tables of close ratings, with some randomness (api/ladder/pairing.py)."""

from __future__ import annotations

import random
from collections import Counter

from api.ladder.pairing import Candidate, pair


def bots(*ratings: float) -> list[Candidate]:
    return [Candidate(f"b{index:02d}", rating) for index, rating in enumerate(ratings)]


def test_without_noise_tables_are_neighbours_in_rating() -> None:
    free = bots(1900, 1100, 1500, 1000, 1800, 1600, 1200, 1700)
    tables = pair(free, 4, 10, random.Random(1), noise=0.0)
    assert [sorted(table) for table in tables] == [
        sorted(["b01", "b02", "b03", "b06"]),
        sorted(["b00", "b04", "b05", "b07"]),
    ]


def test_tables_have_exactly_their_size_distinct_accounts_and_are_bounded() -> None:
    rng = random.Random(7)
    for _ in range(200):
        free = bots(*(rng.uniform(1000, 2000) for _ in range(rng.randrange(0, 30))))
        size, most = rng.randrange(3, 7), rng.randrange(0, 6)
        tables = pair(free + free[:3], size, most, rng)
        assert len(tables) == min(most, len(free) // size)
        seated = [account for table in tables for account in table]
        assert all(len(table) == size for table in tables)
        assert len(seated) == len(set(seated))


def test_too_few_bots_or_no_room_make_no_table() -> None:
    assert pair(bots(1500, 1500, 1500), 4, 3, random.Random(0)) == []
    assert pair(bots(*[1500] * 8), 4, 0, random.Random(0)) == []


def test_the_noise_mixes_neighbours_and_leaves_nobody_out_for_ever() -> None:
    free = bots(*(1000 + 100 * index for index in range(9)))
    rng = random.Random(3)
    seated: Counter[str] = Counter()
    partners: Counter[frozenset[str]] = Counter()
    for _ in range(300):
        for table in pair(free, 4, 2, rng):
            seated.update(table)
            partners.update(frozenset((a, b)) for a in table for b in table if a < b)
    assert set(seated) == {candidate.account for candidate in free}
    assert min(seated.values()) > 150  # each out about 1 pass in 9
    # neighbours meet far more often than the two ends, who meet rarely or never
    assert partners[frozenset(("b04", "b05"))] > 5 * partners[frozenset(("b00", "b08"))]
