"""The web client's ratings in a real browser against a real server
(tests/node/webclient-ratings.mjs): four accounts made through the API play rated games to
their end by resignations; a game's page marks it rated with its speed and shows each
player's rating and the expected ranking before and during the game; the profiles show the
ratings and their history as the API has them; the leaderboard, opened from the lobby by
keyboard, lists the players in the API's order (people and bots apart); a person creates a
rated game from the lobby's form, a chosen seed refused in words first. The pages are audited
(axe-core) in both languages and every document they sent is one the build listed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.support import ROOT, Server
from tests.e2e.web_client_support import listed_documents, operations, run_page_script

Json = dict[str, object]
PLAYERS = ["Anna", "Bruno", "Carlo", "Dora"]
# RISIKO_UPDATE_SCREENSHOTS=1: the pages' screenshots are written for docs/web-client.md.
SCREENSHOTS = ROOT / "docs" / "screenshots"


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> Json:
    folder = Path(tmp_path_factory.mktemp("web-ratings"))
    shots = SCREENSHOTS if os.environ.get("RISIKO_UPDATE_SCREENSHOTS") else folder
    server = Server(folder / "data").start()
    return run_page_script("webclient-ratings.mjs", server, str(shots))


def steps(seen: Json) -> dict[str, object]:
    found = seen["steps"]
    assert isinstance(found, dict)
    return found


def test_a_rated_game_shows_its_speed_ratings_and_expected_ranking_before_and_during(
    seen: Json,
) -> None:
    done = steps(seen)
    for moment in ("before", "during"):
        shown = done[moment]
        assert isinstance(shown, dict)
        assert shown["rated"] == "Rated game, real time"
        assert shown["beside"] == [[str(seat), "1500?"] for seat in range(4)]  # newcomers
        # Four newcomers: equal chances, one shared expected place.
        assert sorted(row[2] for row in shown["expected"]) == PLAYERS
        assert {(row[1], row[3]) for row in shown["expected"]} == {("1", "25%")}


def test_settled_ratings_tell_the_players_apart_on_the_game_page(seen: Json) -> None:
    settled = steps(seen)["settled"]
    assert isinstance(settled, dict)
    assert settled["rated"] == "Partita valutata, in tempo reale"
    expected = settled["expected"]
    # By expected place: Anna, who won 13 of the 23 games, first (the others' order depends on
    # the territories each held when it resigned, which the dice drew).
    assert expected[0][2] == "Anna"
    assert sorted(row[2] for row in expected) == PLAYERS
    assert [row[1] for row in expected] == ["1", "2", "3", "4"]
    chances = [float(row[3].rstrip("%").replace(",", ".").strip()) for row in expected]
    assert chances == sorted(chances, reverse=True)
    assert 98 <= sum(chances) <= 102
    # Beside each name, its rating: 23 games, settled.
    assert [seat for seat, _ in settled["beside"]] == ["0", "1", "2", "3"]
    assert all(rating.isdigit() for _, rating in settled["beside"])


def test_profiles_show_the_changed_ratings_and_their_history_as_the_api_has_them(
    seen: Json,
) -> None:
    profiles = steps(seen)["profiles"]
    assert isinstance(profiles, dict)
    for name in PLAYERS:
        profile = profiles[name]
        ratings = {rating["speed"]: rating for rating in profile["api"]["ratings"]}
        assert sorted(ratings) == ["CORRESPONDENCE", "REAL_TIME"]
        assert ratings["REAL_TIME"]["games"] == 24
        assert ratings["CORRESPONDENCE"]["games"] == 1
        assert ratings["CORRESPONDENCE"]["provisional"]
        speeds = {"REAL_TIME": "real time", "CORRESPONDENCE": "correspondence"}
        mark = {True: "?", False: ""}
        shown = [
            [
                "RisiKo!",
                speeds[r["speed"]],
                f"{r['rating']}{mark[r['provisional']]}",
                str(r["games"]),
            ]
            for r in profile["api"]["ratings"]
        ]
        assert profile["shown"] == shown  # as the API lists them
        history = profile["history"]
        changes = profile["api"]["ratingHistory"]["edges"]
        assert profile["firstPage"] == 20  # then the next page, asked for
        assert len(history) == len(changes) == 24  # newest first
        assert [row[0] for row in history] == [str(n) for n in range(24, 0, -1)]
        for row, edge in zip(history, changes, strict=True):
            before, after = edge["node"]["before"]["rating"], edge["node"]["after"]["rating"]
            assert row[2].rstrip("?") == str(before)
            assert row[3].rstrip("?") == str(after)
            delta = after - before
            sign = "+" if delta > 0 else "\N{MINUS SIGN}" if delta else "±"
            assert row[4] == f"{sign}{abs(delta)}"
    assert profiles["Anna"]["history"][-1][2] == "1500?"  # the first game from a newcomer's
    # The other rating's history, chosen on the page.
    correspondence = steps(seen)["correspondence"]
    assert isinstance(correspondence, dict)
    assert correspondence["heading"] == "Rating history: RisiKo!, correspondence"
    assert correspondence["history"] == [correspondence["game"]]
    # The last game's page showed, beside each name, the rating its history has before it.
    settled = steps(seen)["settled"]
    assert isinstance(settled, dict)
    beside = settled["beside"]
    assert beside == [
        [str(seat), profiles[name]["history"][0][2]] for seat, name in enumerate(PLAYERS)
    ]


def test_the_leaderboard_lists_the_players_in_the_apis_order(seen: Json) -> None:
    board = steps(seen)["board"]
    assert isinstance(board, dict)
    assert board["url"] == "/leaderboard/classic/real-time/people"
    assert board["title"] == "Leaderboard: RisiKo!, real time (People)"
    api = board["api"]
    assert api[0]["account"]["name"] == "Anna"  # 14 wins of 24
    assert sorted(entry["account"]["name"] for entry in api) == PLAYERS  # none provisional
    assert board["rows"] == [
        [str(e["place"]), e["account"]["name"], str(e["rating"]["rating"]), "24"] for e in api
    ]
    assert board["bots"] == "Nobody is on this leaderboard yet."


def test_a_person_creates_a_rated_game_from_the_form(seen: Json) -> None:
    created = steps(seen)["created"]
    assert isinstance(created, dict)
    assert "accounts only" in created["help"]
    assert "seed" in created["help"]
    assert sorted(created["disabled"]) == ["accountsOnly", "bots", "policy", "start"]
    assert created["refused"] == (
        "A rated game's dice are nobody's choice: leave the seed empty, or make the game unrated."
    )
    assert created["rated"] == "Rated game, correspondence"  # no clock
    assert created["api"] == {
        "rated": True,
        "speed": "CORRESPONDENCE",
        "status": "LOBBY",
        "seedChosen": False,
        "players": [{"name": "Anna"}],
    }


def test_the_rating_pages_are_accessible_and_in_words(seen: Json) -> None:
    pages = ["game-lobby-en", "game-it", "profile-en", "profile-it", "leaderboard-en"]
    pages += ["leaderboard-it", "lobby-rated-en"]
    assert seen["axe"] == {page: [] for page in pages}
    assert seen["raw"] == []


def test_every_document_the_rating_pages_sent_is_listed_and_none_refused(seen: Json) -> None:
    sent = seen["documents"]
    assert isinstance(sent, dict)
    assert {text: codes for text, codes in sent.items() if codes} == {}
    assert set(sent) <= listed_documents(), set(sent) - listed_documents()
    assert {"ProfileRatings", "RatingHistory", "Leaderboard", "GameState"} <= operations(sent)
