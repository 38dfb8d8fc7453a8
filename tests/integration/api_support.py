"""Shared helpers of the API integration tests: an in-process app, GraphQL calls, and games
played through the API by the `aggressive` bot, with a local engine as the bot's mirror.

The mirror is a second engine built from the same seed, seats and options: the engine is
deterministic, so every action applied to both keeps them equal, and the tests know each
seat's secrets (hand, objective) without asking the server for them.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import httpx
from starlette.applications import Starlette

from api.accounts import handlers
from api.accounts.commands import BecomeBot, Register
from api.accounts.service import Accounts
from api.app import create_app
from api.graphql.ids import from_global_id
from api.service import GameService
from api.settings import Settings
from api.stores.base import GameRecord
from bots.policies import aggressive_policy
from domain import actions as a
from domain.errors import RuleViolation
from domain.kernel import Kernel
from domain.options import GameOptions
from domain.rng import derive_seed
from tests.e2e.support import Server
from tests.support import classic
from variants import get_variant
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions

GRAPHQL_RESPONSE = "application/graphql-response+json"
CLASSIC = get_variant("classic")


# --------------------------------------------------------------------------- the app in-process


@dataclass
class Api:
    """An in-process app with a client; `service` is the app's own GameService."""

    client: httpx.AsyncClient
    app: Starlette
    starlette: Starlette  # the same app; kept for the tests that name it
    service: GameService


@asynccontextmanager
async def in_process(data_dir: Path, **settings: Any) -> AsyncIterator[Api]:
    """`create_app` with its lifespan entered (ASGITransport does not run it)."""
    app = create_app(Settings(data_dir=data_dir, **settings))
    starlette = app
    async with (
        starlette.router.lifespan_context(starlette),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c,
    ):
        yield Api(c, app, starlette, starlette.state.service)


def running_server(data_dir: Path, env: dict[str, str] | None = None) -> Iterator[Server]:
    """A real server (a child process, `risiko serve`, with `env` set) for a fixture to yield."""
    running = Server(data_dir, env=env).start()
    try:
        yield running
    finally:
        running.stop()


ACCOUNT_PASSWORD = "a kettle of purple mongooses"
_ADDRESSES = itertools.count(1)


async def registered(api: Api, name: str, bot: bool = False) -> str:
    """A new account on the in-process app, and its session's token: registered from an
    address of its own (the throttle bounds registrations per address), made a bot if asked."""
    accounts: Accounts = api.app.state.accounts
    address = f"2001:db8:{next(_ADDRESSES):x}::1"
    made = await handlers.register(accounts, Register(name, ACCOUNT_PASSWORD, address))
    if bot:
        principal = await accounts.authenticate(made.token)
        await handlers.become_bot(accounts, BecomeBot(principal))
    return made.token


# --------------------------------------------------------------------------- GraphQL calls


def headers_for(token: str | None, accept: str | None = None) -> dict[str, str]:
    headers: dict[str, str] = {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if accept is not None:
        headers["Accept"] = accept
    return headers


async def post(
    client: httpx.AsyncClient,
    query: str,
    variables: dict[str, Any] | None = None,
    token: str | None = None,
    accept: str | None = None,
) -> httpx.Response:
    return await client.post(
        "/graphql",
        json={"query": query, "variables": variables or {}},
        headers=headers_for(token, accept),
    )


async def body(
    client: httpx.AsyncClient,
    query: str,
    variables: dict[str, Any] | None = None,
    token: str | None = None,
) -> dict[str, Any]:
    """The whole JSON answer (data and errors) of a request that got HTTP 200."""
    response = await post(client, query, variables, token)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert isinstance(answer, dict)
    return answer


async def data(
    client: httpx.AsyncClient,
    query: str,
    variables: dict[str, Any] | None = None,
    token: str | None = None,
) -> dict[str, Any]:
    """The `data` of an answer without errors."""
    answer = await body(client, query, variables, token)
    assert "errors" not in answer, answer
    result = answer["data"]
    assert isinstance(result, dict)
    return result


def error_codes(answer: dict[str, Any]) -> list[str | None]:
    return [e.get("extensions", {}).get("code") for e in answer.get("errors", [])]


CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) { game { id version } userErrors { code message } }
}"""
JOIN = """
mutation($input: JoinGameInput!) {
  joinGame(input: $input) { seat token game { id version } userErrors { code message } }
}"""
START = """
mutation($input: GameInput!) {
  startGame(input: $input) { game { id version status } userErrors { code message } }
}"""
ADD_BOT = """
mutation($input: AddBotInput!) {
  addBot(input: $input) { seat userErrors { code message } }
}
"""
LEAVE = """
mutation($input: GameInput!) {
  leaveGame(input: $input) { game { id version status } userErrors { code message } }
}"""
SUBMIT = """
mutation($input: SubmitActionInput!) {
  submitAction(input: $input) {
    version clientMutationId
    events { seq version type private data }
    userErrors { code message field }
  }
}"""
STATE = """
query($id: ID!) { game(id: $id) { version events(first: 100) { events { seq } hasMore } } }
"""


def options_input(options: ClassicOptions) -> dict[str, Any]:
    """ClassicOptions as a GameOptionsInput (camelCase names, enum names)."""
    result: dict[str, Any] = {}
    for name, value in options.to_dict().items():
        head, *rest = name.split("_")
        key = head + "".join(part.title() for part in rest)
        result[key] = value.upper() if isinstance(value, str) else value
    return result


def action_input(action: a.Action) -> dict[str, Any]:
    """A domain action as an ActionInput (an action without fields, such as endTurn, is
    `true`)."""
    fields = action.to_dict()
    kind = fields.pop("kind")
    head, *rest = kind.split("_")
    member = head + "".join(part.title() for part in rest)
    if not fields:
        return {member: True}
    value = {("stopAt" if k == "stop_at" else k): v for k, v in fields.items()}
    return {member: value}


@dataclass
class Seat:
    seat: int
    name: str
    colour: str
    token: str


M = TypeVar("M", bound=Kernel)


@dataclass
class PlayedGame(Generic[M]):
    """A game created and played through the API, and its mirror engine (of its variant)."""

    id: str  # the global id
    seed: str
    options: GameOptions
    seats: list[Seat] = field(default_factory=list)
    mirror: M | None = None
    version: int = 0

    @property
    def game(self) -> M:
        assert self.mirror is not None, "the game has not started"
        return self.mirror

    def token(self, seat: int) -> str:
        return self.seats[seat].token


async def create_game(
    client: httpx.AsyncClient, seed: str | None = None, options: ClassicOptions | None = None
) -> str:
    variables: dict[str, Any] = {"input": {"variant": "classic", "seed": seed}}
    if options is not None:
        variables["input"]["options"] = options_input(options)
    payload = (await data(client, CREATE, variables))["createGame"]
    assert payload["userErrors"] == [], payload
    game_id = payload["game"]["id"]
    assert isinstance(game_id, str)
    return game_id


async def join(
    client: httpx.AsyncClient, game_id: str, name: str, colour: str | None = None
) -> dict[str, Any]:
    variables = {"input": {"gameId": game_id, "name": name, "colour": colour}}
    payload = (await data(client, JOIN, variables))["joinGame"]
    assert isinstance(payload, dict)
    return payload


async def new_game(
    client: httpx.AsyncClient,
    players: int = 4,
    seed: str = "integration-seed",
    options: ClassicOptions | None = None,
    start: bool = True,
) -> PlayedGame[ClassicGame]:
    """A game with `players` seats (named P0…), started unless `start` is false."""
    options = options or ClassicOptions()
    game: PlayedGame[ClassicGame] = PlayedGame(
        await create_game(client, seed, options), seed, options
    )
    for index in range(players):
        joined = await join(client, game.id, f"P{index}")
        assert joined["userErrors"] == [], joined
        assert joined["seat"] == index
        colour = CLASSIC.ruleset.colours[index].id
        game.seats.append(Seat(index, f"P{index}", colour, joined["token"]))
        game.version = joined["game"]["version"]
    if start:
        await start_game(client, game)
    return game


async def start_game(client: httpx.AsyncClient, game: PlayedGame[ClassicGame]) -> None:
    answer = await data(client, START, {"input": {"gameId": game.id}}, game.token(0))
    assert answer["startGame"]["userErrors"] == [], answer
    game.version = answer["startGame"]["game"]["version"]
    game.mirror = classic(
        CLASSIC.new_game(
            [s.name for s in game.seats],
            game.options,
            seed=game.seed.encode(),
            colours=[s.colour for s in game.seats],
        )
    )


async def submit(
    client: httpx.AsyncClient,
    game_id: str,
    token: str | None,
    action: dict[str, Any],
    expected_version: int | None = None,
    client_mutation_id: str | None = None,
) -> dict[str, Any]:
    """submitAction's payload (fails the test on a top-level error)."""
    variables = {
        "input": {
            "gameId": game_id,
            "action": action,
            "expectedVersion": expected_version,
            "clientMutationId": client_mutation_id,
        }
    }
    payload = (await data(client, SUBMIT, variables, token))["submitAction"]
    assert isinstance(payload, dict)
    return payload


async def play(
    client: httpx.AsyncClient,
    game: PlayedGame[M],
    until: Callable[[M], bool],
    rnd: random.Random | None = None,
    max_actions: int = 5000,
) -> int:
    """Play with the aggressive bot for every seat until `until(mirror)` or the end; each
    action is applied to the mirror first (a refused one asks the bot again), then sent."""
    mirror = game.game
    rnd = rnd or random.Random(game.seed)
    applied = 0
    while not mirror.is_over and not until(mirror):
        seat = mirror.seat_to_act
        assert seat is not None
        progressed = False
        for action in aggressive_policy(mirror, seat, rnd):
            try:
                mirror.apply(seat, action)
            except RuleViolation:
                assert progressed, f"the bot proposed {action} first and it was refused"
                break
            progressed = True
            payload = await submit(client, game.id, game.token(seat), action_input(action))
            assert payload["userErrors"] == [], (action, payload)
            assert payload["version"] == game.version + 1, payload
            for event in payload["events"]:  # the answer carries no other seat's secret
                assert not event["private"] or event["data"]["seat"] == seat, event
            game.version = payload["version"]
            applied += 1
            assert applied < max_actions, "the game did not stop"
            if mirror.is_over or mirror.seat_to_act != seat or until(mirror):
                break
    return applied


async def version_and_events(client: httpx.AsyncClient, game_id: str) -> tuple[int, int]:
    """The game's version and how many events a spectator sees (every page)."""
    version = -1
    count = 0
    after = 0
    while True:
        query = """
        query($id: ID!, $after: Int!) {
          game(id: $id) { version events(after: $after, first: 100) { events { seq } hasMore } }
        }"""
        game = (await data(client, query, {"id": game_id, "after": after}))["game"]
        version = game["version"]
        events = game["events"]["events"]
        count += len(events)
        if not game["events"]["hasMore"]:
            return version, count
        after = events[-1]["seq"]


async def footprint(service: GameService, global_id: str) -> tuple[int, int, int]:
    """What the store holds of a game: its version, its last event's seq, its log's length."""
    decoded = from_global_id(global_id, "Game")
    assert decoded is not None
    record = await service.store.get(decoded[1])
    assert record is not None
    store = service.store
    return record.version, await store.last_event_seq(record.id), len(await store.log(record.id))


async def game_count(service: GameService) -> int:
    return len(await service.store.games(None, None, None, 10_000))


# --------------------------------------------------------------------------- the service directly


@dataclass
class ServiceGame:
    """A game played through GameService (no HTTP), its seat tokens, and its mirror."""

    id: str
    seed: str
    tokens: list[str] = field(default_factory=list)
    mirror: ClassicGame | None = None

    @property
    def game(self) -> ClassicGame:
        assert self.mirror is not None, "the game has not started"
        return self.mirror


def mirror_of(record: GameRecord) -> ClassicGame:
    """A fresh engine for a started game, built like the service builds it: from the
    secret, and the contributions its start fixed when it took them."""
    seed = record.seed
    if record.contributions is not None:
        seed = derive_seed(record.seed, record.contributions)
    return classic(
        CLASSIC.new_game(
            [s.name for s in record.seats],
            ClassicOptions.from_dict(record.options),
            seed=seed,
            colours=[s.colour for s in record.seats],
        )
    )


async def service_game(
    service: GameService,
    players: int = 3,
    seed: str | None = "service-seed",
    options: dict[str, Any] | None = None,
    start: bool = True,
    client_seeds: Sequence[str | None] = (),
    starter_seed: str | None = None,
) -> ServiceGame:
    """A classic game through the service: `seed` chosen (None: the server's secret), each
    seat joining with its `client_seeds` entry, the first starting it with `starter_seed`."""
    record = await service.create_game("classic", options or {}, seed)
    game = ServiceGame(record.id, seed or "unseeded")
    for index in range(players):
        client_seed = client_seeds[index] if index < len(client_seeds) else None
        joined = await service.join_game(record.id, f"P{index}", client_seed=client_seed)
        assert joined.seat == index
        game.tokens.append(joined.token)
    if start:
        started = await service.start_game(record.id, game.tokens[0], starter_seed)
        game.mirror = mirror_of(started)
    return game


async def play_service(
    service: GameService,
    game: ServiceGame,
    until: Callable[[ClassicGame], bool],
    rnd: random.Random | None = None,
    pause: Callable[[], Awaitable[None]] | None = None,
) -> int:
    """Like `play`, through `service.submit_action`; `pause` runs after every action."""
    mirror = game.game
    rnd = rnd or random.Random(game.seed)
    applied = 0
    while not mirror.is_over and not until(mirror):
        seat = mirror.seat_to_act
        assert seat is not None
        progressed = False
        for action in aggressive_policy(mirror, seat, rnd):
            try:
                mirror.apply(seat, action)
            except RuleViolation:
                assert progressed, f"the bot proposed {action} first and it was refused"
                break
            progressed = True
            await service.submit_action(game.id, game.tokens[seat], action)
            applied += 1
            if pause is not None:
                await pause()
            if mirror.is_over or mirror.seat_to_act != seat or until(mirror):
                break
    return applied


STATE_FIELDS = (
    "owner",
    "armies",
    "territory_count",
    "hands",
    "deck",
    "discard",
    "objective_cards",
    "objectives",
    "eliminated",
    "resigned",
    "setup_remaining",
    "phase",
    "round",
    "current",
    "setup_quota",
    "pending_reinforcements",
    "conquered_this_turn",
    "prompt_stack",
    "pending_conquest",
    "time_expired",
    "winner",
    "end_reason",
    "ranking",
    "seq",
)


def state_of(game: Kernel) -> dict[str, Any]:
    """Everything that makes a position, as plain values to compare."""
    return {name: copy.deepcopy(getattr(game, name)) for name in STATE_FIELDS}


@dataclass
class Clock:
    """The service's clock, moved by hand."""

    now: float = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now
