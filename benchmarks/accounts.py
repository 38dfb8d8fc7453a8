"""What an account costs: one Argon2id hash and one check with the server's parameters (the
price of a registration and of a login), and a request authenticated by an account's token
against one authenticated by a seat's token, through a real server.

    python benchmarks/accounts.py [--hashes 20] [--requests 300] [--runs 3]
                                  [--stores embedded,mongodb]

The requests: `{ me { name bot } }` with a session and with a personal API token (the token
looked up by its hash, its account read, its scopes judged), `{ viewer { seat name } }` with a
seat's token (the seat looked up by its hash, the game read), and `{ __typename }` with no
token, one after the other by one client; each run's median, then the median of the runs.
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


def credentials(client: httpx.Client) -> dict[str, str | None]:
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
    return {"session": session, "api_token": api, "seat": seat, "none": None}


QUERIES = {
    "session": "{ me { name bot } }",
    "api_token": "{ me { name bot } }",
    "seat": "{ viewer { seat name } }",
    "none": "{ __typename }",
}


def one_run(client: httpx.Client, tokens: dict[str, str | None], requests: int) -> dict[str, float]:
    times: dict[str, list[float]] = {kind: [] for kind in tokens}
    kinds = list(tokens)
    for n in range(requests):
        # Interleaved, each kind first in turn: the machine's moods hit all alike.
        for kind in kinds[n % len(kinds) :] + kinds[: n % len(kinds)]:
            token = tokens[kind]
            started = time.perf_counter()
            gql(client, QUERIES[kind], token)
            times[kind].append(time.perf_counter() - started)
    return {kind: statistics.median(values) * 1000 for kind, values in times.items()}


def bench_store(env: dict[str, str], requests: int, runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="risiko-bench-") as folder:
        server = Server(Path(folder) / "data", env=env).start()
        try:
            with httpx.Client(base_url=server.url, timeout=30) as client:
                tokens = credentials(client)
                one_run(client, tokens, 20)  # warm up
                medians = [one_run(client, tokens, requests) for _ in range(runs)]
        finally:
            server.stop()
    return {
        f"{kind}_ms": round(statistics.median(run[kind] for run in medians), 3) for kind in tokens
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hashes", type=int, default=20, help="Argon2id hashes timed")
    parser.add_argument("--requests", type=int, default=300, help="requests of each kind a run")
    parser.add_argument("--runs", type=int, default=3, help="runs; the median of their medians")
    parser.add_argument("--stores", default="embedded,mongodb", help="embedded, mongodb or both")
    args = parser.parse_args()
    report: dict[str, Any] = {"argon2id": hash_times(args.hashes)}
    for store in args.stores.split(","):
        if store == "mongodb":
            mongo = MongoServer().start()
            try:
                env = {"RISIKO_STORE": mongo.uri_for("risiko_bench_accounts")}
                report[store] = bench_store(env, args.requests, args.runs)
            finally:
                mongo.stop()
        else:
            report[store] = bench_store({}, args.requests, args.runs)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
