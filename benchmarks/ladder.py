"""The issue's done-when for the bots' ladder: 12 bot accounts of three strengths (4 random,
4 aggressive, 4 odds) play the ladder on a real server, through `risiko arena --ladder`,
until N games have been played; then the Kendall tau between the leaderboard's order and the
strengths (random < aggressive < odds; ties within a strength do not count):

    nice -n 10 .venv/bin/python benchmarks/ladder.py [--games 60] [--round-limit 12]

The server runs with the ladder's defaults but the games' round limit (`--round-limit`) and
three games at once (all 12 bots). One JSON line on stdout (the leaderboard, tau, games,
seconds); the leaderboard as a table on stderr. It is long (minutes per game round of 12
bots on a shared machine): not a test."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "client"))

from risiko_client.arena_ladder import (  # noqa: E402
    Entrant,
    LadderPlan,
    format_leaderboard,
    play_ladder,
)

from tests.e2e.support import Server  # noqa: E402
from tests.e2e.test_client_accounts import bot_account  # noqa: E402

STRENGTHS = {"random": 0, "aggressive": 1, "odds": 2}


def kendall(rows: list[dict[str, Any]]) -> float:
    """Kendall's tau-b-like figure over pairs of different strengths: (concordant -
    discordant) / such pairs, the leaderboard's place against the strength."""
    concordant = discordant = 0
    for a, b in itertools.combinations(rows, 2):
        strength = STRENGTHS[a["bot"]] - STRENGTHS[b["bot"]]
        if strength == 0:
            continue
        place = b["place"] - a["place"]  # > 0: a above b
        if strength * place > 0:
            concordant += 1
        elif strength * place < 0:
            discordant += 1
    pairs = concordant + discordant
    return 0.0 if pairs == 0 else (concordant - discordant) / pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="ladder games to play")
    parser.add_argument("--round-limit", type=int, default=12, help="each game's rounds")
    parser.add_argument("--minutes", type=float, default=None, help="the most it plays")
    args = parser.parse_args()
    env = {
        "RISIKO_LADDER_ROUND_LIMIT": str(args.round_limit),
        "RISIKO_LADDER_GAMES_AT_ONCE": "3",
        "RISIKO_LADDER_PASS_SECONDS": "1",
    }
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="risiko-ladder-") as folder:
        server = Server(Path(folder) / "data", env=env).start()
        try:
            with httpx.Client(base_url=server.url, timeout=30) as http:
                kinds = [kind for kind in STRENGTHS for _ in range(4)]
                entrants = [
                    Entrant(bot_account(http, f"{kind}{n}", f"198.51.100.{n}"), kind)
                    for n, kind in enumerate(kinds)
                ]
            plan = LadderPlan(args.games, args.minutes)
            data = asyncio.run(play_ladder(f"{server.url}/graphql", entrants, plan))
        finally:
            server.stop()
    board = data["leaderboard"]
    data |= {"tau": round(kendall(board), 3), "seconds": round(time.monotonic() - started)}
    print(format_leaderboard(data), file=sys.stderr)
    print(f"Kendall tau against the strengths: {data['tau']}", file=sys.stderr)
    print(json.dumps(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
