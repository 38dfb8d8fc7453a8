"""The arena: bots play whole games through a server of their own (`risiko arena`), every
move they make legal (no refusal but a stale version), and duplicate mode rotates the seats."""

from __future__ import annotations

import json
import subprocess
import sys

from risiko_client.arena import format_report, run_arena, schedule

from tests.e2e.support import ROOT


def test_arena_command_plays_games_and_prints_json() -> None:
    arguments = "arena --bots random,odds,random --games 2 --seed 3 --round-limit 3 --json"
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", *arguments.split()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "arena [" not in done.stderr  # no progress bar with --json
    data = json.loads(done.stdout)
    assert (data["games"], data["bots"], data["round_limit"]) == (
        2,
        ["random", "odds", "random"],
        3,
    )
    assert data["per_bot"]["random"]["seats"] == 4
    assert data["per_bot"]["odds"]["seats"] == 2
    for entry in data["per_bot"].values():
        assert entry["actions"] > 0
        assert set(entry["refused"]) <= {"STALE_VERSION"}, entry["refused"]
    for result in data["results"]:
        assert result["seats"] == ["random", "odds", "random"]
        assert result["reason"] in {"objective", "last_player", "round_limit"}
        assert 1 <= result["round"] <= 3
        assert result["firsts"], "somebody is ranked first"
    assert [r["seed"] for r in data["results"]] == ["arena-3-0", "arena-3-1"]
    assert data["average_actions"] > 0
    assert data["actions_per_second"] > 0


def test_duplicate_mode_rotates_the_seats_over_each_deal() -> None:
    bots = ["random", "odds", "random", "odds"]
    plan = schedule(bots, 2, 9, duplicate=True)
    assert len(plan) == 8  # one game per rotation of each deal
    for deal in range(2):
        games = [game for game in plan if game[0] == f"arena-9-{deal}"]
        assert len(games) == 4
        # Each bot of the list (with its own seed) sits once in each seat.
        for seat in range(4):
            assert sorted(game[2][seat] for game in games) == [f"9-{deal}-{i}" for i in range(4)]

    data = run_arena(["odds", "random", "random"], 1, 5, duplicate=True, round_limit=2)
    assert data["games"] == 3
    assert {r["seed"] for r in data["results"]} == {"arena-5-0"}
    assert [r["seats"].index("odds") for r in data["results"]] == [0, 2, 1]
    assert data["per_bot"]["odds"]["seats"] == 3
    assert data["per_bot"]["random"]["seats"] == 6
    for entry in data["per_bot"].values():
        assert set(entry["refused"]) <= {"STALE_VERSION"}, entry["refused"]
    table = format_report(data)
    assert "odds" in table
    assert "duplicate" in table
    assert "actions/s" in table


def test_spqr_arena_is_won_by_victory_points() -> None:
    arguments = (
        "arena --variant spqr --bots random,odds,odds --games 2 --seed 4 --option victory_points=6 "
        "--json"
    )
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", *arguments.split()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["games"], data["variant"], data["options"]) == (2, "spqr", {"victory_points": 6})
    assert data["per_bot"]["random"]["seats"] == 2
    assert data["per_bot"]["odds"]["seats"] == 4
    for result in data["results"]:
        assert result["seats"] == ["random", "odds", "odds"]
        # Every game ends with a winner: the first to claim 6 victory points (or the last).
        assert result["reason"] in {"victory_points", "last_player"}
        winner = result["winner"]
        assert winner is not None
        assert result["winner_bot"] == result["seats"][winner]
        assert result["firsts"] == [winner]
        if result["reason"] == "victory_points":
            assert result["points"][winner] >= 6
            assert max(result["points"]) == result["points"][winner]
    wins = sum(entry["wins"] for entry in data["per_bot"].values())
    assert wins == data["games"] == sum(data["reasons"].values())
    for name, entry in data["per_bot"].items():
        assert entry["actions"] > 0
        assert set(entry["refused"]) <= {"STALE_VERSION"}, entry["refused"]
        mine = [
            r["points"][s] for r in data["results"] for s, b in enumerate(r["seats"]) if b == name
        ]
        assert entry["points"] == sum(mine)
        assert entry["wins"] == sum(r["winner_bot"] == name for r in data["results"])
    table = format_report(data)
    assert "round limit 60, victory_points 6" in table  # the options chosen
    assert "VP/game" in table
    assert "games/s" in table
    odds_row = next(line for line in table.splitlines() if line.startswith("odds "))
    assert odds_row.split()[1:3] == ["4", str(data["per_bot"]["odds"]["wins"])]


def test_bots_the_server_plays_sit_beside_the_clients_bots() -> None:
    """server-odds is the server's own bot (addBot), seated in the order given; the games end
    with it playing every one of its turns, through the server's write path."""
    data = run_arena(["random", "server-odds", "odds"], 2, 6, duplicate=True, round_limit=4)
    assert data["games"] == 6
    for result in data["results"]:
        assert result["reason"] in {"objective", "last_player", "round_limit"}
        assert sorted(result["seats"]) == ["odds", "random", "server-odds"]
    server = data["per_bot"]["server-odds"]
    assert server["seats"] == 6
    assert server["actions"] == 0  # played by the server: no action of the client's
    for entry in data["per_bot"].values():
        assert set(entry["refused"]) <= {"STALE_VERSION"}, entry["refused"]


def test_piu_arena_is_won_by_empires_or_by_the_last_fortress_standing() -> None:
    arguments = "arena --variant piu --bots random,odds,odds --games 2 --seed 3 --json"
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", *arguments.split()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["games"], data["variant"]) == (2, "piu")
    for result in data["results"]:
        assert result["reason"] in {"empires", "last_player"}
        assert result["winner"] is not None
        assert result["winner_bot"] == result["seats"][result["winner"]]
    for entry in data["per_bot"].values():
        assert entry["actions"] > 0
        # Every card, fortress and flagship move the bots made was legal.
        assert set(entry["refused"]) <= {"STALE_VERSION"}, entry["refused"]
