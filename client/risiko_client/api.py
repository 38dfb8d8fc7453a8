"""A small typed client of the RisiKo! GraphQL API, on gql: HTTP (httpx) for queries and
mutations, WebSocket (`graphql-transport-ws`) for subscriptions.

    async with RisikoClient("http://127.0.0.1:8000/graphql") as lobby:
        game_id = await lobby.create_game(options={"roundLimit": 60})
        seats = [await lobby.join_game(game_id, name) for name in ("Anna", "Bruno", "Carla")]
        async with lobby.with_token(seats[0].token) as anna:  # acting as seat 0
            await anna.start_game(game_id)
            state = await anna.game(game_id)
            if state.my_turn:
                family = state.legal_actions[0]  # a dict: __typename, ranges, a ready input
                submitted = await anna.submit(game_id, family["input"], state.version)
            async for event in anna.events(game_id):  # resumes by itself if the link drops
                print(event.seq, event.type, event.data)

Refused moves are data (`Submitted.user_errors`); failed requests (top-level GraphQL errors,
a refused create/join/start/leave) raise `ApiError`; transport errors are retried where that is
safe (queries, and `submit` with the same clientMutationId) and raised after that.

Fair dice: `join_game` and `start_game` send a fresh random client seed, the seat's
contribution to the game's randomness, and `join_game` refuses a game whose seed its creator
chose (who then knows every roll) unless told `accept_chosen_seed=True`. Once a game is over,
`public_record` fetches what proves every roll, and `PublicRecord.chain_problems` checks the
commitment and the derivation (`risiko verify` replays every die too).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import uuid
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import TypeVar

from gql import Client
from gql.client import AsyncClientSession
from gql.transport.exceptions import TransportQueryError, TransportServerError
from gql.transport.httpx import HTTPXAsyncTransport
from gql.transport.websockets import WebsocketsTransport

from risiko_client.documents import (
    ADD_BOT,
    BOARD,
    CREATE,
    EVENTS,
    EVENTS_PAGE,
    GAME,
    JOIN,
    LEAVE,
    LOG_PAGE,
    ODDS,
    RANDOMNESS,
    SEAT_EVENTS,
    SEED_CHOSEN,
    START,
    SUBMIT,
    TURN,
)
from risiko_client.public_record import PublicRecord, derive_seed
from risiko_client.state import (
    ActionInput,
    Board,
    GameEvent,
    GameState,
    Odds,
    Seat,
    Submitted,
    UserError,
    game_event,
)
from risiko_client.transport import (
    TRANSIENT,
    ApiError,
    ParsedRequest,
    checked,
    closed_for_good,
)
from risiko_client.transport import Json as Json  # the type of the API's raw dicts, for bots

__all__ = [
    "ActionInput",
    "ApiError",
    "Board",
    "GameEvent",
    "GameState",
    "Odds",
    "PublicRecord",
    "RisikoClient",
    "Seat",
    "Submitted",
    "UserError",
    "derive_seed",
]

T = TypeVar("T")


class RisikoClient:
    """The API as one seat (with its token) or as a spectator (without). `url` is the GraphQL
    endpoint (`…/graphql` is added if missing); the WebSocket URL is derived from it.

    Use it as `async with RisikoClient(url, token) as client:`, or call `close()` at the end.
    It may be shared by tasks of one event loop."""

    def __init__(
        self,
        url: str,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        retries: int = 5,
        retry_delay: float = 0.2,
    ) -> None:
        url = url.rstrip("/")
        self.url = url if url.endswith("/graphql") else url + "/graphql"
        self.ws_url = "ws" + self.url.removeprefix("http")  # http → ws, https → wss
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.retry_delay = retry_delay
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._client = Client(
            transport=HTTPXAsyncTransport(self.url, headers=headers, timeout=timeout),
            execute_timeout=timeout,
        )
        self._session: AsyncClientSession | None = None
        self._connecting = asyncio.Lock()
        self._stack = contextlib.AsyncExitStack()
        # Games this program created with a seed of its choice: it knows it chose them, and
        # joins them without being told (shared with the clients of with_token).
        self._chose_seed: set[str] = set()

    def with_token(self, token: str) -> RisikoClient:
        """A new client of the same server acting as the seat of `token`."""
        other = RisikoClient(
            self.url,
            token,
            timeout=self.timeout,
            retries=self.retries,
            retry_delay=self.retry_delay,
        )
        other._chose_seed = self._chose_seed
        return other

    async def __aenter__(self) -> RisikoClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self) -> None:
        self._session = None
        await self._stack.aclose()

    # ------------------------------------------------------------------ requests

    async def execute(self, query: str, variables: Json | None = None) -> Json:
        """One GraphQL request: its `data`, or ApiError for top-level errors. Over the
        client's budget (RATE_LIMITED: nothing was done), it waits the seconds the server
        asks for and sends it again, up to `retries` times."""
        async with self._connecting:
            if self._session is None:
                session = await self._stack.enter_async_context(self._client)
                assert isinstance(session, AsyncClientSession)
                self._session = session
        for attempt in range(self.retries + 1):
            try:
                return await self._session.execute(ParsedRequest(query, variables))
            except TransportQueryError as error:
                first = (error.errors or [{}])[0]
                extensions = first.get("extensions") or {}
                code = extensions.get("code", "GRAPHQL_ERROR")
                if code == "RATE_LIMITED" and attempt < self.retries:
                    await asyncio.sleep(float(extensions.get("retryAfter", 1)))
                    continue
                raise ApiError(code, first.get("message", str(error))) from None
            except TransportServerError as error:
                if error.code is not None and error.code < 500:
                    raise ApiError(f"HTTP_{error.code}", str(error)) from None
                raise
        raise AssertionError("unreachable")

    async def _retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        """`call` again after a transport error, with backoff; the last error is raised."""
        for attempt in range(self.retries + 1):
            try:
                return await call()
            except TRANSIENT:
                if attempt == self.retries:
                    raise
                await asyncio.sleep(self.retry_delay * 2**attempt)
        raise AssertionError("unreachable")

    async def query(self, query: str, variables: Json | None = None) -> Json:
        """A read-only request, retried on transport errors."""
        return await self._retrying(lambda: self.execute(query, variables))

    # ------------------------------------------------------------------ the lobby

    async def create_game(
        self,
        variant: str = "classic",
        options: Json | None = None,
        seed: str | None = None,
        time_control: Json | None = None,
        admission: Json | None = None,
    ) -> str:
        """A new game in the lobby (options as GameOptionsInput, e.g. {"roundLimit": 60}; a
        clock as TimeControlInput, e.g. {"turnSeconds": 60}; who may sit as AdmissionInput,
        e.g. {"admits": "BOTS"}); returns its id. A `seed` makes it reproducible, and tells
        every player that its creator knows every roll."""
        request: Json = {"variant": variant, "options": options, "seed": seed}
        if time_control is not None:
            request["timeControl"] = time_control
        if admission is not None:
            request["admission"] = admission
        data = await self.execute(CREATE, {"input": request})
        game_id: str = checked(data["createGame"])["game"]["id"]
        if seed is not None:
            self._chose_seed.add(game_id)
        return game_id

    async def join_game(
        self,
        game_id: str,
        name: str | None = None,
        colour: str | None = None,
        *,
        accept_chosen_seed: bool = False,
        client_seed: str | None = None,
        contribute: bool = True,
    ) -> Seat:
        """Take a seat: a guest's, named `name` (the answer holds its token, shown once), or,
        with an account's credential, the account's (bound to it, named by it; the seat's
        token is that credential). The seat contributes to the game's randomness:
        `client_seed`, else a fresh random one (none if not `contribute`). A game whose seed
        its creator chose (who then knows every roll and card to come) is refused with
        ApiError SEED_CHOSEN before sitting down, unless `accept_chosen_seed` (or this client
        created it with that seed)."""
        if not accept_chosen_seed and game_id not in self._chose_seed:
            found = (await self.query(SEED_CHOSEN, {"id": game_id}))["game"]
            if found is not None and found["seedChosen"]:
                raise ApiError(
                    "SEED_CHOSEN",
                    "this game's creator chose its seed and knows every roll and card to come; "
                    "join it with accept_chosen_seed=True if you accept that",
                )
        if client_seed is None and contribute:
            client_seed = secrets.token_hex(16)
        request = {"gameId": game_id, "name": name, "colour": colour, "clientSeed": client_seed}
        payload = checked((await self.execute(JOIN, {"input": request}))["joinGame"])
        accepted = client_seed if payload["clientSeedAccepted"] else None
        token = payload["token"] or self.token  # an account's seat: its own credential acts
        assert token is not None, "a seat without a token"
        return Seat(game_id, payload["seat"], token, accepted)

    async def add_bot(self, game_id: str, policy: str = "ODDS", name: str | None = None) -> int:
        """Seat a bot that the server plays (as a seated player, in the lobby); its seat."""
        request = {"gameId": game_id, "policy": policy, "name": name}
        seat: int = checked((await self.execute(ADD_BOT, {"input": request}))["addBot"])["seat"]
        return seat

    async def start_game(
        self, game_id: str, *, client_seed: str | None = None, contribute: bool = True
    ) -> str | None:
        """Start the game (as a seated player). The seat's contribution is given again, now
        that every other is fixed (so no seat could choose its own knowing this one):
        `client_seed`, else a fresh random one (none if not `contribute`). Returns the
        contribution the server recorded, if any."""
        if client_seed is None and contribute:
            client_seed = secrets.token_hex(16)
        request = {"gameId": game_id, "clientSeed": client_seed}
        payload = checked((await self.execute(START, {"input": request}))["startGame"])
        return client_seed if payload["clientSeedAccepted"] else None

    async def leave_game(self, game_id: str) -> None:
        """Free the seat in the lobby; resign once the game has started."""
        checked((await self.execute(LEAVE, {"input": {"gameId": game_id}}))["leaveGame"])

    # ------------------------------------------------------------------ playing

    async def game(self, game_id: str) -> GameState:
        """The game as this client's seat sees it; ApiError NOT_FOUND if there is none."""
        data = (await self.query(GAME, {"id": game_id}))["game"]
        if data is None:
            raise ApiError("NOT_FOUND", f"no game {game_id!r}")
        return GameState.from_data(data)

    async def turn(self, game_id: str) -> tuple[int, str, int | None]:
        """(version, status, seatToAct): a cheap look to decide whether to load the game."""
        data = (await self.query(TURN, {"id": game_id}))["game"]
        if data is None:
            raise ApiError("NOT_FOUND", f"no game {game_id!r}")
        return data["version"], data["status"], data["seatToAct"]

    async def submit(
        self,
        game_id: str,
        action_input: ActionInput,
        expected_version: int | None = None,
        client_mutation_id: str | None = None,
    ) -> Submitted:
        """Submit one action. On a transport error the SAME clientMutationId is sent again,
        so an action whose answer was lost is applied once and its first answer returned."""
        variables = {
            "input": {
                "gameId": game_id,
                "action": action_input,
                "expectedVersion": expected_version,
                "clientMutationId": client_mutation_id or uuid.uuid4().hex,
            }
        }
        payload = (await self._retrying(lambda: self.execute(SUBMIT, variables)))["submitAction"]
        return Submitted(
            version=payload["version"],
            events=[game_event(e) for e in payload["events"]],
            user_errors=[
                UserError(e["code"], e["message"], e["field"]) for e in payload["userErrors"]
            ],
            state=GameState.from_data(payload["game"]) if payload["game"] else None,
        )

    async def battle_odds(
        self,
        attackers: int,
        defenders: int,
        *,
        attacker_dice: int = 3,
        defender_dice: int = 3,
        tie_rule: str = "DEFENDER_WINS",
        attacker_bonus: int = 0,
        defender_bonus: int = 0,
        stop_at: int = 0,
        naval: bool = False,
    ) -> Odds:
        """Exact odds of `attackers` armies (the territory holds one more) attacking
        `defenders` until conquest, or until `stop_at` attackers are left. With `naval`, of an
        S.P.Q.RisiKo! naval combat: `attackers` is every attacking trireme, ties remove
        nothing and the combat ends at the first roll that removes none; the conquest
        probability is then that of sinking every defending trireme."""
        variables = {
            "a": attackers,
            "d": defenders,
            "ad": attacker_dice,
            "dd": defender_dice,
            "tie": tie_rule,
            "ab": attacker_bonus,
            "db": defender_bonus,
            "stop": stop_at,
            "naval": naval,
        }
        data = (await self.query(ODDS, variables))["battleOdds"]
        return Odds(
            attackers=data["attackers"],
            defenders=data["defenders"],
            conquest_probability=data["conquestProbability"],
            attacker_survivors=data["attackerSurvivors"],
            defender_survivors=data["defenderSurvivors"],
            expected_attacker_losses=data["expectedAttackerLosses"],
            expected_defender_losses=data["expectedDefenderLosses"],
        )

    async def action_kinds(self, variant: str = "classic") -> frozenset[str]:
        """The ActionInput members a game of `variant` takes (what its bots must know)."""
        for found in (await self.query("{ variants { name actionKinds } }"))["variants"]:
            if found["name"] == variant:
                return frozenset(found["actionKinds"])
        raise ApiError("UNKNOWN_VARIANT", f"no variant {variant!r}")

    async def board(self, variant: str = "classic") -> Board:
        """The board of a variant: territories, regions and borders."""
        for found in (await self.query(BOARD))["variants"]:
            if found["name"] == variant:
                return Board.from_data(found["board"])
        raise ApiError("UNKNOWN_VARIANT", f"no variant {variant!r}")

    async def public_record(self, game_id: str) -> PublicRecord:
        """What the game publishes to prove its dice: its randomness, its action log (once
        it is over; empty before) and every event this client may see."""
        found = (await self.query(RANDOMNESS, {"id": game_id}))["game"]
        if found is None:
            raise ApiError("NOT_FOUND", f"no game {game_id!r}")
        log: list[Json] = []
        events: list[GameEvent] = []
        if found["status"] == "FINISHED":
            log = await self._pages(game_id, LOG_PAGE, "actionLog", "entries")
            events = [
                game_event(e) for e in await self._pages(game_id, EVENTS_PAGE, "events", "events")
            ]
        return PublicRecord(
            game_id=game_id,
            variant=found["variant"],
            status=found["status"],
            viewer_seat=found["viewerSeat"],
            randomness=found["randomness"],
            log=log,
            events=events,
        )

    async def _pages(self, game_id: str, query: str, field: str, items: str) -> list[Json]:
        """Every item of a game's paged list (`events`, `actionLog`), oldest first."""
        found: list[Json] = []
        after = 0
        while True:
            page = (await self.query(query, {"id": game_id, "after": after}))["game"][field]
            if page is None:
                return found
            found.extend(page[items])
            if not page["hasMore"] or not page[items]:
                return found
            after = page[items][-1]["seq"]

    # ------------------------------------------------------------------ following

    async def seat_events(self, tokens: list[str] | None = None) -> AsyncGenerator[Json, None]:
        """What concerns these seats in all their games (seatEvents: YOUR_TURN, ANSWER_OWED,
        DEADLINE_NEAR, GAME_ENDED), over one WebSocket, until every game has ended. Each
        notice is a dict with gameId, seat, kind, version and deadline. Without `tokens`,
        every seat of the client's account (GAMES_READ), in the games it sits in and in each
        it joins later: that stream does not end of itself."""
        transport = WebsocketsTransport(
            url=self.ws_url,
            init_payload={"token": self.token} if tokens is None and self.token else {},
            subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
            connect_timeout=self.timeout,
            ack_timeout=self.timeout,
        )
        try:
            async with Client(transport=transport, execute_timeout=None) as session:
                async for data in session.subscribe(ParsedRequest(SEAT_EVENTS, {"tokens": tokens})):
                    notice: Json = data["seatEvents"]
                    yield notice
        except TransportQueryError as error:
            first = (error.errors or [{}])[0]
            code = (first.get("extensions") or {}).get("code", "GRAPHQL_ERROR")
            raise ApiError(code, first.get("message", str(error))) from None

    async def events(
        self, game_id: str, after: int = 0, *, until_end: bool = True, patience: float = 30.0
    ) -> AsyncGenerator[GameEvent, None]:
        """The game's events after seq `after`, then live ones, over WebSocket. When the
        connection drops (or the server ends the stream), it reconnects and resumes after the
        last seq seen: no gap, no duplicate. It ends after GameEnded if `until_end`; it gives
        up when no connection could be made for `patience` seconds. Stopping early, close it
        (`async with contextlib.aclosing(client.events(game_id)) as events:`)."""
        last = after
        failing_since: float | None = None
        loop = asyncio.get_running_loop()
        while True:
            transport = WebsocketsTransport(
                url=self.ws_url,
                init_payload={"token": self.token} if self.token else {},
                subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
                connect_timeout=self.timeout,
                ack_timeout=self.timeout,
            )
            request = ParsedRequest(EVENTS, {"id": game_id, "after": last})
            try:
                async with Client(transport=transport, execute_timeout=None) as session:
                    async for data in session.subscribe(request):
                        failing_since = None
                        event = game_event(data["gameEvents"])
                        if event.seq <= last:
                            continue
                        last = event.seq
                        yield event
                        if until_end and event.type == "GameEnded":
                            return
            except TransportQueryError as error:
                first = (error.errors or [{}])[0]
                code = (first.get("extensions") or {}).get("code", "GRAPHQL_ERROR")
                raise ApiError(code, first.get("message", str(error))) from None
            except TRANSIENT as error:
                refused = closed_for_good(error)
                if refused is not None:
                    raise refused from None
                now = loop.time()
                failing_since = failing_since if failing_since is not None else now
                if now - failing_since > patience:
                    raise
            await asyncio.sleep(self.retry_delay)  # dropped or ended by the server: resume
