"""The tournament store's contract and the tournament commands over it, written once and run
against both adapters (SQLite and the real MongoDB process of tests/mongo_server.py): a
write over a moved version changes nothing, every refusal has its code and changes nothing,
and a round started twice, or by two instances at once, is seated once."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from api.accounts.errors import CredentialRefused
from api.accounts.scopes import Principal, Scope
from api.accounts.tokens import TokenKind
from api.stores.base import Admits
from api.stores.mongo_tournaments import MongoTournamentStore
from api.stores.sqlite_tournaments import SqliteTournamentStore
from api.stores.tournaments import TournamentExists, TournamentStore
from api.tournaments.commands import CreateTournament
from api.tournaments.errors import TournamentError
from api.tournaments.records import RoundRecord, TournamentRecord, TournamentStatus
from api.tournaments.service import Tournaments
from competition.results import GameResult
from competition.standings import Standings
from tests.competition_support import ranked_result

pytestmark = pytest.mark.anyio

Make = Callable[[], TournamentStore]
NOW = 1_000_000.0
ORGANISER = Principal("org", "Org", False, TokenKind.API, "c0", frozenset(Scope))


def player(
    number: int, *, bot: bool = True, scopes: frozenset[Scope] = frozenset(Scope)
) -> Principal:
    return Principal(f"p{number:02d}", f"P{number}", bot, TokenKind.API, f"c{number}", scopes)


@dataclass
class Tables:
    """The tables' games as a TableMaker sees them: how often each was asked for, and which
    ones it created (a real maker creates a game once: create skips one that exists)."""

    asked: list[str] = field(default_factory=list)
    created: dict[str, tuple[str, ...]] = field(default_factory=dict)

    async def open_tables(self, tournament: TournamentRecord, round_: RoundRecord) -> None:
        for table in round_.tables:
            self.asked.append(table.game)
            self.created.setdefault(table.game, table.players)

    async def result(self, game_id: str) -> GameResult | None:
        return None  # these tests count each game themselves


@pytest.fixture(params=["sqlite", "mongo"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Make:
    """How to open another store object (another instance) on the same data."""
    if request.param == "sqlite":
        return lambda: SqliteTournamentStore(tmp_path / "data" / "risiko.sqlite3")
    uri: str = request.getfixturevalue("mongo_uri")
    return lambda: MongoTournamentStore(uri)


@pytest.fixture
async def stores(make: Make) -> AsyncIterator[tuple[TournamentStore, TournamentStore]]:
    first, second = make(), make()
    await first.open()
    await second.open()
    yield first, second
    await first.close()
    await second.close()


@pytest.fixture
def tables() -> Tables:
    return Tables()


@pytest.fixture
def services(
    stores: tuple[TournamentStore, TournamentStore], tables: Tables
) -> tuple[Tournaments, Tournaments]:
    return (
        Tournaments(stores[0], tables, now=lambda: NOW),
        Tournaments(stores[1], tables, now=lambda: NOW),
    )


def settings(**changes: object) -> CreateTournament:
    command = CreateTournament("Coppa", rounds=3, registration_closes_at=NOW + 3600)
    return replace(command, **changes)  # type: ignore[arg-type]


async def registered(service: Tournaments, players: int, **changes: object) -> TournamentRecord:
    record = await service.create(ORGANISER, settings(**changes))
    for number in range(players):
        record = await service.register(player(number), record.id)
    return record


# --------------------------------------------------------------------------- the store


async def test_a_write_over_a_moved_version_changes_nothing(
    stores: tuple[TournamentStore, TournamentStore], services: tuple[Tournaments, Tournaments]
) -> None:
    store, other = stores
    record = await services[0].create(ORGANISER, settings())
    assert await other.tournament(record.id) == record
    with pytest.raises(TournamentExists):
        await other.create_tournament(record)
    renamed = record.next_version(name="Coppa Italia")
    assert await other.replace_tournament(renamed)
    assert not await store.replace_tournament(record.next_version(name="Lost"))
    assert not await store.replace_tournament(renamed)  # the same version twice
    assert await store.tournament(record.id) == renamed
    assert await store.tournament("nothing") is None


async def test_tournaments_are_listed_in_the_order_they_were_created(
    services: tuple[Tournaments, Tournaments], stores: tuple[TournamentStore, TournamentStore]
) -> None:
    times = iter([NOW, NOW + 1, NOW + 2])
    service = Tournaments(stores[0], Tables(), now=lambda: next(times))
    made = [await service.create(ORGANISER, settings(name=name)) for name in "ABC"]
    assert [t.name for t in await stores[1].tournaments(None, 10)] == ["A", "B", "C"]
    assert [t.name for t in await stores[1].tournaments(made[0].id, 1)] == ["B"]
    assert await stores[1].tournaments(made[2].id, 10) == []


# --------------------------------------------------------------------------- refusals


async def refused(code: str, work: object, store: TournamentStore, tournament: str) -> None:
    """`work` is refused with `code`, and the tournament is as it was."""
    before = await store.tournament(tournament)
    with pytest.raises((TournamentError, CredentialRefused)) as caught:
        await work  # type: ignore[misc]
    assert caught.value.code == code
    assert await store.tournament(tournament) == before


async def test_registration_refusals_say_why_and_change_nothing(
    services: tuple[Tournaments, Tournaments], stores: tuple[TournamentStore, TournamentStore]
) -> None:
    service, store = services[0], stores[0]
    record = await registered(service, 2, admits=Admits.BOTS)
    tid = record.id
    await refused("ALREADY_REGISTERED", service.register(player(0), tid), store, tid)
    await refused("BOTS_ONLY", service.register(player(9, bot=False), tid), store, tid)
    await refused("NOT_REGISTERED", service.withdraw(player(5), tid), store, tid)
    no_play = player(7, scopes=frozenset({Scope.GAMES_READ}))
    await refused("FORBIDDEN", service.register(no_play, tid), store, tid)
    player_only = player(0, scopes=frozenset({Scope.GAMES_PLAY}))
    await refused("FORBIDDEN", service.close_registration(player_only, tid), store, tid)
    organiser_too = replace(player(3), scopes=frozenset(Scope))
    await refused("NOT_ORGANISER", service.close_registration(organiser_too, tid), store, tid)
    await refused("TOURNAMENT_NOT_FOUND", service.register(player(3), "none"), store, tid)
    await service.withdraw(player(1), tid)
    await service.close_registration(ORGANISER, tid)
    await refused("REGISTRATION_CLOSED", service.register(player(4), tid), store, tid)
    late = Tournaments(store, Tables(), now=lambda: NOW + 3600)
    other = (await registered(service, 0)).id
    await refused("REGISTRATION_CLOSED", late.register(player(4), other), store, other)
    with pytest.raises(TournamentError) as caught:
        await service.create(ORGANISER, settings(rounds=0, table_size=9, variant="futurisiko"))
    assert caught.value.code == "INVALID_TOURNAMENT"
    with pytest.raises(CredentialRefused):
        await service.create(player_only, settings())


async def test_rounds_start_in_order_once_the_one_before_has_ended(
    services: tuple[Tournaments, Tournaments], stores: tuple[TournamentStore, TournamentStore]
) -> None:
    service, store = services[0], stores[0]
    tid = (await registered(service, 8)).id
    await refused("NOT_ENOUGH_PLAYERS", registered_start(service, store), store, tid)
    await refused("WRONG_ROUND", service.start_round(ORGANISER, tid, 2), store, tid)
    await refused("NOT_ORGANISER", service.start_round(player(0, bot=False), tid, 1), store, tid)
    record = await service.start_round(ORGANISER, tid, 1)
    assert record.status is TournamentStatus.PLAYING
    await refused("ROUND_NOT_ENDED", service.start_round(ORGANISER, tid, 2), store, tid)
    await refused("TOURNAMENT_STARTED", service.withdraw(player(0), tid), store, tid)
    await refused("ROUND_NOT_ENDED", service.add_late_entry(ORGANISER, tid, "p99"), store, tid)


async def registered_start(service: Tournaments, store: TournamentStore) -> TournamentRecord:
    """A round of a tournament of 2: too few to seat."""
    record = await registered(service, 2)
    return await service.start_round(ORGANISER, record.id, 1)


# --------------------------------------------------------------------------- seated once


async def test_two_instances_starting_a_round_at_once_seat_it_once(
    services: tuple[Tournaments, Tournaments], tables: Tables
) -> None:
    first, second = services
    tid = (await registered(first, 16)).id
    records = await asyncio.gather(
        *(service.start_round(ORGANISER, tid, 1) for service in (first, second, first, second))
    )
    assert len({record.version for record in records}) == 1  # one write seated it
    seated = await second.get(tid)
    assert len(seated.played) == 1
    assert records[0] == seated
    assert len(tables.created) == 4  # 4 tables of 4, each game created once
    assert sorted(p for players in tables.created.values() for p in players) == sorted(
        seated.entrants
    )
    again = await first.start_round(ORGANISER, tid, 1)  # a retry: nothing new
    assert again == seated
    assert len(tables.created) == 4


async def test_three_rounds_of_results_make_the_recomputed_standings(
    services: tuple[Tournaments, Tournaments],
) -> None:
    first, second = services
    rng = random.Random(30)
    tid = (await registered(first, 17)).id
    for number in (1, 2, 3):
        record = await first.start_round(ORGANISER, tid, number)
        for table in record.played[-1].tables:
            result = ranked_result(table.game, table.players, rng)
            counted = await asyncio.gather(
                first.record_result(tid, result), second.record_result(tid, result)
            )
            assert sorted(counted) == [False, True]  # exactly once
    final = await second.get(tid)
    assert final.status is TournamentStatus.FINISHED
    assert [len(t.players) for t in final.played[0].tables] == [5, 4, 4, 4]
    results = final.results()
    assert len(results) == 12
    expected = Standings.from_results(final.seed, final.entrants, results).rows()
    assert final.standings().rows() == expected
    assert sum(row.games for row in expected) == 17 * 3
    await refused_finished(first, tid)


async def refused_finished(service: Tournaments, tid: str) -> None:
    with pytest.raises(TournamentError) as caught:
        await service.start_round(ORGANISER, tid, 4)
    assert caught.value.code == "TOURNAMENT_FINISHED"


# --------------------------------------------------------------------------- a game's tournament


async def test_every_seated_tables_game_names_its_tournament_on_every_instance(
    services: tuple[Tournaments, Tournaments], stores: tuple[TournamentStore, TournamentStore]
) -> None:
    first, _ = services
    tid = (await registered(first, 8)).id
    other = (await registered(first, 8)).id
    seated = await first.start_round(ORGANISER, tid, 1)
    games = [table.game for table in seated.played[0].tables]
    assert len(games) == 2
    for store in stores:
        assert [await store.tournament_of_game(game) for game in games] == [tid, tid]
        assert await store.tournament_of_game("e" * 32) is None
    assert other != tid


async def test_an_earlier_files_tournaments_are_indexed_when_it_is_opened(tmp_path: Path) -> None:
    """A file written before the game index existed: its seated games are found after it."""
    path = tmp_path / "data" / "risiko.sqlite3"
    store = SqliteTournamentStore(path)
    await store.open()
    service = Tournaments(store, Tables(), now=lambda: NOW)
    tid = (await registered(service, 8)).id
    seated = await service.start_round(ORGANISER, tid, 1)
    await store.close()
    with sqlite3.connect(path) as connection:  # as the earlier version left it
        connection.execute("DROP TABLE tournament_games")
    reopened = SqliteTournamentStore(path)
    await reopened.open()
    try:
        for table in seated.played[0].tables:
            assert await reopened.tournament_of_game(table.game) == tid
    finally:
        await reopened.close()
