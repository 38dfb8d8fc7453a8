"""What a tournament costs the service: seating a round of 1,000 players (the standings
read, `seat_round` from the committed seed, the round written over its version) and reading
a tournament's standings (the record read, the standings recomputed from its results), on
the embedded store or MongoDB. Without `--games` the tables' games are not opened (that cost is
a game's creation, seats and start, times 250).

    python -m benchmarks.tournaments [--players 1000] [--runs 3] [--mongodb URI] [--games]

With `--games` (embedded store only), round 1 also opens its 250 tables' games, as the server
does: each game created with the tournament rules, its 4 accounts seated, started.

Round 1 is drawn; round 2 is seated by the standings after every table of round 1 has a
result (the Swiss-like search, avoiding repeats), which is the dearer one. Each figure is the
median of the runs, each run a fresh tournament.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from api.accounts.scopes import Principal, Scope
from api.accounts.tokens import TokenKind
from api.broker import Broker
from api.service import GameService
from api.stores.accounts import AccountRecord
from api.stores.base import GameStatus
from api.stores.mongo_tournaments import MongoTournamentStore
from api.stores.sqlite import SqliteStore
from api.stores.sqlite_accounts import SqliteAccountStore
from api.stores.sqlite_tournaments import SqliteTournamentStore
from api.stores.tournaments import TournamentStore
from api.tournaments.commands import CreateTournament
from api.tournaments.games import GameTables
from api.tournaments.records import RoundRecord, TournamentRecord
from api.tournaments.service import TableMaker, Tournaments
from competition.results import GameResult
from tests.competition_support import ranked_result

ORGANISER = Principal("org", "Org", False, TokenKind.SESSION, "c", frozenset(Scope))


class NoGames:
    async def open_tables(self, tournament: TournamentRecord, round_: RoundRecord) -> None:
        return None

    async def result(self, game_id: str) -> GameResult | None:
        return None


async def _run(
    store: TournamentStore, players: int, rng: random.Random, tables: TableMaker
) -> dict[str, float]:
    service = Tournaments(store, tables)
    command = CreateTournament("Bench", 3, time.time() + 3600)
    tid = (await service.create(ORGANISER, command)).id
    for number in range(players):
        player = Principal(f"p{number:05d}", "P", True, TokenKind.API, "c", frozenset(Scope))
        await service.register(player, tid)
    if not isinstance(tables, NoGames):
        started = time.perf_counter()
        await service.start_round(ORGANISER, tid, 1)
        return {"seat round 1 and open its games": time.perf_counter() - started}
    figures = {}
    started = time.perf_counter()
    record = await service.start_round(ORGANISER, tid, 1)
    figures["seat round 1"] = time.perf_counter() - started
    for table in record.played[-1].tables:
        await service.record_result(tid, ranked_result(table.game, table.players, rng))
    started = time.perf_counter()
    await service.start_round(ORGANISER, tid, 2)
    figures["seat round 2"] = time.perf_counter() - started
    started = time.perf_counter()
    (await service.get(tid)).standings().rows()
    figures["read standings"] = time.perf_counter() - started
    return figures


async def _with_games(path: Path, players: int, rng: random.Random) -> dict[str, float]:
    """Round 1 through the server's own game service and account store, on one file."""
    games, accounts = SqliteStore(path), SqliteAccountStore(path)
    await games.open()
    await accounts.open()
    for number in range(players):
        key = f"p{number:05d}"
        await accounts.create_account(AccountRecord(key, key, key, None, 0.0, bot=True))
    service = GameService(games, Broker())
    store = SqliteTournamentStore(path)
    await store.open()
    try:
        figures = await _run(store, players, rng, GameTables(service.work, accounts))
        (record,) = await store.tournaments(None, 1)
        for table in record.played[0].tables:  # each game was opened, seated and started
            session = await service.session(table.game)
            assert session.record.status == GameStatus.ACTIVE
            assert len(session.record.seats) == len(table.players)
        return figures
    finally:
        await service.close()
        await store.close()
        await accounts.close()
        await games.close()


async def main(players: int, runs: int, mongodb: str | None, games: bool = False) -> None:
    rng = random.Random(30)
    found: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for run in range(runs):
            path = Path(folder) / f"risiko{run}.sqlite3"
            if games:
                figures = await _with_games(path, players, rng)
            else:
                store: TournamentStore = (
                    MongoTournamentStore(mongodb) if mongodb else SqliteTournamentStore(path)
                )
                await store.open()
                figures = await _run(store, players, rng, NoGames())
                await store.close()
            for name, seconds in figures.items():
                found.setdefault(name, []).append(seconds)
    medians = {name: round(statistics.median(values) * 1000, 1) for name, values in found.items()}
    print(json.dumps({"players": players, "runs": runs, "median_ms": medians}, indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mongodb", default=None)
    parser.add_argument("--games", action="store_true")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.players, arguments.runs, arguments.mongodb, arguments.games))
