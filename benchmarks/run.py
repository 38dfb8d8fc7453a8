"""Benchmarks of the engine (not timed tests): `python3 dev.py bench [--games N] [--pyrisk DIR]`.

Plays four-player games of classic RisiKo! with the `aggressive` policy in-process, several
repetitions, and reports games/s and actions/s (median and best); then the same for
S.P.Q.RisiKo! (`spqr_*`) with the `aggressive` and `random` policies, whose games end by
victory points (`--games` of each, `--no-spqr` to skip them). With `--pyrisk DIR`, a
checkout of chronitis/pyrisk (not part of this project), the engine is compared with pyrisk's
four `StupidAI` players by benchmarks/engine_vs_pyrisk.py, the one comparison (its method and
figures: see there), before the runs above.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import engine_vs_pyrisk  # noqa: E402
from bots.simulate import SimulationReport, simulate  # noqa: E402
from domain.odds import battle_odds  # noqa: E402


def machine() -> str:
    cpu = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{cpu}, {platform.system()} {platform.machine()}, Python {platform.python_version()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pyrisk", help="a directory holding a checkout of chronitis/pyrisk")
    parser.add_argument("--no-spqr", action="store_true", help="classic only")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    pyrisk = engine_vs_pyrisk.measure(args.pyrisk, args.games, args.repeat) if args.pyrisk else {}
    ours: list[float] = []
    actions: list[float] = []
    for repetition in range(args.repeat):
        report = simulate(players=4, games=args.games, seed=repetition, policy="aggressive")
        ours.append(report.games_per_second)
        actions.append(report.actions_per_second)

    spqr: dict[str, list[SimulationReport]] = {}
    if not args.no_spqr:
        for policy in ("aggressive", "random"):
            spqr[policy] = [
                simulate("spqr", 4, args.games, repetition, policy)
                for repetition in range(args.repeat)
            ]

    started = time.perf_counter()
    battle_odds(100, 100)
    odds_ms = (time.perf_counter() - started) * 1000

    result: dict[str, object] = {
        "machine": machine(),
        "games_per_repetition": args.games,
        "repetitions": args.repeat,
        "risiko_aggressive_games_per_second_median": round(statistics.median(ours), 1),
        "risiko_aggressive_games_per_second_best": round(max(ours), 1),
        "risiko_aggressive_actions_per_second_median": round(statistics.median(actions)),
        "odds_100_vs_100_ms_cold": round(odds_ms, 1),
    }
    for policy, reports in spqr.items():
        rates = [r.games_per_second for r in reports]
        prefix = f"spqr_{policy}"
        result[f"{prefix}_games_per_second_median"] = round(statistics.median(rates), 1)
        result[f"{prefix}_games_per_second_best"] = round(max(rates), 1)
        result[f"{prefix}_actions_per_second_median"] = round(
            statistics.median(r.actions_per_second for r in reports)
        )
        result[f"{prefix}_games_with_winner"] = sum(r.winners for r in reports)
    for key, value in pyrisk.items():
        if key != "benchmark":
            result[f"pyrisk_comparison_{key}"] = value
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:48} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
