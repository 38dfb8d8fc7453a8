"""Benchmarks of competition/ (not timed tests): seating, standings, matchmaking, repeats.

    .venv/bin/python benchmarks/competition.py [--only seat,standings,match,repeats]
        [--players 1000] [--seeks 10000] [--runs 3] [--trials 60]

Every figure is one JSON line on stdout (`{"benchmark": "competition.<name>", ...}`), a human
summary goes to stderr; times are medians of `--runs` runs. Figures:

* seat.round_1 / seat.round_<r>: `seat_round` for `--players` players, the first round
  (drawn) and later rounds of a tournament whose games score at random (Swiss-like, with the
  history of the rounds before), with the classic rule (tables of 4, 3 to 5) and with tables
  of 6 (3 to 6); the repeats each round could not avoid are in the line;
* standings.add / standings.rows: one game added to the standings of `--players` players
  after four rounds (the mean over a fifth round's games), and the standings read (sorted);
* match.<pool>: one matchmaking pass over `--seeks` seeks: a realistic pool (two variants,
  five sizes, three speeds, rated or not, 10 % bots, waits up to 30 minutes), and two pools
  where nothing fits (every seek from five accounts; people who want bots, with none there);
* repeats: small tournaments (8 to 16 players, up to five rounds, random scores): how often a
  round's repeated opponents were forced (the exhaustive least of tests/competition_support.py
  above 0) and how often the seating had more than that least; repeats.players_<n>: the
  repeats of rounds 2 to 7 of larger tournaments (summed over several), whose least is not
  computed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from competition.matchmaking import Kind, Opponents, Seek, match  # noqa: E402
from competition.pairing import Entrant, seat_round  # noqa: E402
from competition.results import GameResult, PlayerResult  # noqa: E402
from competition.standings import Standings  # noqa: E402
from competition.tables import CLASSIC_TOURNAMENT, TableRule  # noqa: E402
from tests.competition_support import least_repeats  # noqa: E402

SEED = b"benchmark tournament seed"
NOW = 1_000_000.0


def emit(name: str, **figures: Any) -> None:
    print(json.dumps({"benchmark": f"competition.{name}", **figures}), flush=True)


def median_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def a_game(game: str, table: tuple[str, ...], rnd: random.Random) -> GameResult:
    """A tournament game's result: random points as a timed game gives them, sometimes a
    player who achieved its objective (100)."""
    scores = [rnd.choice((0, 6, 12, 20, 31, 45, 60)) for _ in table]
    winner = rnd.random() < 0.25
    if winner:
        scores[0] = 100
    ranks = [1 + sum(other > score for other in scores) for score in scores]
    lines = tuple(
        PlayerResult(player, scores[i], ranks[i], winner and i == 0)
        for i, player in enumerate(table)
    )
    return GameResult(game, lines)


def tournament(
    players: int, rounds: int, rule: TableRule, rnd: random.Random
) -> tuple[Standings, list[tuple[tuple[str, ...], ...]], list[list[GameResult]], list[int]]:
    """A tournament played for `rounds` rounds: its standings, tables, results and repeats."""
    names = [f"player-{number:05d}" for number in range(players)]
    standings = Standings(SEED, names)
    history: list[tuple[tuple[str, ...], ...]] = []
    results: list[list[GameResult]] = []
    repeats = []
    for round_number in range(1, rounds + 1):
        seating = seat_round(SEED, round_number, standings.entrants(names), history, rule)
        history.append(seating.tables)
        repeats.append(seating.repeats)
        games = [
            a_game(f"r{round_number}t{number}", table, rnd)
            for number, table in enumerate(seating.tables)
        ]
        results.append(games)
        for game in games:
            standings.add(game)
    return standings, history, results, repeats


def seat(players: int, runs: int) -> None:
    for label, rule in (("classic", CLASSIC_TOURNAMENT), ("tables_of_6", TableRule(3, 6, 6))):
        names = [f"player-{number:05d}" for number in range(players)]
        entrants = [Entrant(name) for name in names]
        first = median_ms(lambda: seat_round(SEED, 1, entrants, [], rule), runs)  # noqa: B023
        emit(f"seat.round_1.{label}", players=players, ms=round(first, 1))
        print(f"seat round 1, {players} players, {label}: {first:.1f} ms", file=sys.stderr)
        for rounds_before in (1, 4):
            standings, history, _, _ = tournament(players, rounds_before, rule, random.Random(1))
            later = standings.entrants(names)
            number = rounds_before + 1
            milliseconds = median_ms(
                lambda: seat_round(SEED, number, later, history, rule),  # noqa: B023
                runs,
            )
            seating = seat_round(SEED, number, later, history, rule)
            emit(
                f"seat.round_{number}.{label}",
                players=players,
                ms=round(milliseconds, 1),
                repeats=seating.repeats,
                spread=seating.spread,
            )
            print(
                f"seat round {number}, {players} players, {label}: {milliseconds:.1f} ms, "
                f"repeats {seating.repeats}, spread {seating.spread}",
                file=sys.stderr,
            )


def standings_figures(players: int, runs: int) -> None:
    names = [f"player-{number:05d}" for number in range(players)]
    standings, _, results, _ = tournament(players, 5, CLASSIC_TOURNAMENT, random.Random(2))
    fifth = results[-1]
    earlier = [game for games in results[:-1] for game in games]

    def add_a_round() -> None:
        fresh = Standings.from_results(SEED, names, earlier)
        start = time.perf_counter()
        for game in fifth:
            fresh.add(game)
        timings.append((time.perf_counter() - start) * 1000 / len(fifth))

    timings: list[float] = []
    for _ in range(runs):
        add_a_round()
    per_game = statistics.median(timings)
    read = median_ms(standings.rows, runs)
    emit("standings.add", players=players, ms_per_game=round(per_game, 4))
    emit("standings.rows", players=players, ms=round(read, 2))
    print(
        f"standings of {players}: a game added in {per_game * 1000:.0f} µs, read in {read:.2f} ms",
        file=sys.stderr,
    )


def realistic_pool(count: int, rnd: random.Random) -> list[Seek]:
    return [
        Seek(
            f"seek-{number}",
            f"account-{rnd.randrange(count)}",
            rnd.gauss(1500, 300),
            rnd.choice(("classic", "classic", "spqr")),
            rnd.choice((3, 4, 4, 4, 5, 6)),
            rnd.choice(("1d", "3d", "10+5")),
            rnd.random() < 0.7,
            NOW - rnd.uniform(0, 1800),
            Kind.BOT if rnd.random() < 0.1 else Kind.PERSON,
            rnd.choice([Opponents.ANY] * 8 + [Opponents.PEOPLE, Opponents.BOTS]),
        )
        for number in range(count)
    ]


def matchmaking(seeks: int, runs: int) -> None:
    rnd = random.Random(3)
    pools = {
        "realistic": realistic_pool(seeks, rnd),
        "five_accounts": [
            Seek(f"s{n}", f"a{n % 5}", 1500 + rnd.random() * 200, "classic", 6, "1d", True, NOW)
            for n in range(seeks)
        ],
        "bots_wanted_none_there": [
            Seek(
                f"s{n}",
                f"a{n}",
                1500 + rnd.random() * 200,
                "classic",
                4,
                "1d",
                True,
                NOW - rnd.uniform(0, 1800),
                Kind.PERSON,
                Opponents.BOTS,
            )
            for n in range(seeks)
        ],
    }
    for name, pool in pools.items():
        milliseconds = median_ms(lambda: match(pool, NOW), runs)  # noqa: B023
        tables = match(pool, NOW)
        seated = sum(len(table.seeks) for table in tables)
        emit(
            f"match.{name}",
            seeks=seeks,
            ms=round(milliseconds, 1),
            tables=len(tables),
            seated=seated,
        )
        print(
            f"match {name}, {seeks} seeks: {milliseconds:.1f} ms, {len(tables)} tables "
            f"({seated} seeks seated)",
            file=sys.stderr,
        )


def repeats(trials: int) -> None:
    rounds_seen = forced = above_least = 0
    excess = 0
    for trial in range(trials):
        rnd = random.Random(trial)
        players = rnd.randint(8, 16)
        _, history, _, found = tournament(players, rnd.randint(2, 5), CLASSIC_TOURNAMENT, rnd)
        names = sorted(player for table in history[0] for player in table)
        sizes = CLASSIC_TOURNAMENT.sizes(players)
        for number in range(1, len(history)):
            least = least_repeats(names, sizes, history[:number])
            rounds_seen += 1
            forced += least > 0
            above_least += found[number] > least
            excess += found[number] - least
    emit(
        "repeats",
        rounds=rounds_seen,
        forced=forced,
        above_least=above_least,
        repeats_above_least=excess,
    )
    print(
        f"repeats: {rounds_seen} later rounds of 8 to 16 players; repeats forced in {forced}; "
        f"more than the least in {above_least} ({excess} repeats in all)",
        file=sys.stderr,
    )
    for players in (24, 48, 96):  # too many for the exhaustive least: the repeats seen
        seen = [
            tournament(players, 7, CLASSIC_TOURNAMENT, random.Random(trial))[3][1:]
            for trial in range(max(1, trials // 10))
        ]
        by_round = [sum(repeats[number] for repeats in seen) for number in range(6)]
        emit(f"repeats.players_{players}", tournaments=len(seen), repeats_rounds_2_to_7=by_round)
        print(
            f"repeats, {len(seen)} tournaments of {players} players, rounds 2 to 7: {by_round}",
            file=sys.stderr,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="seat,standings,match,repeats", help="what to run")
    parser.add_argument("--players", type=int, default=1000, help="players of a round")
    parser.add_argument("--seeks", type=int, default=10_000, help="seeks in the pool")
    parser.add_argument("--runs", type=int, default=3, help="runs of each timing (median)")
    parser.add_argument("--trials", type=int, default=60, help="small tournaments for repeats")
    args = parser.parse_args()
    only = set(args.only.split(","))
    if "seat" in only:
        seat(args.players, args.runs)
    if "standings" in only:
        standings_figures(args.players, args.runs)
    if "match" in only:
        matchmaking(args.seeks, args.runs)
    if "repeats" in only:
        repeats(args.trials)
    return 0


if __name__ == "__main__":
    sys.exit(main())
