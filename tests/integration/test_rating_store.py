"""The rating store and the rating of finished games over it, written once and run against
both adapters (SQLite and the real MongoDB process of tests/mongo_server.py): a game is rated
with the library's own figures, once, also when two instances rate it at once or one rates it
again; a game whose instance died before its rating is rated by the safety net; an account in
two games ending together is rated in both; leaderboards keep people and bots apart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path

import pytest
from openskill.models import BradleyTerryPart

from api.ratings.records import HistoryEntry, Speed, Standing
from api.ratings.service import Ratings
from api.service_errors import ServiceError
from api.stores.base import Admission, GameRecord, GameStatus, SeatRecord
from api.stores.mongo_ratings import MongoRatingStore
from api.stores.ratings import RatingStore
from api.stores.sqlite_ratings import SqliteRatingStore
from competition.ratings import Rating, rate
from domain.errors import ErrorCode

pytestmark = pytest.mark.anyio

Make = Callable[[], RatingStore]
NOW = 1_000_000.0
RATED = Admission(accounts_required=True, rated=True, speed=Speed.REAL_TIME)
LIBRARY = BradleyTerryPart()


@pytest.fixture(params=["sqlite", "mongo"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Make:
    """How to open another store object (another instance) on the same data."""
    if request.param == "sqlite":
        return lambda: SqliteRatingStore(tmp_path / "data" / "risiko.sqlite3")
    uri: str = request.getfixturevalue("mongo_uri")
    return lambda: MongoRatingStore(uri)


@pytest.fixture
async def stores(make: Make) -> AsyncIterator[tuple[RatingStore, RatingStore]]:
    first, second = make(), make()
    await first.open()
    await second.open()
    yield first, second
    await first.close()
    await second.close()


class Games:
    """The games' rows as the ratings read them."""

    def __init__(self) -> None:
        self.rows: dict[str, GameRecord] = {}

    async def row(self, game_id: str) -> GameRecord:
        if game_id not in self.rows:
            raise ServiceError(ErrorCode.GAME_NOT_FOUND, "no such game")
        return self.rows[game_id]

    def finish(self, game_id: str, ranks: dict[str, int], *, bots: bool = False) -> GameRecord:
        """A finished rated classic game of these accounts (in seat order), ranked so."""
        seats = tuple(
            SeatRecord(seat, account, "red", "h", account_id=account, account_bot=bots)
            for seat, account in enumerate(ranks)
        )
        ranking = [{"seat": s, "rank": r, "points": 0} for s, r in enumerate(ranks.values())]
        record = GameRecord(
            game_id, "classic", {}, b"s", "c", GameStatus.FINISHED, 9, NOW, NOW + 60, seats,
            outcome={"winner": 0, "reason": "objective", "ranking": ranking},
            admission=RATED,
        )  # fmt: skip
        self.rows[game_id] = record
        return record


@pytest.fixture
def games() -> Games:
    return Games()


def services(stores: tuple[RatingStore, RatingStore], games: Games) -> tuple[Ratings, Ratings]:
    return Ratings(stores[0], games.row, lambda: NOW), Ratings(stores[1], games.row, lambda: NOW)


async def current(store: RatingStore, account: str) -> Standing:
    return await store.standing(account, "classic", Speed.REAL_TIME)


async def histories(store: RatingStore, accounts: str) -> list[list[str]]:
    found = [await store.history(a, "classic", Speed.REAL_TIME, None, 10) for a in accounts]
    return [[entry.game for entry in entries] for entries in found]


# --------------------------------------------------------------------------- the figures


async def test_a_finished_game_is_rated_with_the_library_figures_once(
    stores: tuple[RatingStore, RatingStore], games: Games
) -> None:
    ratings, _ = services(stores, games)
    games.finish("g1", {"a": 1, "b": 2, "c": 2, "d": 4})  # b and c tied
    await ratings.game_finished("g1")
    teams = [[LIBRARY.rating()] for _ in range(4)]
    expected = LIBRARY.rate(teams, ranks=[1.0, 2.0, 2.0, 4.0])
    for account, team in zip("abcd", expected, strict=True):
        standing = await current(stores[1], account)
        assert (standing.rating.mu, standing.rating.sigma, standing.games) == (
            team[0].mu,
            team[0].sigma,
            1,
        )
    b, c = await current(stores[0], "b"), await current(stores[0], "c")
    assert b.rating == c.rating  # a tie rates alike
    # A second game of the same table starts from the first's ratings.
    games.finish("g2", {"a": 4, "b": 3, "c": 2, "d": 1})
    before = [(await current(stores[0], a)).rating for a in "abcd"]
    await ratings.game_finished("g2")
    after = rate(before, [4, 3, 2, 1])
    assert [(await current(stores[1], a)).rating for a in "abcd"] == list(after)
    assert await histories(stores[1], "abcd") == [["g2", "g1"]] * 4
    entry = (await stores[1].history("d", "classic", Speed.REAL_TIME, None, 1))[0]
    assert (entry.number, entry.before, entry.after) == (2, before[3], after[3])


async def test_a_game_rated_again_changes_nothing(
    stores: tuple[RatingStore, RatingStore], games: Games
) -> None:
    first, second = services(stores, games)
    games.finish("g1", {"a": 1, "b": 2, "c": 3})
    await first.game_finished("g1")
    rated = [await current(stores[0], a) for a in "abc"]
    await second.game_finished("g1")  # another instance, told again
    await first.rate(games.rows["g1"])
    assert [await current(stores[1], a) for a in "abc"] == rated
    assert await histories(stores[0], "abc") == [["g1"]] * 3
    assert [row.games for row in await stores[0].ratings("a")] == [1]


async def test_two_instances_rating_one_game_at_once_rate_it_once(
    stores: tuple[RatingStore, RatingStore], games: Games
) -> None:
    first, second = services(stores, games)
    for number in range(5):
        game = f"g{number}"
        games.finish(game, {"a": 1 + number % 2, "b": 2 - number % 2, "c": 3, "d": 3})
        await asyncio.gather(
            *(first.game_finished(game) for _ in range(2)), second.game_finished(game)
        )
        assert [len(h) for h in await histories(stores[0], "abcd")] == [number + 1] * 4
    rows = await stores[0].ratings("a")
    assert [(row.games, row.variant, row.speed) for row in rows] == [(5, "classic", "real-time")]


async def test_an_account_in_two_games_ending_at_once_is_rated_in_both(
    stores: tuple[RatingStore, RatingStore], games: Games
) -> None:
    first, second = services(stores, games)
    games.finish("g1", {"a": 1, "b": 2, "c": 3})
    games.finish("g2", {"a": 3, "d": 1, "e": 2})
    await asyncio.gather(first.game_finished("g1"), second.game_finished("g2"))
    history = await stores[0].history("a", "classic", Speed.REAL_TIME, None, 10)
    assert sorted(entry.game for entry in history) == ["g1", "g2"]
    assert [entry.number for entry in history] == [2, 1]
    assert history[0].before == history[1].after  # one after the other, nothing lost
    assert (await current(stores[1], "a")).games == 2


async def test_the_safety_net_rates_a_game_its_instance_never_rated(
    stores: tuple[RatingStore, RatingStore], games: Games
) -> None:
    dead, restarted = services(stores, games)
    record = games.finish("g1", {"a": 2, "b": 1, "c": 3})
    await dead.finishing(record)  # noted before the commit; the instance dies then
    unfinished = replace(games.finish("g2", {"a": 1, "b": 2}), status=GameStatus.ACTIVE)
    games.rows["g2"] = unfinished
    await dead.finishing(unfinished)  # its commit failed: not finished, not rated
    await stores[0].note("gone", NOW)  # a game no store has
    assert await histories(stores[0], "abc") == [[], [], []]
    assert await restarted.catch_up() == 1
    assert await histories(stores[0], "abc") == [["g1"]] * 3
    assert await restarted.catch_up() == 0  # done: not rated twice
    assert await histories(stores[1], "abc") == [["g1"]] * 3
    assert await stores[0].undone(10) == ["g2"]
    games.rows["g2"] = replace(unfinished, status=GameStatus.FINISHED)
    assert await dead.catch_up() == 1
    assert await stores[1].undone(10) == []
    assert [len(h) for h in await histories(stores[1], "ab")] == [2, 2]


async def test_an_unrated_or_unfinished_game_is_not_rated(
    stores: tuple[RatingStore, RatingStore], games: Games
) -> None:
    ratings, _ = services(stores, games)
    record = games.finish("g1", {"a": 1, "b": 2})
    assert not await ratings.rate(replace(record, admission=Admission(accounts_required=True)))
    assert not await ratings.rate(replace(record, status=GameStatus.ACTIVE))
    abandoned = replace(record, outcome={"winner": None, "reason": "not_started", "ranking": []})
    assert await ratings.rate(abandoned)  # claimed and done, nobody rated
    assert await histories(stores[0], "ab") == [[], []]
    assert await stores[0].undone(10) == []


# --------------------------------------------------------------------------- the store


def entry(account: str, number: int, game: str, mu: float, *, bot: bool = False) -> HistoryEntry:
    before, after = Rating(), Rating(mu, 7.0)  # provisional
    return HistoryEntry(
        account, "classic", "real-time", number, game, NOW + number, bot, before, after
    )


async def test_an_entry_is_written_once_by_number_and_by_game(
    stores: tuple[RatingStore, RatingStore],
) -> None:
    store, other = stores
    assert await store.add_entry(entry("a", 1, "g1", 26.0))
    assert not await other.add_entry(entry("a", 1, "g2", 27.0))  # the number is taken
    assert not await other.add_entry(entry("a", 2, "g1", 27.0))  # the game is rated
    assert await other.add_entry(entry("a", 2, "g2", 27.0))
    assert await store.standing("a", "classic", "real-time") == Standing(Rating(27.0, 7.0), 2)
    await store.project(entry("a", 1, "g1", 26.0))  # an older projection moves nothing back
    assert [(r.rating.mu, r.games) for r in await other.ratings("a")] == [(27.0, 2)]
    assert await store.entry_of("a", "classic", "real-time", "g1") == entry("a", 1, "g1", 26.0)
    assert await store.entry_of("a", "classic", "correspondence", "g1") is None
    assert [e.number for e in await other.history("a", "classic", "real-time", 2, 10)] == [1]


async def test_the_leaderboard_orders_people_and_bots_apart(
    stores: tuple[RatingStore, RatingStore],
) -> None:
    store, other = stores
    for account, mu in [("p1", 30.0), ("p2", 33.0), ("p3", 28.0)]:
        await store.add_entry(entry(account, 1, "g", mu))
    await store.add_entry(entry("b1", 1, "g", 40.0, bot=True))
    board = await other.leaderboard("classic", "real-time", False, True, 0, 10)
    assert [row.account for row in board] == ["p2", "p1", "p3"]
    assert [
        row.account for row in await other.leaderboard("classic", "real-time", False, True, 1, 1)
    ] == ["p1"]
    assert [
        row.account for row in await other.leaderboard("classic", "real-time", True, True, 0, 10)
    ] == ["b1"]
    assert await other.leaderboard("classic", "real-time", False, False, 0, 10) == []
    settled = replace(entry("p3", 2, "g2", 29.0), after=Rating(29.0, 2.0))
    await store.add_entry(settled)
    board = await other.leaderboard("classic", "real-time", False, False, 0, 10)
    assert [(row.account, row.rating.provisional) for row in board] == [("p3", False)]
    assert await other.leaderboard("classic", "correspondence", False, True, 0, 10) == []


async def test_a_claim_stands_once_written(
    stores: tuple[RatingStore, RatingStore], games: Games
) -> None:
    ratings, _ = services(stores, games)
    games.finish("g1", {"a": 1, "b": 2})
    table = await ratings._table(games.rows["g1"])
    claimed = await stores[0].claim(table)
    moved = replace(table, seats=(replace(table.seats[0], rank=2), table.seats[1]))
    assert await stores[1].claim(moved) == claimed
    assert await stores[1].rated_game("g1") == claimed
    assert await stores[1].rated_game("nothing") is None
    await stores[0].note("g1", NOW + 5)  # noted after the claim: the claim stays
    assert await stores[1].rated_game("g1") == claimed
