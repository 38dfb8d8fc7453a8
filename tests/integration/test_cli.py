"""The `risiko` command, called in-process through `api.cli.main`."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

import pytest
from risiko_client.arena import BOTS, SERVER_POLICIES
from risiko_client.arena import build_parser as arena_parser

from api.cli import build_parser, main
from bots.seated import BotPolicy
from domain.odds import TieRule, battle_odds
from tests.support import BOARD


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    return json.loads(run(capsys, *argv))


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run a command that must fail cleanly: a non-zero exit and a message, no traceback."""
    status: int | str | None
    try:
        status = main(list(argv))
    except SystemExit as leaving:
        status = leaving.code
    assert status not in (0, None)
    captured = capsys.readouterr()
    assert captured.err.strip()
    assert "Traceback" not in captured.err
    return captured.err


# --------------------------------------------------------------------------- board


def test_board_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "board", "classic", "--json")
    assert data["id"] == "classic"
    assert len(data["territories"]) == 42
    assert all(set(t) >= {"id", "name", "region"} for t in data["territories"])
    region_ids = {r["id"] for r in data["regions"]}
    assert all(t["region"] in region_ids for t in data["territories"])
    assert {r["id"]: r["bonus"] for r in data["regions"]} == {
        "america_del_nord": 5,
        "america_del_sud": 2,
        "europa": 5,
        "africa": 3,
        "asia": 7,
        "oceania": 2,
    }
    assert len(data["edges"]) == 82
    assert {e["kind"] for e in data["edges"]} <= {"land", "sea_line"}
    assert {"a": "alaska", "b": "kamchatka", "kind": "sea_line"} in data["edges"]
    names = {t["id"]: t["name"] for t in data["territories"]}
    assert names["peru"] == "Perù"  # printed as it is, not escaped
    assert data == BOARD.to_data()


def test_board_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "board", "classic")
    assert "42 territories, 82 borders" in out
    assert "Asia (+7)" in out
    assert "Kamchatka" in out


def test_board_spqr_json_tells_provinces_from_sea_areas(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = run_json(capsys, "board", "spqr", "--json")
    kinds = [t["kind"] for t in data["territories"]]
    assert (kinds.count("land"), kinds.count("sea")) == (45, 12)
    assert all(t["region"] is None for t in data["territories"])
    edges = [e["kind"] for e in data["edges"]]
    assert (edges.count("land"), edges.count("coast"), edges.count("sea")) == (65, 66, 14)
    seas = {t["id"] for t in data["territories"] if t["kind"] == "sea"}
    assert {"tyrrenum", "pontus_euxinus", "sinus_gallicus"} <= seas


def test_board_spqr_text_lists_provinces_then_sea_areas(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "board", "spqr")
    assert "57 territories, 145 borders" in out
    lines = out.splitlines()
    names = [line.split("  ")[1] for line in lines if line.startswith("  ")]
    assert lines.index("Provinces") < lines.index("Sea areas")
    assert names[:2] == ["Britannia", "Germania Inferior"]
    assert (len(names), names[45], names[-1]) == (57, "Britannicus", "Pontus Euxinus")


# --------------------------------------------------------------------------- odds


def test_odds_json_is_battle_odds(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "odds", "5", "3", "--json")
    expected = battle_odds(5, 3)
    assert data["conquest_probability"] == expected.conquest_probability
    assert data == json.loads(json.dumps(expected.to_dict()))


@pytest.mark.parametrize(
    ("argv", "kwargs"),
    [
        (["--attacker-dice", "2"], {"max_attacker_dice": 2}),
        (["--defender-dice", "2"], {"max_defender_dice": 2}),
        (
            ["--attacker-dice", "1", "--defender-dice", "1"],
            {"max_attacker_dice": 1, "max_defender_dice": 1},
        ),
        (["--ties", "no_loss"], {"tie_rule": "no_loss"}),
        (["--attacker-bonus", "1"], {"attacker_bonus": 1}),
        (["--stop-at", "2"], {"stop_at": 2}),
    ],
)
def test_odds_with_options(
    capsys: pytest.CaptureFixture[str], argv: list[str], kwargs: dict[str, Any]
) -> None:
    if "tie_rule" in kwargs:
        kwargs = {**kwargs, "tie_rule": TieRule(kwargs["tie_rule"])}
    data = run_json(capsys, "odds", "8", "4", *argv, "--json")
    expected = battle_odds(8, 4, **kwargs)
    assert data["conquest_probability"] == expected.conquest_probability
    assert data["attacker_survivors"] == list(expected.attacker_survivors)
    assert data["conquest_probability"] != battle_odds(8, 4).conquest_probability  # it matters


def test_odds_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "odds", "5", "3")
    assert f"{battle_odds(5, 3).conquest_probability:.6f}" in out
    assert "the territory holds 6" in out


@pytest.mark.parametrize("argv", [[], ["--attacker-dice", "2", "--stop-at", "1"]])
def test_odds_naval_is_the_naval_battle_odds(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    data = run_json(capsys, "odds", "5", "3", "--naval", *argv, "--json")
    kwargs: dict[str, Any] = {"max_attacker_dice": 2, "stop_at": 1} if argv else {}
    expected = battle_odds(5, 3, tie_rule=TieRule.NO_LOSS, stop_on_no_loss=True, **kwargs)
    assert data == json.loads(json.dumps(expected.to_dict()))
    # Not the classic odds, nor ties rolled again: a roll removing nobody ends the battle.
    for other in (TieRule.DEFENDER_WINS, TieRule.NO_LOSS):
        assert (
            data["conquest_probability"]
            != battle_odds(5, 3, tie_rule=other, **kwargs).conquest_probability
        )


def test_odds_naval_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "odds", "3", "3", "--naval")
    expected = battle_odds(3, 3, tie_rule=TieRule.NO_LOSS, stop_on_no_loss=True)
    assert f"{expected.conquest_probability:.6f}" in out
    assert "3 attacking triremes against 3" in out
    assert "holds" not in out  # no garrison at sea


def test_odds_help_mentions_naval(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(["odds", "--help"])
    assert leaving.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--naval" in out
    assert "S.P.Q.RisiKo! naval combat" in out


# --------------------------------------------------------------------------- simulate


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("simulate", "--players", "4", "--games", "3", "--seed", "7", "--json")
    first = run_json(capsys, *argv)
    second = run_json(capsys, *argv)
    assert (first["players"], first["games"], first["policy"]) == (4, 3, "aggressive")
    for key in ("average_actions", "average_rounds", "games_with_winner"):
        assert first[key] == second[key]
    assert first["average_actions"] > 0


def test_another_seed_plays_other_games(capsys: pytest.CaptureFixture[str]) -> None:
    seven = run_json(capsys, "simulate", "--games", "3", "--seed", "7", "--json")
    eight = run_json(capsys, "simulate", "--games", "3", "--seed", "8", "--json")
    assert seven["average_actions"] != eight["average_actions"]


def test_simulate_with_the_random_policy(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("simulate", "--players", "3", "--games", "2", "--policy", "random")
    data = run_json(capsys, *argv, "--round-limit", "5", "--seed", "1", "--json")
    assert data["policy"] == "random"
    assert data["games"] == 2
    assert 0 < data["average_rounds"] <= 5
    assert data["average_actions"] > 0


def test_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "simulate", "--games", "2", "--seed", "3")
    assert "2 games of classic, 4 players, policy aggressive, seed 3" in out


@pytest.mark.parametrize("players", ["3", "6"])
def test_simulate_every_player_count(capsys: pytest.CaptureFixture[str], players: str) -> None:
    data = run_json(capsys, "simulate", "--players", players, "--games", "1", "--json")
    assert data["players"] == int(players)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["board", "atlantide"], "atlantide"),
        (["board"], "variant"),
        (["simulate", "--variant", "atlantide"], "atlantide"),
        (["simulate", "--policy", "cheater"], "cheater"),
        (["odds", "-1", "3"], "attackers"),
        (["odds", "5", "-2"], "defenders"),
        (["odds", "5", "0"], "defenders"),
        (["odds", "five", "3"], "five"),
        (["odds", "5", "3", "--attacker-dice", "4"], "4"),
        (["odds", "5", "3", "--ties", "attacker_wins"], "attacker_wins"),
        (["odds", "5", "3", "--stop-at", "-1"], "stop_at"),
        (["odds", "5", "3", "--naval", "--ties", "defender_wins"], "not allowed with"),
        (["conquer", "the", "world"], "conquer"),
        ([], "command"),
    ],
)
def test_bad_input_fails_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert message in fails(capsys, *argv)


@pytest.mark.parametrize("players", ["2", "7"])
def test_a_bad_player_count_fails_with_a_message(
    capsys: pytest.CaptureFixture[str], players: str
) -> None:
    assert "players" in fails(capsys, "simulate", "--players", players, "--games", "1")


# --------------------------------------------------------------------------- simulate spqr


@pytest.mark.parametrize("policy", ["aggressive", "random"])
@pytest.mark.parametrize("players", ["3", "5"])
def test_simulate_spqr_ends_every_game_with_a_winner(
    capsys: pytest.CaptureFixture[str], policy: str, players: str
) -> None:
    argv = ("simulate", "--variant", "spqr", "--policy", policy, "--players", players)
    data = run_json(capsys, *argv, "--games", "3", "--seed", "4", "--json")
    assert (data["variant"], data["policy"], data["players"]) == ("spqr", policy, int(players))
    assert data["games_with_winner"] == data["games"] == 3
    assert data["average_actions"] > 0


@pytest.mark.parametrize("policy", ["aggressive", "random"])
@pytest.mark.parametrize("players", ["3", "6"])
def test_simulate_piu_ends_every_game_with_a_winner(
    capsys: pytest.CaptureFixture[str], policy: str, players: str
) -> None:
    argv = ("simulate", "--variant", "piu", "--policy", policy, "--players", players)
    # Random play seldom takes a fortress: its games run to several hundred rounds.
    limit = ("--round-limit", "5000")
    data = run_json(capsys, *argv, *limit, "--games", "3", "--seed", "4", "--json")
    assert (data["variant"], data["policy"], data["players"]) == ("piu", policy, int(players))
    assert data["games_with_winner"] == data["games"] == 3


def test_board_piu_shows_its_version_its_empires_and_its_seas(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "board", "piu")
    assert "52 territories, 137 borders" in out
    assert "board version reconstructed-1" in out
    assert "Impero Britannico (+6)" in out
    data = run_json(capsys, "board", "piu", "--json")
    assert data["version"] == "reconstructed-1"
    kinds = [t["kind"] for t in data["territories"]]
    assert (kinds.count("land"), kinds.count("sea")) == (44, 8)


def test_simulate_spqr_text_and_victory_points(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "simulate", "--variant", "spqr", "--games", "2", "--seed", "3")
    assert "2 games of spqr, 4 players, policy aggressive, seed 3" in out
    assert "games ended with a winner: 2 of 2" in out
    argv = ("simulate", "--variant", "spqr", "--games", "2", "--seed", "3", "--json")
    full = run_json(capsys, *argv)
    short = run_json(capsys, *argv, "--option", "victory_points=4")
    assert short["games_with_winner"] == 2
    assert short["average_rounds"] < full["average_rounds"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--variant", "spqr", "--players", "6"], "3 to 5 players"),
        (["--variant", "spqr", "--option", "victory_points=0"], "victory_points"),
        (["--variant", "classic", "--option", "victory_points=5"], "victory_points"),
        (["--variant", "piu", "--option", "fortress_attack_dice=many"], "fortress_attack_dice"),
        (["--variant", "classic", "--option", "round_limit"], "NAME=VALUE"),
    ],
)
def test_simulate_spqr_bad_input(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert message in fails(capsys, "simulate", *argv, "--games", "1")


def test_simulate_shows_its_progress_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "3", "--players", "3", "--progress"]) == 0
    err = capsys.readouterr().err
    assert "simulate [" in err
    assert "3/3 games" in err
    assert main(["simulate", "--games", "2", "--players", "3", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""  # not a terminal: no bar unless asked


# --------------------------------------------------------------------------- help and version


def parsers(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """`parser` and every subcommand's parser, each with its command line."""
    yield parser.prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                yield from parsers(command)


def test_every_option_of_every_command_has_help() -> None:
    unexplained = [
        f"{prog} {action.dest}"
        for parser in (build_parser(), arena_parser())
        for prog, each in parsers(parser)
        for action in each._actions
        if not action.help or action.help == argparse.SUPPRESS
    ]
    assert unexplained == []


def test_the_walk_sees_every_command_and_option() -> None:
    """The test above cannot pass by looking at nothing."""
    seen = dict(parsers(build_parser()))
    assert set(seen) >= {f"risiko {command}" for command in ("serve", "arena", "simulate", "odds")}
    options = {
        option for action in seen["risiko arena"]._actions for option in action.option_strings
    }
    assert {"--games", "--seed", "--json", "--bots"} <= options


def help_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as leaving:
        main(list(argv))
    assert leaving.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_arena_help_lists_the_bots_of_the_registries(capsys: pytest.CaptureFixture[str]) -> None:
    out = help_text(capsys, "arena", "--help")
    for name, bots in BOTS.items():
        assert f"{name}: {bots[0].__name__} (" in out
        for bot in bots:
            assert f"{bot.__name__} ({', '.join(sorted(bot.plays)) or 'any game'})" in out
    for policy in BotPolicy:
        assert f"server-{policy.value}" in out


def test_the_arenas_server_bots_are_the_servers_policies() -> None:
    assert set(SERVER_POLICIES) == {policy.value for policy in BotPolicy}


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    assert help_text(capsys, "--version") == f"risiko {version('risiko')}"


def test_the_clients_arena_module_runs_and_tells_its_options() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "risiko_client.arena", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert out.startswith("usage: python -m risiko_client.arena")
    assert "--bots" in out
    assert "server-odds" in out
    refused = subprocess.run(
        [sys.executable, "-m", "risiko_client.arena", "--bots", "nobody", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2
    assert refused.stderr.startswith("arena: no bot 'nobody'"), refused.stderr


def test_commands_other_than_the_arena_do_not_load_its_network_clients() -> None:
    """The arena's options come from risiko_client.arena, whose imports take half a second:
    `risiko board` and the others start without them."""
    program = (
        "import sys; from api.cli import main; main(['board', 'classic']); "
        "print(sorted(m for m in ('gql', 'httpx', 'risiko_client.arena') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines()[-1] == "[]"
