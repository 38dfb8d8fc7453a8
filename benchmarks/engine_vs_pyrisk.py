"""The classic engine against pyrisk, fairly (not a timed test):

    git clone https://github.com/chronitis/pyrisk /tmp/pyrisk   # not part of this project
    .venv/bin/python benchmarks/engine_vs_pyrisk.py --pyrisk /tmp/pyrisk [--games 100] [--runs 5]

Both engines in this one process, four players each, the same policy family: pyrisk's
`StupidAI` (random reinforcement of border territories one army at a time, every enemy
neighbour it outnumbers attacked until conquest or one army left, everything moved in, no
strategic move) and this project's `aggressive` policy, which is StupidAI written for the
RisiKo! rules (bots/policies.py). Both are warmed up first (imports, caches, the first games
untimed); before each timed run the garbage of the previous one is collected; the two
alternate, ours first in even runs and pyrisk first in odd ones, and each run of ours is paired
with the run of pyrisk next to it: the ratio is taken per pair, then its median and range.
Time is the process's CPU time (`time.process_time`), not the wall clock: on a shared machine
the wall clock also counts the time the process waited for a core, which other people's work
decides, run by run.
Prints a summary on stderr and one JSON line on stdout.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots.simulate import simulate  # noqa: E402

PLAYERS = ("ALPHA", "BRAVO", "CHARLIE", "DELTA")


def pyrisk_games(directory: str) -> tuple[Callable[[int, int], float], Callable[[int], float]]:
    """pyrisk's runner (games, seed) → seconds, and its average events a game over n games."""
    sys.path.insert(0, directory)
    from ai.stupid import StupidAI  # type: ignore[import-not-found]
    from game import Game  # type: ignore[import-not-found]

    def run(games: int, seed: int) -> float:
        random.seed(seed)
        started = time.process_time()
        for _ in range(games):
            game = Game(curses=False)
            for name in PLAYERS:
                game.add_player(name, StupidAI)
            game.play()  # as published: `play` runs a whole game, to one player left
        return time.process_time() - started

    def events_a_game(games: int) -> float:
        counted = [0]

        class Counting(StupidAI):  # type: ignore[misc]
            def event(self, msg: object) -> None:
                counted[0] += 1

        random.seed(0)
        for _ in range(games):
            game = Game(curses=False)
            game.add_player(PLAYERS[0], Counting)
            for name in PLAYERS[1:]:
                game.add_player(name, StupidAI)
            game.play()
        return counted[0] / games

    return run, events_a_game


def ours(games: int, seed: int) -> tuple[float, int]:
    """CPU seconds and actions for `games` classic games of four `aggressive` players."""
    started = time.process_time()
    report = simulate("classic", 4, games, seed, "aggressive")
    return time.process_time() - started, report.actions


def measure(directory: str, games: int, runs: int) -> dict[str, object]:
    theirs, events_a_game = pyrisk_games(directory)
    ours(max(games // 10, 5), 10_000)  # warm-up: imports, tables, the policy's shared actions
    theirs(max(games // 10, 5), 10_000)
    ratios: list[float] = []
    ours_rates: list[float] = []
    their_rates: list[float] = []
    actions = 0
    for run in range(runs):
        rates: dict[str, float] = {}
        for side in ("ours", "pyrisk") if run % 2 == 0 else ("pyrisk", "ours"):
            gc.collect()
            if side == "ours":
                seconds, played = ours(games, run)
                actions += played
            else:
                seconds = theirs(games, run)
            rates[side] = games / seconds
        ours_rates.append(rates["ours"])
        their_rates.append(rates["pyrisk"])
        ratios.append(rates["ours"] / rates["pyrisk"])
        print(
            f"run {run + 1}: ours {rates['ours']:.1f} games/s, pyrisk {rates['pyrisk']:.1f}, "
            f"ratio {ratios[-1]:.2f}",
            file=sys.stderr,
        )
    return {
        "benchmark": "engine_vs_pyrisk",
        "games_a_run": games,
        "runs": runs,
        "ratio_median": round(statistics.median(ratios), 2),
        "ratio_range": [round(min(ratios), 2), round(max(ratios), 2)],
        "ours_games_per_second_median": round(statistics.median(ours_rates), 1),
        "ours_games_per_second_range": [round(min(ours_rates), 1), round(max(ours_rates), 1)],
        "pyrisk_games_per_second_median": round(statistics.median(their_rates), 1),
        "pyrisk_games_per_second_range": [round(min(their_rates), 1), round(max(their_rates), 1)],
        "ours_actions_a_game": round(actions / (games * runs), 1),
        "pyrisk_events_a_game": round(events_a_game(min(games, 20)), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyrisk", required=True, help="a checkout of chronitis/pyrisk")
    parser.add_argument("--games", type=int, default=100, help="games a run, each side")
    parser.add_argument("--runs", type=int, default=5, help="runs of each side (at least 3)")
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs: at least 3")
    if not (Path(args.pyrisk) / "game.py").exists():
        parser.error(f"--pyrisk {args.pyrisk}: not a checkout of chronitis/pyrisk (no game.py)")
    result = measure(args.pyrisk, args.games, args.runs)
    print(
        f"ratio median {result['ratio_median']} (range {result['ratio_range']}); "
        f"ours {result['ours_games_per_second_median']} games/s, "
        f"pyrisk {result['pyrisk_games_per_second_median']}",
        file=sys.stderr,
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
