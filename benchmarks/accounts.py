"""What an account costs: one Argon2id hash and one check with the server's parameters (the
price of a registration and of a login), and a request and a move authenticated by an
account's token against the same by a seat's token, through a real server.

    python benchmarks/accounts.py [--hashes 20] [--requests 300] [--actions 200] [--runs 3]
                                  [--stores embedded,mongodb]

The requests: `{ me { name bot } }` with a session and with a personal API token (the token
looked up by its hash, its account read, its scopes judged), `{ viewer { seat name } }` with a
seat's token (the seat looked up by its hash, the game read), and `{ __typename }` with no
token; and a game as its seat sees it (`game(id) { … hand objective }`), read with the session
of the account that sits there and with a guest's seat token. The moves: two games of one
seed, four guests at one and four accounts at the other, play the same actions (the
`aggressive` bot's, planned in advance as benchmarks/api.py does), one move of each game in
turn, each seat acting with its own token (a guest's, or its account's session). One client,
one request after the other; each run's median, then the median of the runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.accounts.passwords import owasp_hasher  # noqa: E402
from benchmarks.api import NAMES, SEED, SUBMIT, graphql_input, planned_actions  # noqa: E402
from tests.e2e.support import Server  # noqa: E402
from tests.mongo_server import MongoServer  # noqa: E402

PASSWORD = "a kettle of purple mongooses"


def hash_times(count: int) -> dict[str, Any]:
    hasher = owasp_hasher()
    hashed, made, checked = "", [], []
    for _ in range(count):
        started = time.perf_counter()
        hashed = hasher.hash(PASSWORD)
        made.append(time.perf_counter() - started)
        started = time.perf_counter()
        hasher.verify(hashed, PASSWORD)
        checked.append(time.perf_counter() - started)
    return {
        "hash_median_ms": round(statistics.median(made) * 1000, 2),
        "verify_median_ms": round(statistics.median(checked) * 1000, 2),
        "parameters": hashed.split("$")[3],
    }


def gql(client: httpx.Client, query: str, token: str | None = None, **variables: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = client.post(
        "/graphql", json={"query": query, "variables": variables}, headers=headers
    ).json()
    assert "errors" not in answer, answer
    return answer["data"]


def credentials(client: httpx.Client) -> Tokens:
    session = gql(
        client,
        'mutation($p: String!) { register(input: {name: "bench", password: $p}) { token } }',
        p=PASSWORD,
    )["register"]["token"]
    api = gql(
        client,
        'mutation { createApiToken(input: {name: "bench", scopes: [GAMES_READ]}) { token } }',
        session,
    )["createApiToken"]["token"]
    game = gql(client, "mutation { createGame(input: {}) { game { id } } }")["createGame"]
    seat = gql(
        client,
        'mutation($g: ID!) { joinGame(input: {gameId: $g, name: "Anna"}) { token } }',
        g=game["game"]["id"],
    )["joinGame"]["token"]
    found = {"session": session, "api_token": api, "seat": seat, "none": None}
    return {kind: (token, {}) for kind, token in found.items()}


SEAT_VIEW = "query($g: ID!) { game(id: $g) { version viewerSeat hand { id } objective { id } } }"
QUERIES = {
    "session": "{ me { name bot } }",
    "api_token": "{ me { name bot } }",
    "seat": "{ viewer { seat name } }",
    "none": "{ __typename }",
    "game_by_session": SEAT_VIEW,
    "game_by_seat_token": SEAT_VIEW,
}
Tokens = dict[str, tuple[str | None, dict[str, Any]]]  # kind: (token, variables)


def one_run(client: httpx.Client, tokens: Tokens, requests: int) -> dict[str, float]:
    times: dict[str, list[float]] = {kind: [] for kind in tokens}
    kinds = list(tokens)
    for n in range(requests):
        # Interleaved, each kind first in turn: the machine's moods hit all alike.
        for kind in kinds[n % len(kinds) :] + kinds[: n % len(kinds)]:
            token, variables = tokens[kind]
            started = time.perf_counter()
            gql(client, QUERIES[kind], token, **variables)
            times[kind].append(time.perf_counter() - started)
    return {kind: statistics.median(values) * 1000 for kind, values in times.items()}


def players(client: httpx.Client) -> list[str]:
    """The sessions of four accounts named as the planned game's seats."""
    register = (
        "mutation($n: String!, $p: String!) { register(input: {name: $n, password: $p}) { token } }"
    )
    return [gql(client, register, n=name, p=PASSWORD)["register"]["token"] for name in NAMES]


def seeded_game(client: httpx.Client, sessions: list[str] | None) -> tuple[str, list[str], int]:
    """The planned game, its seats taken by guests (their seat tokens) or by the accounts of
    `sessions` (which then act for them): its id, each seat's token, its version."""
    created = gql(
        client, "mutation($s: String) { createGame(input: {seed: $s}) { game { id } } }", s=SEED
    )
    game_id = created["createGame"]["game"]["id"]
    join = "mutation($g: ID!, $n: String) { joinGame(input: {gameId: $g, name: $n}) { token } }"
    tokens = []
    for n, name in enumerate(NAMES):
        token = sessions[n] if sessions else None
        joined = gql(client, join, token, g=game_id, n=None if sessions else name)["joinGame"]
        tokens.append(token or joined["token"])
    start = "mutation($g: ID!) { startGame(input: {gameId: $g}) { game { version } } }"
    version = gql(client, start, tokens[0], g=game_id)["startGame"]["game"]["version"]
    return game_id, tokens, version


def moves(
    client: httpx.Client, plan: list[tuple[int, dict[str, Any]]], sessions: list[str]
) -> tuple[dict[str, float], Tokens]:
    """The plan played in a game of guests and in one of accounts, a move of each in turn:
    each's median; and the first seat's view of each game, to read."""
    games = {
        "submit_by_seat_token": seeded_game(client, None),
        "submit_by_session": seeded_game(client, sessions),
    }
    versions = {kind: game[2] for kind, game in games.items()}
    times: dict[str, list[float]] = {kind: [] for kind in games}
    for n, (seat, action) in enumerate(plan):
        kinds = list(games) if n % 2 else list(reversed(games))
        for kind in kinds:
            game_id, tokens, _ = games[kind]
            submit = {
                "gameId": game_id,
                "action": graphql_input(action),
                "expectedVersion": versions[kind],
            }
            started = time.perf_counter()
            answer = gql(client, SUBMIT, tokens[seat], input=submit)["submitAction"]
            times[kind].append(time.perf_counter() - started)
            assert not answer["userErrors"], answer
            versions[kind] = answer["version"]
    reads: Tokens = {
        "game_by_seat_token": (
            games["submit_by_seat_token"][1][0],
            {"g": games["submit_by_seat_token"][0]},
        ),
        "game_by_session": (sessions[0], {"g": games["submit_by_session"][0]}),
    }
    return {kind: statistics.median(values) * 1000 for kind, values in times.items()}, reads


def bench_store(env: dict[str, str], requests: int, actions: int, runs: int) -> dict[str, Any]:
    plan = planned_actions(actions)
    with tempfile.TemporaryDirectory(prefix="risiko-bench-") as folder:
        server = Server(Path(folder) / "data", env=env).start()
        try:
            with httpx.Client(base_url=server.url, timeout=30) as client:
                tokens, sessions = credentials(client), players(client)
                one_run(client, tokens, 20)  # warm up
                medians = []
                for _ in range(runs):
                    played, reads = moves(client, plan, sessions)
                    medians.append(played | one_run(client, tokens | reads, requests))
        finally:
            server.stop()
    kinds = list(medians[0])
    report: dict[str, Any] = {
        f"{kind}_ms": round(statistics.median(run[kind] for run in medians), 3) for kind in kinds
    }
    report["runs_ms"] = {kind: [round(run[kind], 3) for run in medians] for kind in kinds}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hashes", type=int, default=20, help="Argon2id hashes timed")
    parser.add_argument("--requests", type=int, default=300, help="requests of each kind a run")
    parser.add_argument("--actions", type=int, default=200, help="moves of each game a run")
    parser.add_argument("--runs", type=int, default=3, help="runs; the median of their medians")
    parser.add_argument("--stores", default="embedded,mongodb", help="embedded, mongodb or both")
    args = parser.parse_args()
    report: dict[str, Any] = {"argon2id": hash_times(args.hashes)}
    for store in args.stores.split(","):
        if store == "mongodb":
            mongo = MongoServer().start()
            try:
                env = {"RISIKO_STORE": mongo.uri_for("risiko_bench_accounts")}
                report[store] = bench_store(env, args.requests, args.actions, args.runs)
            finally:
                mongo.stop()
        else:
            report[store] = bench_store({}, args.requests, args.actions, args.runs)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
