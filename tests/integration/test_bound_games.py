"""A game opened with bound seats (api/bound_games.py), over both stores (SQLite and the real
MongoDB process of tests/mongo_server.py) with two server instances on one database: opened
once however often and wherever it is opened again, a half-done opening completed, and a
failure to create it other than "the id exists" raised as it is, never read back as a
missing game."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from api import lobby
from api.bound_games import BoundGame, open_bound_game
from api.broker import Broker
from api.commands import SeatAccount, TakeSeat
from api.service import GameService
from api.service_errors import ServiceError
from api.stores.accounts import AccountRecord, AccountStore, account_store_for
from api.stores.base import Admission, GameExists, GameStatus, Store, VersionConflict
from api.stores.mongo import MongoStore
from api.stores.sqlite import SqliteStore
from domain.errors import ErrorCode

pytestmark = pytest.mark.anyio

Instances = tuple[list[GameService], AccountStore]

PLAYERS = ("ann", "bob", "cat")
GAME = BoundGame("bound-1", "classic", {}, PLAYERS, Admission(accounts_required=True))


@pytest.fixture(params=["sqlite", "mongo"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path / "data" / "risiko.sqlite3")
    uri: str = request.getfixturevalue("mongo_uri")
    return lambda: MongoStore(uri)


async def instance(stack: AsyncExitStack, store: Store) -> tuple[GameService, AccountStore]:
    """A server instance on `store` (its game service and accounts), closed with `stack`."""
    await store.open()
    stack.push_async_callback(store.close)
    accounts = account_store_for(store)
    await accounts.open()
    stack.push_async_callback(accounts.close)
    service = GameService(store, Broker())
    stack.push_async_callback(service.close)
    for key in PLAYERS:
        if await accounts.account(key) is None:
            await accounts.create_account(AccountRecord(key, key, key, None, 0.0))
    return service, accounts


@pytest.fixture
async def instances(make: Callable[[], Store]) -> AsyncIterator[Instances]:
    async with AsyncExitStack() as stack:
        first, accounts = await instance(stack, make())
        second, _ = await instance(stack, make())
        yield [first, second], accounts


async def opened_once(services: list[GameService], game_id: str) -> tuple[object, ...]:
    """The game as every instance reads it afresh: started, its players seated in order,
    created, seated and started once; and its whole log."""
    for service in services:
        service.sessions.forget(game_id)
        record = (await service.session(game_id)).record
        assert record.status == GameStatus.ACTIVE
        assert [seat.account_id for seat in record.seats] == list(PLAYERS)
    log = await services[0].store.log(game_id)
    kinds = [entry.kind for entry in log]
    assert (kinds.count("create"), kinds.count("join"), kinds.count("start")) == (1, 3, 1)
    return tuple(log)


async def test_opening_again_after_it_is_done_changes_nothing(instances: Instances) -> None:
    services, accounts = instances
    await open_bound_game(services[0].work, accounts, GAME)
    done = await opened_once(services, GAME.game_id)
    for service in (*services, *services):
        await open_bound_game(service.work, accounts, GAME)
        assert await opened_once(services, GAME.game_id) == done


async def test_two_instances_opening_at_once_open_it_once(instances: Instances) -> None:
    services, accounts = instances
    for number in range(3):
        game = BoundGame(f"race-{number}", "classic", {}, PLAYERS, GAME.admission)
        await asyncio.gather(
            *(open_bound_game(service.work, accounts, game) for service in services)
        )
        await opened_once(services, game.game_id)


async def test_a_half_done_opening_is_completed(instances: Instances) -> None:
    """An instance died after creating the game and seating its first player: another one,
    whose cache never saw the game, seats the others and starts it."""
    services, accounts = instances
    work = services[0].work
    await lobby.create_game(work, GAME.command())
    ann = SeatAccount("ann", "ann", False)
    await lobby.take_seat(work, TakeSeat(GAME.game_id, "ann", account=ann))
    await open_bound_game(services[1].work, accounts, GAME)
    await opened_once(services, GAME.game_id)


async def test_a_refused_option_is_raised_not_read_back_as_a_missing_game(
    instances: Instances,
) -> None:
    services, accounts = instances
    refused = BoundGame("bad", "classic", {"no_such_option": 1}, PLAYERS, GAME.admission)
    with pytest.raises(ServiceError) as raised:
        await open_bound_game(services[0].work, accounts, refused)
    assert raised.value.code == ErrorCode.INVALID_OPTIONS
    assert await services[0].store.get("bad") is None


def behind_its_back(database: Path, statement: str) -> None:
    """`statement` run on the store's database by another connection."""
    with contextlib.closing(sqlite3.connect(database)) as c, c:
        c.execute(statement)


async def test_a_store_refusal_other_than_the_id_exists_is_raised(tmp_path: Path) -> None:
    """The store refuses the new game for another reason than its id (here a trigger, as a
    full disk or a broken row would): the refusal itself comes out, nothing is written, and
    once the store accepts games again the same opening goes through."""
    database = tmp_path / "data" / "risiko.sqlite3"
    async with AsyncExitStack() as stack:
        service, accounts = await instance(stack, SqliteStore(database))
        store = service.store
        behind_its_back(
            database,
            "CREATE TRIGGER refuse BEFORE INSERT ON games "
            "BEGIN SELECT RAISE(ABORT, 'no new game today'); END",
        )
        with pytest.raises(VersionConflict, match="no new game today") as raised:
            await open_bound_game(service.work, accounts, GAME)
        assert not isinstance(raised.value, GameExists)
        assert await store.get(GAME.game_id) is None
        behind_its_back(database, "DROP TRIGGER refuse")
        await open_bound_game(service.work, accounts, GAME)
        await opened_once([service], GAME.game_id)
