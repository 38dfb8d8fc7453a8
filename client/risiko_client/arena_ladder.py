"""`risiko arena --ladder`: the arena's bots play the server's bots' ladder as bot accounts.
Each account of `--tokens` (a line: its token, then optionally the bot that plays it; else the
bots of `--bots` in turn) joins the ladder (`joinLadder`) and follows its account stream
(`seatEvents` with its own credential); every game the server seats it in shows there, and the
bot plays it through the API with the account's credential. Once `--games` ladder games have
ended (or `--minutes` have passed) every account leaves the ladder, the games in play are
played to their end, and the bots' leaderboard is printed (provisional ratings too)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from risiko_client.api import RisikoClient
from risiko_client.arena_tournament import format_standings, run_tournament
from risiko_client.bots import bot_class, play
from risiko_client.transport import checked

Json = dict[str, Any]

LADDER = "ladder { joined variant speed games }"
JOIN = f"mutation {{ joinLadder(input: {{}}) {{ {LADDER} userErrors {{ code message }} }} }}"
LEAVE = f"mutation {{ leaveLadder(input: {{}}) {{ {LADDER} userErrors {{ code message }} }} }}"
MINE = f"{{ me {{ name bot {LADDER} }} }}"
BOARD = """query($v: String!, $s: Speed!, $after: String) {
  leaderboard(variant: $v, speed: $s, bots: true, provisional: true, first: 100, after: $after) {
    edges { node { place account { name } rating { rating mu sigma games provisional } } }
    pageInfo { hasNextPage endCursor } } }"""
Run = Callable[[argparse.Namespace, list[str]], Json]
FINISH_SECONDS = 600.0  # how long the games in play may take once the ladder is left


@dataclass(frozen=True)
class LadderPlan:
    """How long the arena plays the ladder: `games` ladder games ended, or `minutes`."""

    games: int = 12
    minutes: float | None = None
    seed: int = 0


@dataclass(frozen=True)
class Entrant:
    """A bot account of the ladder and the bot that plays it."""

    token: str
    kind: str


@dataclass
class _Arena:
    plan: LadderPlan
    kinds: frozenset[str]
    ended: set[str] = field(default_factory=set)
    started: set[tuple[str, str]] = field(default_factory=set)
    enough: asyncio.Event = field(default_factory=asyncio.Event)
    playing: set[asyncio.Task[None]] = field(default_factory=set)

    def seat(self, name: str, entrant: Entrant, client: RisikoClient, game: str) -> None:
        """Play `game` for the account `name` (once, however often it shows)."""
        if (name, game) in self.started:
            return
        self.started.add((name, game))
        task = asyncio.create_task(self._play(name, entrant, client, game))
        self.playing.add(task)
        task.add_done_callback(self.playing.discard)

    async def _play(self, name: str, entrant: Entrant, client: RisikoClient, game: str) -> None:
        bot = bot_class(entrant.kind, self.kinds)(f"ladder-{self.plan.seed}-{name}-{game}")
        await play(bot, client, game)
        self.ended.add(game)
        if len(self.ended) >= self.plan.games:
            self.enough.set()

    async def follow(self, name: str, entrant: Entrant, client: RisikoClient) -> None:
        """The account's stream: each game the server seats it in, played."""
        async for notice in client.seat_events():
            self.seat(name, entrant, client, notice["gameId"])


def read_entrants(path: Path, bots: Sequence[str]) -> list[Entrant]:
    """The accounts of a file: a token a line, then the bot that plays it (else --bots in
    turn). Tokens are never arguments: a command line is seen by every user of the machine."""
    entrants: list[Entrant] = []
    for line in path.read_text().splitlines():
        words = line.split()
        if words:
            kind = words[1] if len(words) > 1 else bots[len(entrants) % len(bots)]
            entrants.append(Entrant(words[0], kind))
    return entrants


async def play_ladder(url: str, entrants: Sequence[Entrant], plan: LadderPlan) -> Json:
    """Join the ladder with every account, play what it seats them in, then leave; the
    leaderboard of the ladder's game and speed, with each account's bot."""
    async with contextlib.AsyncExitStack() as stack:
        host = await stack.enter_async_context(RisikoClient(url))
        arena = _Arena(plan, await host.action_kinds("classic"))
        for kind in {entrant.kind for entrant in entrants}:
            bot_class(kind, arena.kinds)  # an unknown bot is refused before anything is done
        clients: dict[str, tuple[Entrant, RisikoClient]] = {}
        for entrant in entrants:
            client = await stack.enter_async_context(host.with_token(entrant.token))
            mine = (await client.query(MINE))["me"]
            if mine is None or not mine["bot"]:
                raise ValueError("a token of --tokens is no bot account's credential")
            clients[mine["name"]] = (entrant, client)
        followers = [
            asyncio.create_task(arena.follow(name, entrant, client))
            for name, (entrant, client) in clients.items()
        ]
        try:
            ladder = await _join(arena, clients)
            timeout = None if plan.minutes is None else plan.minutes * 60
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(arena.enough.wait(), timeout)
            for _, client in clients.values():
                checked((await client.execute(LEAVE))["leaveLadder"])
            await _finish(arena)
        finally:
            for task in [*followers, *arena.playing]:
                task.cancel()
            await asyncio.gather(*followers, *arena.playing, return_exceptions=True)
        board = await leaderboard(host, ladder["variant"], ladder["speed"])
    kinds = {name: entrant.kind for name, (entrant, _) in clients.items()}
    return {"variant": ladder["variant"], "speed": ladder["speed"], "games": len(arena.ended)} | {
        "leaderboard": [row | {"bot": kinds.get(row["name"])} for row in board]
    }


async def _join(arena: _Arena, clients: dict[str, tuple[Entrant, RisikoClient]]) -> Json:
    """Every account joins; the games it already sits in (from before its stream) are played."""
    ladder: Json = {}
    await asyncio.sleep(0.5)  # the streams subscribed before the first game can be made
    for name, (entrant, client) in clients.items():
        ladder = checked((await client.execute(JOIN))["joinLadder"])["ladder"]
        for game in ladder["games"]:
            arena.seat(name, entrant, client, game)
    return ladder


async def _finish(arena: _Arena) -> None:
    """The games in play, played to their end (the clock ends an abandoned one)."""
    deadline = time.monotonic() + FINISH_SECONDS
    while arena.playing and time.monotonic() < deadline:
        await asyncio.wait(set(arena.playing), timeout=deadline - time.monotonic())
    await asyncio.sleep(1.0)  # each game is rated just after its last commit


async def leaderboard(host: RisikoClient, variant: str, speed: str) -> list[Json]:
    """The bots' leaderboard of `variant` and `speed`, provisional ratings too, best first."""
    rows: list[Json] = []
    after = None
    while True:
        page = (await host.query(BOARD, {"v": variant, "s": speed, "after": after}))["leaderboard"]
        for edge in page["edges"]:
            node = edge["node"]
            rows.append({"place": node["place"], "name": node["account"]["name"]} | node["rating"])
        if not page["pageInfo"]["hasNextPage"]:
            return rows
        after = page["pageInfo"]["endCursor"]


def format_leaderboard(data: Json) -> str:
    """The leaderboard as a table, best first."""
    lines = [f"Bots' ladder, {data['variant']} {data['speed']}: {data['games']} games played"]
    lines.append(f"{'place':>5}  {'name':<20} {'bot':<12} {'rating':>7} {'games':>5}")
    for row in data["leaderboard"]:
        mark = "?" if row["provisional"] else " "
        lines.append(
            f"{row['place']:>5}  {row['name']:<20} {row['bot'] or '':<12} "
            f"{row['rating']:>6}{mark} {row['games']:>5}"
        )
    return "\n".join(lines)


def add_ladder_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `risiko arena --ladder`."""
    parser.add_argument(
        "--ladder",
        action="store_true",
        help="play the server's bots' ladder with the bot accounts of --tokens (a line: a "
        "token, then optionally its bot; else the bots of --bots in turn) until --games "
        "ladder games have ended or --minutes have passed; then print the leaderboard",
    )
    parser.add_argument("--minutes", type=float, help="with --ladder: the most it plays")


def run_ladder(args: argparse.Namespace, bots: list[str]) -> Json:
    """What `risiko arena --ladder` asks, from the parsed options."""
    if args.server is None or args.tokens is None:
        raise ValueError("--ladder needs --server and --tokens")
    plan = LadderPlan(args.games, args.minutes, args.seed)
    return asyncio.run(play_ladder(args.server, read_entrants(args.tokens, bots), plan))


def other_mode(args: argparse.Namespace) -> tuple[Run, Callable[[Json], str]] | None:
    """What the arena plays other than its own games, and how its result is shown:
    `--ladder` or `--tournament`; None for neither."""
    if getattr(args, "ladder", False):
        return run_ladder, format_leaderboard
    if getattr(args, "tournament", False):
        return run_tournament, format_standings
    return None
