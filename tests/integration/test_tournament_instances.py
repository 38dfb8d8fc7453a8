"""Two server instances on one database start the same round at once, on both stores: the
round is seated once and each table's game is created once, with each of its accounts seated
once, and started."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from api.accounts.scopes import Principal, Scope
from api.accounts.tokens import TokenKind
from api.broker import Broker
from api.service import GameService
from api.stores.accounts import AccountRecord, AccountStore, account_store_for
from api.stores.base import GameStatus, Store
from api.stores.mongo import MongoStore
from api.stores.sqlite import SqliteStore
from api.stores.tournaments import tournament_store_for
from api.tournaments.commands import CreateTournament
from api.tournaments.games import GameTables
from api.tournaments.service import Tournaments

pytestmark = pytest.mark.anyio

ORGANISER = Principal("org", "Org", False, TokenKind.SESSION, "c0", frozenset(Scope))


@pytest.fixture(params=["sqlite", "mongo"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path / "data" / "risiko.sqlite3")
    uri: str = request.getfixturevalue("mongo_uri")
    return lambda: MongoStore(uri)


@pytest.fixture
async def instances(
    make: Callable[[], Store],
) -> AsyncIterator[tuple[list[Tournaments], list[GameService], AccountStore]]:
    async with AsyncExitStack() as stack:
        services, tournaments, accounts = [], [], []
        for _ in range(2):
            store = make()
            await store.open()
            stack.push_async_callback(store.close)
            account_store = account_store_for(store)
            await account_store.open()
            stack.push_async_callback(account_store.close)
            tournament_store = tournament_store_for(store)
            await tournament_store.open()
            stack.push_async_callback(tournament_store.close)
            service = GameService(store, Broker())
            stack.push_async_callback(service.close)
            services.append(service)
            accounts.append(account_store)
            tournaments.append(
                Tournaments(tournament_store, GameTables(service.work, account_store))
            )
        yield tournaments, services, accounts[0]


async def test_two_instances_open_each_game_once(
    instances: tuple[list[Tournaments], list[GameService], AccountStore],
) -> None:
    tournaments, services, accounts = instances
    players = []
    for number in range(16):
        key = f"bot{number:02d}"
        await accounts.create_account(AccountRecord(key, key, key, None, 0.0, bot=True))
        players.append(Principal(key, key, True, TokenKind.API, key, frozenset(Scope)))
    command = CreateTournament("Coppa", 3, time.time() + 3600)
    tid = (await tournaments[0].create(ORGANISER, command)).id
    for player in players:
        await tournaments[1].register(player, tid)
    first, second = await asyncio.gather(
        tournaments[0].start_round(ORGANISER, tid, 1), tournaments[1].start_round(ORGANISER, tid, 1)
    )
    assert first == second
    (round_,) = first.played
    for table in round_.tables:
        for service in services:
            service.sessions.forget(table.game)
            session = await service.session(table.game)
            assert session.record.status == GameStatus.ACTIVE
            assert sorted(seat.account_id or "" for seat in session.record.seats) == sorted(
                table.players
            )
        log = await services[0].store.log(table.game)
        assert [entry.kind for entry in log].count("create") == 1
        assert [entry.kind for entry in log].count("start") == 1
