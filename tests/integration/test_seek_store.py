"""The seek store's contract and the pool's passes over it, run against both adapters (SQLite
and the real MongoDB process of tests/mongo_server.py): refusals with their codes changing
nothing, expiry, cancelling, and two instances passing over one pool at once matching each
seek once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from api.accounts.errors import CredentialRefused
from api.accounts.scopes import Principal, Scope
from api.accounts.tokens import TokenKind
from api.pool.records import CANCELLED, EXPIRED, OPEN, SeekRecord
from api.pool.service import LIFETIME, MOST_SEEKS, REPAIR_AFTER, JoinSeek, Pool, PoolError
from api.pool.store import SeekStore
from api.ratings.records import Speed
from api.stores.mongo_ratings import MongoRatingStore
from api.stores.mongo_seeks import MongoSeekStore
from api.stores.ratings import RatingStore
from api.stores.sqlite_ratings import SqliteRatingStore
from api.stores.sqlite_seeks import SqliteSeekStore
from competition.matchmaking import Opponents

pytestmark = pytest.mark.anyio

NOW = 1_000_000.0
DAY = {"turn_seconds": 86400}
Stores = tuple[SeekStore, RatingStore]
Make = Callable[[], Stores]


def player(
    number: int, *, bot: bool = False, scopes: frozenset[Scope] = frozenset(Scope)
) -> Principal:
    return Principal(f"p{number:03d}", f"P{number}", bot, TokenKind.API, f"c{number}", scopes)


@dataclass
class Tables:
    """The tables' games as the pool asks for them (the game side is tests/e2e's)."""

    opened: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    async def open_table(self, table: str, seeks: Sequence[SeekRecord]) -> None:
        self.opened.append((table, tuple(seek.account for seek in seeks)))


@pytest.fixture(params=["sqlite", "mongo"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Make:
    """How to open another instance's stores on the same data."""
    if request.param == "sqlite":
        path = tmp_path / "data" / "risiko.sqlite3"
        return lambda: (SqliteSeekStore(path), SqliteRatingStore(path))
    uri: str = request.getfixturevalue("mongo_uri")
    return lambda: (MongoSeekStore(uri), MongoRatingStore(uri))


@pytest.fixture
async def instances(make: Make) -> AsyncIterator[list[tuple[Pool, Tables]]]:
    made = []
    for _ in range(2):
        seeks, ratings = make()
        await seeks.open()
        await ratings.open()
        tables = Tables()
        made.append((Pool(seeks, ratings, tables, now=lambda: NOW), tables))
    yield made
    for pool, _ in made:
        await pool.store.close()
        await pool.ratings.close()


def four(**changes: object) -> JoinSeek:
    values: dict[str, object] = {"variant": "classic", "players": 4, "clock": DAY}
    values.update(changes)
    return JoinSeek(**values)  # type: ignore[arg-type]


async def refused(code: str, pool: Pool, principal: Principal, command: JoinSeek) -> None:
    before = await pool.seeks_of(principal.account_id, 100)
    with pytest.raises(PoolError) as caught:
        await pool.join(principal, command)
    assert caught.value.code == code
    assert await pool.seeks_of(principal.account_id, 100) == before


async def test_impossible_seeks_are_refused_with_their_codes(
    instances: list[tuple[Pool, Tables]],
) -> None:
    pool = instances[0][0]
    one = player(1)
    await refused("UNKNOWN_VARIANT", pool, one, four(variant="chess"))
    await refused("INVALID_SEEK", pool, one, four(players=2))  # classic: 3 to 6
    await refused("INVALID_SEEK", pool, one, four(players=7))
    await refused("INVALID_SEEK", pool, one, four(clock=None))
    await refused("INVALID_SEEK", pool, one, four(clock={"turn_seconds": 0}))
    await refused("INVALID_SEEK", pool, one, four(clock={"turn_seconds": 1e9}))
    await refused("INVALID_SEEK", pool, one, four(clock={"turns": 3}))
    await refused("RATED_GAME_SEEDED", pool, one, four(seed="lucky"))
    await refused("INVALID_SEEK", pool, one, four(seed="lucky", rated=False))
    with pytest.raises(CredentialRefused):
        await pool.join(player(1, scopes=frozenset({Scope.GAMES_READ})), four())


async def test_an_account_has_a_bounded_number_of_open_seeks(
    instances: list[tuple[Pool, Tables]],
) -> None:
    pool, other = instances[0][0], instances[1][0]
    one = player(1)
    made = [await pool.join(one, four(players=3 + n)) for n in range(MOST_SEEKS)]
    await refused("TOO_MANY_SEEKS", other, one, four())
    await other.cancel(one, made[0].id)  # a cancelled seek frees its place
    await other.join(one, four())


async def test_a_seek_is_seen_and_cancelled_by_its_account_only(
    instances: list[tuple[Pool, Tables]],
) -> None:
    pool, other = instances[0][0], instances[1][0]
    seek = await pool.join(player(1), four())
    assert seek.state == OPEN
    assert seek.rating == 1500.0
    assert seek.speed == Speed.CORRESPONDENCE
    assert seek.expires == NOW + LIFETIME[Speed.CORRESPONDENCE]
    assert await other.seeks_of("p001", 10) == [seek]
    with pytest.raises(PoolError) as caught:
        await other.cancel(player(2), seek.id)
    assert caught.value.code == "NOT_YOUR_SEEK"
    with pytest.raises(PoolError) as caught:
        await other.cancel(player(1), "nothing")
    assert caught.value.code == "SEEK_NOT_FOUND"
    assert (await other.cancel(player(1), seek.id)).state == CANCELLED
    assert (await pool.cancel(player(1), seek.id)).state == CANCELLED  # twice: the same


async def test_a_pass_seats_a_table_of_four_and_leaves_the_fifth(
    instances: list[tuple[Pool, Tables]],
) -> None:
    pool, tables = instances[0]
    times = iter(NOW + n for n in range(6))
    pool.now = lambda: next(times)  # one second apart, then the pass
    seeks = [await pool.join(player(n), four()) for n in range(5)]
    assert await pool.run_pass() == 1
    pool.now = lambda: NOW + 10
    [(table, accounts)] = tables.opened
    assert accounts == ("p000", "p001", "p002", "p003")  # the oldest first
    after = {s.id: await pool.store.seek(s.id) for s in seeks}
    assert [after[s.id].table for s in seeks[:4]] == [table] * 4  # type: ignore[union-attr]
    assert all(after[s.id].started for s in seeks[:4])  # type: ignore[union-attr]
    assert after[seeks[4].id].state == OPEN  # type: ignore[union-attr]
    assert await pool.run_pass() == 0


async def test_seeks_expire_after_their_lifetime(instances: list[tuple[Pool, Tables]]) -> None:
    pool, tables = instances[0]
    clock = [NOW]
    pool.now = lambda: clock[0]
    for n in range(3):
        await pool.join(player(n), four())
    clock[0] = NOW + LIFETIME[Speed.CORRESPONDENCE]
    await pool.join(player(9), four())
    assert await pool.run_pass() == 0
    states = [s.state for n in range(3) for s in await pool.seeks_of(f"p{n:03d}", 10)]
    assert states == [EXPIRED] * 3
    assert tables.opened == []


async def test_a_table_whose_claim_partly_failed_is_rolled_back(
    instances: list[tuple[Pool, Tables]],
) -> None:
    pool, tables = instances[0]
    seeks = [await pool.join(player(n), four()) for n in range(4)]
    assert await pool.store.claim([("elsewhere", [seeks[3].id])], NOW) == ["elsewhere"]
    assert await pool.run_pass() == 0
    assert [(await pool.store.seek(s.id)).state for s in seeks[:3]] == [OPEN] * 3  # type: ignore[union-attr]
    await pool.store.release([seeks[3].id], "elsewhere")
    assert await pool.run_pass() == 1
    assert len(tables.opened) == 1


async def test_two_instances_passing_at_once_match_each_seek_once(
    instances: list[tuple[Pool, Tables]],
) -> None:
    (first, first_tables), (second, second_tables) = instances
    for n in range(39):  # eleven tables' worth, people and bots, two sizes
        size = 4 if n < 24 else 3
        await (first if n % 2 else second).join(
            player(n, bot=n % 5 == 0), four(players=size, opponents=Opponents.ANY)
        )
    for _ in range(3):
        await asyncio.gather(first.run_pass(), second.run_pass())
    opened = first_tables.opened + second_tables.opened
    seated = [account for _, accounts in opened for account in accounts]
    assert len(seated) == len(set(seated)) == 39  # every seek at one table, once
    assert len({table for table, _ in opened}) == len(opened) == 6 + 5


async def test_a_claim_takes_whole_tables_only(instances: list[tuple[Pool, Tables]]) -> None:
    store = instances[0][0].store
    s = [(await instances[0][0].join(player(n), four())).id for n in range(3)]
    claimed = await store.claim([("a", [s[0], s[1]]), ("b", [s[1], s[2]])], NOW)
    assert claimed == ["a"]  # b's second seek was a's: b is rolled back whole
    states = [(await store.seek(seek_id)).state for seek_id in s]  # type: ignore[union-attr]
    assert states == ["matched:a", "matched:a", OPEN]


class Failing(Tables):
    """Fails to open its first table, as an instance that dies while opening it."""

    async def open_table(self, table: str, seeks: Sequence[SeekRecord]) -> None:
        if not self.opened:
            self.opened.append((table, ()))
            raise RuntimeError("the instance died")
        await super().open_table(table, seeks)


async def test_a_table_whose_opening_failed_is_opened_by_a_later_pass(
    instances: list[tuple[Pool, Tables]],
) -> None:
    pool, other = instances[0][0], instances[1][0]
    failing = Failing()
    pool.tables = failing
    for n in range(4):
        await pool.join(player(n), four())
    assert await pool.run_pass() == 0
    other.now = lambda: NOW + REPAIR_AFTER - 1
    assert await other.run_pass() == 0  # not yet: its instance may still be opening it
    other.now = lambda: NOW + REPAIR_AFTER + 1
    await other.run_pass()
    [(failed, _), (table, accounts)] = failing.opened + instances[1][1].opened
    assert table == failed  # the same table, its game's id: opened once
    assert sorted(accounts) == [f"p{n:03d}" for n in range(4)]
    seeks = [s for n in range(4) for s in await pool.seeks_of(f"p{n:03d}", 1)]
    assert {s.table for s in seeks} == {table}
    assert all(s.started for s in seeks)
