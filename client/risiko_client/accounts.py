"""Accounts through the API: register, log in for a session, make personal API tokens, and an
account's games. A client holding an account's credential (a session `rks_…` or a personal
API token `rkp_…`) joins games as the account (`join_game`: the seat is bound to it, and the
same credential acts for it), and follows every game of the account in one stream
(`seat_events()` without tokens).

    async with RisikoClient(url) as anonymous:
        session = await log_in(anonymous, "Ada", password)
    async with RisikoClient(url, session) as ada:
        token = await create_api_token(ada, "my bot", ["GAMES_READ", "GAMES_PLAY"])
    async with RisikoClient(url, token) as bot:   # what a bot program keeps
        seat = await bot.join_game(game_id)       # seat.token is the bot's own token
        async for notice in bot.seat_events():    # every game it sits in, and joins later
            ...

A refused command raises ApiError with its code (LOGIN_FAILED, NAME_TAKEN, RATE_LIMITED…).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from risiko_client.api import ApiError, Json, RisikoClient

__all__ = [
    "MyGame",
    "become_bot",
    "create_api_token",
    "log_in",
    "log_out",
    "me",
    "my_games",
    "register",
]

ERRORS = "userErrors { code message } retryAfter"
REGISTER = f"""mutation($name: String!, $password: String!) {{
  register(input: {{name: $name, password: $password}}) {{ token {ERRORS} }}
}}"""
LOG_IN = f"""mutation($name: String!, $password: String!) {{
  logIn(input: {{name: $name, password: $password}}) {{ token {ERRORS} }}
}}"""
LOG_OUT = f"""mutation($everywhere: Boolean!) {{
  logOut(input: {{everywhere: $everywhere}}) {{ ended {ERRORS} }}
}}"""
CREATE_TOKEN = """mutation($name: String!, $scopes: [Scope!]!, $days: Int) {
  createApiToken(input: {name: $name, scopes: $scopes, expiresInDays: $days}) {
    token userErrors { code message }
  }
}"""
BECOME_BOT = f"mutation {{ becomeBot {{ account {{ bot }} {ERRORS} }} }}"
ME = "{ me { name bot credential { kind scopes } } }"
MY_GAMES = """query($status: GameStatus, $after: String) {
  me { games(status: $status, first: 100, after: $after) {
    edges { seat rank won node { id variant status version seatToAct } }
    pageInfo { hasNextPage endCursor }
  } }
}"""


@dataclass(frozen=True)
class MyGame:
    """A game the account sits in: its seat there, and how it stands."""

    game_id: str
    variant: str
    status: str  # LOBBY, ACTIVE, FINISHED
    seat: int
    version: int
    my_turn: bool
    rank: int | None  # once finished
    won: bool


def _done(payload: Json) -> Json:
    """A payload, or ApiError for its first user error (with retryAfter in the message)."""
    for error in payload["userErrors"]:
        wait = payload.get("retryAfter")
        suffix = f" (retry after {wait} s)" if wait else ""
        raise ApiError(error["code"], error["message"] + suffix)
    return payload


async def register(client: RisikoClient, name: str, password: str) -> str:
    """A new account; its first session's token (shown once)."""
    variables = {"name": name, "password": password}
    token: str = _done((await client.execute(REGISTER, variables))["register"])["token"]
    return token


async def log_in(client: RisikoClient, name: str, password: str) -> str:
    """A session's token (shown once) for the account's name and password."""
    variables = {"name": name, "password": password}
    token: str = _done((await client.execute(LOG_IN, variables))["logIn"])["token"]
    return token


async def log_out(client: RisikoClient, everywhere: bool = False) -> int:
    """End the client's credential (and every session, `everywhere`); how many ended."""
    payload = _done((await client.execute(LOG_OUT, {"everywhere": everywhere}))["logOut"])
    ended: int = payload["ended"]
    return ended


async def create_api_token(
    client: RisikoClient, name: str, scopes: Sequence[str], expires_in_days: int | None = None
) -> str:
    """A personal API token (shown once) with these scopes (GAMES_READ, GAMES_PLAY,
    GAMES_CREATE, TOURNAMENTS_ORGANISE, ACCOUNT_MANAGE), made with a credential that may
    manage the account."""
    variables = {"name": name, "scopes": list(scopes), "days": expires_in_days}
    token: str = _done((await client.execute(CREATE_TOKEN, variables))["createApiToken"])["token"]
    return token


async def become_bot(client: RisikoClient) -> None:
    """Make the account a bot account, for good; only before it has sat in any game
    (ApiError ALREADY_PLAYED)."""
    _done((await client.execute(BECOME_BOT))["becomeBot"])


async def me(client: RisikoClient) -> Json | None:
    """The account of the client's credential (name, bot, credential kind and scopes); None
    without an account's credential."""
    found: Json | None = (await client.query(ME))["me"]
    return found


async def my_games(client: RisikoClient, status: str | None = None) -> list[MyGame]:
    """Every game the account sits in (with `status`: LOBBY, ACTIVE or FINISHED only),
    newest first, from every page (the scope GAMES_READ)."""
    games: list[MyGame] = []
    after: str | None = None
    while True:
        page = (await client.query(MY_GAMES, {"status": status, "after": after}))["me"]["games"]
        for edge in page["edges"]:
            node = edge["node"]
            games.append(
                MyGame(
                    game_id=node["id"],
                    variant=node["variant"],
                    status=node["status"],
                    seat=edge["seat"],
                    version=node["version"],
                    my_turn=node["status"] == "ACTIVE" and node["seatToAct"] == edge["seat"],
                    rank=edge["rank"],
                    won=edge["won"],
                )
            )
        if not page["pageInfo"]["hasNextPage"]:
            return games
        after = page["pageInfo"]["endCursor"]
