"""The web client (web/) in a real browser against a real server: a person creates a game with
two bots and plays by clicks, a spectator sees the same moves live, a seat's page never shows
another seat's secrets, a reload resumes; and what the server serves of it, with what caching.

RISIKO_UPDATE_SCREENSHOTS=1 writes the screenshots the browser takes into docs/screenshots."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from api.web_client import BUILT
from tests.e2e.support import ROOT, Server
from tests.node_tools import NODE_TOOLS, _missing, chromium, node


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    if not (BUILT / "index.html").is_file():
        _missing("the web client is not built (python3 dev.py test builds it)")
    running = Server(tmp_path / "data").start()
    try:
        yield running
    finally:
        running.stop()


def test_a_person_plays_by_clicks_while_another_watches(server: Server, tmp_path: Path) -> None:
    shots = (
        ROOT / "docs" / "screenshots" if os.environ.get("RISIKO_UPDATE_SCREENSHOTS") else tmp_path
    )
    shots.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [node(), "webclient.mjs", str(chromium()), server.url, str(shots)],
        cwd=NODE_TOOLS,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["errors"] == [], seen["errors"]
    assert seen["elsewhere"] == []  # everything the page loads comes from this server
    steps = seen["steps"]
    # The initial placement and the reinforcements by clicks, each on a highlighted space of
    # Anna's, each adding the armies it said; then an attack, its odds shown before it was
    # sent, its dice in the log; then the end of the turn: the next player's.
    assert len(steps["placed"]) >= 5
    for placed in steps["placed"]:
        assert int(placed["after"]) == int(placed["before"]) + placed["armies"]
    assert "conquest" in steps["odds"]
    assert steps["diceShown"] is True
    assert "your move" not in steps["afterTurn"]
    # A round limit of one: the bots finish the round and the game ends; the seed revealed
    # at the end is checked in the browser against the commitment.
    assert steps["outcome"]
    assert steps["seedCheck"].startswith("✓")
    # S.P.Q.RisiKo!'s occupation by clicks, on a phone's screen that nothing overflows.
    assert len(steps["spqrClaims"]) == 3
    for claim in steps["spqrClaims"]:
        assert claim["member"] in {"claimProvince", "placeNeutral"}
        assert claim["label"]
    assert steps["phoneOverflow"] <= 0
    # …and the rest of that game by clicks alone, to its outcome (a round limit of one).
    assert steps["spqrOutcome"]
    assert steps["spqrPlayed"].get("endTurn", 0) >= 1
    # The spectator saw the last of them live, and is offered nothing to do.
    assert steps["spectatorSaw"] is not None
    assert steps["spectatorHasActions"] == 0
    assert steps["spectatorLog"] > 0
    # After a reload the page is Anna's seat still.
    assert "Anna (you)" in steps["afterReload"]
    # Secrets: a seat sees its own objective only; a spectator none.
    assert steps["ownObjectiveShown"] is True
    assert steps["othersObjectivesShown"] == []
    assert steps["spectatorObjectives"] == []
    assert steps["spqrShown"] is True
    for name in ("lobby", "classic", "spqr", "phone"):
        assert (shots / f"{name}.png").stat().st_size > 10_000


def test_fair_dice_are_checked_in_the_browser_and_a_chosen_seed_is_told(server: Server) -> None:
    """Over plain HTTP from another host name (no secure context, so no crypto.subtle): the
    chain of a finished game holds in the browser, the page finds its own seat's
    contribution there (and says so when it is not), and a game whose seed was chosen is
    marked in the lobby and asks a newcomer to confirm before it takes a seat."""
    done = subprocess.run(
        [node(), "fairness.mjs", str(chromium()), server.url],
        cwd=NODE_TOOLS,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["errors"] == [], seen["errors"]
    assert seen["elsewhere"] == []
    steps = seen["steps"]
    host, spectator, wrong = steps["host"], steps["spectator"], steps["wrongSeed"]
    assert host["secure"] is False
    assert host["subtle"] == "undefined"
    assert host["verdict"] == "✓ the chain holds"
    assert host["checks"][:4] == [
        "✓ the secret matches the commitment published at creation",
        "✓ the dice's seed is derived from the secret and the 3 seats' contributions",
        "✓ it is the seed committed to at the start",
        "✓ your contribution is there, as this browser sent it",
    ]
    assert "risiko verify http://risiko.test:" in host["checks"][-1]
    assert spectator["verdict"] == "✓ the chain holds"
    assert not any("your contribution" in check for check in spectator["checks"])
    assert wrong["verdict"] == "✗ the chain does not hold"
    assert "✗ your contribution is not the one this browser sent" in wrong["checks"]
    assert steps["lobbyBadge"] == "chosen seed"
    assert steps["fairBadge"] == 0
    assert "chose its seed" in steps["warning"]
    assert steps["headerWarning"] is True
    assert steps["seatedUnconfirmed"] is False
    assert steps["seatedConfirmed"] is True
    assert steps["players"] == ["Bruno"]


def test_the_page_is_checked_on_every_load_and_its_assets_kept_a_year(server: Server) -> None:
    page = httpx.get(server.url)
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-cache"
    assets = re.findall(r'(?:src|href)="(/assets/[^"]+)"', page.text)
    assert assets, page.text
    for asset in assets:
        answer = httpx.get(f"{server.url}{asset}")
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert httpx.get(f"{server.url}/assets/nothing.js").status_code == 404


def test_a_server_without_the_built_client_says_how_to_build_it(tmp_path: Path) -> None:
    empty = tmp_path / "no-client"
    empty.mkdir()
    running = Server(tmp_path / "data", env={"RISIKO_WEB_CLIENT_DIR": str(empty)}).start()
    try:
        page = httpx.get(running.url)
        api = httpx.post(f"{running.url}/graphql", json={"query": "{ variants { name } }"})
    finally:
        running.stop()
    assert page.status_code == 503
    assert "python3 dev.py run" in page.text
    assert api.status_code == 200  # the API runs all the same
