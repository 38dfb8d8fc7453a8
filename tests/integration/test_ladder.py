"""The bots' ladder on both stores, two instances on one database: joining (bots only, once),
and passes that pair the free bots at once on both instances, each game written once, created
once, its bots seated once, started and rated, within the bounds per bot and in all."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import replace
from pathlib import Path

import pytest

from api.accounts.scopes import Principal, Scope
from api.accounts.tokens import TokenKind
from api.broker import Broker
from api.ladder.errors import LadderError
from api.ladder.service import Ladder
from api.ladder.settings import LadderSettings
from api.service import GameService
from api.stores.accounts import AccountRecord, AccountStore, account_store_for
from api.stores.base import GameStatus, Store
from api.stores.ladder import ladder_store_for
from api.stores.mongo import MongoStore
from api.stores.ratings import rating_store_for
from api.stores.sqlite import SqliteStore
from domain.errors import ErrorCode

pytestmark = pytest.mark.anyio

SETTINGS = LadderSettings(games_at_once=2, games_per_bot=1, table_size=4)


@pytest.fixture(params=["sqlite", "mongo"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path / "data" / "risiko.sqlite3")
    uri: str = request.getfixturevalue("mongo_uri")
    return lambda: MongoStore(uri)


@pytest.fixture
async def instances(
    make: Callable[[], Store],
) -> AsyncIterator[tuple[list[Ladder], list[GameService], AccountStore]]:
    async with AsyncExitStack() as stack:
        ladders, services, accounts = [], [], []
        for number in range(2):
            store = make()
            await store.open()
            stack.push_async_callback(store.close)
            account_store = account_store_for(store)
            ratings = rating_store_for(store)
            ladder_store = ladder_store_for(store)
            for side in (account_store, ratings, ladder_store):
                await side.open()
                stack.push_async_callback(side.close)
            service = GameService(store, Broker())
            stack.push_async_callback(service.close)
            services.append(service)
            accounts.append(account_store)
            ladders.append(
                Ladder(
                    ladder_store,
                    service.work,
                    account_store,
                    ratings,
                    SETTINGS,
                    rng=random.Random(number),
                )
            )
        yield ladders, services, accounts[0]


async def account(accounts: AccountStore, key: str, *, bot: bool = True) -> Principal:
    await accounts.create_account(AccountRecord(key, key, key, None, 0.0, bot=bot))
    return Principal(key, key, bot, TokenKind.API, key, frozenset(Scope))


async def test_only_bots_join_once_and_a_leaver_is_off(
    instances: tuple[list[Ladder], list[GameService], AccountStore],
) -> None:
    ladders, _, accounts = instances
    person = await account(accounts, "anna", bot=False)
    with pytest.raises(LadderError) as refused:
        await ladders[0].join(person)
    assert refused.value.code == ErrorCode.BOTS_ONLY
    bot = await account(accounts, "bot")
    other = await account(accounts, "other")
    await asyncio.gather(ladders[0].join(bot), ladders[1].join(other), ladders[1].join(bot))
    record = await ladders[1].join(bot)
    assert sorted(record.members) == ["bot", "other"]
    assert (await ladders[0].leave(bot)).members == ("other",)
    assert (await ladders[1].record()).members == ("other",)


async def test_two_instances_pairing_at_once_create_each_game_once(
    instances: tuple[list[Ladder], list[GameService], AccountStore],
) -> None:
    ladders, services, accounts = instances
    for number in range(10):
        await ladders[number % 2].join(await account(accounts, f"bot{number:02d}"))
    first, second = await asyncio.gather(ladders[0].tick(), ladders[1].tick())
    record = await ladders[0].record()
    assert record.created == 2  # the bound in all: 2 games, 8 of the 10 bots
    assert sorted(first + second, key=lambda g: g.number) == list(record.playing)
    seated = [player for game in record.playing for player in game.players]
    assert len(seated) == len(set(seated)) == 8  # a game at once per bot
    for game in record.playing:
        for service in services:
            service.sessions.forget(game.game)
            row = (await service.session(game.game)).record
            assert row.status == GameStatus.ACTIVE
            assert row.admission.rated
            assert row.admission.speed == "real-time"
            assert [seat.account_id for seat in row.seats] == list(game.players)
        kinds = [entry.kind for entry in await services[0].store.log(game.game)]
        assert kinds.count("create") == 1
        assert kinds.count("start") == 1
    assert list(await asyncio.gather(ladders[0].tick(), ladders[1].tick())) == [[], []]
    assert (await ladders[1].record()).version == record.version  # nothing to change


async def test_a_deleted_account_is_dropped_from_the_ladder(
    instances: tuple[list[Ladder], list[GameService], AccountStore],
) -> None:
    ladders, _, accounts = instances
    for number in range(4):
        await ladders[0].join(await account(accounts, f"bot{number}"))
    gone = await accounts.account("bot3")
    assert gone is not None
    assert await accounts.replace_account(replace(gone, deleted_at=1.0), gone)
    assert await ladders[0].tick() == []
    assert (await ladders[0].record()).members == ("bot0", "bot1", "bot2")
