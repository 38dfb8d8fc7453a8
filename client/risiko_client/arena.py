"""The arena behind `risiko arena`: bots play whole games against each other through the real
HTTP and WebSocket API, on a server of their own (a child `risiko serve`) or a given one.

Options of the game are given by name (`options`, as Variant.options lists them: S.P.Q.RisiKo!'s
victory_points, …), over the variant's defaults; the round limit still cuts long games. Each
bot is found by what the game plays (Variant.actionKinds, risiko_client.bots.make_bot).

Games are reproducible: game k of seed S is created with the seed "arena-S-k" and each bot
draws its own random numbers from a seed of its own, so the same command gives the same games.
With `duplicate`, each deal is replayed once per rotation of the seats, so that every bot gets
every seat's dice and cards once and luck cancels out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import httpx

from risiko_client.api import GameState, RisikoClient
from risiko_client.arena_ladder import add_ladder_arguments, other_mode
from risiko_client.arena_report import GameResult, format_report, report
from risiko_client.arena_seating import (
    GUESTS,
    Seating,
    check_seating,
    read_credentials,
    seating_of,
)
from risiko_client.arena_tournament import add_tournament_arguments
from risiko_client.bots import BOTS, Bot, PlayStats, bot_class, play
from risiko_client.options import option_argument

SERVER = "server-"  # a bot name with this prefix is a bot the server plays (addBot)
SERVER_POLICIES = ("odds", "random")

ROUND_LIMIT = 60


@contextlib.contextmanager
def local_server(timeout: float = 30.0) -> Iterator[str]:
    """`risiko serve` in a child process on a free loopback port, with a temporary data
    folder (the embedded store); yields its GraphQL URL and stops it at the end."""
    import socket

    with tempfile.TemporaryDirectory(prefix="risiko-arena-") as folder:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        env = {**os.environ, "RISIKO_DATA_DIR": str(Path(folder) / "data")}
        env |= {"RISIKO_LOG_LEVEL": "warning", "RISIKO_GRAPHIQL": "false"}
        env.pop("RISIKO_STORE", None)
        log = Path(folder) / "server.log"
        with log.open("wb") as errors:
            process = subprocess.Popen(
                [sys.executable, "-m", "api.cli", "serve", "--port", str(port)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=errors,
            )
        try:
            deadline = time.monotonic() + timeout
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"the server exited: {log.read_text()}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).is_success:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not become ready")
                time.sleep(0.1)
            yield f"http://127.0.0.1:{port}/graphql"
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def play_game(
    url: str,
    variant: str,
    seats: list[str],
    number: int,
    seed: str,
    bot_seeds: list[str],
    round_limit: int = ROUND_LIMIT,
    options: Mapping[str, Any] | None = None,
    seating: Seating = GUESTS,
) -> GameResult:
    """Create a game, seat one bot per name, start it and let every bot play to the end.
    `options`: by name (Variant.options), over the variant's defaults."""
    started = time.perf_counter()
    given: dict[str, Any] = {"roundLimit": round_limit}
    given |= {to_camel(name): value for name, value in (options or {}).items()}
    async with RisikoClient(url) as lobby:
        kinds = await lobby.action_kinds(variant)
        game_id = await lobby.create_game(variant, given, seed, admission=seating.admission)
        tokens = await _seat(lobby, game_id, seats, seating)
        clients = {i: lobby.with_token(token) for i, token in enumerate(tokens) if token}
        try:
            await next(iter(clients.values())).start_game(game_id)
            bots = {i: bot_class(seats[i], kinds)(bot_seeds[i]) for i in clients}
            async with asyncio.TaskGroup() as group:  # one failing bot stops the others
                tasks = {
                    i: group.create_task(play(bots[i], client, game_id))
                    for i, client in clients.items()
                }
                group.create_task(_until_over(lobby, game_id))
            final = await lobby.game(game_id)
        finally:
            for client in clients.values():
                await client.close()
    stats = [tasks[i].result() if i in tasks else PlayStats() for i in range(len(seats))]
    return _result(number, seed, seats, final, stats, time.perf_counter() - started)


def _result(
    number: int,
    seed: str,
    seats: list[str],
    final: GameState,
    stats: list[PlayStats],
    seconds: float,
) -> GameResult:
    """The game's result, from the game as it ended (`final`) and what each seat did."""
    outcome = final.outcome or {}
    ranking = outcome.get("ranking") or []
    return GameResult(
        number=number,
        seed=seed,
        seats=list(seats),
        winner=outcome.get("winner"),
        reason=outcome.get("reason", "unfinished"),
        firsts=[entry["seat"] for entry in ranking if entry["rank"] == 1],
        points=[player.get("victoryPoints") or 0 for player in final.players],
        round=final.round,
        stats=stats,
        seconds=seconds,
    )


def to_camel(name: str) -> str:
    """An option's name (victory_points) as GameOptionsInput spells it (victoryPoints)."""
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)


async def _seat(
    lobby: RisikoClient, game_id: str, seats: list[str], seating: Seating
) -> list[str | None]:
    """Seat one bot per name, in the order given; the seat tokens of those that play through
    the API (a bot account's: its own credential). Those the server plays (server-…) are
    added by a seated player: the first bot seated before, or, for the first seat, a host who
    takes it and leaves before the start (the seats after it move up one). The arena's games
    are seeded, to be reproducible: it knows, having chosen the seed."""
    async with contextlib.AsyncExitStack() as stack:
        adder = host = None
        if seats[0].startswith(SERVER):
            hosting = await lobby.join_game(game_id, "host", accept_chosen_seed=True)
            host = adder = await stack.enter_async_context(lobby.with_token(hosting.token))
        tokens: list[str | None] = []
        for i, name in enumerate(seats):
            if name.startswith(SERVER):
                assert adder is not None
                await adder.add_bot(game_id, name.removeprefix(SERVER).upper(), f"{name}-{i}")
                tokens.append(None)
                continue
            credential = seating.credential(i)
            joiner = lobby
            if credential is not None:  # a bot account: seated, and named, as itself
                joiner = await stack.enter_async_context(lobby.with_token(credential))
            guest = None if credential else f"{name}-{i}"
            seat = await joiner.join_game(game_id, guest, accept_chosen_seed=True)
            tokens.append(seat.token)
            if adder is None:
                adder = await stack.enter_async_context(lobby.with_token(seat.token))
        if host is not None:
            await host.leave_game(game_id)
    return tokens


async def _until_over(lobby: RisikoClient, game_id: str) -> None:
    """Until the game has ended (the server's own bots may play the last moves)."""
    async for _ in lobby.events(game_id):
        pass


def schedule(bots: list[str], games: int, seed: int, duplicate: bool) -> list[tuple[Any, ...]]:
    """(game seed, bot names by seat, bot seeds by seat, the bots' places in `bots` by seat)
    of every game, in playing order."""
    plan = []
    for deal in range(games):
        game_seed = f"arena-{seed}-{deal}"
        bot_seeds = [f"{seed}-{deal}-{i}" for i in range(len(bots))]
        for shift in range(len(bots) if duplicate else 1):
            order = [(i + shift) % len(bots) for i in range(len(bots))]
            names, seeds = [bots[i] for i in order], [bot_seeds[i] for i in order]
            plan.append((game_seed, names, seeds, order))
    return plan


class Progress:
    """A one-line progress bar on a stream (stderr)."""

    def __init__(
        self, total: int, stream: TextIO | None, width: int = 30, label: str = "arena"
    ) -> None:
        self.total, self.stream, self.width, self.label = total, stream, width, label
        self.started = time.perf_counter()

    def show(self, done: int, note: str = "") -> None:
        if self.stream is None:
            return
        filled = self.width * done // max(self.total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = time.perf_counter() - self.started
        line = f"{self.label} [{bar}] {done}/{self.total} games {elapsed:6.1f} s {note}"
        self.stream.write("\r" + line.ljust(100))
        self.stream.flush()

    def end(self) -> None:
        if self.stream is not None:
            self.stream.write("\n")


async def _run(
    url: str,
    variant: str,
    plan: list[tuple[Any, ...]],
    round_limit: int,
    parallel: int,
    progress: Progress,
    options: Mapping[str, Any] | None = None,
    seating: Seating = GUESTS,
) -> list[GameResult]:
    """Every game of the plan, `parallel` at a time; the results in the plan's order.
    `seating.credentials` are by the bots' places in the list: each follows its bot."""
    slots = asyncio.Semaphore(parallel)
    done = 0
    progress.show(0)

    async def one(
        number: int, game_seed: str, seats: list[str], bot_seeds: list[str], order: list[int]
    ) -> GameResult:
        nonlocal done
        by_seat = Seating([seating.credential(i) for i in order], seating.admission)
        async with slots:
            result = await play_game(
                url, variant, seats, number, game_seed, bot_seeds, round_limit, options, by_seat
            )
        done += 1
        progress.show(done, f"(last: {result.actions} actions, round {result.round})")
        return result

    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(one(number, *game)) for number, game in enumerate(plan)]
    return [task.result() for task in tasks]


def run_arena(
    bots: list[str],
    games: int,
    seed: int = 0,
    *,
    variant: str = "classic",
    server: str | None = None,
    duplicate: bool = False,
    round_limit: int = ROUND_LIMIT,
    options: Mapping[str, Any] | None = None,
    parallel: int = 1,
    progress: TextIO | None = None,
    seating: Seating = GUESTS,
) -> dict[str, Any]:
    """Play the games and return the report (see `report`). `options`: the game's, by name
    (Variant.options: S.P.Q.RisiKo!'s victory_points, …), over the variant's defaults."""
    _check_names(bots, games, parallel)
    check_seating(bots, seating, SERVER)
    plan = schedule(bots, games, seed, duplicate)
    _check_plan(plan, seating)
    with contextlib.ExitStack() as stack:
        url = server or stack.enter_context(local_server())
        _check_bots(url, variant, bots)  # a bot that cannot play this game fails before any
        bar = Progress(len(plan), progress)
        started = time.perf_counter()
        try:
            results = asyncio.run(
                _run(url, variant, plan, round_limit, parallel, bar, options, seating)
            )
        except BaseExceptionGroup as group:  # the task groups': raise the first error itself
            error: BaseException = group
            while isinstance(error, BaseExceptionGroup):
                error = error.exceptions[0]
            raise error from None
        finally:
            bar.end()
        seconds = time.perf_counter() - started
    settings = {"variant": variant, "bots": bots, "seed": seed, "duplicate": duplicate}
    settings |= {"round_limit": round_limit, "options": dict(options or {})}
    settings |= {"parallel": parallel, "server": server}
    accounts = sum(1 for credential in seating.credentials if credential)  # never the tokens
    settings |= {"bot_accounts": accounts, "admission": seating.admission}
    return settings | report(results, seconds)


def _check_names(bots: list[str], games: int, parallel: int) -> None:
    """ValueError, before any game, for a bot nobody knows or counts that cannot be."""
    for name in bots:
        if name.startswith(SERVER) and name.removeprefix(SERVER) not in SERVER_POLICIES:
            known = ", ".join(SERVER + policy for policy in SERVER_POLICIES)
            raise ValueError(f"no server bot {name!r} (known: {known})")
        if not name.startswith(SERVER) and name not in BOTS:
            raise ValueError(f"no bot {name!r} (known: {', '.join(sorted(BOTS))})")
    if all(name.startswith(SERVER) for name in bots):
        raise ValueError("the arena needs at least one bot that plays through the API")
    if games < 1 or parallel < 1:
        raise ValueError("--games and --parallel must be at least 1")


def _check_plan(plan: list[tuple[Any, ...]], seating: Seating) -> None:
    """ValueError when a game for accounts only would need a guest host: the server's bots
    are seated by a player already at the table."""
    admission = seating.admission or {}
    guests_refused = admission.get("accountsRequired") or admission.get("admits") == "BOTS"
    if guests_refused and any(names[0].startswith(SERVER) for _, names, *_ in plan):
        raise ValueError(
            "in a game for accounts only, a bot that plays through the API takes the first "
            "seat, to seat the server's bots (with --duplicate, every bot takes it once)"
        )


def _check_bots(url: str, variant: str, bots: list[str]) -> None:
    """Every bot named plays the game (ValueError), asked of the server's catalogue."""

    async def kinds() -> frozenset[str]:
        async with RisikoClient(url) as client:
            return await client.action_kinds(variant)

    known = asyncio.run(kinds())
    for name in bots:
        if not name.startswith(SERVER):
            bot_class(name, known)


def bots_help() -> str:
    """The bots the arena knows, from the registries: those that play through the API (BOTS,
    each with the actions it needs a game to have), and those the server plays (its
    policies)."""
    ours = "; ".join(
        f"{name}: {', '.join(plays_help(cls) for cls in classes)}" for name, classes in BOTS.items()
    )
    theirs = ", ".join(SERVER + policy for policy in SERVER_POLICIES)
    return (
        "one bot per seat, comma-separated. Bots that play through the API, by name, each "
        f"for the games with the actions it needs (Variant.actionKinds): {ours}. Bots the "
        f"server plays (addBot), any variant: {theirs}"
    )


def plays_help(cls: type[Bot]) -> str:
    return f"{cls.__name__} ({', '.join(sorted(cls.plays)) or 'any game'})"


def add_arguments(parser: argparse.ArgumentParser, variants: Sequence[str] | None) -> None:
    """The arena's options, for `risiko arena` and `python -m risiko_client.arena` alike
    (`variants`: the choices, when the caller knows them; the server refuses others)."""
    parser.add_argument(
        "--variant", default="classic", choices=variants, help="the game (default: classic)"
    )
    parser.add_argument("--bots", default="random,odds,odds,random", help=bots_help())
    parser.add_argument("--games", type=int, default=8, help="games (deals, with --duplicate)")
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help='the same seed plays the same games (game k of seed S is dealt by "arena-S-k")',
    )
    parser.add_argument("--server", help="GraphQL URL of a server (default: start one)")
    parser.add_argument("--duplicate", action="store_true", help="replay each deal, seats rotated")
    parser.add_argument(
        "--round-limit", type=int, default=ROUND_LIMIT, help="rounds before a game ends"
    )
    parser.add_argument(
        "--option",
        type=option_argument,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set an option of the game by its name in Variant.options (victory_points=6, …; "
        "again for another); a VALUE in JSON, or else text",
    )
    parser.add_argument("--parallel", type=int, default=1, help="games played at the same time")
    parser.add_argument(
        "--tokens",
        type=Path,
        metavar="FILE",
        help="bot accounts: a file of personal API tokens (GAMES_READ and GAMES_PLAY), one a "
        "line, for the bots of --bots in their order; a bot with one joins as its account "
        "(an empty line: as a guest)",
    )
    parser.add_argument(
        "--admits",
        choices=("anyone", "people", "bots"),
        default="anyone",
        help="who the games admit (bots: bot accounts only, and the server's bots)",
    )
    parser.add_argument(
        "--accounts-only", action="store_true", help="the games admit accounts only, no guest"
    )
    parser.add_argument(
        "--json", action="store_true", help="the report as JSON on stdout, no progress bar"
    )
    add_tournament_arguments(parser)
    add_ladder_arguments(parser)


def run_command(args: argparse.Namespace, name: str) -> int:
    """Play what the parsed options ask and print the report; `name` prefixes an error."""
    from gql.transport.exceptions import TransportError

    from risiko_client.api import ApiError
    from risiko_client.bots import BotError

    bots = [bot.strip() for bot in args.bots.split(",") if bot.strip()]
    run, shown = other_mode(args) or (_run_games, format_report)
    try:
        data = run(args, bots)
    except (ApiError, BotError, TransportError, OSError, ValueError) as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 2
    print(json.dumps(data, indent=2) if args.json else shown(data))
    return 0


def _run_games(args: argparse.Namespace, bots: list[str]) -> dict[str, Any]:
    """The arena's games, as the options ask."""
    return run_arena(
        bots,
        args.games,
        args.seed,
        variant=args.variant,
        server=args.server,
        duplicate=args.duplicate,
        round_limit=args.round_limit,
        options=dict(args.option),
        parallel=args.parallel,
        progress=None if args.json else sys.stderr,
        seating=seating_of(args),
    )


def build_parser() -> argparse.ArgumentParser:
    """The parser of `python -m risiko_client.arena`: `risiko arena`'s options."""
    parser = argparse.ArgumentParser(
        prog="python -m risiko_client.arena",
        description="Bots play whole games against each other through the real HTTP and "
        "WebSocket API (the same as `risiko arena`).",
    )
    add_arguments(parser, None)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m risiko_client.arena`: what `risiko arena` does."""
    return run_command(build_parser().parse_args(argv), "arena")


__all__ = [
    "BOTS",
    "GameResult",
    "Seating",
    "add_arguments",
    "build_parser",
    "format_report",
    "local_server",
    "main",
    "play_game",
    "read_credentials",
    "run_arena",
    "run_command",
]


if __name__ == "__main__":
    sys.exit(main())
