"""Challenges over both stores (SQLite and the real MongoDB process of tests/mongo_server.py),
with two server instances on one database: every refusal has its code and changes nothing;
accepts racing on two instances start the game once, with the accounts' bound seats; an
accept racing a cancel, one of them wins; listings, newest first, per account; a game left
unopened by an instance that died after the last acceptance is opened, once, by a later read."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import replace
from pathlib import Path

import pytest

from api.accounts.errors import CredentialRefused
from api.accounts.scopes import Principal, Scope
from api.accounts.tokens import TokenKind
from api.broker import Broker
from api.challenges.errors import ChallengeError
from api.challenges.games import ChallengeGames
from api.challenges.records import LIFETIME_SECONDS, ChallengeRecord, ChallengeStatus
from api.challenges.service import MAX_OPEN, ChallengeAccounts, Challenges
from api.challenges.store import challenge_store_for
from api.service import GameService
from api.stores.accounts import AccountRecord, AccountStore, account_store_for
from api.stores.base import Admits, GameStatus, Store
from api.stores.mongo import MongoStore
from api.stores.sqlite import SqliteStore

pytestmark = pytest.mark.anyio

Instances = tuple[list[Challenges], list[GameService], AccountStore]


def who(key: str, bot: bool = False, scopes: frozenset[Scope] = frozenset(Scope)) -> Principal:
    return Principal(key, key, bot, TokenKind.SESSION, f"c-{key}", scopes)


ANN, BOB, CAT = who("ann"), who("bob"), who("cat")


@pytest.fixture(params=["sqlite", "mongo"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path / "data" / "risiko.sqlite3")
    uri: str = request.getfixturevalue("mongo_uri")
    return lambda: MongoStore(uri)


@pytest.fixture
async def instances(make: Callable[[], Store]) -> AsyncIterator[Instances]:
    async with AsyncExitStack() as stack:
        services, challenges, accounts = [], [], []
        for _ in range(2):
            store = make()
            await store.open()
            stack.push_async_callback(store.close)
            account_store = account_store_for(store)
            await account_store.open()
            stack.push_async_callback(account_store.close)
            challenge_store = challenge_store_for(store)
            await challenge_store.open()
            stack.push_async_callback(challenge_store.close)
            service = GameService(store, Broker())
            stack.push_async_callback(service.close)
            services.append(service)
            accounts.append(account_store)
            games = ChallengeGames(service.work, account_store)
            challenges.append(Challenges(challenge_store, account_store, games))
        for key in ("ann", "bob", "cat", "dan", "eve"):
            await accounts[0].create_account(AccountRecord(key, key, key, None, 0.0))
        await accounts[0].create_account(AccountRecord("bot", "bot", "bot", None, 0.0, bot=True))
        await accounts[0].create_account(
            AccountRecord("off", "off", "off", None, 0.0, disabled=True)
        )
        yield challenges, services, accounts[0]


async def _code(call: object) -> str:
    with pytest.raises(ChallengeError) as refused:
        await call  # type: ignore[misc]
    return str(refused.value.code)


async def test_two_instances_racing_accepts_start_the_game_once(instances: Instances) -> None:
    challenges, services, _ = instances
    command = ChallengeAccounts(("bob", "cat"), rated=True)
    made = await challenges[0].challenge(ANN, command)
    bob, cat = await asyncio.gather(
        challenges[0].accept(BOB, made.id), challenges[1].accept(CAT, made.id)
    )
    done = bob if bob.status is ChallengeStatus.ACCEPTED else cat
    assert {bob.status, cat.status} == {ChallengeStatus.OPEN, ChallengeStatus.ACCEPTED}
    assert sorted(done.seats) == ["ann", "bob", "cat"]
    for service in services:
        service.sessions.forget(done.game_id)
        record = (await service.session(done.game_id)).record
        assert record.status == GameStatus.ACTIVE
        assert [seat.account_id for seat in record.seats] == list(done.seats)
        assert record.admission.rated
        assert not record.seed_chosen
    for instance in challenges:  # read again on either instance: accepted, once
        stored = await instance.get(made.id)
        assert stored == done
        assert stored.version == 3


async def test_the_same_accept_racing_itself_counts_once(instances: Instances) -> None:
    challenges, _, _ = instances
    made = await challenges[0].challenge(ANN, ChallengeAccounts(("bob", "cat")))
    results = await asyncio.gather(
        challenges[0].accept(BOB, made.id),
        challenges[1].accept(BOB, made.id),
        return_exceptions=True,
    )
    codes = [str(r.code) for r in results if isinstance(r, ChallengeError)]
    assert codes == ["ALREADY_ANSWERED"]
    assert (await challenges[0].get(made.id)).accepted == ("bob",)


async def test_a_cancel_racing_the_last_accept(instances: Instances) -> None:
    challenges, services, _ = instances
    made = await challenges[0].challenge(ANN, ChallengeAccounts(("bob", "cat")))
    await challenges[0].accept(BOB, made.id)
    results = await asyncio.gather(
        challenges[0].cancel(ANN, made.id),
        challenges[1].accept(CAT, made.id),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, ChallengeError)]
    assert [str(r.code) for r in refused] == ["CHALLENGE_CLOSED"]
    final = await challenges[1].get(made.id)
    assert final.status in (ChallengeStatus.CANCELLED, ChallengeStatus.ACCEPTED)
    if final.status is ChallengeStatus.CANCELLED:  # no game was made
        assert await services[0].store.get(final.game_id) is None


async def test_refusals_change_nothing(instances: Instances) -> None:
    challenges, _, _ = instances
    one = challenges[0]

    async def refused(names: tuple[str, ...], **settings: object) -> str:
        return await _code(one.challenge(ANN, ChallengeAccounts(names, **settings)))  # type: ignore[arg-type]

    assert await refused(("ann", "bob")) == "CANNOT_CHALLENGE_SELF"
    assert await refused(("bob", "nobody")) == "ACCOUNT_NOT_FOUND"
    assert await refused(("bob", "off")) == "ACCOUNT_DISABLED"
    assert await refused(("bob", "bot"), admits=Admits.PEOPLE) == "PEOPLE_ONLY"
    assert await refused(("bob",)) == "INVALID_CHALLENGE"
    assert await refused(("bob", "bob")) == "INVALID_CHALLENGE"
    assert await refused(("bob", "cat"), variant="chess") == "INVALID_CHALLENGE"
    assert await refused(("bob", "cat"), options={"no_such": 1}) == "INVALID_CHALLENGE"
    assert await refused(("bob", "cat"), options={"round_limit": 10**30}) == "INVALID_CHALLENGE"
    assert await refused(("bob", "cat"), options={"round_limit": "x" * 65}) == "INVALID_CHALLENGE"
    assert await refused(("bob", "cat"), clock={"kind": "nonsense"}) == "INVALID_CHALLENGE"
    assert await one.of_account("ann", open_only=False) == []
    reader = who("ann", scopes=frozenset({Scope.GAMES_READ, Scope.GAMES_PLAY}))
    with pytest.raises(CredentialRefused):
        await one.challenge(reader, ChallengeAccounts(("bob", "cat")))
    made = await one.challenge(ANN, ChallengeAccounts(("bob", "bot")))
    assert await _code(one.accept(who("dan"), made.id)) == "NOT_CHALLENGED"
    assert await _code(one.cancel(BOB, made.id)) == "NOT_CHALLENGER"
    assert await _code(one.accept(BOB, "nope")) == "CHALLENGE_NOT_FOUND"
    await one.decline(BOB, made.id)
    assert await _code(one.accept(who("bot", bot=True), made.id)) == "CHALLENGE_CLOSED"
    stored = await one.get(made.id)
    assert stored.status is ChallengeStatus.DECLINED
    assert stored.declined_by == "bob"


async def test_expired_and_bounded(instances: Instances) -> None:
    challenges, _, _ = instances
    clock = [1_000_000.0]
    one = challenges[0]
    one.now = lambda: clock[0]
    made = []
    for _ in range(MAX_OPEN):
        clock[0] += 1  # ids begin with the time: newest first
        made.append(await one.challenge(ANN, ChallengeAccounts(("bob", "cat"))))
    assert await _code(one.challenge(ANN, ChallengeAccounts(("dan", "eve")))) == (
        "TOO_MANY_CHALLENGES"
    )  # ann's bound
    assert await _code(one.challenge(who("dan"), ChallengeAccounts(("bob", "eve")))) == (
        "TOO_MANY_CHALLENGES"
    )  # bob's bound, as a challenged account
    listed = await one.of_account("bob", open_only=True)
    assert [record.id for record in listed] == [record.id for record in reversed(made)]
    clock[0] += LIFETIME_SECONDS
    assert await _code(one.accept(BOB, made[0].id)) == "CHALLENGE_EXPIRED"
    assert await one.of_account("bob", open_only=True) == []
    assert len(await one.of_account("bob", open_only=False)) == MAX_OPEN
    assert (await one.challenge(ANN, ChallengeAccounts(("dan", "eve")))).status is (
        ChallengeStatus.OPEN
    )


class Crashing:
    """An instance that dies between writing the last acceptance and opening the game."""

    async def open_game(self, challenge: ChallengeRecord) -> None:
        raise RuntimeError("the instance died here")


async def test_a_game_left_unopened_by_a_crash_is_opened_by_the_next_read(
    instances: Instances,
) -> None:
    challenges, services, _ = instances
    dying = replace(challenges[0], games=Crashing())
    made = await challenges[1].challenge(ANN, ChallengeAccounts(("bob", "cat")))
    await dying.accept(BOB, made.id)
    with pytest.raises(RuntimeError):
        await dying.accept(CAT, made.id)
    stored = await challenges[1].get(made.id)
    assert stored.status is ChallengeStatus.ACCEPTED
    assert await services[1].store.get(stored.game_id) is None
    (listed,) = await challenges[1].of_account("cat", open_only=False)
    await challenges[1].settle(listed)  # what `me { challenges }` and `challenge(id)` do
    await challenges[1].settle(listed)  # again: nothing more
    record = (await services[1].session(stored.game_id)).record
    assert record.status == GameStatus.ACTIVE
    assert [seat.account_id for seat in record.seats] == list(stored.seats)
