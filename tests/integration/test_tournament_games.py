"""A tournament's rounds as games of the server, on both stores: each table a game with the
tournament rules and the time limit, its seats bound to the entrants' accounts, started;
a round started twice opens each game once; each game that ends counts once, and the
standings equal those recomputed from the games' own results."""

from __future__ import annotations

import asyncio
import csv
import io
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from api.accounts.scopes import Principal
from api.accounts.service import Accounts
from api.stores.base import GameStatus
from api.tournaments.commands import CreateTournament
from api.tournaments.export import ExportFormat, export
from api.tournaments.games import result_of
from api.tournaments.records import TournamentStatus
from api.tournaments.service import Tournaments
from competition.results import Presence
from competition.standings import Standings
from tests.integration.api_support import Api, in_process, registered

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["embedded", "mongodb"])
async def api(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Api]:
    settings: dict[str, Any] = {"budget_points": 0}
    if request.param == "mongodb":
        settings["store"] = request.getfixturevalue("mongo_uri")
    async with in_process(tmp_path / "data", **settings) as running:
        yield running


async def principal(api: Api, name: str, bot: bool = False) -> Principal:
    accounts: Accounts = api.app.state.accounts
    return await accounts.authenticate(await registered(api, name, bot=bot))


async def closed_tournament(api: Api, bots: int, rounds: int) -> tuple[Principal, str]:
    """The organiser and a tournament of `bots` bot accounts, its registration closed."""
    tournaments: Tournaments = api.app.state.tournaments
    organiser = await principal(api, "Organiser")
    command = CreateTournament("Coppa dei bot", rounds, time.time() + 3600, time_limit_minutes=30)
    tid = (await tournaments.create(organiser, command)).id
    for number in range(bots):
        await tournaments.register(await principal(api, f"Bot{number:02d}", bot=True), tid)
    await tournaments.close_registration(organiser, tid)
    return organiser, tid


async def test_sixteen_bots_play_three_rounds_to_the_recomputed_standings(api: Api) -> None:
    tournaments: Tournaments = api.app.state.tournaments
    organiser, tid = await closed_tournament(api, 16, 3)
    for number in (1, 2, 3):
        record = await tournaments.start_round(organiser, tid, number)
        assert await tournaments.start_round(organiser, tid, number) == record  # seated once
        tables = record.played[-1].tables
        assert [len(table.players) for table in tables] == [4, 4, 4, 4]
        for table in tables:
            session = await api.service.session(table.game)
            assert session.record.status == GameStatus.ACTIVE
            assert tuple(seat.account_id for seat in session.record.seats) == table.players
            assert session.record.options["time_limit_minutes"] == 30
            assert session.record.admission.accounts_required
            for player in table.players[1:]:  # all but one resign: the game ends
                await api.service.leave_game(table.game, None, account=player)
        record = await tournaments.settle(tid)
        assert record.current is not None
        assert record.current.ended
    final = await tournaments.get(tid)
    assert final.status is TournamentStatus.FINISHED
    games = [table.game for round_ in final.played for table in round_.tables]
    results = [result_of(await api.service.session(game)) for game in games]
    assert None not in results
    recomputed = Standings.from_results(final.seed, final.entrants, results)  # type: ignore[arg-type]
    assert final.standings().rows() == recomputed.rows()
    assert [row.games for row in recomputed.rows()] == [3] * 16
    pairs = [
        frozenset((a, b))
        for round_ in final.played
        for table in round_.tables
        for a in table.players
        for b in table.players
        if a < b
    ]
    assert len(set(pairs)) == len(pairs) == 3 * 4 * 6  # nobody meets anyone twice


async def test_a_game_counts_as_it_ends_with_no_tournament_read_between(api: Api) -> None:
    tournaments: Tournaments = api.app.state.tournaments
    organiser, tid = await closed_tournament(api, 8, 2)
    first, _ = (await tournaments.start_round(organiser, tid, 1)).played[-1].tables
    assert await tournaments.store.tournament_of_game(first.game) == tid
    for player in first.players[1:]:
        await api.service.leave_game(first.game, None, account=player)
    stored = await tournaments.store.tournament(tid)  # the store as written, no settling
    assert stored is not None
    assert stored.current is not None
    counted, waiting = stored.current.tables
    assert counted.result == result_of(await api.service.session(first.game))
    assert waiting.result is None
    assert sorted(row.games for row in stored.standings().rows()) == [0] * 4 + [1] * 4


async def test_a_game_of_no_tournament_ends_as_before(api: Api) -> None:
    tournaments: Tournaments = api.app.state.tournaments
    assert await tournaments.store.tournament_of_game("f" * 32) is None
    await tournaments.game_finished("f" * 32)  # no tournament plays it: nothing to count


@pytest.mark.parametrize("store", ["embedded", "mongodb"])
async def test_a_player_who_never_acts_is_absent_and_one_who_played_then_left_resigned(
    tmp_path: Path, request: pytest.FixtureRequest, store: str
) -> None:
    """One table of three under a short clock that resigns at the first absence: the absent
    account never acts, the clock plays and resigns it (ABSENT, 0 points in the standings and
    the export); another plays a move and then leaves (RESIGNED); the third plays on to win."""
    settings: dict[str, Any] = {"budget_points": 0, "clock_interval_seconds": 0.05}
    if store == "mongodb":
        settings["store"] = request.getfixturevalue("mongo_uri")
    async with in_process(tmp_path / "data", **settings) as api:
        tournaments: Tournaments = api.app.state.tournaments
        organiser = await principal(api, "Organiser")
        clock = {"turn_seconds": 4, "absence": "minimal", "resign_after": 1}
        command = CreateTournament("Assenti", 1, time.time() + 3600, clock=clock)
        tid = (await tournaments.create(organiser, command)).id
        for name in ("Absent", "Leaver", "Stayer"):
            await tournaments.register(await principal(api, name), tid)
        await tournaments.close_registration(organiser, tid)
        (table,) = (await tournaments.start_round(organiser, tid, 1)).played[0].tables
        names = {await account_id(api, name): name for name in ("Absent", "Leaver", "Stayer")}
        seat_of = {names[player]: seat for seat, player in enumerate(table.players)}
        await play_until_the_end(api, table.game, seat_of)
        final = await tournaments.settle(tid)
    assert final.status is TournamentStatus.FINISHED
    (line,) = [t.result for t in final.played[0].tables]
    assert line is not None
    presence = {names[result.player]: result.presence for result in line.players}
    assert presence == {
        "Absent": Presence.ABSENT,
        "Leaver": Presence.RESIGNED,
        "Stayer": Presence.PLAYED,
    }
    scores = {names[row.player]: row.points for row in final.standings().rows()}
    absent = next(r for r in line.players if names[r.player] == "Absent")
    assert absent.score == 0
    assert scores["Absent"] == 0
    exported = export(final, names, ExportFormat.GAMES_CSV)
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(exported))}
    assert (rows["Absent"]["presence"], rows["Absent"]["score"]) == ("absent", "0")
    assert rows["Leaver"]["presence"] == "resigned"


async def play_until_the_end(api: Api, game_id: str, seat_of: dict[str, int]) -> None:
    """The Stayer and the Leaver play the least the rules allow whenever they are to act,
    the Leaver leaving after its first move; the Absent waits for the clock."""
    left = False
    for _ in range(2000):
        session = await api.service.session(game_id)
        game = session.game
        if session.record.status == GameStatus.FINISHED:
            return
        assert game is not None
        seat = game.seat_to_act
        player = session.record.seats[seat].account_id if seat is not None else None
        if seat in (seat_of["Stayer"], seat_of["Leaver"]) and not (
            seat == seat_of["Leaver"] and left
        ):
            await api.service.submit_action(game_id, None, game.least_action(seat), account=player)
            if seat == seat_of["Leaver"]:
                await api.service.leave_game(game_id, None, account=player)
                left = True
            continue
        await asyncio.sleep(0.05)
    raise AssertionError("the game never ended")


async def account_id(api: Api, name: str) -> str:
    record = await api.app.state.accounts.store.account_by_key(name.lower())
    assert record is not None
    found: str = record.id
    return found


async def test_on_a_schedule_the_next_round_starts_as_the_last_game_ends(api: Api) -> None:
    tournaments: Tournaments = api.app.state.tournaments
    organiser = await principal(api, "Organiser")
    command = CreateTournament("Coppa", 2, time.time() + 3600, start_automatically=True)
    tid = (await tournaments.create(organiser, command)).id
    for number in range(8):
        await tournaments.register(await principal(api, f"Bot{number:02d}", bot=True), tid)
    await tournaments.close_registration(organiser, tid)
    first, second = (await tournaments.start_round(organiser, tid, 1)).played[0].tables
    for table in (first, second):
        stored = await tournaments.store.tournament(tid)  # as written: nothing settled it
        assert stored is not None
        assert len(stored.played) == 1  # not before the round's last game is counted
        for player in table.players[1:]:
            await api.service.leave_game(table.game, None, account=player)
    stored = await tournaments.store.tournament(tid)
    assert stored is not None
    assert stored.played[0].ended
    assert len(stored.played) == 2  # seated by the commit that ended the last game
    for table in stored.played[1].tables:
        session = await api.service.session(table.game)
        assert session.record.status == GameStatus.ACTIVE
        assert tuple(seat.account_id for seat in session.record.seats) == table.players
    assert await tournaments.start_round(organiser, tid, 2) == stored  # seated once
    for table in stored.played[1].tables:
        for player in table.players[1:]:
            await api.service.leave_game(table.game, None, account=player)
    final = await tournaments.store.tournament(tid)
    assert final is not None
    assert final.status is TournamentStatus.FINISHED
    assert len(final.played) == 2
