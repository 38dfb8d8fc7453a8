"""The web client's weight and speed (not timed tests): `python benchmarks/web.py [--runs N]`.

The JavaScript it ships (the built files in api/web_client, gzipped as the server sends them),
and the time a game's page takes to show its board in headless Chromium (tests/node/
first-render.mjs: from the start of the navigation to the page's first board drawn, each load
in a fresh context, at full speed and with the CPU slowed four times), on a server started
here with a finished classic game of four bots.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.web_client import BUILT  # noqa: E402
from tests.e2e.support import Server  # noqa: E402
from tests.node_tools import NODE_TOOLS, chromium, node  # noqa: E402


def shipped() -> dict[str, int]:
    """Each built asset's size gzipped (level 9), by kind; a page loads the main script, the
    stylesheet and one language's catalogue."""
    sizes: dict[str, int] = {}
    for asset in sorted((BUILT / "assets").iterdir()):
        kind = asset.name.split("-")[0] + asset.suffix
        sizes[kind] = len(gzip.compress(asset.read_bytes(), 9))
    return sizes


def finished_game(url: str) -> str:
    def ask(query: str, token: str | None = None, **variables: object) -> dict[str, object]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = httpx.post(
            f"{url}/graphql", json={"query": query, "variables": variables}, headers=headers
        )
        return answer.json()["data"]  # type: ignore[no-any-return]

    created = ask("mutation { createGame(input: {options: {roundLimit: 3}}) { game { id } } }")
    game = created["createGame"]["game"]["id"]  # type: ignore[index]
    host = ask(
        'mutation($g: ID!) { joinGame(input: {gameId: $g, name: "Host"}) { token } }', g=game
    )
    token = host["joinGame"]["token"]  # type: ignore[index]
    for _ in range(3):
        ask("mutation($g: ID!) { addBot(input: {gameId: $g}) { seat } }", token, g=game)
    ask(
        "mutation($g: ID!) { startGame(input: {gameId: $g}) { clientSeedAccepted } }", token, g=game
    )
    ask(
        "mutation($g: ID!) { leaveGame(input: {gameId: $g}) { clientSeedAccepted } }", token, g=game
    )
    for _ in range(300):
        if ask("query($g: ID!) { game(id: $g) { status } }", g=game)["game"] == {
            "status": "FINISHED"
        }:
            break
        time.sleep(0.2)
    return str(game)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="loads at each speed (default 7)")
    runs = parser.parse_args().runs
    sizes = shipped()
    with tempfile.TemporaryDirectory() as data:
        server = Server(Path(data) / "data").start()
        try:
            game = finished_game(server.url)
            page = f"{server.url}/#/game/{game}"
            done = subprocess.run(
                [node(), "first-render.mjs", str(chromium()), page, str(runs)],
                cwd=NODE_TOOLS,
                capture_output=True,
                text=True,
                check=True,
                timeout=600,
            )
        finally:
            server.stop()
    times = json.loads(done.stdout.splitlines()[-1])
    report = {
        "shipped_gzip_bytes": sizes,
        "first_page_gzip_bytes": sizes["index.js"] + sizes["index.css"] + sizes["it.js"],
        "board_ms_median": statistics.median(times["full"]),
        "board_ms_median_cpu_4x_slower": statistics.median(times["slow"]),
        "first_contentful_paint_ms_median": statistics.median(times["paint"]),
        "runs": times,
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
