"""`risiko arena --tournament` against a real server on the embedded store: 8 bot accounts
(their tokens in a file) and an organiser play 2 rounds of tables of 4, every seat played by
the client's bots through the API; the final standings it prints are the server's, each bot
with its 2 games, and no token shows in them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from risiko_client.arena import main

from tests.e2e.support import Server
from tests.e2e.test_client_accounts import PASSWORD, bot_account

READ = """query($t: ID!) { tournament(id: $t) { status
  roundsPlayed { ended tables { gameId } }
  standings { place account { name } games points } } }"""


def organiser_token(http: httpx.Client) -> str:
    """An account's personal API token that may organise tournaments."""
    headers = {"X-Forwarded-For": "192.0.2.99"}

    def call(query: str, token: str | None = None, **variables: Any) -> dict[str, Any]:
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        body = {"query": query, "variables": variables}
        answer: dict[str, dict[str, Any]] = http.post(
            "/graphql", json=body, headers=headers | auth
        ).json()
        return answer["data"]

    mutation = "mutation($n: String!, $p: String!) { register(input: {name: $n, password: $p}) "
    session = call(mutation + "{ token } }", n="Organiser", p=PASSWORD)["register"]["token"]
    made = call(
        'mutation { createApiToken(input: {name: "arena", scopes: [TOURNAMENTS_ORGANISE]}) '
        "{ token } }",
        session,
    )
    token: str = made["createApiToken"]["token"]
    return token


def test_the_arena_plays_a_tournament_of_bot_accounts_to_its_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = Server(tmp_path / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            tokens = [bot_account(http, f"Bot{n}", f"192.0.2.{60 + n}") for n in range(8)]
            organiser = organiser_token(http)
        (tmp_path / "tokens").write_text("\n".join(tokens) + "\n")
        (tmp_path / "organiser").write_text(organiser + "\n")
        arguments = ["--tournament", "--server", f"{server.url}/graphql", "--json"]
        arguments += ["--tokens", str(tmp_path / "tokens")]
        arguments += ["--organiser-token", str(tmp_path / "organiser"), "--bots", "odds,random"]
        arguments += ["--rounds", "2", "--table-size", "4", "--time-limit", "1"]
        assert main(arguments) == 0
        printed = capsys.readouterr().out
        assert not any(token in printed for token in [*tokens, organiser])
        data = json.loads(printed)
        with httpx.Client(base_url=server.url, timeout=30) as http:
            body = {"query": READ, "variables": {"t": data["tournament"]}}
            served = http.post("/graphql", json=body).json()["data"]["tournament"]
    finally:
        server.stop()
    assert data["status"] == served["status"] == "FINISHED"
    assert [len(round_["tables"]) for round_ in served["roundsPlayed"]] == [2, 2]
    assert all(round_["ended"] for round_ in served["roundsPlayed"])
    rows = [(row["place"], row["name"], row["games"], row["points"]) for row in data["standings"]]
    assert rows == [
        (row["place"], row["account"]["name"], row["games"], row["points"])
        for row in served["standings"]
    ]
    assert sorted(name for _, name, _, _ in rows) == [f"Bot{n}" for n in range(8)]
    assert {games for _, _, games, _ in rows} == {2}
    assert [place for place, _, _, _ in rows] == list(range(1, 9))
