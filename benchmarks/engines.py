"""Every registered game's engine side by side, in one process:

    .venv/bin/python benchmarks/engines.py [--runs 5] [--seconds 2] [--policy aggressive]

Each run plays, for every variant in turn (the order rotating from run to run, so that a noisy
spell of the shared machine hurts each alike), whole four-player games of `bots.simulate` with
the same policy family (`aggressive`: each game's own registered bot) for about `--seconds`,
the games seeded alike in every run (game i of a variant is the same game in each run).
Before the first run each variant plays one untimed run of the same games (imports, and the
caches a bot fills, such as RisiKo! Più's odds: the runs measure the steady state). Prints
per variant the median and range of engine actions/s over the runs, and its ratio to
classic's (the median and range of the ratios taken within each run); one JSON line per
variant on stdout, the summary on stderr. Each figure twice: by the wall clock, and by the
process's CPU time (`cpu`), which a machine shared with other work disturbs much less (the
engine runs on one thread: both count the same work).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots.simulate import game_seed, play  # noqa: E402
from variants import VARIANTS, get_variant  # noqa: E402

BASELINE = "classic"


@dataclass(frozen=True, slots=True)
class Run:
    games: int
    actions: int
    seconds: float
    cpu_seconds: float

    def rate(self, clock: str) -> float:
        """Actions a second of the wall clock ("wall") or of the process's CPU time ("cpu")."""
        return self.actions / (self.seconds if clock == "wall" else self.cpu_seconds)


def timed(variant: str, policy: str, seconds: float, players: int = 4, seed: int = 0) -> Run:
    """Whole games of `variant`, from game 0 of `seed` on, until `seconds` have passed."""
    chosen = get_variant(variant)
    options = chosen.options({"round_limit": 200})
    names = [f"Player {i + 1}" for i in range(players)]
    games = actions = 0
    started, cpu = time.perf_counter(), time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        game = chosen.new_game(names, options, seed=game_seed(seed, games))
        actions += play(game, policy, random.Random(f"{seed}:{games}"))
        games += 1
        elapsed = time.perf_counter() - started
    return Run(games, actions, elapsed, time.process_time() - cpu)


def spread(values: list[float], digits: int = 0) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), digits),
        "min": round(min(values), digits),
        "max": round(max(values), digits),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs (at least 3 for a range)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per variant and run")
    parser.add_argument("--policy", default="aggressive")
    parser.add_argument("--variants", nargs="*", default=None, help="default: every one")
    args = parser.parse_args()
    variants = list(args.variants or VARIANTS)
    if BASELINE not in variants:
        variants.insert(0, BASELINE)
    for variant in variants:  # an untimed run first: imports, and caches such as the odds
        timed(variant, args.policy, args.seconds)
    runs: dict[str, list[Run]] = {variant: [] for variant in variants}
    for number in range(args.runs):
        shift = number % len(variants)
        for variant in variants[shift:] + variants[:shift]:
            runs[variant].append(timed(variant, args.policy, args.seconds))
    for variant, done in runs.items():
        line: dict[str, object] = {"benchmark": f"engines.{variant}.{args.policy}"}
        for clock in ("wall", "cpu"):
            rates = [run.rate(clock) for run in done]
            bases = [run.rate(clock) for run in runs[BASELINE]]
            ratios = [rate / base for rate, base in zip(rates, bases, strict=True)]
            suffix = "" if clock == "wall" else "_cpu"
            line[f"actions_per_second{suffix}"] = spread(rates)
            line[f"ratio_to_classic{suffix}"] = spread(ratios, 3)
            median = statistics.median(ratios)
            print(
                f"{variant:11} {clock:4} {statistics.median(rates):>9,.0f} actions/s "
                f"({min(rates):,.0f} to {max(rates):,.0f}), ÷ {BASELINE} {median:.3f} "
                f"= 1/{1 / median:.1f} ({min(ratios):.3f} to {max(ratios):.3f})",
                file=sys.stderr,
            )
        line["games_per_run"] = [run.games for run in done]
        line["actions_per_game"] = round(sum(r.actions for r in done) / sum(r.games for r in done))
        line["runs"] = args.runs
        line["seconds"] = args.seconds
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
