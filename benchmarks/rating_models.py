"""Which of OpenSkill's Weng-Lin models rates RisiKo! tables best (the choice of
competition/ratings.py), and how long a rating stays provisional:

    .venv/bin/python benchmarks/rating_models.py [--seeds 40]

* ties: over every ranking of five newcomers (ties included, 5^5), how many rate a better
  ranked player at or below a worse ranked one (a model that rates ties right has none);
* order.<model>: twelve players of hidden strengths play tables of four; each table finishes
  in an order drawn as Plackett-Luce draws it from the strengths (which favours the
  Plackett-Luce model, if anything), a quarter of the places tied with the one before (equal
  points, resigned players); after 30 to 480 games, the Kendall tau between the strengths
  and the leaderboard's order (the ordinal, mu - 3 sigma), mean over the seeds; and the log
  of the chance the model gave the winner, over the second half of the games;
* provisional.<size>: with the chosen model, the games a player plays before its sigma is
  at most competition.ratings.PROVISIONAL_SIGMA, at tables of 3 to 6 (median, least, most).

One JSON line per figure on stdout; a table on stderr.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from openskill.models import MODELS  # noqa: E402

from competition.ratings import MODEL, PROVISIONAL_SIGMA  # noqa: E402

CHECKPOINTS = (30, 60, 120, 240, 480)


def emit(name: str, **figures: Any) -> None:
    print(json.dumps({"benchmark": f"rating_models.{name}", **figures}), flush=True)


def draw_one(left: list[int], strength: list[float], rnd: random.Random) -> int:
    """The next player to finish, as Plackett-Luce draws it from the strengths."""
    weights = [math.exp(1.5 * strength[player]) for player in left]
    pick = rnd.random() * sum(weights)
    for player, weight in zip(left, weights, strict=True):
        pick -= weight
        if pick <= 0:
            return player
    return left[-1]


def finish(table: list[int], strength: list[float], rnd: random.Random) -> list[int]:
    """The ranks of a table's players: a Plackett-Luce draw of the order, some places tied."""
    left, order = list(table), []
    while left:
        order.append(draw_one(left, strength, rnd))
        left.remove(order[-1])
    ranks: dict[int, int] = {}
    for place, player in enumerate(order):
        tied = place > 0 and rnd.random() < 0.25
        ranks[player] = ranks[order[place - 1]] if tied else place + 1
    return [ranks[player] for player in table]


def wrong_ties(model: Any) -> int:
    wrong = 0
    for ranks in itertools.product(range(1, 6), repeat=5):
        rated = model.rate([[model.rating()] for _ in ranks], ranks=[float(r) for r in ranks])
        mus = [team[0].mu for team in rated]
        wrong += any(
            ranks[i] < ranks[j] and mus[i] <= mus[j] + 1e-9
            for i, j in itertools.permutations(range(5), 2)
        )
    return wrong


def kendall(truth: list[float], found: list[float]) -> float:
    pairs = list(itertools.combinations(range(len(truth)), 2))
    agree = sum(1 if (truth[i] - truth[j]) * (found[i] - found[j]) > 0 else -1 for i, j in pairs)
    return agree / len(pairs)


def league(model: Any, seed: int) -> tuple[list[float], float]:
    """Kendall tau at each checkpoint, and the mean log-chance of the winners."""
    rnd = random.Random(seed)
    strength = [rnd.gauss(0, 1) for _ in range(12)]
    ratings = [model.rating() for _ in range(12)]
    taus, log_chance, predicted = [], 0.0, 0
    for game in range(1, max(CHECKPOINTS) + 1):
        table = rnd.sample(range(12), 4)
        ranks = finish(table, strength, rnd)
        teams = [[ratings[player]] for player in table]
        if game > max(CHECKPOINTS) // 2 and ranks.count(1) == 1:
            log_chance += math.log(model.predict_win(teams)[ranks.index(1)])
            predicted += 1
        for player, team in zip(table, model.rate(teams, ranks=ranks), strict=True):
            ratings[player] = team[0]
        if game in CHECKPOINTS:
            taus.append(kendall(strength, [rating.ordinal() for rating in ratings]))
    return taus, log_chance / predicted


def provisional_games(size: int, seed: int) -> list[int]:
    rnd = random.Random(seed)
    strength = [rnd.gauss(0, 1) for _ in range(24)]
    ratings = [MODEL.rating() for _ in strength]
    played, settled = [0] * 24, [0] * 24
    while not all(settled) and sum(played) < 24 * 400:
        table = rnd.sample(range(24), size)
        teams = [[ratings[player]] for player in table]
        for player, team in zip(
            table, MODEL.rate(teams, ranks=finish(table, strength, rnd)), strict=True
        ):
            ratings[player] = team[0]
            played[player] += 1
            if not settled[player] and team[0].sigma <= PROVISIONAL_SIGMA:
                settled[player] = played[player]
    return [games for games in settled if games]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=40, help="leagues per model")
    args = parser.parse_args()
    for model_class in MODELS:
        model, name = model_class(), model_class.__name__
        runs = [league(model, seed) for seed in range(args.seeds)]
        taus = [
            round(statistics.mean(run[0][i] for run in runs), 3) for i in range(len(CHECKPOINTS))
        ]
        log_chance = round(statistics.mean(run[1] for run in runs), 3)
        ties = wrong_ties(model)
        emit(
            f"order.{name}",
            games=CHECKPOINTS,
            kendall_tau=taus,
            winner_log_chance=log_chance,
            wrong_tie_rankings=ties,
        )
        print(
            f"{name:24} tau {taus} winner log-chance {log_chance} wrong ties {ties}/3125",
            file=sys.stderr,
        )
    for size in (3, 4, 5, 6):
        games = [
            g for seed in range(max(1, args.seeds // 4)) for g in provisional_games(size, seed)
        ]
        figures = {"median": statistics.median(games), "least": min(games), "most": max(games)}
        emit(f"provisional.tables_of_{size}", sigma=PROVISIONAL_SIGMA, **figures)
        print(f"provisional at tables of {size}: {figures} games", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
