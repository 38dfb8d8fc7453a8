"""`risiko arena --tournament`: the arena's bots play a whole tournament on a server, as bot
accounts. With the organiser's credential (TOURNAMENTS_ORGANISE) it creates a tournament for
bots, registers every bot account of `--tokens`, closes the registration and starts each round
in turn; at each table, every seated account is played by a bot of `--bots` (in turn, account by
account) through the API, with the account's own credential acting in its seat. When a round's
games are over the next one starts; at the end it prints the final standings.

A tournament's games are the tournament's: its rules and its time limit (`--time-limit`, in
minutes), no round limit; the time limit is what keeps them short."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from risiko_client.accounts import me
from risiko_client.api import RisikoClient
from risiko_client.arena_seating import read_credentials
from risiko_client.bots import bot_class, play
from risiko_client.transport import checked

Json = dict[str, Any]

PAYLOAD = "{ tournament { id roundsPlayed { tables { gameId players { name } } } } "
PAYLOAD += "userErrors { code message } }"
CREATE = f"mutation($i: CreateTournamentInput!) {{ createTournament(input: $i) {PAYLOAD} }}"
REGISTER = f"mutation($t: ID!) {{ registerForTournament(input: {{tournamentId: $t}}) {PAYLOAD} }}"
CLOSE = f"""mutation($t: ID!) {{
  closeTournamentRegistration(input: {{tournamentId: $t}}) {PAYLOAD} }}"""
START = f"""mutation($t: ID!, $r: Int!) {{
  startTournamentRound(input: {{tournamentId: $t, round: $r}}) {PAYLOAD} }}"""
READ = """query($t: ID!) { tournament(id: $t) { id name status
  standings { place account { name } games points objectives opponentsPoints bestGame } } }"""


@dataclass(frozen=True)
class TournamentPlan:
    """What the arena's tournament is: its rounds, tables, time limit and the bots' kinds."""

    bots: Sequence[str]
    rounds: int = 2
    table_size: int = 4
    time_limit_minutes: int = 1
    seed: int = 0
    name: str = "Arena"


async def play_tournament(
    url: str, organiser: str, tokens: Sequence[str], plan: TournamentPlan
) -> Json:
    """Create, fill and play a tournament of the bot accounts of `tokens`; its final state."""
    async with RisikoClient(url, organiser) as host:
        closes = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        settings = {"name": plan.name, "rounds": plan.rounds, "registrationClosesAt": closes}
        settings |= {"tableSize": plan.table_size, "admits": "BOTS"}
        settings["timeLimitMinutes"] = plan.time_limit_minutes
        made = checked((await host.execute(CREATE, {"i": settings}))["createTournament"])
        tid = made["tournament"]["id"]
        accounts = {}
        for token in tokens:
            async with host.with_token(token) as bot:
                account = await me(bot)
                if account is None:
                    raise ValueError("a token of --tokens is no account's credential")
                accounts[account["name"]] = token
                checked((await bot.execute(REGISTER, {"t": tid}))["registerForTournament"])
        checked((await host.execute(CLOSE, {"t": tid}))["closeTournamentRegistration"])
        kinds = await host.action_kinds("classic")
        for number in range(1, plan.rounds + 1):
            started = checked(
                (await host.execute(START, {"t": tid, "r": number}))["startTournamentRound"]
            )
            tables = started["tournament"]["roundsPlayed"][-1]["tables"]
            await _play_round(host, tables, accounts, kinds, plan, number)
        final: Json = (await host.query(READ, {"t": tid}))["tournament"]
    return _report(final)


async def _play_round(
    host: RisikoClient,
    tables: list[Json],
    accounts: dict[str, str],
    kinds: frozenset[str],
    plan: TournamentPlan,
    number: int,
) -> None:
    """Every seat of every table played by a bot with its account's credential, to the end."""
    # the bots' tasks end (the TaskGroup) before their clients close (the stack)
    async with contextlib.AsyncExitStack() as stack, asyncio.TaskGroup() as group:
        turn = 0
        for table, entry in enumerate(tables, start=1):
            for seat, player in enumerate(entry["players"]):
                kind = plan.bots[turn % len(plan.bots)]
                turn += 1
                seed = f"tournament-{plan.seed}-{number}-{table}-{seat}"
                bot = bot_class(kind, kinds)(seed)
                token = accounts[player["name"]]
                client = await stack.enter_async_context(host.with_token(token))
                group.create_task(play(bot, client, entry["gameId"]))


def _report(final: Json) -> Json:
    standings = [
        {
            "place": row["place"],
            "name": (row["account"] or {}).get("name"),
            **{key: row[key] for key in ("games", "points", "objectives", "opponentsPoints")},
            "bestGame": row["bestGame"],
        }
        for row in final["standings"]
    ]
    return {"tournament": final["id"], "name": final["name"], "status": final["status"]} | {
        "standings": standings
    }


def format_standings(data: Json) -> str:
    """The final standings as a table, first place first."""
    lines = [f"Tournament {data['name']} ({data['tournament']}): {data['status']}"]
    lines.append(f"{'place':>5}  {'name':<20} {'games':>5} {'points':>6} {'obj':>4} {'opp':>5}")
    for row in data["standings"]:
        name = row["name"] or "(deleted)"
        lines.append(
            f"{row['place']:>5}  {name:<20} {row['games']:>5} {row['points']:>6} "
            f"{row['objectives']:>4} {row['opponentsPoints']:>5}"
        )
    return "\n".join(lines)


def add_tournament_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `risiko arena --tournament`."""
    parser.add_argument(
        "--tournament",
        action="store_true",
        help="play a tournament of the bot accounts of --tokens on --server (the bots of "
        "--bots play their seats in turn); needs --organiser-token",
    )
    parser.add_argument(
        "--organiser-token",
        type=Path,
        metavar="FILE",
        help="with --tournament: a file holding the organiser's token (TOURNAMENTS_ORGANISE)",
    )
    parser.add_argument("--rounds", type=int, default=2, help="with --tournament: its rounds")
    parser.add_argument("--table-size", type=int, default=4, help="with --tournament: 3 to 6")
    parser.add_argument(
        "--time-limit", type=int, default=1, help="with --tournament: each game's minutes"
    )


def run_tournament(args: argparse.Namespace, bots: list[str]) -> Json:
    """What `risiko arena --tournament` asks, from the parsed options."""
    if args.server is None or args.tokens is None or args.organiser_token is None:
        raise ValueError("--tournament needs --server, --tokens and --organiser-token")
    tokens = [token for token in read_credentials(args.tokens) if token]
    organiser = args.organiser_token.read_text().strip()
    plan = TournamentPlan(bots, args.rounds, args.table_size, args.time_limit, args.seed)
    return asyncio.run(play_tournament(args.server, organiser, tokens, plan))
