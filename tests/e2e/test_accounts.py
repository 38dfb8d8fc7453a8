"""Accounts through the real HTTP API, on both stores: registering and logging in, sessions
and personal API tokens with their scopes, every way a credential stops working, names that
differ only in case or Unicode form, oversized inputs, the throttle, two instances racing on
one store, and no secret in the server's log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import unicodedata
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from pymongo import MongoClient
from websockets.typing import Subprotocol

from api.accounts.tokens import SCANNER_PATTERN
from tests.e2e.support import Server

pytestmark = pytest.mark.anyio
Json = dict[str, Any]

PASSWORD = "a kettle of purple mongooses"
NEW_PASSWORD = "seven lazy otters at noon"
ERRORS = "userErrors { code message } retryAfter"
REGISTER = f"""mutation($name: String!, $password: String!) {{
  register(input: {{name: $name, password: $password}}) {{ token account {{ name bot }} {ERRORS} }}
}}"""
LOG_IN = f"""mutation($name: String!, $password: String!) {{
  logIn(input: {{name: $name, password: $password}}) {{ token account {{ name }} {ERRORS} }}
}}"""
LOG_OUT = f"mutation($all: Boolean!) {{ logOut(input: {{everywhere: $all}}) {{ ended {ERRORS} }} }}"
ME = "{ me { name bot credential { kind scopes } } }"
TOKENS = "{ me { tokens { id name scopes lastUsedAt expiresAt } } }"
CREATE_TOKEN = """mutation($name: String!, $scopes: [Scope!]!, $days: Int) {
  createApiToken(input: {name: $name, scopes: $scopes, expiresInDays: $days}) {
    token apiToken { id name scopes expiresAt } userErrors { code message }
  }
}"""
REVOKE = f"mutation($id: ID!) {{ revokeApiToken(input: {{id: $id}}) {{ {ERRORS} }} }}"
CHANGE = f"""mutation($current: String!, $new: String!) {{
  changePassword(input: {{currentPassword: $current, newPassword: $new}}) {{ ended {ERRORS} }}
}}"""
DELETE = f"mutation($p: String!) {{ deleteAccount(input: {{password: $p}}) {{ {ERRORS} }} }}"
BECOME_BOT = f"mutation {{ becomeBot {{ account {{ name bot }} {ERRORS} }} }}"
PROFILE = "query($name: String!) { account(name: $name) { name bot createdAt } }"


class Api:
    """GraphQL over HTTP to one server, as one client address (X-Forwarded-For: the server
    trusts its loopback proxy, as deployed behind one)."""

    def __init__(self, http: httpx.AsyncClient, address: str = "192.0.2.10") -> None:
        self.http = http
        self.address = address

    async def answer(self, query: str, token: str | None = None, **variables: Any) -> Json:
        headers = {"X-Forwarded-For": self.address}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        response = await self.http.post(
            "/graphql", json={"query": query, "variables": variables}, headers=headers
        )
        assert response.status_code == 200, response.text
        answer: Json = response.json()
        return answer

    async def data(self, query: str, token: str | None = None, **variables: Any) -> Json:
        answer = await self.answer(query, token, **variables)
        assert "errors" not in answer, answer
        data: Json = answer["data"]
        return data

    async def refused(self, query: str, token: str | None = None, **variables: Any) -> Json:
        """The one error of a request refused as a whole (an auth error)."""
        answer = await self.answer(query, token, **variables)
        (error,) = answer["errors"]
        extensions: Json = error["extensions"]
        return extensions

    def at(self, address: str) -> Api:
        return Api(self.http, address)


@pytest.fixture
async def api(server: Server) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        yield Api(http)


async def register(api: Api, name: str, password: str = PASSWORD) -> str:
    answer = (await api.data(REGISTER, name=name, password=password))["register"]
    assert answer["userErrors"] == [], answer
    token: str = answer["token"]
    return token


async def log_in(api: Api, name: str, password: str = PASSWORD) -> Json:
    answer: Json = (await api.data(LOG_IN, name=name, password=password))["logIn"]
    return answer


def codes(answer: Json) -> list[str]:
    return [error["code"] for error in answer["userErrors"]]


async def test_register_log_in_and_the_answers_that_tell_nothing(api: Api) -> None:
    session = await register(api, "Nicolò")
    assert session.startswith("rks_")
    me = (await api.data(ME, session))["me"]
    assert me == {
        "name": "Nicolò",
        "bot": False,
        "credential": {
            "kind": "SESSION",
            "scopes": [
                "GAMES_READ",
                "GAMES_PLAY",
                "GAMES_CREATE",
                "TOURNAMENTS_ORGANISE",
                "ACCOUNT_MANAGE",
            ],
        },
    }
    assert (await api.data(ME))["me"] is None  # no token
    profile = (await api.data(PROFILE, name="NICOLÒ"))["account"]
    assert (profile["name"], profile["bot"]) == ("Nicolò", False)
    assert (await api.data(PROFILE, name="nobody-here"))["account"] is None
    for again in ("nicolò", "NICOLÒ", unicodedata.normalize("NFD", "Nicolò"), "\uff2eicolò"):
        answer = (await api.data(REGISTER, name=again, password=PASSWORD))["register"]
        assert (codes(answer), answer["token"]) == (["NAME_TAKEN"], None)
    wrong = await log_in(api, "Nicolò", NEW_PASSWORD)
    unknown = await log_in(api, "Nobody", PASSWORD)
    assert codes(wrong) == codes(unknown) == ["LOGIN_FAILED"]
    assert wrong["userErrors"] == unknown["userErrors"]
    assert wrong["token"] is None
    logged_in = await log_in(api, "NICOLÒ", PASSWORD)
    assert logged_in["account"] == {"name": "Nicolò"}
    assert (await api.data(ME, logged_in["token"]))["me"]["name"] == "Nicolò"


async def test_tokens_their_scopes_and_every_way_a_credential_ends(
    api: Api, server: Server, store_env: dict[str, str]
) -> None:
    session = await register(api, "ada")
    made = (await api.data(CREATE_TOKEN, session, name="reader", scopes=["GAMES_READ"], days=30))[
        "createApiToken"
    ]
    reader = made["token"]
    assert SCANNER_PATTERN.fullmatch(reader)
    assert reader.startswith("rkp_")
    assert made["apiToken"]["scopes"] == ["GAMES_READ"]
    assert (await api.data(ME, reader))["me"]["credential"] == {
        "kind": "API_TOKEN",
        "scopes": ["GAMES_READ"],
    }
    # Outside its scopes: FORBIDDEN with the scope it needs, nothing done.
    assert await api.refused(TOKENS, reader) == {"code": "FORBIDDEN", "scope": "ACCOUNT_MANAGE"}
    refused = await api.refused(CREATE_TOKEN, reader, name="more", scopes=["GAMES_READ"])
    assert refused == {"code": "FORBIDDEN", "scope": "ACCOUNT_MANAGE"}
    assert await api.refused(BECOME_BOT, reader) == {"code": "FORBIDDEN", "scope": "ACCOUNT_MANAGE"}
    (listed,) = (await api.data(TOKENS, session))["me"]["tokens"]
    assert listed["name"] == "reader"
    assert listed["lastUsedAt"] is None  # used within the minute: not written yet
    # Revoked: refused at once.
    lasting = (await api.data(CREATE_TOKEN, session, name="bot", scopes=["GAMES_PLAY"]))[
        "createApiToken"
    ]["token"]
    assert (await api.data(REVOKE, session, id=listed["id"]))["revokeApiToken"]["userErrors"] == []
    assert (await api.refused(ME, reader))["code"] == "UNAUTHENTICATED"
    # Expired (its expiry moved into the past in the store, as time would).
    expire_tokens(server, store_env)
    assert (await api.refused(ME, lasting))["code"] == "UNAUTHENTICATED"
    # Logged out.
    other = (await log_in(api, "ada"))["token"]
    assert (await api.data(LOG_OUT, other, all=False))["logOut"]["ended"] == 1
    assert (await api.refused(ME, other))["code"] == "UNAUTHENTICATED"
    # After a password change elsewhere.
    elsewhere = (await log_in(api, "ada"))["token"]
    changed = await api.data(CHANGE, session, current=PASSWORD, new=NEW_PASSWORD)
    assert changed["changePassword"] == {"ended": 1, "userErrors": [], "retryAfter": None}
    assert (await api.refused(ME, elsewhere))["code"] == "UNAUTHENTICATED"
    assert (await api.data(ME, session))["me"]["name"] == "ada"
    # A deleted account's token; its name stays taken.
    token = (await api.data(CREATE_TOKEN, session, name="t", scopes=["GAMES_PLAY"]))[
        "createApiToken"
    ]["token"]
    deleted = (await api.data(DELETE, session, p=NEW_PASSWORD))["deleteAccount"]
    assert deleted["userErrors"] == []
    for gone in (session, token):
        assert (await api.refused(ME, gone))["code"] == "UNAUTHENTICATED"
    assert codes((await api.data(REGISTER, name="ADA", password=PASSWORD))["register"]) == [
        "NAME_TAKEN"
    ]
    assert (await api.data(PROFILE, name="ada"))["account"] is None


def expire_tokens(server: Server, store_env: dict[str, str]) -> None:
    """Every API token's expiry set in the past, behind the server's back."""
    if "RISIKO_STORE" in store_env:
        client: MongoClient[Json]
        with MongoClient(store_env["RISIKO_STORE"]) as client:
            client.get_default_database().credentials.update_many(
                {"kind": "api"}, {"$set": {"expires_at": 1.0}}
            )
        return
    database = server.data_dir / "risiko.sqlite3"
    with contextlib.closing(sqlite3.connect(database)) as connection, connection:
        connection.execute("UPDATE credentials SET expires_at = 1 WHERE kind = 'api'")


async def test_a_bot_account_and_refusals_that_change_nothing(api: Api) -> None:
    session = await register(api, "robo")
    refused = await api.data(CHANGE, session, current=NEW_PASSWORD, new=NEW_PASSWORD)
    assert codes(refused["changePassword"]) == ["WRONG_PASSWORD"]
    weak = await api.data(CHANGE, session, current=PASSWORD, new="password12345678")
    assert codes(weak["changePassword"]) == ["PASSWORD_TOO_WEAK"]
    assert (await log_in(api, "robo"))["token"]  # the password is the same
    became = (await api.data(BECOME_BOT, session))["becomeBot"]
    assert became["account"] == {"name": "robo", "bot": True}
    assert (await api.data(PROFILE, name="robo"))["account"]["bot"] is True
    assert (await api.data(ME, session))["me"]["bot"] is True
    nothing = await api.refused(ME, "rks_" + "0" * 36)  # well shaped, bad checksum
    assert nothing["code"] == "UNAUTHENTICATED"


async def test_oversized_and_malformed_inputs_are_refused_and_store_nothing(api: Api) -> None:
    for name, password, code in [
        ("n" * 10_000, PASSWORD, "INVALID_NAME"),
        ("zoe", "p" * 10_000, "PASSWORD_TOO_LONG"),
        ("zoe", "short", "PASSWORD_TOO_SHORT"),
        ("zoe\u202eeoz", PASSWORD, "INVALID_NAME"),
        ("zoe", "a kettle of\x00purple mongooses", "INVALID_PASSWORD"),
        ("admin", PASSWORD, "NAME_RESERVED"),
    ]:
        answer = (await api.data(REGISTER, name=name, password=password))["register"]
        assert (codes(answer), answer["token"]) == ([code], None)
    assert (await api.data(PROFILE, name="zoe"))["account"] is None
    assert codes(await log_in(api, "n" * 10_000, "p" * 10_000)) == ["LOGIN_FAILED"]
    echo = await api.answer(
        'mutation($k: String) { logIn(input: {name: "x", password: "y", '
        "clientMutationId: $k}) { token } }",
        k="k" * 1000,
    )
    assert echo["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    session = await register(api, "zoe")
    long_name = await api.data(CREATE_TOKEN, session, name="t" * 1000, scopes=["GAMES_READ"])
    assert codes(long_name["createApiToken"]) == ["INVALID_NAME"]
    no_scope = await api.data(CREATE_TOKEN, session, name="t", scopes=[])
    assert codes(no_scope["createApiToken"]) == ["INVALID_SCOPES"]
    forever = await api.data(CREATE_TOKEN, session, name="t", scopes=["GAMES_READ"], days=10**6)
    assert codes(forever["createApiToken"]) == ["INVALID_EXPIRY"]
    assert (await api.data(TOKENS, session))["me"]["tokens"] == []
    bogus = await api.data(REVOKE, session, id="x" * 100)
    assert codes(bogus["revokeApiToken"]) == ["TOKEN_NOT_FOUND"]
    huge = await api.refused(ME, "rks_" + "x" * 4000)
    assert huge["code"] == "UNAUTHENTICATED"


async def test_failed_logins_back_off_and_registrations_are_bounded(api: Api) -> None:
    await register(api, "bea")
    attacker = api.at("203.0.113.5")
    for _ in range(5):
        assert codes(await log_in(attacker, "bea", NEW_PASSWORD)) == ["LOGIN_FAILED"]
    waiting = await log_in(attacker, "bea", PASSWORD)  # even the right one, from there
    assert (codes(waiting), waiting["retryAfter"]) == (["RATE_LIMITED"], 2)
    assert (await log_in(api, "bea"))["token"]  # the owner, from its own address
    assert (await log_in(api.at("198.51.100.3"), "bea"))["token"]  # or a new one
    await asyncio.sleep(2.1)
    assert (await log_in(attacker, "bea"))["token"]  # after the wait
    crowd = api.at("198.51.100.200")
    for n in range(10):
        await register(crowd, f"crowd{n}")
    tenth = (await crowd.data(REGISTER, name="crowd10", password=PASSWORD))["register"]
    assert codes(tenth) == ["RATE_LIMITED"]
    assert 350 <= tenth["retryAfter"] <= 360
    assert (await api.data(PROFILE, name="crowd10"))["account"] is None


# --------------------------------------------------------------------------- two instances


@pytest.fixture
def instances(tmp_path: Path, store_env: dict[str, str]) -> Iterator[tuple[Server, Server]]:
    """Two processes on one store: one MongoDB database, or one data folder."""
    shared = tmp_path / "shared"
    servers = [Server(shared, env=store_env), Server(shared, env=store_env)]
    try:
        with ThreadPoolExecutor(2) as pool:
            for started in [pool.submit(server.start) for server in servers]:
                started.result()
        yield servers[0], servers[1]
    finally:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.stop, servers))


async def test_two_instances_one_name_one_winner_and_revocation_seen_by_both(
    instances: tuple[Server, Server],
) -> None:
    a, b = instances
    async with (
        httpx.AsyncClient(base_url=a.url, timeout=60) as on_a,
        httpx.AsyncClient(base_url=b.url, timeout=60) as on_b,
    ):
        apis = [Api(on_a, f"192.0.2.{n}") for n in range(4)]
        apis += [Api(on_b, f"198.51.100.{n}") for n in range(4)]
        answers = await asyncio.gather(
            *(api.data(REGISTER, name=f"Rac{'E' if n % 2 else 'e'}r", password=PASSWORD)
              for n, api in enumerate(apis))
        )  # fmt: skip
        made = [answer["register"] for answer in answers]
        assert sum(answer["token"] is not None for answer in made) == 1, made
        assert sorted(code for answer in made for code in codes(answer)) == ["NAME_TAKEN"] * 7
        session = (await log_in(Api(on_a), "racer"))["token"]
        assert (await Api(on_b).data(ME, session))["me"]["name"] in {"Racer", "RacEr"}
        await Api(on_b).data(LOG_OUT, session, all=False)
        assert (await Api(on_a).refused(ME, session))["code"] == "UNAUTHENTICATED"


# --------------------------------------------------------------------------- the log


@pytest.fixture
def debug_server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "data", env={"RISIKO_LOG_LEVEL": "debug"}).start()
    try:
        yield running
    finally:
        running.stop()


async def test_no_password_nor_token_reaches_the_log(debug_server: Server) -> None:
    """Everything a client could send a secret in, at the debug level: mutations, a login by
    GET (refused, but its URL is a request line), a variable refused with its value, a login
    over the WebSocket, a token in connection_init."""
    secret = "correct horse battery staple 42"
    other = "never seen anywhere 7 lazy otters"
    async with httpx.AsyncClient(base_url=debug_server.url, timeout=30) as http:
        api = Api(http)
        session = await register(api, "logan", secret)
        logged_in = (await log_in(api, "logan", secret))["token"]
        await log_in(api, "logan", other)
        made = await api.data(CREATE_TOKEN, session, name="bot", scopes=["GAMES_READ"])
        token = made["createApiToken"]["token"]
        await api.data(ME, token)
        await api.data(CHANGE, session, current=secret, new=other)
        await http.get(
            "/graphql",
            params={"query": LOG_IN, "variables": json.dumps({"name": "logan", "password": other})},
        )
        await api.answer(LOG_IN, name="logan", password=[other])  # refused with its value
        await api.answer(
            "mutation($i: LogInInput!) { logIn(input: $i) { token } }",
            i={"name": "logan", "password": other, "extra": other},
        )
        await over_the_socket(debug_server, other, token)
    await asyncio.sleep(0.5)  # the log is written by the server's process
    log = debug_server.log()
    assert "logan" in log or "POST /graphql" in log  # the log is there, at the debug level
    for value in (secret, other, session, logged_in, token):
        assert value not in log
    assert SCANNER_PATTERN.search(log) is None


async def over_the_socket(server: Server, password: str, token: str) -> None:
    protocol = Subprotocol("graphql-transport-ws")
    async with websockets.connect(server.ws_url, subprotocols=[protocol]) as socket:
        await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await socket.recv())["type"] == "connection_ack"
        request = {"query": LOG_IN, "variables": {"name": "logan", "password": password}}
        await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": request}))
        while json.loads(await socket.recv())["type"] != "complete":
            pass
    with contextlib.suppress(websockets.ConnectionClosed):
        async with websockets.connect(server.ws_url, subprotocols=[protocol]) as socket:
            payload = {"token": token}
            await socket.send(json.dumps({"type": "connection_init", "payload": payload}))
            await socket.recv()
