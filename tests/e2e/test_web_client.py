"""The web client (web/) in a real browser against a real server: a person plays a short game of
each game by clicks and by keyboard, in Italian and in English, on a desktop and on a phone;
every page is audited (axe-core) and shows no raw field name, id or boolean; a spectator sees
the same moves live, a seat's page never shows another seat's secrets, a reload resumes, and
the replay rebuilds every move; and what the server serves of it, with what caching.

RISIKO_UPDATE_SCREENSHOTS=1 writes the screenshots the browser takes into docs/screenshots."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.web_client import BUILT
from tests.e2e.support import ROOT, Server
from tests.e2e.web_client_support import SCENARIOS, listed_documents, operations, play_in_browser
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


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[str(s["variant"]) for s in SCENARIOS])
def test_a_person_plays_a_short_game_by_clicks_then_by_keyboard(
    server: Server, tmp_path: Path, scenario: dict[str, Any]
) -> None:
    shots = (
        ROOT / "docs" / "screenshots" if os.environ.get("RISIKO_UPDATE_SCREENSHOTS") else tmp_path
    )
    shots.mkdir(parents=True, exist_ok=True)
    seen = play_in_browser(server.url, shots, scenario)
    assert seen["errors"] == [], seen["errors"]
    assert seen["elsewhere"] == []  # everything the page loads comes from this server
    # No field name, id, enum value or boolean on any page, in either language.
    assert seen["raw"] == []
    # No serious or critical accessibility violation: the lobby, the game, its replay.
    assert seen["axe"] == {"lobby": [], "game": [], "replay": []}
    steps = seen["steps"]
    other = "en" if scenario["locale"] == "it" else "it"
    # The browser's language first; switched halfway, and remembered after a reload.
    assert steps["lang"] == scenario["locale"]
    assert steps["remembered"] == other
    assert steps["switched"]["before"] != steps["switched"]["after"]
    # Moves by clicks, then by keyboard alone (the map's type-ahead reached a space).
    assert steps["clickMoves"] == scenario.get("switchAt", 4)
    assert steps["keyboardMoves"] >= 2
    assert steps["keyboardFocus"]
    assert "endTurn" in steps["played"]
    # The game ended (a round limit of one), told with its dice; the seat is still Anna's.
    assert steps["outcome"]
    assert steps["log"] > 10
    # Every event told in words (none as one the page cannot tell); after a reload the
    # history, read again a page of 100 at a time, is told as it was live.
    assert steps["untold"] == 0
    assert steps["toldAgain"]["same"] is True
    assert steps["toldAgain"]["live"] >= steps["log"]
    # Every document the pages sent is one the build listed (a trusted server runs them all),
    # none was refused, and the history was read a page at a time.
    sent = seen["documents"]
    assert {text: codes for text, codes in sent.items() if codes} == {}
    assert set(sent) <= listed_documents(), set(sent) - listed_documents()
    assert "EventPage" in operations(sent)
    assert "Anna (you)" in steps["afterReload"] or "Anna (tu)" in steps["afterReload"]
    assert steps["standings"] == 2  # territories and armies by round
    if steps.get("odds"):
        assert re.search(r"\d+(,\d)?\s?%", steps["odds"])
    # The map fits the screen; on a phone nothing runs past its width.
    box, viewport = steps["mapBox"], steps["viewport"]
    assert box["width"] <= viewport["width"]
    assert box["height"] <= viewport["height"]
    assert steps["phoneOverflow"] <= 0
    # The replay: every move, the first before any, the last as the game ended, stepped by
    # keys, and a position's link opens the same board.
    replay = steps["replay"]
    assert replay["busyReading"] == "true"  # read once its history is all in, not before
    assert replay["moves"] > 5
    assert replay["lastIsLive"] is True
    assert replay["firstEmpty"] is True
    assert replay["sliderAt"] == replay["steppedTo"] > 0
    assert replay["sharedSame"] is True
    assert replay["sharedPieces"] > 0  # a board with pieces on it, not the empty one
    assert "/replay/" in replay["link"]
    if "spectator" in scenario.get("extras", []):
        assert steps["spectator"]["same"] is True
        assert steps["spectator"]["forms"] == 0
        assert steps["spectator"]["log"] > 0
    if "secrets" in scenario.get("extras", []):
        secrets = steps["secrets"]
        assert secrets["objectivesShown"] == 1
        assert secrets["shownObjective"] == secrets["objectives"][2]
        assert secrets["spectatorObjective"] == 0
        assert (secrets["seatCards"], secrets["spectatorCards"]) == (1, 0)
    for name in (f"{scenario['variant']}-{scenario['locale']}", f"lobby-{scenario['locale']}"):
        assert (shots / f"{name}.png").stat().st_size > 10_000


def test_fair_dice_are_checked_in_the_browser_and_a_chosen_seed_is_told(server: Server) -> None:
    """Over plain HTTP from another host name (no secure context, so no crypto.subtle), behind
    a path prefix: the chain of a finished game holds in the browser, the page finds its own
    seat's contribution there (and says so when it is not), and a game whose seed was chosen
    is marked in the lobby and asks a newcomer to confirm before it takes a seat."""
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
    assert re.search(r"risiko verify http://risiko\.test:\d+/risiko \S+$", host["checks"][-1])
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
    # Relative addresses (./assets/…): the page works behind a path prefix too.
    assets = re.findall(r'(?:src|href)="\./(assets/[^"]+)"', page.text)
    assert assets, page.text
    for asset in assets:
        answer = httpx.get(f"{server.url}/{asset}")
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
