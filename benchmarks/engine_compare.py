"""The engine's speed against another revision, side by side in one run:

    .venv/bin/python benchmarks/engine_compare.py --before DIR [--games 40] [--rounds 7]

DIR is a checkout of the other revision (`git worktree add /tmp/before <rev>`). Each round runs
`bots.simulate` (four players, the aggressive policy, classic and S.P.Q.RisiKo!) once in a fresh
process per tree, the two trees alternating so that a noisy machine hurts both alike; the
import is not timed. Prints per variant the median games/s of each tree and their ratio, and
one JSON line per variant on stdout.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("classic", "spqr")

PROGRAM = """
import json, sys
sys.path.insert(0, sys.argv[1])
from bots.simulate import simulate
report = simulate(sys.argv[2], 4, int(sys.argv[3]), int(sys.argv[4]), "aggressive")
print(json.dumps({"games_per_second": report.games_per_second, "actions": report.actions}))
"""


def run(tree: Path, variant: str, games: int, seed: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(tree), variant, str(games), str(seed)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the other revision's tree")
    parser.add_argument("--games", type=int, default=40, help="games per run")
    parser.add_argument("--rounds", type=int, default=7, help="runs per tree and variant")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": ROOT}
    for variant in VARIANTS:
        speeds: dict[str, list[float]] = {name: [] for name in trees}
        actions: dict[str, set[float]] = {name: set() for name in trees}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            for name in order:
                result = run(trees[name], variant, args.games, seed=round_)
                speeds[name].append(result["games_per_second"])
                actions[name].add(result["actions"])
        medians = {name: statistics.median(values) for name, values in speeds.items()}
        ratio = medians["after"] / medians["before"]
        same_games = actions["before"] == actions["after"]
        print(
            f"{variant}: before {medians['before']:.1f} games/s, after {medians['after']:.1f}, "
            f"after/before {ratio:.3f} (same games played: {same_games})",
            file=sys.stderr,
        )
        line = {
            "benchmark": f"engine_compare.{variant}",
            "before_games_per_second": medians["before"],
            "after_games_per_second": medians["after"],
            "ratio": ratio,
            "same_games": same_games,
            "rounds": args.rounds,
            "games": args.games,
        }
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
