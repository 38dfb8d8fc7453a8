"""The matchmaking pool: who sits with whom on hand-made pools, the window that widens with
the wait, and, on any pool, never an incompatible table nor an account twice."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.errors import CompetitionCode, CompetitionError
from competition.matchmaking import Kind, Opponents, Seek, Table, Window, expired, match

NOW = 100_000.0


def seek(
    name: str,
    rating: float,
    *,
    account: str | None = None,
    players: int = 4,
    variant: str = "classic",
    speed: str = "1d",
    rated: bool = True,
    waited: float = 0.0,
    kind: Kind = Kind.PERSON,
    opponents: Opponents = Opponents.ANY,
) -> Seek:
    return Seek(
        name, account or name, rating, variant, players, speed, rated, NOW - waited, kind, opponents
    )


def names(tables: list[Table]) -> list[list[str]]:
    return [[s.id for s in table.seeks] for table in tables]


def test_similar_ratings_sit_together() -> None:
    pool = [
        seek("a", 1500, waited=50),
        seek("b", 1820, waited=40),
        seek("c", 1510, waited=30),
        seek("d", 1800, waited=20),
        seek("e", 1530, waited=10),
        seek("f", 1790, waited=9),
        seek("g", 1490, waited=8),
        seek("h", 1810, waited=7),
        seek("i", 1505),
    ]
    # The oldest, a, takes the three nearest its 1500 (1505, 1510, 1490); e (1530) waits.
    assert names(match(pool, NOW)) == [["a", "c", "g", "i"], ["b", "d", "f", "h"]]


def test_the_oldest_seek_takes_the_nearest_ratings() -> None:
    pool = [
        seek("old", 1500, waited=60),
        *(seek(f"s{r}", r) for r in (1440, 1470, 1530, 1560, 1590)),
    ]
    # Window of the old seek: 150; of the others: 100. Nearest first: 1470, 1530, then
    # 1440 or 1560 (equal distance: the lower first).
    assert names(match(pool, NOW)) == [["old", "s1440", "s1470", "s1530"]]


def test_the_window_widens_with_the_wait() -> None:
    # Ratings 250 apart at most: a window of 100 at once, 50 more a minute, reaches it at
    # three minutes of waiting for everyone.
    def pool(waited: float) -> list[Seek]:
        return [
            seek(n, r, waited=waited)
            for n, r in (("a", 1500), ("b", 1650), ("c", 1700), ("d", 1750))
        ]

    assert match(pool(0), NOW) == []
    assert match(pool(179), NOW) == []
    assert names(match(pool(180), NOW)) == [["a", "b", "c", "d"]]
    assert Window().at(0) == 100
    assert Window().at(180) == 250
    assert Window().at(10_000_000) == Window().maximum


def test_every_window_holds_the_whole_table() -> None:
    # The old seek would take the young one 200 away, but the young one's window is 100.
    pool = [
        seek("old", 1500, waited=600),
        seek("young", 1700),
        seek("x", 1510, waited=600),
        seek("y", 1520, waited=600),
    ]
    assert match(pool, NOW) == []
    pool.append(seek("z", 1530, waited=600))
    assert names(match(pool, NOW)) == [["old", "x", "y", "z"]]


def test_different_games_never_share_a_table() -> None:
    base = [seek(f"{n}", 1500 + n) for n in range(3)]
    for other in (
        seek("o", 1500, players=5),
        seek("o", 1500, variant="spqr"),
        seek("o", 1500, speed="3d"),
        seek("o", 1500, rated=False),
    ):
        assert match([*base, other], NOW) == []
    assert len(match([*base, seek("o", 1500)], NOW)) == 1


def test_an_account_sits_once_per_pass() -> None:
    # "anna" seeks a classic and an S.P.Q.RisiKo! game, both of which could start: the older
    # seek's table starts, the other waits.
    pool = [
        seek("anna-classic", 1500, account="anna", waited=30),
        seek("anna-spqr", 1500, account="anna", variant="spqr", waited=60),
        *(seek(f"c{n}", 1500 + n) for n in range(3)),
        *(seek(f"s{n}", 1500 + n, variant="spqr") for n in range(3)),
    ]
    assert names(match(pool, NOW)) == [["anna-spqr", "s0", "s1", "s2"]]


def test_an_account_never_sits_twice_at_a_table() -> None:
    pool = [seek(f"anna-{n}", 1500, account="anna") for n in range(4)]
    assert match(pool, NOW) == []
    assert names(match([*pool, *(seek(f"x{n}", 1500) for n in range(3))], NOW)) == [
        ["anna-0", "x0", "x1", "x2"]
    ]


def test_people_and_bots_sit_with_whom_they_accept() -> None:
    people_only = seek("person", 1500, waited=10, opponents=Opponents.PEOPLE)
    bots = [seek(f"bot{n}", 1500, kind=Kind.BOT) for n in range(3)]
    assert match([people_only, *bots], NOW) == []
    bots_only = seek("person", 1500, waited=10, opponents=Opponents.BOTS)
    assert names(match([bots_only, *bots], NOW)) == [["person", "bot0", "bot1", "bot2"]]
    choosy_bot = seek("choosy", 1500, kind=Kind.BOT, opponents=Opponents.BOTS)
    assert match([bots_only, bots[0], bots[1], choosy_bot], NOW) == []


def test_the_order_of_the_list_does_not_matter() -> None:
    rnd = random.Random(5)
    pool = [
        seek(f"s{n}", rnd.gauss(1500, 200), waited=rnd.uniform(0, 600), players=rnd.choice((3, 4)))
        for n in range(200)
    ]
    first = match(pool, NOW)
    rnd.shuffle(pool)
    assert match(pool, NOW) == first
    assert len(first) > 10


def test_expired_seeks() -> None:
    pool = [seek("a", 1500, waited=10), seek("b", 1500, waited=3600), seek("c", 1500, waited=7200)]
    assert [s.id for s in expired(pool, NOW, 3600)] == ["b", "c"]


@pytest.mark.parametrize(
    ("pool", "code"),
    [
        ([seek("a", 1500), seek("a", 1600)], CompetitionCode.DUPLICATE_SEEK),
        ([seek("a", 1500, players=1)], CompetitionCode.INVALID_SEEK),
        ([seek("a", float("nan"))], CompetitionCode.INVALID_SEEK),
        ([seek("", 1500)], CompetitionCode.INVALID_SEEK),
    ],
)
def test_a_pool_with_an_impossible_seek_is_refused(pool: list[Seek], code: CompetitionCode) -> None:
    with pytest.raises(CompetitionError) as refused:
        match(pool, NOW)
    assert refused.value.code is code


@st.composite
def pools(draw: st.DrawFn) -> list[Seek]:
    rnd = random.Random(draw(st.integers(0, 2**32)))
    accounts = draw(st.integers(2, 60))
    return [
        Seek(
            f"seek{n}",
            f"account{rnd.randrange(accounts)}",
            rnd.gauss(1500, draw(st.sampled_from([20, 150, 400]))),
            rnd.choice(("classic", "spqr")),
            rnd.choice((3, 4, 5)),
            rnd.choice(("1d", "10+5")),
            rnd.random() < 0.5,
            NOW - rnd.uniform(0, 900),
            rnd.choice((Kind.PERSON, Kind.PERSON, Kind.BOT)),
            rnd.choice((Opponents.ANY, Opponents.ANY, Opponents.PEOPLE, Opponents.BOTS)),
        )
        for n in range(draw(st.integers(0, 150)))
    ]


@settings(max_examples=80)
@given(pools())
def test_a_pass_never_forms_an_incompatible_table(pool: list[Seek]) -> None:
    window = Window()
    tables = match(pool, NOW, window)
    accounts = Counter(s.account for table in tables for s in table.seeks)
    assert all(count == 1 for count in accounts.values())
    for table in tables:
        seeks = table.seeks
        assert len({s.pool for s in seeks}) == 1
        assert len(seeks) == seeks[0].players
        assert all(a.accepts(b) for a in seeks for b in seeks if a is not b)
        low, high = min(s.rating for s in seeks), max(s.rating for s in seeks)
        for s in seeks:
            assert max(high - s.rating, s.rating - low) <= window.at(NOW - s.created)
        assert list(seeks) == sorted(seeks, key=lambda s: (s.created, s.id))
    assert match(list(reversed(pool)), NOW, window) == tables
