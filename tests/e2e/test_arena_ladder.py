"""`risiko arena --ladder` against a real server on both stores: 5 bot accounts (their
tokens in a file, each with its bot) join the bots' ladder; the server seats 4 of them at a
time in short rated games (2 rounds), which each bot finds on its account stream and plays
with its own credential; after 3 games the arena leaves the ladder and prints the bots'
leaderboard. Every game is rated once: each account's history has one entry per game it
played, and the leaderboard is the server's."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from risiko_client.arena import main

from tests.e2e.support import Server
from tests.e2e.test_client_accounts import bot_account

LADDER = {
    "RISIKO_LADDER_ROUND_LIMIT": "2",
    "RISIKO_LADDER_PASS_SECONDS": "0.5",
    "RISIKO_LADDER_GAMES_AT_ONCE": "2",
}
HISTORY = """query($n: String!) { account(name: $n) {
  ratingHistory(variant: "classic", speed: REAL_TIME, first: 100) {
    edges { node { gameId number before { rating } after { rating } } } } } }"""
MINE = "{ me { ladder { joined games } } }"


def graphql(http: httpx.Client, query: str, token: str | None = None, **variables: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = {"query": query, "variables": variables}
    return http.post("/graphql", json=body, headers=headers).json()["data"]


def test_the_arena_plays_the_ladder_and_every_game_is_rated_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], store_env: dict[str, str]
) -> None:
    server = Server(tmp_path / "data", env=LADDER | store_env).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            tokens = [bot_account(http, f"Lad{n}", f"192.0.2.{70 + n}") for n in range(5)]
        kinds = ["random", "odds", "aggressive", "random", "odds"]
        lines = [f"{token} {kind}" for token, kind in zip(tokens, kinds, strict=True)]
        (tmp_path / "tokens").write_text("\n".join(lines) + "\n")
        arguments = ["--ladder", "--server", f"{server.url}/graphql", "--json"]
        arguments += ["--tokens", str(tmp_path / "tokens"), "--games", "3", "--minutes", "8"]
        assert main(arguments) == 0
        printed = capsys.readouterr().out
        assert not any(token in printed for token in tokens)
        data = json.loads(printed)
        with httpx.Client(base_url=server.url, timeout=30) as http:
            mine = [graphql(http, MINE, token)["me"]["ladder"] for token in tokens]
            histories = {
                row["name"]: graphql(http, HISTORY, n=row["name"])["account"]["ratingHistory"]
                for row in data["leaderboard"]
            }
    finally:
        server.stop()
    assert data["games"] >= 3  # games after the first were found on the account streams only
    assert mine == [{"joined": False, "games": []}] * 5  # left, every game over
    board = data["leaderboard"]
    assert {row["name"]: row["bot"] for row in board} == {
        f"Lad{n}": kind for n, kind in enumerate(kinds) if f"Lad{n}" in {r["name"] for r in board}
    }
    assert [row["place"] for row in board] == list(range(1, len(board) + 1))
    seats: Counter[str] = Counter()
    for row in board:
        changes = [edge["node"] for edge in histories[row["name"]]["edges"]]
        assert row["games"] == len(changes) == len({change["gameId"] for change in changes})
        assert [change["number"] for change in changes] == list(range(len(changes), 0, -1))
        for newer, older in itertools.pairwise(changes):
            assert newer["before"] == older["after"]  # each game moved the rating once
        seats.update(change["gameId"] for change in changes)
    assert len(seats) == data["games"]
    assert set(seats.values()) == {4}  # tables of 4, each seat rated once
