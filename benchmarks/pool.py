"""The matchmaking pool served, through its store (not a timed test): one pass over a pool of
`--seeks` seeks on the embedded store (SQLite), as an instance runs it every 5 seconds.

    .venv/bin/python benchmarks/pool.py [--seeks 10000] [--runs 3]

The pool is benchmarks/competition.py's realistic one (two variants, five sizes, three clocks,
rated or not, 10 % bots, waits up to 30 minutes), stored as seeks. A pass expires, looks for
tables to repair, reads the open seeks, matches them and claims each table's seeks (one
conditional write each); the tables' games are not created (a game's creation, seating and
start is the lobby's cost, the same as any game's). Figures, medians of `--runs` fresh stores,
as JSON lines on stdout (`{"benchmark": "pool.<name>", ...}`) and a summary on stderr:

* pool.first_pass: the pass that forms the tables (expire, repair, read, match, claim: one
  SQLite transaction for the pass's claims), their openings apart;
* pool.mark_started: then marking each table's seeks started after its game opened (one
  write, so one sync to disk, a table);
* pool.next_pass: the pass after, over the seeks left (an account at one table a pass: its
  other seeks may fit now).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.pool.records import SeekRecord  # noqa: E402
from api.pool.service import Pool  # noqa: E402
from api.ratings.records import speed_of  # noqa: E402
from api.stores.sqlite_ratings import SqliteRatingStore  # noqa: E402
from api.stores.sqlite_seeks import SqliteSeekStore  # noqa: E402
from benchmarks.competition import NOW, realistic_pool  # noqa: E402
from competition.matchmaking import Kind  # noqa: E402

CLOCKS = {
    "1d": {"turn_seconds": 86400.0},
    "3d": {"turn_seconds": 259200.0},
    "10+5": {"bank_seconds": 600.0, "increment_seconds": 5.0},
}


class Tables:
    """Creates no game: the benchmark times the pass's claims and marks, not the lobby."""

    async def open_table(self, table: str, seeks: Sequence[SeekRecord]) -> None:
        pass


def records(count: int) -> list[SeekRecord]:
    return [
        SeekRecord(
            id=seek.id,
            account=seek.account,
            name=seek.account,
            bot=seek.kind is Kind.BOT,
            variant=seek.variant,
            players=seek.players,
            clock=CLOCKS[seek.speed],
            speed=speed_of(CLOCKS[seek.speed]).value,
            rated=seek.rated,
            opponents=seek.opponents.value,
            rating=seek.rating,
            created=seek.created,
            expires=seek.created + 86400.0,
        )
        for seek in realistic_pool(count, random.Random(3))
    ]


async def one_run(count: int) -> tuple[float, float, float, int, int]:
    """The milliseconds of the first pass, of its marks and of the next pass, the first
    pass's tables and the seeks they seat."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "risiko.sqlite3"
        seeks, ratings = SqliteSeekStore(path), SqliteRatingStore(path)
        await seeks.open()
        await ratings.open()
        for record in records(count):
            await seeks.add(record, count)
        tables = Tables()
        pool = Pool(seeks, ratings, tables, now=lambda: NOW)
        start = time.perf_counter()
        claimed = await pool.claim_tables(NOW)
        first = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        for table, _ in claimed:
            await seeks.mark_started(table)
        marks = (time.perf_counter() - start) * 1000
        seated = sum(len(members) for _, members in claimed)
        start = time.perf_counter()
        await pool.claim_tables(NOW)
        following = (time.perf_counter() - start) * 1000
        await seeks.close()
        await ratings.close()
        return first, marks, following, len(claimed), seated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeks", type=int, default=10_000, help="seeks in the pool")
    parser.add_argument("--runs", type=int, default=3, help="fresh stores timed (median)")
    args = parser.parse_args()
    runs = [asyncio.run(one_run(args.seeks)) for _ in range(args.runs)]
    first, marks, following = (statistics.median(run[i] for run in runs) for i in range(3))
    tables, seated = runs[0][3], runs[0][4]
    for name, ms in (("first_pass", first), ("mark_started", marks), ("next_pass", following)):
        figures = {"seeks": args.seeks, "ms": round(ms, 1), "tables": tables, "seated": seated}
        print(json.dumps({"benchmark": f"pool.{name}", **figures}), flush=True)
    print(
        f"pool of {args.seeks} seeks on SQLite: first pass {first:.0f} ms ({tables} tables, "
        f"{seated} seeks seated), marking them started {marks:.0f} ms, next pass "
        f"{following:.0f} ms",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
