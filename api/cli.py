"""The `risiko` command: the engine from the shell."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from api.accounts.cli import add_account_commands
from api.server_cli import add_server_commands
from bots.policies import POLICIES
from bots.simulate import simulate
from domain.errors import RisikoError
from domain.odds import TieRule, battle_odds
from variants import VARIANTS, get_variant


def _board(args: argparse.Namespace) -> int:
    board = get_variant(args.variant).ruleset.board
    if args.json:
        print(json.dumps(board.to_data(), ensure_ascii=False, indent=2))
        return 0
    print(f"{board.name}: {len(board.territories)} territories, {len(board.edges)} borders")
    if board.version:
        print(f"board version {board.version} (docs/{args.variant}.md says what is reconstructed)")
    groups = [
        (f"{region.name} (+{region.bonus})", [board.territory(t) for t in region.territories])
        for region in board.regions
    ]
    if not groups:  # a board without regions: its provinces, then its sea areas
        groups = [("Provinces", list(board.lands)), ("Sea areas", list(board.seas))]
    for title, territories in groups:
        print(f"\n{title}")
        for territory in territories:
            names = ", ".join(board.territories[n].name for n in board.neighbours[territory.index])
            print(f"  {territory.name:<26} {territory.id:<26} borders {names}")
    return 0


def _odds(args: argparse.Namespace) -> int:
    # --naval: S.P.Q.RisiKo! naval combat, ties remove nothing and a roll removing nobody
    # ends the battle; A is then every attacking trireme (no garrison at sea).
    odds = battle_odds(
        args.attackers,
        args.defenders,
        max_attacker_dice=args.attacker_dice,
        max_defender_dice=args.defender_dice,
        tie_rule=TieRule.NO_LOSS if args.naval else TieRule(args.ties or "defender_wins"),
        attacker_bonus=args.attacker_bonus,
        defender_bonus=args.defender_bonus,
        stop_at=args.stop_at,
        stop_on_no_loss=args.naval,
    )
    if args.json:
        print(json.dumps(odds.to_dict(), indent=2))
        return 0
    if args.naval:
        units = "triremes"
        print(
            f"{args.attackers} attacking triremes against {args.defenders} "
            "(naval combat: it stops at the first roll that removes no trireme)"
        )
    else:
        units = "armies"
        print(
            f"{args.attackers} attacking armies (the territory holds {args.attackers + 1}) "
            f"against {args.defenders}"
        )
    print(f"conquest probability      {odds.conquest_probability:.6f}")
    print(f"expected attacker losses  {odds.expected_attacker_losses:.4f}")
    print(f"expected defender losses  {odds.expected_defender_losses:.4f}")
    print(f"attacking {units} left".ljust(26) + _distribution(odds.attacker_survivors))
    print(f"defending {units} left".ljust(26) + _distribution(odds.defender_survivors))
    return 0


def _player_ranges() -> str:
    """Each game's number of players, from its rules."""
    return ", ".join(
        f"{name} {v.ruleset.min_players} to {v.ruleset.max_players}"
        for name, v in sorted(VARIANTS.items())
    )


def _option_names() -> str:
    """Each game's options by name, from its options class."""
    return "; ".join(
        f"{name}: {', '.join(v.options_class.settable())}" for name, v in sorted(VARIANTS.items())
    )


def _option(text: str) -> tuple[str, Any]:
    """NAME=VALUE (read as the arena reads it: risiko_client, imported only when given)."""
    from risiko_client.options import option_argument

    return option_argument(text)


def _distribution(values: Sequence[float]) -> str:
    shown = [f"{k}:{p:.4f}" for k, p in enumerate(values) if p >= 0.00005]
    return " ".join(shown)


def _simulate(args: argparse.Namespace) -> int:
    from risiko_client.arena import Progress

    shown = args.progress if args.progress is not None else sys.stderr.isatty() and not args.json
    bar = Progress(args.games, sys.stderr if shown else None, label="simulate")
    report = simulate(
        variant=args.variant,
        players=args.players,
        games=args.games,
        seed=args.seed,
        policy=args.policy,
        round_limit=args.round_limit,
        options=dict(args.option),
        on_game=bar.show,
    )
    bar.end()
    data = report.to_dict()
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(
        f"{data['games']} games of {data['variant']}, {data['players']} players, "
        f"policy {data['policy']}, seed {args.seed}"
    )
    print(f"  {data['games_per_second']} games/s, {data['actions_per_second']} actions/s")
    print(f"  average length: {data['average_actions']} actions, {data['average_rounds']} rounds")
    print(f"  games ended with a winner: {data['games_with_winner']} of {data['games']}")
    return 0


def _arena(args: argparse.Namespace) -> int:
    from risiko_client.arena import run_command

    return run_command(args, "risiko: arena")


def _verify(args: argparse.Namespace) -> int:
    import asyncio

    from gql.transport.exceptions import TransportError
    from risiko_client.api import ApiError

    from api.verify import check, fetch
    from domain.replay import VerificationError

    try:
        record = asyncio.run(fetch(args.server, args.game, args.token))
    except (ApiError, TransportError, OSError) as error:
        print(f"risiko: verify: {error}", file=sys.stderr)
        return 2
    print(f"game {record.game_id} ({record.variant}) at {args.server}")
    try:
        lines = check(record)
    except VerificationError as error:
        print(f"✗ {error.message}")
        print("NOT VERIFIED: what the server published does not prove this game's dice")
        return 1
    print("\n".join(lines))
    print("VERIFIED: every die and card seen follows from the committed seed and the log")
    return 0


def _demo(args: argparse.Namespace) -> int:
    print("RisiKo! rules engine: the classic board, the odds of a big attack, and 20 games.\n")
    board = get_variant("classic").ruleset.board
    print(
        f"{board.name}: {len(board.territories)} territories, {len(board.edges)} borders, "
        f"{len(board.regions)} continents"
    )
    odds = battle_odds(10, 7)
    print(f"10 attacking armies against 7 conquer with probability {odds.conquest_probability:.4f}")
    report = simulate(games=20, seed=args.seed)
    data = report.to_dict()
    print(
        f"20 four-player games (aggressive bots): {data['games_per_second']} games/s, "
        f"{data['games_with_winner']} won by a completed objective or last player standing"
    )
    print("\nMore: risiko board classic | risiko odds 5 3 | risiko simulate --games 100")
    return 0


def _version() -> str:
    """The installed distribution's version (its metadata, as pip installed it)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("risiko")
    except PackageNotFoundError:  # the sources run without being installed
        return "unknown (not installed)"


def build_parser(with_arena_options: bool = True) -> argparse.ArgumentParser:
    """The parser of every command. The arena's options come from the Python client's arena,
    which imports its HTTP and WebSocket clients (half a second): only when they are needed."""
    parser = argparse.ArgumentParser(prog="risiko", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(
        dest="command", required=True, help="`risiko COMMAND --help` tells its options"
    )
    _add_engine_commands(commands)
    _add_odds(commands)
    _add_simulate(commands)
    _add_arena(commands, with_arena_options)
    _add_verify(commands)
    add_server_commands(commands)
    add_account_commands(commands)
    return parser


def _add_engine_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`demo` and `board`: the engine and its boards at a glance."""
    demo = commands.add_parser("demo", help="show the engine working")
    demo.add_argument("--seed", type=int, default=1, help="the seed of the 20 games (default 1)")
    demo.set_defaults(handler=_demo)

    board = commands.add_parser("board", help="a variant's board")
    board.add_argument("variant", choices=sorted(VARIANTS), help="the game whose board to show")
    board.add_argument("--json", action="store_true", help="territories, regions and edges as JSON")
    board.set_defaults(handler=_board)


def _add_odds(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    odds = commands.add_parser(
        "odds",
        help="exact odds of attacking until conquest or exhaustion",
        description="Exact odds of attacking until conquest or exhaustion. With --naval, of a "
        "S.P.Q.RisiKo! naval combat: ties remove nothing, the battle stops at the first roll "
        "that removes no trireme, and A counts all the attacking triremes.",
    )
    odds.add_argument(
        "attackers",
        type=int,
        help="attacking armies (the territory holds A + 1); with --naval, all the triremes",
    )
    odds.add_argument("defenders", type=int, help="defending armies (or triremes)")
    odds.add_argument(
        "--attacker-dice",
        type=int,
        default=3,
        choices=(1, 2, 3),
        help="most dice the attacker rolls (default 3)",
    )
    odds.add_argument(
        "--defender-dice",
        type=int,
        default=3,
        choices=(1, 2, 3),
        help="most dice the defender rolls (default 3)",
    )
    ties = odds.add_mutually_exclusive_group()
    # No default value: argparse lets a value identical to the default through the exclusion.
    ties.add_argument(
        "--ties",
        choices=[rule.value for rule in TieRule],
        help="who wins a tie of dice (default defender_wins)",
    )
    ties.add_argument(
        "--naval",
        action="store_true",
        help="S.P.Q.RisiKo! naval combat: ties remove nothing (--ties no_loss) and the battle "
        "stops at the first roll that removes no trireme; A is all the attacking triremes",
    )
    odds.add_argument(
        "--attacker-bonus",
        type=int,
        default=0,
        choices=(0, 1),
        help="+1 on the attacker's highest die (RisiKo! Più's Generale)",
    )
    odds.add_argument(
        "--defender-bonus",
        type=int,
        default=0,
        choices=(0, 1),
        help="+1 on the defender's highest die (RisiKo! Più's Maresciallo)",
    )
    odds.add_argument("--stop-at", type=int, default=0, help="stop when this many attackers remain")
    odds.add_argument("--json", action="store_true", help="the odds as JSON")
    odds.set_defaults(handler=_odds)


def _add_simulate(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sim = commands.add_parser(
        "simulate",
        help="play games in-process and measure the engine",
        description="Play whole games in-process, one policy for every seat, with the "
        "variant's default options (or those set with --option), and measure the engine.",
    )
    sim.add_argument(
        "--variant", default="classic", choices=sorted(VARIANTS), help="the game (default classic)"
    )
    sim.add_argument("--players", type=int, default=4, help=f"players: {_player_ranges()}")
    sim.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    sim.add_argument(
        "--seed", type=int, default=0, help="the same seed plays the same games (default 0)"
    )
    sim.add_argument(
        "--policy",
        default="aggressive",
        choices=sorted(POLICIES),
        help="how every seat plays (default aggressive)",
    )
    sim.add_argument("--round-limit", type=int, default=200, help="rounds before a game is cut")
    sim.add_argument(
        "--option",
        type=_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set one of the variant's options (again for another); a VALUE in JSON (3, true, "
        f"null, ...) or else text. The options: {_option_names()}",
    )
    sim.add_argument("--json", action="store_true", help="the measures as JSON")
    sim.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: when stderr is a terminal)",
    )
    sim.set_defaults(handler=_simulate)


def _add_arena(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], with_arena_options: bool
) -> None:
    arena = commands.add_parser(
        "arena",
        help="bots play whole games through the API",
        description="Bots play whole games against each other through the real HTTP and "
        "WebSocket API, on a server of their own (or --server); the report tells wins, first "
        "places and refused moves by bot.",
    )
    if with_arena_options:
        from risiko_client.arena import add_arguments

        add_arguments(arena, sorted(VARIANTS))
    arena.set_defaults(handler=_arena)


def _add_verify(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = commands.add_parser(
        "verify",
        help="check a finished game's dice from what its server publishes",
        description="Check a finished game from what its server publishes: the secret "
        "against the commitment published at creation, the dice's seed derived from it and "
        "the seats' contributions, and every event against a replay of the action log on "
        "this engine. Exit 0: verified; 1: it does not hold; 2: the game could not be read.",
    )
    verify.add_argument("server", help="the server's URL (http://host:port, or …/graphql)")
    verify.add_argument("game", help="the game's id (Game.id)")
    verify.add_argument(
        "--token",
        help="a seat's token: its own private events are checked too (write --token=TOKEN: "
        "a token may begin with '-')",
    )
    verify.set_defaults(handler=_verify)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(with_arena_options="arena" in arguments).parse_args(arguments)
    try:
        result: int = args.handler(args)
    except BrokenPipeError:  # `risiko board classic | head`
        sys.stderr.close()
        return 0
    except (ValueError, KeyError, RisikoError) as error:
        message = error.args[0] if error.args else str(error)
        print(f"risiko: {message}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    sys.exit(main())
