"""Accounts in games through the API, in-process, on both stores: a seat bound to an account,
acted for by its credential; who a game admits; scopes judged per operation with nothing done
when one is missing; an account's games and its public record; and what deleting an account
does to its games (its name anonymous in the finished ones, their logs intact)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from api.accounts.names import PLACEHOLDER
from api.graphql.ids import from_global_id
from tests.integration.api_support import (
    ACCOUNT_PASSWORD,
    Api,
    body,
    data,
    in_process,
    mirror_of,
    registered,
)

pytestmark = pytest.mark.anyio
Json = dict[str, Any]

ERRORS = "userErrors { code message }"
CREATE = f"""mutation($input: CreateGameInput!) {{
  createGame(input: $input) {{ game {{ id admission {{ accountsRequired admits }} }} {ERRORS} }}
}}"""
JOIN = f"""mutation($game: ID!, $name: String) {{
  joinGame(input: {{gameId: $game, name: $name}}) {{
    seat token game {{ viewerSeat players {{ seat name account {{ name bot }} }} }} {ERRORS}
  }}
}}"""
START = f"mutation($game: ID!) {{ startGame(input: {{gameId: $game}}) {{ {ERRORS} }} }}"
LEAVE = f"mutation($game: ID!) {{ leaveGame(input: {{gameId: $game}}) {{ {ERRORS} }} }}"
ADD_BOT = f"mutation($game: ID!) {{ addBot(input: {{gameId: $game}}) {{ seat {ERRORS} }} }}"
GAME = """query($game: ID!) { game(id: $game) {
  version status viewerSeat seatToAct hand { id } objective { id }
  players { seat name account { name bot } }
  legalActions { __typename ... on LegalPlaceArmies { input } }
} }"""
SUBMIT = f"""mutation($game: ID!, $action: ActionInput!) {{
  submitAction(input: {{gameId: $game, action: $action}}) {{
    version events {{ private data }} {ERRORS}
  }}
}}"""
MY_GAMES = """query($status: GameStatus, $first: Int, $after: String) {
  me { games(status: $status, first: $first, after: $after) {
    edges { cursor seat rank won node { id status viewerSeat } }
    pageInfo { hasNextPage endCursor } totalCount
  } }
}"""
PROFILE = """query($name: String!) { account(name: $name) {
  name bot results { played finished won }
  games(first: 10) { edges { seat won node { id viewerSeat } } totalCount }
} }"""
TOKEN = """mutation($scopes: [Scope!]!) {
  createApiToken(input: {name: "a token", scopes: $scopes}) { token }
}"""
BECOME_BOT = f"mutation {{ becomeBot {{ account {{ bot }} {ERRORS} }} }}"
DELETE = f"mutation($p: String!) {{ deleteAccount(input: {{password: $p}}) {{ {ERRORS} }} }}"
HISTORY = """query($game: ID!) { game(id: $game) {
  players { name account { name } }
  events(first: 100) { events { type data } }
  actionLog(first: 100) { entries { kind payload } }
} }"""


@pytest.fixture(params=["embedded", "mongodb"])
async def api(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Api]:
    settings: dict[str, Any] = {"budget_points": 0}
    if request.param == "mongodb":
        settings["store"] = request.getfixturevalue("mongo_uri")
    async with in_process(tmp_path / "data", **settings) as running:
        yield running


async def create(api: Api, token: str | None = None, **admission: Any) -> str:
    variables: Json = {"input": {"seed": "accounts-in-games"}}
    if admission:
        variables["input"]["admission"] = admission
    created = (await data(api.client, CREATE, variables, token))["createGame"]
    assert created["userErrors"] == [], created
    game_id: str = created["game"]["id"]
    return game_id


async def join(api: Api, game: str, token: str | None = None, name: str | None = None) -> Json:
    variables = {"game": game, "name": name if name or token else "Guest"}
    joined: Json = (await data(api.client, JOIN, variables, token))["joinGame"]
    return joined


def codes(payload: Json) -> list[str]:
    return [error["code"] for error in payload["userErrors"]]


async def refused(api: Api, query: str, token: str | None, **variables: Any) -> Json:
    """The one error of a request refused as a whole; its extensions."""
    answer = await body(api.client, query, variables, token)
    (error,) = answer["errors"]
    extensions: Json = error["extensions"]
    return extensions


async def game_of(api: Api, game: str, token: str | None) -> Json:
    found: Json = (await data(api.client, GAME, {"game": game}, token))["game"]
    return found


async def three_seated(api: Api, ada: str) -> tuple[str, list[str]]:
    """A game with Ada at seat 1 between two guests, started: its id, the guests' tokens."""
    game = await create(api)
    first = await join(api, game, name="Bruno")
    assert (await join(api, game, ada))["seat"] == 1
    third = await join(api, game, name="Carla")
    assert (await data(api.client, START, {"game": game}, first["token"]))["startGame"][
        "userErrors"
    ] == []
    return game, [first["token"], third["token"]]


async def test_an_account_joins_by_its_name_and_its_credential_acts_for_its_seat(
    api: Api,
) -> None:
    ada = await registered(api, "Ada")
    game = await create(api)
    joined = await join(api, game, ada, name="not my name")
    assert (joined["seat"], joined["token"]) == (0, None)  # the account acts: no seat token
    assert joined["game"]["viewerSeat"] == 0
    assert joined["game"]["players"] == [
        {"seat": 0, "name": "Ada", "account": {"name": "Ada", "bot": False}}
    ]
    # One seat per account and game; nothing changed.
    assert codes(await join(api, game, ada)) == ["ALREADY_SEATED"]
    guest = await join(api, game, name="Bruno")
    assert guest["game"]["players"][1]["account"] is None
    # The account adds a bot and starts the game, as a seated guest would.
    assert (await data(api.client, ADD_BOT, {"game": game}, ada))["addBot"]["seat"] == 2
    assert (await data(api.client, START, {"game": game}, ada))["startGame"]["userErrors"] == []
    seen = await game_of(api, game, ada)
    assert seen["viewerSeat"] == 0
    assert seen["objective"] is not None
    assert (await game_of(api, game, guest["token"]))["objective"] != seen["objective"]
    spectator = await game_of(api, game, None)
    assert (spectator["viewerSeat"], spectator["objective"], spectator["hand"]) == (
        None,
        None,
        None,
    )


async def test_an_account_plays_its_turn_and_sees_only_its_own_private_events(api: Api) -> None:
    ada = await registered(api, "Ada")
    game, guests = await three_seated(api, ada)
    tokens = {0: guests[0], 1: ada, 2: guests[1]}
    for _ in range(6):  # the setup's placements, in turn, until Ada has placed twice
        state = await game_of(api, game, None)
        seat = state["seatToAct"]
        mine = await game_of(api, game, tokens[seat])
        action = mine["legalActions"][0]["input"]
        submitted = (
            await data(api.client, SUBMIT, {"game": game, "action": action}, tokens[seat])
        )["submitAction"]
        assert submitted["userErrors"] == [], submitted
        assert submitted["version"] == state["version"] + 1
        for event in submitted["events"]:
            assert not event["private"] or event["data"]["seat"] == seat
    # Out of turn, Ada's credential is refused as a seat token is; nothing changed.
    state = await game_of(api, game, None)
    if state["seatToAct"] != 1:
        action = {"endTurn": True}
        refusal = (await data(api.client, SUBMIT, {"game": game, "action": action}, ada))[
            "submitAction"
        ]
        assert codes(refusal) == ["NOT_YOUR_TURN"]
        assert (await game_of(api, game, None))["version"] == state["version"]
    # In a game it does not sit in, its credential is FORBIDDEN there, as another game's
    # seat token is.
    other = await create(api)
    action = {"endTurn": True}
    assert (await refused(api, SUBMIT, ada, game=other, action=action))["code"] == "FORBIDDEN"


async def test_who_a_game_admits(api: Api) -> None:
    person = await registered(api, "Ada")
    bot = await registered(api, "Robo", bot=True)
    people = await create(api, admits="PEOPLE")
    assert codes(await join(api, people, bot)) == ["PEOPLE_ONLY"]
    guest = await join(api, people, name="Guest")  # a guest is taken for a person
    assert codes(guest) == []
    assert codes(await join(api, people, person)) == []
    added = (await data(api.client, ADD_BOT, {"game": people}, person))["addBot"]
    assert codes(added) == ["PEOPLE_ONLY"]
    bots = await create(api, admits="BOTS")
    game = (
        await data(
            api.client,
            "query($g: ID!) { game(id: $g) { admission { accountsRequired admits } } }",
            {"g": bots},
        )
    )["game"]
    assert game["admission"] == {"accountsRequired": True, "admits": "BOTS"}
    assert codes(await join(api, bots, person)) == ["BOTS_ONLY"]
    assert codes(await join(api, bots, name="Guest")) == ["BOTS_ONLY"]
    seated = await join(api, bots, bot)
    assert seated["game"]["players"][0]["account"] == {"name": "Robo", "bot": True}
    assert codes((await data(api.client, ADD_BOT, {"game": bots}, bot))["addBot"]) == []
    accounts = await create(api, accountsRequired=True)
    assert codes(await join(api, accounts, name="Guest")) == ["ACCOUNT_REQUIRED"]
    assert codes(await join(api, accounts, person)) == []
    assert codes(await join(api, accounts, bot)) == []  # anyone, with an account
    for refused_game, count in ((people, 2), (bots, 2), (accounts, 2)):
        players = (await game_of(api, refused_game, None))["players"]
        assert len(players) == count  # nothing taken by the refused


async def test_scopes_are_judged_for_each_operation_and_nothing_is_done_without(
    api: Api,
) -> None:
    ada = await registered(api, "Ada")
    reader = (await data(api.client, TOKEN, {"scopes": ["GAMES_READ"]}, ada))["createApiToken"]
    player = (await data(api.client, TOKEN, {"scopes": ["GAMES_PLAY"]}, ada))["createApiToken"]
    reader, player = reader["token"], player["token"]
    game = await create(api)
    assert await refused(api, JOIN, reader, game=game) == {
        "code": "FORBIDDEN",
        "scope": "GAMES_PLAY",
    }
    assert (await game_of(api, game, None))["players"] == []
    before = len(await api.service.store.games(None, None, None, 100))
    variables: Json = {"input": {}}
    assert await refused(api, CREATE, player, **variables) == {
        "code": "FORBIDDEN",
        "scope": "GAMES_CREATE",
    }
    assert len(await api.service.store.games(None, None, None, 100)) == before
    # A token that may play but not read: it joins and acts, and sees its games as a
    # spectator does (no hand, no objective), and cannot list them.
    joined = await join(api, game, player)
    assert (joined["seat"], joined["game"]["viewerSeat"]) == (0, None)
    assert (await game_of(api, game, player))["viewerSeat"] is None
    assert (await game_of(api, game, reader))["viewerSeat"] == 0
    assert await refused(api, MY_GAMES, player) == {"code": "FORBIDDEN", "scope": "GAMES_READ"}
    assert codes((await data(api.client, LEAVE, {"game": game}, player))["leaveGame"]) == []
    assert (await game_of(api, game, None))["players"] == []


async def test_an_accounts_games_on_every_device_and_its_public_record(api: Api) -> None:
    ada = await registered(api, "Ada")
    games = [await create(api) for _ in range(3)]
    for game in games:
        await join(api, game, ada)
    started, guests = await three_seated(api, ada)
    # Becoming a bot is refused from the first seat on.
    assert codes((await data(api.client, BECOME_BOT, {}, ada))["becomeBot"]) == ["ALREADY_PLAYED"]
    # Another session (another device) lists the same games, newest first, page by page.
    other = (
        await data(
            api.client,
            'mutation($p: String!) { logIn(input: {name: "ada", password: $p}) { token } }',
            {"p": ACCOUNT_PASSWORD},
        )
    )["logIn"]["token"]
    first = (await data(api.client, MY_GAMES, {"first": 3}, other))["me"]["games"]
    assert first["totalCount"] == 4
    assert first["pageInfo"]["hasNextPage"] is True
    rest = (await data(api.client, MY_GAMES, {"after": first["pageInfo"]["endCursor"]}, other))[
        "me"
    ]["games"]
    listed = [edge["node"]["id"] for edge in first["edges"] + rest["edges"]]
    assert listed == [started, *reversed(games)]
    assert first["edges"][0]["seat"] == 1
    assert first["edges"][0]["node"]["viewerSeat"] == 1  # as its own seat sees it
    active = (await data(api.client, MY_GAMES, {"status": "ACTIVE"}, other))["me"]["games"]
    assert [edge["node"]["id"] for edge in active["edges"]] == [started]
    # Guests resign: Ada wins; her record, public.
    for token in guests:
        assert codes((await data(api.client, LEAVE, {"game": started}, token))["leaveGame"]) == []
    profile = (await data(api.client, PROFILE, {"name": "ADA"}))["account"]
    assert profile["results"] == {"played": 1, "finished": 1, "won": 1}
    assert profile["games"]["totalCount"] == 4
    won = profile["games"]["edges"][0]
    assert (won["seat"], won["won"], won["node"]["viewerSeat"]) == (1, True, None)
    finished = (await data(api.client, MY_GAMES, {"status": "FINISHED"}, ada))["me"]["games"]
    assert [(e["rank"], e["won"]) for e in finished["edges"]] == [(1, True)]


async def test_deleting_an_account_leaves_its_games_and_anonymises_the_finished(
    api: Api,
) -> None:
    ada = await registered(api, "Ada")
    lobby = await create(api)
    await join(api, lobby, name="Bruno")
    await join(api, lobby, ada)
    finished, guests = await three_seated(api, ada)
    for token in guests:
        await data(api.client, LEAVE, {"game": finished}, token)
    under_way, later = await three_seated(api, ada)
    game_id = from_global_id(finished, "Game")
    assert game_id is not None
    stored_log = await api.service.store.log(game_id[1])
    deleted = (await data(api.client, DELETE, {"p": ACCOUNT_PASSWORD}, ada))["deleteAccount"]
    assert deleted["userErrors"] == []
    # The lobby's seat is freed; in the game under way she resigned.
    assert [p["name"] for p in (await game_of(api, lobby, None))["players"]] == ["Bruno"]
    assert (await refused(api, GAME, ada, game=under_way))["code"] == "UNAUTHENTICATED"
    # The finished game shows the placeholder wherever her name would show; the log is intact.
    shown = (await data(api.client, HISTORY, {"game": finished}))["game"]
    assert [p["name"] for p in shown["players"]] == ["Bruno", PLACEHOLDER, "Carla"]
    assert shown["players"][1]["account"] is None
    text = str(shown)
    assert "Ada" not in text
    assert PLACEHOLDER in text
    assert await api.service.store.log(game_id[1]) == stored_log
    assert "Ada" in str(stored_log)
    # The game under way: anonymous once it finishes (a guest resigns, the other wins).
    await data(api.client, LEAVE, {"game": under_way}, later[0])
    after = (await data(api.client, HISTORY, {"game": under_way}))["game"]
    assert [p["name"] for p in after["players"]] == ["Bruno", PLACEHOLDER, "Carla"]
    assert "Ada" not in str(after)
    assert (await data(api.client, PROFILE, {"name": "Ada"}))["account"] is None
    # The game replays from its log as it was played.
    api.service.sessions.clear()
    assert (await api.service.session(game_id[1])).game is not None


SECRETS = """query($game: ID!) { game(id: $game) {
  viewerSeat objective { id card } hand { id }
} }"""
MY_SECRETS = """{ me { games(status: ACTIVE) { edges { seat node {
  id viewerSeat objective { id card } hand { id }
} } } } }"""


async def test_an_account_sees_its_own_secrets_in_every_game_and_no_one_elses(
    api: Api,
) -> None:
    ada = await registered(api, "Ada")
    first, first_guests = await three_seated(api, ada)
    second = await create(api)
    second_guests = [(await join(api, second, name=f"G{n}"))["token"] for n in range(2)]
    assert (await join(api, second, ada))["seat"] == 2
    await data(api.client, START, {"game": second}, second_guests[0])
    expected = {}
    for game, seat in ((first, 1), (second, 2)):
        decoded = from_global_id(game, "Game")
        assert decoded is not None
        record = await api.service.store.get(decoded[1])
        assert record is not None
        mirror = mirror_of(record)
        expected[game] = (seat, mirror)
        # The account's own seat's secrets, in this game; no other seat's.
        mine = (await data(api.client, SECRETS, {"game": game}, ada))["game"]
        assert mine["viewerSeat"] == seat
        assert mine["objective"] == {
            "id": mirror.objective_of(seat).id,
            "card": mirror.objective_cards[seat],
        }
        assert [card["id"] for card in mine["hand"]] == list(mirror.hand(seat))
        for other in range(3):
            if other != seat:
                assert mirror.objective_cards[other] not in str(mine)
    # The same through its list of games, each game as its own seat there sees it.
    edges = (await data(api.client, MY_SECRETS, {}, ada))["me"]["games"]["edges"]
    assert {edge["node"]["id"] for edge in edges} == {first, second}
    for edge in edges:
        seat, mirror = expected[edge["node"]["id"]]
        assert edge["seat"] == edge["node"]["viewerSeat"] == seat
        assert edge["node"]["objective"]["card"] == mirror.objective_cards[seat]
    # Nobody else sees the account's: a guest at its table, a spectator, a guest elsewhere.
    seat, mirror = expected[first]
    ada_card = mirror.objective_cards[seat]
    for token in (*first_guests, None, second_guests[1]):
        seen = (await data(api.client, SECRETS, {"game": first}, token))["game"]
        assert seen["viewerSeat"] != seat
        assert seen["objective"] is None or seen["objective"]["card"] != ada_card
