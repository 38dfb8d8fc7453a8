"""Tournaments through GraphQL on both stores: 16 bot accounts play 3 rounds of tables of 4
to final standings, every command a mutation of the accounts' own tokens; the standings the
API reads equal those recomputed from the games' results (competition.standings); each
refusal is a typed user error that changes nothing, a missing scope fails the request."""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from hashlib import sha256
from pathlib import Path
from typing import Any

import pytest

from api.graphql.ids import from_global_id
from api.tournaments.games import result_of
from api.tournaments.service import Tournaments
from bots.seated import BotPolicy, seated_choice
from competition.draw import commitment, lot
from competition.record import check, digest
from competition.standings import Standings
from domain.errors import RuleViolation
from tests.integration.api_support import Api, body, data, in_process, registered

pytestmark = pytest.mark.anyio
Json = dict[str, Any]

ERRORS = "userErrors { code message }"
TOURNAMENT = """id status rounds commitment seed
  roundsPlayed { number ended description digest tables { gameId players { name } } }
  entrants { name } standings { place account { name } points games objectives lot }"""
PAYLOAD = f"{{ tournament {{ {TOURNAMENT} }} {ERRORS} }}"
CREATE = (
    f"""mutation($input: CreateTournamentInput!) {{ createTournament(input: $input) {PAYLOAD} }}"""
)
REGISTER = f"""mutation($id: ID!) {{
  registerForTournament(input: {{tournamentId: $id}}) {PAYLOAD} }}"""
CLOSE = f"""mutation($id: ID!) {{
  closeTournamentRegistration(input: {{tournamentId: $id}}) {PAYLOAD} }}"""
START = f"""mutation($id: ID!, $round: Int!) {{
  startTournamentRound(input: {{tournamentId: $id, round: $round}}) {PAYLOAD} }}"""
READ = f"query($id: ID!) {{ tournament(id: $id) {{ {TOURNAMENT} }} }}"
LIST = """query($after: String) { tournaments(first: 1, after: $after) {
  edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }"""
LEAVE = f"mutation($game: ID!) {{ leaveGame(input: {{gameId: $game}}) {{ {ERRORS} }} }}"
TOKEN = """mutation { createApiToken(input: {name: "play", scopes: [GAMES_PLAY]}) { token } }"""


@pytest.fixture(params=["embedded", "mongodb"])
async def api(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Api]:
    settings: dict[str, Any] = {"budget_points": 0}
    if request.param == "mongodb":
        settings["store"] = request.getfixturevalue("mongo_uri")
    async with in_process(tmp_path / "data", **settings) as running:
        yield running


async def mutate(api: Api, query: str, token: str, name: str, **variables: Any) -> Json:
    answer: Json = (await data(api.client, query, variables, token))[name]
    return answer


def codes(payload: Json) -> list[str]:
    return [error["code"] for error in payload["userErrors"]]


async def test_sixteen_bots_play_three_rounds_through_the_api(api: Api) -> None:
    organiser = await registered(api, "Organiser")
    bots = {f"Bot{n:02d}": await registered(api, f"Bot{n:02d}", bot=True) for n in range(16)}
    closes = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    made = await mutate(
        api,
        CREATE,
        organiser,
        "createTournament",
        input={"name": "Coppa", "rounds": 3, "registrationClosesAt": closes, "admits": "BOTS"},
    )
    assert made["userErrors"] == []
    tid = made["tournament"]["id"]
    for token in bots.values():
        assert codes(await mutate(api, REGISTER, token, "registerForTournament", id=tid)) == []
    again = await mutate(api, REGISTER, bots["Bot00"], "registerForTournament", id=tid)
    assert codes(again) == ["ALREADY_REGISTERED"]
    assert codes(await mutate(api, REGISTER, organiser, "registerForTournament", id=tid)) == [
        "BOTS_ONLY"
    ]
    await mutate(api, CLOSE, organiser, "closeTournamentRegistration", id=tid)
    for number in (1, 2, 3):
        started = await mutate(api, START, organiser, "startTournamentRound", id=tid, round=number)
        early = await mutate(
            api, START, organiser, "startTournamentRound", id=tid, round=number + 1
        )
        assert codes(early) == (["ROUND_NOT_ENDED"] if number < 3 else ["WRONG_ROUND"])
        tables = started["tournament"]["roundsPlayed"][-1]["tables"]
        assert [len(table["players"]) for table in tables] == [4, 4, 4, 4]
        await check_seed_hidden(api, tid, organiser)
        for table in tables:
            for player in table["players"][1:]:  # all but one resign: the game ends
                left = await mutate(
                    api, LEAVE, bots[player["name"]], "leaveGame", game=table["gameId"]
                )
                assert left["userErrors"] == []
    final = (await data(api.client, READ, {"id": tid}))["tournament"]
    assert final["status"] == "FINISHED"
    tournaments: Tournaments = api.app.state.tournaments
    record = await tournaments.get(raw(tid, "Tournament"))
    games = [raw(t["gameId"], "Game") for r in final["roundsPlayed"] for t in r["tables"]]
    results = [result_of(await api.service.session(game)) for game in games]
    counted = [result for result in results if result is not None]
    assert len(counted) == 12
    recomputed = Standings.from_results(record.seed, record.entrants, counted).rows()
    names = {await _id(api, name): name for name in bots}
    assert [
        (row["account"]["name"], row["points"], row["games"]) for row in final["standings"]
    ] == [(names[row.player], row.points, row.games) for row in recomputed]
    assert [row["games"] for row in final["standings"]] == [3] * 16
    await check_exports(api, tid, final["standings"])
    check_rounds_verify(final)


async def check_seed_hidden(api: Api, tid: str, organiser: str) -> None:
    """Before the end the seed is null for everyone, the organiser included, and no export
    holds it; each round's description is out already (with its digest)."""
    for token in (organiser, None):
        shown = (await data(api.client, READ, {"id": tid}, token))["tournament"]
        assert shown["status"] == "PLAYING"
        assert shown["seed"] is None
        latest = shown["roundsPlayed"][-1]
        assert latest["digest"] == sha256(latest["description"].encode()).hexdigest()
        exported = (await data(api.client, EXPORT, {"id": tid}, token))["tournament"]
        assert "seed" not in json.loads(exported["json"])
    record = await api.app.state.tournaments.get(raw(tid, "Tournament"))
    assert record.seed.hex() not in json.dumps(shown)


def check_rounds_verify(final: Json) -> None:
    """Once finished, what the API returns alone verifies every round: the revealed seed is
    the committed one and gives each round's tables (competition/record.py); the players'
    lots in the standings, drawn from the seed and their ids, tie the description's ids to the
    names the tables show."""
    seed = bytes.fromhex(final["seed"])
    assert commitment(seed) == final["commitment"]
    named = {row["lot"]: row["account"]["name"] for row in final["standings"]}
    for number, round_ in enumerate(final["roundsPlayed"], start=1):
        description = json.loads(round_["description"])
        assert check(description, seed) is None
        assert round_["digest"] == digest(description)
        assert description["round"] == number
        shown = [[player["name"] for player in table["players"]] for table in round_["tables"]]
        assert [[named[lot(seed, p)] for p in table] for table in description["tables"]] == shown
    forged = json.loads(final["roundsPlayed"][1]["description"])
    forged["tables"][0][0], forged["tables"][1][0] = forged["tables"][1][0], forged["tables"][0][0]
    assert check(forged, seed) is not None


EXPORT = """query($id: ID!) { tournament(id: $id) {
  json: export(format: JSON) standings: export(format: STANDINGS_CSV)
  games: export(format: GAMES_CSV) } }"""


async def check_exports(api: Api, tid: str, standings: list[Json]) -> None:
    exported = (await data(api.client, EXPORT, {"id": tid}))["tournament"]
    whole = json.loads(exported["json"])
    assert [(row["player"], row["points"]) for row in whole["standings"]] == [
        (row["account"]["name"], row["points"]) for row in standings
    ]
    assert len(whole["games"]) == 12 * 4
    assert whole["seed"] == (await api.app.state.tournaments.get(raw(tid, "Tournament"))).seed.hex()
    rows = list(csv.DictReader(io.StringIO(exported["standings"])))
    assert [(row["place"], row["player"]) for row in rows] == [
        (str(row["place"]), row["account"]["name"]) for row in standings
    ]
    lines = list(csv.DictReader(io.StringIO(exported["games"])))
    assert len(lines) == 48
    assert {line["round"] for line in lines} == {"1", "2", "3"}
    points: dict[str, int] = {}
    for line in lines:
        points[line["player"]] = points.get(line["player"], 0) + int(line["score"])
    assert points == {row["account"]["name"]: row["points"] for row in standings}


def raw(global_id: str, type_name: str) -> str:
    decoded = from_global_id(global_id, type_name)
    assert decoded is not None
    return decoded[1]


async def _id(api: Api, name: str) -> str:
    record = await api.app.state.accounts.store.account_by_key(name.lower())
    assert record is not None
    account_id: str = record.id
    return account_id


async def test_the_organiser_scope_is_needed_and_tournaments_are_listed(api: Api) -> None:
    organiser = await registered(api, "Organiser")
    limited = (await data(api.client, TOKEN, {}, organiser))["createApiToken"]["token"]
    closes = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    variables = {"input": {"name": "Coppa", "rounds": 1, "registrationClosesAt": closes}}
    answer = await body(api.client, CREATE, variables, limited)
    assert answer["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    bad = await mutate(
        api, CREATE, organiser, "createTournament", input={**variables["input"], "rounds": 0}
    )
    assert codes(bad) == ["INVALID_TOURNAMENT"]
    ids = []
    for _ in range(2):
        made = await mutate(api, CREATE, organiser, "createTournament", **variables)
        ids.append(made["tournament"]["id"])
    page = (await data(api.client, LIST, {}))["tournaments"]
    assert [edge["node"]["id"] for edge in page["edges"]] == ids[:1]
    assert page["pageInfo"]["hasNextPage"]
    after = page["pageInfo"]["endCursor"]
    page = (await data(api.client, LIST, {"after": after}))["tournaments"]
    assert [edge["node"]["id"] for edge in page["edges"]] == ids[1:]
    assert not page["pageInfo"]["hasNextPage"]
    assert (await data(api.client, READ, {"id": "nothing"}))["tournament"] is None


CLOCKED = """id clock { turnSeconds absence resignAfter } roundLimit timeLimitMinutes
  startRoundsAutomatically
  roundsPlayed { tables { gameId } }"""
CLOCKED_PAYLOAD = f"{{ tournament {{ {CLOCKED} }} {ERRORS} }}"
GAME_LIMITS = """query($id: ID!) { game(id: $id) {
  timeControl { turnSeconds absence resignAfter } options { roundLimit timeLimitMinutes } } }"""


async def test_a_clock_and_a_round_limit_for_every_table(api: Api) -> None:
    organiser = await registered(api, "Organiser")
    closes = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    clock = {"turnSeconds": 90, "absence": "MINIMAL", "resignAfter": 2}
    settings = {"name": "Lampo", "rounds": 1, "registrationClosesAt": closes}
    create = CREATE.replace(PAYLOAD, CLOCKED_PAYLOAD)
    made = await mutate(
        api,
        create,
        organiser,
        "createTournament",
        input={
            **settings,
            "clock": clock,
            "roundLimit": 5,
            "timeLimitMinutes": 20,
            "startRoundsAutomatically": True,
        },
    )
    assert made["userErrors"] == []
    shown = made["tournament"]
    assert shown["clock"] == clock
    assert (shown["roundLimit"], shown["timeLimitMinutes"]) == (5, 20)
    assert shown["startRoundsAutomatically"] is True
    tid = shown["id"]
    for number in range(3):
        player = await registered(api, f"Player{number}")
        assert codes(await mutate(api, REGISTER, player, "registerForTournament", id=tid)) == []
    await mutate(api, CLOSE, organiser, "closeTournamentRegistration", id=tid)
    start = START.replace(PAYLOAD, CLOCKED_PAYLOAD)
    started = await mutate(api, start, organiser, "startTournamentRound", id=tid, round=1)
    (table,) = started["tournament"]["roundsPlayed"][0]["tables"]
    game = (await data(api.client, GAME_LIMITS, {"id": table["gameId"]}))["game"]
    assert game["timeControl"] == clock
    assert game["options"] == {"roundLimit": 5, "timeLimitMinutes": 20}
    plain = await mutate(api, create, organiser, "createTournament", input=settings)
    assert (plain["tournament"]["clock"], plain["tournament"]["roundLimit"]) == (None, None)
    assert plain["tournament"]["startRoundsAutomatically"] is False


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"roundLimit": 0}, "a round limit of 1 to 100 rounds"),
        ({"roundLimit": 101}, "a round limit of 1 to 100 rounds"),
        ({"clock": {"turnSeconds": 60, "bankSeconds": 600}}, "a time per turn or a time bank"),
        ({"clock": {"turnSeconds": 60, "resignAfter": 0}}, "resign_after must be 1 to 100"),
        ({"clock": {"turnSeconds": 0.5}}, "turn_seconds must be 1 to"),
    ],
)
async def test_a_bad_clock_or_round_limit_is_refused(api: Api, change: Json, named: str) -> None:
    organiser = await registered(api, "Organiser")
    closes = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    settings = {"name": "Lampo", "rounds": 1, "registrationClosesAt": closes, **change}
    refused = await mutate(api, CREATE, organiser, "createTournament", input=settings)
    assert codes(refused) == ["INVALID_TOURNAMENT"]
    assert named in refused["userErrors"][0]["message"]
    listed = (await data(api.client, LIST, {}))["tournaments"]
    assert listed["edges"] == []


SPQR = """id tableOptions roundsPlayed { tables { gameId players { name } } }
  standings { account { name } points games objectives }"""
SPQR_PAYLOAD = f"{{ tournament {{ {SPQR} }} {ERRORS} }}"


async def test_an_spqr_tournament_scores_the_victory_points(api: Api) -> None:
    """Six accounts at two tables of three, one round: one table plays to its round limit
    (or its victory-point target), the other ends by two resignations; each player's points
    are its victory points, and the target reached is the objective achieved."""
    organiser = await registered(api, "Organiser")
    players = {f"Legate{n}": await registered(api, f"Legate{n}") for n in range(6)}
    closes = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    settings = {"name": "Ludi", "rounds": 1, "registrationClosesAt": closes, "variant": "spqr"}
    settings |= {"tableSize": 3, "roundLimit": 8, "victoryPoints": 2}
    made = await mutate(
        api, CREATE.replace(PAYLOAD, SPQR_PAYLOAD), organiser, "createTournament", input=settings
    )
    assert made["userErrors"] == []
    assert made["tournament"]["tableOptions"] == {
        "victory_points": 2,
        "time_limit_minutes": 60,
        "round_limit": 8,
    }
    tid = made["tournament"]["id"]
    for token in players.values():
        assert codes(await mutate(api, REGISTER, token, "registerForTournament", id=tid)) == []
    await mutate(api, CLOSE, organiser, "closeTournamentRegistration", id=tid)
    start = START.replace(PAYLOAD, SPQR_PAYLOAD)
    started = await mutate(api, start, organiser, "startTournamentRound", id=tid, round=1)
    played, resigned = started["tournament"]["roundsPlayed"][0]["tables"]
    for player in resigned["players"][1:]:
        left = await mutate(
            api, LEAVE, players[player["name"]], "leaveGame", game=resigned["gameId"]
        )
        assert left["userErrors"] == []
    await play_until_the_end(api, raw(played["gameId"], "Game"))
    final = (await data(api.client, READ.replace(TOURNAMENT, SPQR), {"id": tid}))["tournament"]
    expected: dict[str, tuple[int, int]] = {}
    for table in (played, resigned):
        session = await api.service.session(raw(table["gameId"], "Game"))
        game = session.game
        assert game is not None
        assert session.record.options["victory_points"] == 2
        assert session.record.options["round_limit"] == 8
        for seat, player in enumerate(table["players"]):
            aimed = game.end_reason == "victory_points" and game.winner == seat
            expected[player["name"]] = (game.points(seat), int(aimed))
    assert {
        row["account"]["name"]: (row["points"], row["objectives"]) for row in final["standings"]
    } == expected
    assert [row["games"] for row in final["standings"]] == [1] * 6


async def play_until_the_end(api: Api, game_id: str) -> None:
    """Each seat, as its account, plays as the server's odds bot would, until the end."""
    for _ in range(50_000):
        session = await api.service.session(game_id)
        if session.record.status == "finished":
            return
        game = session.game
        assert game is not None
        seat = game.seat_to_act
        assert seat is not None
        account = session.record.seats[seat].account_id
        choice = seated_choice(BotPolicy.ODDS, game, seat, random.Random(session.record.version))
        try:
            await api.service.submit_action(game_id, None, choice, account=account)
        except RuleViolation:  # as the server does for its bots (api/scheduler.py)
            await api.service.submit_action(game_id, None, game.least_action(seat), account=account)
    raise AssertionError("the game never ended")


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"variant": "piu"}, "a tournament plays one of these games: classic, spqr; not 'piu'"),
        ({"variant": "futurisiko"}, "classic, spqr"),
        ({"victoryPoints": 20}, "only the game's tournament options (none), not victory_points"),
        ({"variant": "spqr", "victoryPoints": 0}, "victory_points must be at least 1"),
        ({"variant": "spqr", "tableSize": 6}, "tables of 3 to 5"),
    ],
)
async def test_only_the_games_that_score_points_and_their_options(
    api: Api, change: Json, named: str
) -> None:
    organiser = await registered(api, "Organiser")
    closes = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    settings = {"name": "Ludi", "rounds": 1, "registrationClosesAt": closes, **change}
    refused = await mutate(api, CREATE, organiser, "createTournament", input=settings)
    assert codes(refused) == ["INVALID_TOURNAMENT"]
    assert named in refused["userErrors"][0]["message"]
