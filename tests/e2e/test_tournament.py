"""A tournament through the real server (a `risiko serve` process), on both stores: 16 bot
accounts, each with its own credential, register; the organiser closes the registration and
starts 3 rounds of tables of 4; at each table three players resign (the game ends, its last
player the winner); the final standings the server reads equal those recomputed with
`competition.standings` from the games' own outcomes, as any client can read them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from competition.results import GameResult, from_ranking
from competition.standings import Standings
from tests.e2e.support import Server, Socket, open_socket
from tests.e2e.test_accounts import BECOME_BOT, Api, register

pytestmark = pytest.mark.anyio
Json = dict[str, Any]

ERRORS = "userErrors { code }"
PAYLOAD = (
    f"{{ tournament {{ id roundsPlayed {{ tables {{ gameId players {{ name }} }} }} }} {ERRORS} }}"
)
CREATE = f"mutation($i: CreateTournamentInput!) {{ createTournament(input: $i) {PAYLOAD} }}"
REGISTER = f"mutation($t: ID!) {{ registerForTournament(input: {{tournamentId: $t}}) {PAYLOAD} }}"
CLOSE = (
    f"mutation($t: ID!) {{ closeTournamentRegistration(input: {{tournamentId: $t}}) {PAYLOAD} }}"
)
START = f"""mutation($t: ID!, $r: Int!) {{
  startTournamentRound(input: {{tournamentId: $t, round: $r}}) {PAYLOAD} }}"""
LEAVE = f"mutation($g: ID!) {{ leaveGame(input: {{gameId: $g}}) {{ {ERRORS} }} }}"
READ = """query($t: ID!) { tournament(id: $t) { status
  roundsPlayed { ended tables { gameId } }
  standings { place account { name } games points objectives opponentsPoints bestGame } } }"""
NEWS = "subscription($t: ID!) { tournamentNews(id: $t) { kind round gameId } }"
GAME = """query($g: ID!) { game(id: $g) { status
  players { seat resigned account { name } }
  outcome { winner reason ranking { rank seat points } } } }"""


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
        yield client


async def bot(http: httpx.AsyncClient, number: int) -> tuple[str, str]:
    """A bot account registered from an address of its own: its name and session."""
    api = Api(http, f"192.0.2.{number + 20}")
    name = f"Bot{number:02d}"
    token = await register(api, name)
    assert (await api.data(BECOME_BOT, token))["becomeBot"]["userErrors"] == []
    return name, token


def result_of(game_id: str, game: Json) -> GameResult:
    outcome = game["outcome"]
    players = sorted(game["players"], key=lambda player: player["seat"])
    ranking = [(entry["rank"], entry["seat"], entry["points"]) for entry in outcome["ranking"]]
    return from_ranking(
        game_id,
        [player["account"]["name"] for player in players],
        ranking,
        objective_seat=outcome["winner"] if outcome["reason"] == "objective" else None,
        resigned=[player["seat"] for player in players if player["resigned"]],
    )


async def news_until_finished(socket: Socket) -> list[Json]:
    told = []
    while (message := await socket.until("news", timeout=30))["type"] == "next":
        told.append(message["payload"]["data"]["tournamentNews"])
    assert message["type"] == "complete", message
    return told


async def test_sixteen_bots_play_a_tournament_to_its_final_standings(
    http: httpx.AsyncClient, server: Server
) -> None:
    api = Api(http)
    organiser = await register(api, "Organiser")
    bots = dict([await bot(http, number) for number in range(16)])
    closes = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    settings = {"name": "Coppa", "rounds": 3, "registrationClosesAt": closes, "admits": "BOTS"}
    made = (await api.data(CREATE, organiser, i=settings))["createTournament"]
    assert made["userErrors"] == []
    tid = made["tournament"]["id"]
    async with open_socket(server.ws_url) as socket:
        await socket.subscribe("news", NEWS, {"t": tid})
        await asyncio.sleep(1.5)  # the stream has read the tournament once
        await play(api, tid, organiser, bots)
        told = await news_until_finished(socket)
    kinds = [news["kind"] for news in told]
    assert kinds.count("ROUND_STARTED") == 3
    assert kinds.count("GAME_ENDED") == 12
    assert "STANDINGS_CHANGED" in kinds
    assert kinds[-1] == "FINISHED"
    assert [news["round"] for news in told if news["kind"] == "ROUND_STARTED"] == [1, 2, 3]
    await check_standings(api, tid, bots)


async def play(api: Api, tid: str, organiser: str, bots: dict[str, str]) -> None:
    for token in bots.values():
        assert (await api.data(REGISTER, token, t=tid))["registerForTournament"]["userErrors"] == []
    assert (await api.data(CLOSE, organiser, t=tid))["closeTournamentRegistration"][
        "userErrors"
    ] == []
    for number in (1, 2, 3):
        started = (await api.data(START, organiser, t=tid, r=number))["startTournamentRound"]
        assert started["userErrors"] == []
        tables = started["tournament"]["roundsPlayed"][-1]["tables"]
        assert [len(table["players"]) for table in tables] == [4, 4, 4, 4]
        for table in tables:
            for player in table["players"][1:]:
                left = (await api.data(LEAVE, bots[player["name"]], g=table["gameId"]))["leaveGame"]
                assert left["userErrors"] == []


async def check_standings(api: Api, tid: str, bots: dict[str, str]) -> None:
    final = (await api.data(READ, t=tid))["tournament"]
    assert final["status"] == "FINISHED"
    assert all(round_["ended"] for round_ in final["roundsPlayed"])
    games = [table["gameId"] for round_ in final["roundsPlayed"] for table in round_["tables"]]
    results = [result_of(game, (await api.data(GAME, g=game))["game"]) for game in games]
    recomputed = Standings.from_results(b"the lots are not compared", bots, results).rows()
    served = final["standings"]
    line = ("games", "points", "objectives", "opponentsPoints", "bestGame")
    assert sorted((row["account"]["name"], *(row[k] for k in line)) for row in served) == sorted(
        (row.player, row.games, row.points, row.objectives, row.opponents_points, row.best_game)
        for row in recomputed
    )
    keys = [tuple(row[k] for k in line[1:]) for row in served]
    assert keys == sorted(keys, reverse=True)  # the tie-breaks order them; the lot decides last
    assert [row["place"] for row in served] == list(range(1, 17))
    assert all(row["games"] == 3 for row in served)
