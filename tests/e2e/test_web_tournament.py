"""The web client's tournament pages in a real browser against a real server (embedded store;
tests/node/webclient-tournament.mjs): a person finds a tournament in the lobby on a phone,
registers and withdraws from its page by keyboard, and is refused a tournament for bots in
words; then 16 bot accounts play a tournament of 3 rounds of tables of 4 (three players resign
at each table, as tests/e2e/test_tournament.py plays it) while its organiser runs it from the
page in Italian: the tables of each round appear, a table's game opens as a spectator and shows
its moves as they are made, the open page's standings change as games end with no reload, and
the final standings shown are the API's. Every page audited (axe-core), in words, and every
document the pages sent one the build listed. RISIKO_UPDATE_SCREENSHOTS=1 writes the
screenshots of the tournament's page into docs/screenshots."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import ROOT, Server
from tests.e2e.web_client_support import listed_documents, operations, run_page_script

Json = dict[str, Any]
# RISIKO_UPDATE_SCREENSHOTS=1: the pages' screenshots are written for docs/web-client.md.
SCREENSHOTS = ROOT / "docs" / "screenshots"


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> Json:
    folder = Path(tmp_path_factory.mktemp("web-tournament"))
    shots = SCREENSHOTS if os.environ.get("RISIKO_UPDATE_SCREENSHOTS") else folder
    server = Server(folder / "data").start()
    return run_page_script("webclient-tournament.mjs", server, str(shots))


def test_the_lobby_lists_the_tournaments_registering_first(seen: Json) -> None:
    assert seen["steps"]["lobby"] == [
        ["Coppa dei bot", "RisiKo!", "registration open", "0 of 3", "0"],
        ["Coppa aperta", "RisiKo!", "registration open", "0 of 2", "0"],
    ]


def test_a_person_registers_and_withdraws_from_the_page_by_keyboard(seen: Json) -> None:
    person = seen["steps"]["person"]
    assert person["registered"] == {
        "entrants": ["Dora"],
        "said": "You are registered.",
        "focused": "withdraw",  # the focus stays on the command, now the other one
    }
    assert person["withdrawn"] == []
    # Registered while the page's socket was cut: shown once it is back, with no reload.
    assert seen["steps"]["reconnected"] == {"shown": True, "sameDocument": True}
    assert seen["steps"]["refused"] == "This tournament is for bot accounts only."
    assert seen["steps"]["phoneWidth"] <= 390  # nothing wider than the phone


def test_each_rounds_tables_appear_as_the_organiser_starts_them(seen: Json) -> None:
    bots = seen["steps"]["bots"]
    served = bots["api"]["roundsPlayed"]
    shown = [[(t["game"], t["players"]) for t in tables] for tables in bots["rounds"]]
    assert shown == [
        [(t["gameId"], [p["name"] for p in t["players"]]) for t in round_["tables"]]
        for round_ in served
    ]
    assert [len(tables) for tables in shown] == [4, 4, 4]
    # A round before the last one ended: refused, in Italian.
    assert bots["refusedEarly"] == "Il turno in corso non è ancora finito."
    assert bots["buttonsAtEnd"] == 0


def test_a_tables_game_opens_as_a_spectator_and_shows_its_moves_live(seen: Json) -> None:
    spectator = seen["steps"]["bots"]["spectator"]
    assert spectator["opened"] == seen["steps"]["bots"]["rounds"][0][0]["game"]
    assert spectator["after"] > spectator["before"]
    assert spectator["actions"] == 0  # a spectator: nothing to play
    assert spectator["sameDocument"] is True


def test_the_open_pages_standings_change_as_games_end_without_a_reload(seen: Json) -> None:
    bots = seen["steps"]["bots"]
    first, one_game, two_games = bots["standings"]
    assert all(line[2:] == [0, 0, 0, 0, 0] for line in first)
    assert sum(line[2] for line in one_game) == 4  # one table's four players counted
    assert sum(line[2] for line in two_games) == 8
    assert first != one_game != two_games
    assert bots["sameDocument"] is True


def test_the_final_standings_shown_are_the_apis(seen: Json) -> None:
    bots = seen["steps"]["bots"]
    assert bots["api"]["status"] == "FINISHED"
    keys = ("games", "points", "objectives", "opponentsPoints", "bestGame")
    served = [
        [line["place"], line["account"]["name"], *(line[k] for k in keys)]
        for line in bots["api"]["standings"]
    ]
    assert bots["finalShown"] == served
    assert bots["api"]["seed"]  # revealed at the end
    assert bots["seedShown"] == bots["api"]["seed"]
    assert len(served) == 16
    assert all(line[2] == 3 for line in served)


def test_the_pages_are_accessible_and_in_words(seen: Json) -> None:
    assert seen["axe"] == {"lobby-en": [], "tournament-en-phone": [], "tournament-it": []}
    assert seen["raw"] == []


def test_every_document_the_pages_sent_is_listed_and_none_refused(seen: Json) -> None:
    sent = seen["documents"]
    assert {text: codes for text, codes in sent.items() if codes} == {}
    assert set(sent) <= listed_documents(), set(sent) - listed_documents()
    assert {"Tournaments", "Tournament", "TournamentNews", "RegisterForTournament"} <= operations(
        sent
    )
    assert {"WithdrawFromTournament", "CloseTournamentRegistration"} <= operations(sent)
    assert "StartTournamentRound" in operations(sent)
