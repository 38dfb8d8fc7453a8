"""The web client's challenges and pool in a real browser against a real server
(tests/node/webclient-rated-play.mjs): a person, logged in on a phone, challenges accounts from
the challenges page (a refusal told in words; a decline made on the page and one made through
the API, both shown live), two accept a rated challenge through the API and the page goes to
the game with its three seats; then the person joins the pool from its page, three others join
compatible seeks through the API, and the page shows the match and opens the game. The pages
are audited (axe-core) in both languages and every document they sent is one the build
listed."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.e2e.support import ROOT, Server
from tests.e2e.web_client_support import listed_documents, operations, run_page_script

Json = dict[str, object]
ENGLISH = json.loads((ROOT / "web" / "src" / "locales" / "en.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> Json:
    folder = Path(tmp_path_factory.mktemp("web-rated-play"))
    server = Server(folder / "data").start()
    return run_page_script("webclient-rated-play.mjs", server)


def step(seen: Json, name: str) -> dict[str, object]:
    steps = seen["steps"]
    assert isinstance(steps, dict)
    found = steps[name]
    assert isinstance(found, dict)
    return found


def test_a_refused_challenge_is_told_in_words(seen: Json) -> None:
    done = step(seen, "challenges")
    assert done["url"] == "/me/challenges"  # from the account bar, by keyboard
    code = done["refusedCode"]
    assert isinstance(code, str)
    assert done["refused"] == ENGLISH[f"error.{code}"]


def test_declines_made_here_and_elsewhere_are_shown_live(seen: Json) -> None:
    done = step(seen, "challenges")
    assert done["incomingButtons"] == ["Accept", "Decline"]
    assert done["outgoingButtons"] == ["Cancel"]
    assert done["declinedHere"] == "declined by Anna"
    # The button gone with its row, the keyboard's focus is on what was told.
    assert done["focusAfter"] == ["told", "declined by Anna"]
    assert done["declinedThere"] == "declined by Bruno"
    assert done["cancelled"] == "cancelled"  # on the page, by Anna


def test_an_accepted_challenge_opens_its_game_with_the_three_seats(seen: Json) -> None:
    done = step(seen, "challenges")
    assert "5 minutes a turn" in str(done["clock"])
    assert "rated" in str(done["clock"])
    assert done["halfway"] == "waiting; accepted by Bruno"
    assert done["seats"] == ["0", "1", "2"]
    game = done["game"]
    assert isinstance(game, dict)
    assert game["rated"] is True
    assert game["status"] == "ACTIVE"
    assert sorted(player["name"] for player in game["players"]) == ["Anna", "Bruno", "Carlo"]
    assert done["started"] == "accepted: the game started"
    assert done["link"] == f"#/game/{quote(str(done['gameId']), safe='')}"


def test_a_pool_seek_made_on_the_page_is_matched_and_opens_its_game(seen: Json) -> None:
    pool = step(seen, "pool")
    assert pool["clocks"] == [
        ["real time", "1 minute a turn", "2 minutes a turn", "5 minutes a turn"],
        ["correspondence", "1 day a turn", "3 days a turn"],
    ]
    open_row = pool["open"]
    assert isinstance(open_row, list)
    assert open_row[:2] == ["RisiKo! · 4 players", "real time · 5 minutes a turn"]
    assert str(open_row[2]).startswith("looking for a table")
    assert pool["told"] == ENGLISH["play.joined"]
    assert pool["cancelled"] == "cancelled"  # a seek for three, on the page
    game = pool["game"]
    assert isinstance(game, dict)
    assert (game["rated"], game["speed"], game["status"]) == (True, "REAL_TIME", "ACTIVE")
    names = sorted(player["name"] for player in game["players"])
    assert names == ["Anna", "Ezio", "Fede", "Gino"]
    matched = pool["matched"]
    assert isinstance(matched, list)
    assert matched[2:] == ["matched: the game started", "Open the game"]
    assert pool["link"] == f"#/game/{quote(str(pool['gameId']), safe='')}"


def test_the_pages_are_in_italian_too(seen: Json) -> None:
    assert step(seen, "italian") == {"heading": "Sfide", "pool": "Gioca una partita valutata"}


def test_the_pages_are_accessible_and_in_words(seen: Json) -> None:
    pages = ["challenges-en", "pool-en", "challenges-it", "pool-it"]
    assert seen["axe"] == {page: [] for page in pages}
    assert seen["raw"] == []


def test_every_document_the_pages_sent_is_listed_and_none_refused(seen: Json) -> None:
    sent = seen["documents"]
    assert isinstance(sent, dict)
    assert {text: codes for text, codes in sent.items() if codes} == {}
    assert set(sent) <= listed_documents(), set(sent) - listed_documents()
    expected = {"MyChallenges", "ChallengeNews", "ChallengeAccounts", "DeclineChallenge"}
    assert expected | {"MySeeks", "JoinSeek"} <= operations(sent)
