"""Ratings through the in-process app: a rated game whose instance never rated it (the
listener lost, as if the instance died after the game's commit) is noted by the commit that
finished it and rated once by the safety net, also after a restart; the history's pages and
the refusals of bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.ratings.records import HistoryEntry, Speed
from api.ratings.service import Ratings
from competition.ratings import Rating
from tests.integration.api_support import body, data, error_codes, in_process, registered

pytestmark = pytest.mark.anyio

ERRORS = "userErrors { code }"
CREATE = f"mutation {{ createGame(input: {{rated: true}}) {{ game {{ id }} {ERRORS} }} }}"
JOIN = f"mutation($g: ID!) {{ joinGame(input: {{gameId: $g}}) {{ {ERRORS} }} }}"
START = f"mutation($g: ID!) {{ startGame(input: {{gameId: $g}}) {{ {ERRORS} }} }}"
LEAVE = f"mutation($g: ID!) {{ leaveGame(input: {{gameId: $g}}) {{ {ERRORS} }} }}"
HISTORY = """query($n: String!, $v: String!, $first: Int, $after: String) { account(name: $n) {
  ratings { variant speed games }
  ratingHistory(variant: $v, speed: REAL_TIME, first: $first, after: $after) {
    edges { cursor node { number after { mu } } } pageInfo { hasNextPage endCursor } } } }"""
GAMES = """query($n: String!) { account(name: $n) {
  ratingHistory(variant: "classic", speed: CORRESPONDENCE) { edges { node { gameId } } } } }"""


async def test_a_rated_game_its_instance_never_rated_is_rated_by_the_safety_net(
    tmp_path: Path,
) -> None:
    async with in_process(tmp_path) as api:
        tokens = [await registered(api, f"Bot{n}", bot=True) for n in range(3)]
        ratings: Ratings = api.app.state.ratings
        api.service.work.finished = api.app.state.tournaments.game_finished  # ratings never told
        made = await data(api.client, CREATE, token=tokens[0])
        game = made["createGame"]["game"]["id"]
        for token in tokens:
            await data(api.client, JOIN, {"g": game}, token)
        await data(api.client, START, {"g": game}, tokens[0])
        for token in tokens[1:]:
            await data(api.client, LEAVE, {"g": game}, token)
        assert (await data(api.client, GAMES, {"n": "Bot0"}))["account"]["ratingHistory"][
            "edges"
        ] == []
        assert await ratings.store.undone(10) != []  # noted by the commit that finished it
        assert await ratings.catch_up() == 1
        assert await ratings.catch_up() == 0
    async with in_process(tmp_path) as api:  # a restart: its safety net finds it done
        restarted: Ratings = api.app.state.ratings
        assert await restarted.catch_up() == 0
        for name in ("Bot0", "Bot1", "Bot2"):
            edges = (await data(api.client, GAMES, {"n": name}))["account"]["ratingHistory"]
            assert [edge["node"]["gameId"] for edge in edges["edges"]] == [game]


async def test_the_rating_history_comes_in_pages_newest_first(tmp_path: Path) -> None:
    async with in_process(tmp_path) as api:
        token = await registered(api, "Ada")
        ada = (await api.app.state.accounts.authenticate(token)).account_id
        store = api.app.state.ratings.store
        for number in (1, 2, 3):
            before, after = Rating(24.0 + number, 8.0), Rating(25.0 + number, 8.0)
            entry = HistoryEntry(
                ada, "classic", Speed.REAL_TIME, number, f"g{number}", 1e9, False, before, after
            )
            assert await store.add_entry(entry)
        variables = {"n": "Ada", "v": "classic", "first": 2}
        account = (await data(api.client, HISTORY, variables))["account"]
        assert account["ratings"] == [{"variant": "classic", "speed": "REAL_TIME", "games": 3}]
        page = account["ratingHistory"]
        assert [edge["node"]["number"] for edge in page["edges"]] == [3, 2]
        assert page["pageInfo"]["hasNextPage"] is True
        variables["after"] = page["pageInfo"]["endCursor"]
        page = (await data(api.client, HISTORY, variables))["account"]["ratingHistory"]
        assert [edge["node"]["after"]["mu"] for edge in page["edges"]] == [26.0]
        assert page["pageInfo"]["hasNextPage"] is False
        unknown = await body(api.client, HISTORY, {"n": "Ada", "v": "nothing"})
        assert error_codes(unknown) == ["UNKNOWN_VARIANT"]
        foreign = await body(api.client, HISTORY, {"n": "Ada", "v": "classic", "after": "x"})
        assert error_codes(foreign) == ["BAD_USER_INPUT"]
        none = await body(api.client, HISTORY, {"n": "Ada", "v": "classic", "first": 0})
        assert error_codes(none) == ["BAD_USER_INPUT"]
