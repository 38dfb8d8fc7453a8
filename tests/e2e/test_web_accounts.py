"""The web client's account pages in a real browser against a real server
(tests/node/webclient-accounts.mjs): signing up, logging out and in (a refusal told in words),
a game created and another joined as the account, both listed in "my games" on another device,
an API token made, shown once, copied and revoked, and profiles; every new page audited
(axe-core) in both languages, and every document the pages sent one the build listed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.support import Server
from tests.e2e.web_client_support import listed_documents, operations, run_page_script

Json = dict[str, object]


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> Json:
    server = Server(Path(tmp_path_factory.mktemp("web-accounts")) / "data").start()
    return run_page_script("webclient-accounts.mjs", server)


def steps(seen: Json) -> dict[str, object]:
    found = seen["steps"]
    assert isinstance(found, dict)
    return found


def test_signing_up_logging_out_and_a_refused_log_in_in_words(seen: Json) -> None:
    done = steps(seen)
    assert done["signedUp"] == {"bar": "Carla", "count": "No games yet."}
    assert done["loggedOut"] is None  # the session forgotten by the browser
    assert done["refused"] == "Wrong name or password."


def test_a_game_created_for_accounts_and_one_joined_as_the_account_keep_no_seat_token(
    seen: Json,
) -> None:
    done = steps(seen)
    assert done["lobbyAs"] == "You play as Carla."
    assert done["admission"] == {"accountsRequired": True, "admits": "ANYONE"}  # as asked
    assert done["lobbyAction"] == "Play"  # the account's seat, wherever it sat down
    assert done["joinAs"] == "You sit down as Carla."
    assert done["seatTokens"] == []  # the session acts for the seats
    assert done["otherPlayers"] == ["Carla"]  # the seat bound to the account
    assert done["guestRefused"] == (
        "This game is for accounts only: log in or sign up to take a seat."
    )


def test_another_device_logged_in_as_the_account_lists_its_games(seen: Json) -> None:
    elsewhere = steps(seen)["elsewhere"]
    assert isinstance(elsewhere, dict)
    assert sorted(elsewhere["games"]) == sorted([elsewhere["created"], elsewhere["other"]])
    assert elsewhere["count"] == "2 partite"


def test_a_token_is_shown_once_copied_works_and_is_revoked(seen: Json) -> None:
    token = steps(seen)["token"]
    assert isinstance(token, dict)
    assert token["prefix"] == "rkp_"
    assert token["copied"] is True
    assert token["me"] == {
        "name": "Carla",
        "credential": {"kind": "API_TOKEN", "scopes": ["GAMES_READ", "GAMES_PLAY", "GAMES_CREATE"]},
    }
    name, scopes = token["listed"][:2]
    assert name == "arena bot"
    # The permissions in words (a list as the browser's language joins one).
    for scope in ("see my games and my cards in them", "join games and play", "create games"):
        assert scope in scopes
    assert "manage" not in scopes
    assert token["shownAgain"] == 0
    assert token["inPage"] is False
    assert token["afterRevoke"] == "UNAUTHENTICATED"


def test_profiles_show_games_results_and_bots(seen: Json) -> None:
    done = steps(seen)
    assert done["profile"] == {"title": "Carla", "results": [1, 0, 0], "games": 2}
    assert done["botProfile"] == {"title": "Robotta bot", "badge": 1}
    assert done["noProfile"] == "There is no such account."


def test_every_account_page_is_accessible_and_in_words_in_both_languages(seen: Json) -> None:
    pages = ("signup", "login", "myGames", "myTokens", "profile")
    assert seen["axe"] == {f"{page}-{locale}": [] for page in pages for locale in ("en", "it")}
    assert seen["raw"] == []


def test_every_document_the_account_pages_sent_is_listed_and_none_refused(seen: Json) -> None:
    sent = seen["documents"]
    assert isinstance(sent, dict)
    assert {text: codes for text, codes in sent.items() if codes} == {}
    assert set(sent) <= listed_documents(), set(sent) - listed_documents()
    assert {"Register", "LogIn", "LogOut", "MyGames", "MyTokens", "CreateApiToken"} <= operations(
        sent
    )
    assert {"RevokeApiToken", "Profile", "CreateGame", "JoinGame"} <= operations(sent)


def test_a_session_ended_elsewhere_is_dropped_and_the_game_watched_without_knocking_again(
    seen: Json,
) -> None:
    """The server closes the socket of a session that ended (4403); the open game's page
    forgets the session, logs out and watches, and opens at most one socket after (as a
    spectator), not one every second for ever."""
    ended = steps(seen)["sessionEnded"]
    assert isinstance(ended, dict)
    assert ended["changed"] == {"ended": 1, "userErrors": []}
    assert ended["session"] is None
    assert ended["socketsAfter"] <= 1
    assert ended["watching"] == 0  # no action offered: a spectator's page
    assert "Carla" in ended["players"]
    # What the page had under way when the session ended was refused as unauthenticated, and
    # nothing else: its stream, and maybe a read of the game it was making at that moment.
    refused = {tuple(refusal) for refusal in ended["refusals"]}
    assert refused
    assert {code for _, code in refused} == {"UNAUTHENTICATED"}
    assert {document for document, _ in refused} <= {
        "subscription GameEvents",
        "query GameState",
        "query Legal",
        "query LegalActions",
    }
