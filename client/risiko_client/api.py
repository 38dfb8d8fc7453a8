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
import functools
import hashlib
import hmac
import secrets
import uuid
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gql import Client, GraphQLRequest
from gql.client import AsyncClientSession
from gql.transport.exceptions import TransportError, TransportQueryError, TransportServerError
from gql.transport.httpx import HTTPXAsyncTransport
from gql.transport.websockets import WebsocketsTransport
from graphql import DocumentNode, parse, print_ast
from websockets.exceptions import ConnectionClosed, WebSocketException

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

Json = dict[str, Any]
ActionInput = dict[str, Any]  # exactly one member: {"attackUntil": {...}}, {"endTurn": True}, …
T = TypeVar("T")

GAME_FIELDS = """
fragment GameFields on Game {
  id variant version status phase round currentPlayer seatToAct viewerSeat armiesToPlace
  neutralColours pendingTriremes pendingPowerCentres
  players {
    seat name colour territories armies cards eliminated resigned victoryPoints triremes
    account { name bot }
  }
  territories { id owner armies neutral triremes { seat count } controlledBy powerCentre }
  hand { id symbol territory }
  objective { id text territories }
  outcome { winner reason ranking { rank seat points } }
  legalActions {
    __typename
    ... on LegalPlaceArmies { territories minArmies maxArmies input }
    ... on LegalTradeCards { cards armies input }
    ... on LegalAttack { source target minDice maxDice input }
    ... on LegalAttackUntil { source target minDice minStopAt maxStopAt input }
    ... on LegalDefend { minDice maxDice input }
    ... on LegalOccupy { source target minArmies maxArmies input }
    ... on LegalStrategicMove { source target minArmies maxArmies input }
    ... on LegalEndTurn { input }
    ... on LegalClaimProvince { provinces input }
    ... on LegalPlaceNeutral { provinces colours input }
    ... on LegalPlacePowerCentre { provinces input }
    ... on LegalPlaceTrireme { seas input }
    ... on LegalBuildTrireme { province sea minTriremes maxTriremes input }
    ... on LegalDisbandTrireme { sea provinces input }
    ... on LegalMoveFleet { source target minTriremes maxTriremes input }
    ... on LegalNavalBattle { sea opponent minDice maxDice ongoing input }
    ... on LegalSeaAttack { source target sea minLegionaries maxLegionaries input }
    ... on LegalChooseFortress { territories input }
    ... on LegalClaimTerritory { territories input }
    ... on LegalWriteHiddenTerritory { territories input }
    ... on LegalRevealHiddenArmies { territory armies input }
    ... on LegalPlayRinforzi { cards armies input }
    ... on LegalPlaySpy { cards players input }
    ... on LegalDiscardSpiedCard { player cards input }
    ... on LegalPlayDiplomat { cards players input }
    ... on LegalPlayGeneral { cards sources targets input }
    ... on LegalAdmiralAttack { cards source targets maxArmies input }
    ... on LegalStandingOrders { marshal spy input }
    ... on LegalPlaceFlag { territories input }
    ... on LegalReceiveCards { discards input }
    ... on LegalProduce { unit spaces minCount maxCount input }
    ... on LegalPlayCard { card targets against input }
    ... on LegalMoveUnits { unit source targets minCount maxCount input }
    ... on LegalAmphibiousMove { source sea targets minCount maxCount input }
    ... on LegalTorpedo { sea targets minSubmarines maxSubmarines input }
    ... on LegalBattle { territory cards required input }
    ... on LegalBattleCards { territory cards input }
  }
}
"""
EVENT_FIELDS = "seq version type private data"
ERRORS = "userErrors { code message field }"

CREATE = f"""mutation($input: CreateGameInput!) {{
  createGame(input: $input) {{ game {{ id }} {ERRORS} }}
}}"""
JOIN = f"""mutation($input: JoinGameInput!) {{
  joinGame(input: $input) {{ seat token clientSeedAccepted {ERRORS} }}
}}"""
START = f"""mutation($input: GameInput!) {{
  startGame(input: $input) {{ clientSeedAccepted {ERRORS} }}
}}"""
SEED_CHOSEN = "query($id: ID!) { game(id: $id) { seedChosen } }"
RANDOMNESS = """query($id: ID!) { game(id: $id) {
  id variant status viewerSeat
  randomness {
    commitment seedChosen derived startCommitment secret derivedSeed
    contributions { seat given value byServer atStart }
  }
} }"""
LOG_PAGE = """query($id: ID!, $after: Int!) { game(id: $id) {
  actionLog(after: $after, first: 100) { entries { seq kind seat payload } hasMore }
} }"""
EVENTS_PAGE = """query($id: ID!, $after: Int!) { game(id: $id) {
  events(after: $after, first: 100) { events { seq version type private data } hasMore }
} }"""
LEAVE = f"""mutation($input: GameInput!) {{ leaveGame(input: $input) {{ {ERRORS} }} }}"""
ADD_BOT = f"""mutation($input: AddBotInput!) {{ addBot(input: $input) {{ seat {ERRORS} }} }}"""
SEAT_EVENTS = """subscription($tokens: [String!]) {
  seatEvents(tokens: $tokens) { gameId seat kind version deadline }
}"""
GAME = "query($id: ID!) { game(id: $id) { ...GameFields } }" + GAME_FIELDS
TURN = "query($id: ID!) { game(id: $id) { version status seatToAct } }"
SUBMIT = f"""mutation($input: SubmitActionInput!) {{
  submitAction(input: $input) {{
    version events {{ {EVENT_FIELDS} }} {ERRORS} game {{ ...GameFields }}
  }}
}}{GAME_FIELDS}"""
ODDS = """query($a: Int!, $d: Int!, $ad: Int!, $dd: Int!, $tie: TieRule!, $ab: Int!, $db: Int!,
         $stop: Int!, $naval: Boolean!) {
  battleOdds(attackers: $a, defenders: $d, attackerDice: $ad, defenderDice: $dd, tieRule: $tie,
             attackerBonus: $ab, defenderBonus: $db, stopAt: $stop, naval: $naval) {
    attackers defenders conquestProbability attackerSurvivors defenderSurvivors
    expectedAttackerLosses expectedDefenderLosses
  }
}"""
BOARD = """{ variants { name board {
  id name territories { id name region kind } regions { id name bonus territories }
  edges { a b kind }
} } }"""
EVENTS = f"""subscription($id: ID!, $after: Int!) {{
  gameEvents(gameId: $id, after: $after) {{ {EVENT_FIELDS} }}
}}"""

# Worth another try: the connection failed or was lost, the answer timed out, or a proxy or
# the server answered 5xx. GraphQL errors (TransportQueryError) are answers, never retried.
TRANSIENT = (TransportError, OSError, TimeoutError, WebSocketException)


class _Request(GraphQLRequest):
    """A request of a document parsed once: gql would parse the text and print it again for
    every request, which costs more than the request itself for the game's big query."""

    def __init__(self, query: str, variables: Json | None = None) -> None:
        document, self.text = _parsed(query)
        super().__init__(document, variable_values=variables)

    @property
    def payload(self) -> Json:
        if self.variable_values:
            return {"query": self.text, "variables": self.variable_values}
        return {"query": self.text}


@functools.cache
def _parsed(query: str) -> tuple[DocumentNode, str]:
    document = parse(query)
    return document, print_ast(document)


class ApiError(Exception):
    """A request the server refused: a top-level GraphQL error (`code` from its extensions:
    UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, BAD_USER_INPUT, …) or a user error of a lobby
    mutation (GAME_FULL, COLOUR_TAKEN, …)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Seat:
    """A seat taken with join_game; the token is shown once, keep it (a seat taken with an
    account's credential: that credential, which acts for it). `client_seed`: the seat's
    contribution to the game's randomness, when the server recorded it (check it in the
    game's `randomness` once it has started)."""

    game_id: str
    seat: int
    token: str
    client_seed: str | None = None


# The domain separation of derive_seed (the server's domain.rng.SEATS_TAG).
SEATS_TAG = b"risiko/seats/v1"


def derive_seed(secret: bytes, contributions: list[str | None]) -> bytes:
    """The seed a game's dice come from, as the server derives it (docs/architecture.md, A
    game's randomness): HMAC-SHA256 keyed by the secret over SEATS_TAG, then per seat in
    order 0x00 for none, or 0x01, the length in 4 bytes big-endian and the ASCII bytes."""
    message = bytearray(SEATS_TAG)
    for value in contributions:
        if value is None:
            message += b"\x00"
            continue
        encoded = value.encode("utf-8")
        message += b"\x01" + len(encoded).to_bytes(4, "big") + encoded
    return hmac.digest(secret, bytes(message), "sha256")


@dataclass(frozen=True)
class PublicRecord:
    """What a game publishes to prove its dice (once over): its randomness (`Game.randomness`:
    commitment, contributions, secret, derived seed), its action log (each entry's seq, kind,
    seat and payload) and the events the viewer may see (every public one; a seat's token
    adds its own private ones). `risiko verify` replays the log on the server's engine and
    compares every event; `chain_problems` checks what needs no engine."""

    game_id: str
    variant: str
    status: str
    viewer_seat: int | None
    randomness: Json
    log: list[Json]
    events: list[GameEvent]

    @property
    def finished(self) -> bool:
        return self.status == "FINISHED"

    def start_entry(self) -> Json | None:
        return next((entry for entry in self.log if entry["kind"] == "start"), None)

    def contributions(self) -> list[str | None] | None:
        """The contributions the start fixed, in seat order; None for a game without (its
        seed chosen, or played before contributions)."""
        start = self.start_entry()
        if start is None or "contributions" not in start["payload"]:
            return None
        values: list[str | None] = start["payload"]["contributions"]
        return values

    def chain_problems(self, mine: tuple[int, str] | None = None) -> list[str]:
        """What is wrong with the chain from the commitment to the dice's seed (empty: all
        holds): the secret against the commitment published at creation, the derived seed
        against the secret and the contributions the start fixed, the start's commitment
        against that seed. `mine`: (a seat, the contribution it sent last: Seat.client_seed,
        or what start_game returned), which must be the one the start fixed."""
        if not self.finished:
            return ["the game is not over: its secret is revealed at the end"]
        found = self.randomness
        secret = bytes.fromhex(found["secret"])
        problems = []
        created = next((entry for entry in self.log if entry["kind"] == "create"), None)
        published = created["payload"]["commitment"] if created else found["commitment"]
        if hashlib.sha256(secret).hexdigest() != published or published != found["commitment"]:
            problems.append("the secret does not match the commitment published at creation")
        values = self.contributions()
        shown = [c["value"] for c in found["contributions"]]
        if values is not None and shown != values:
            problems.append("the contributions shown are not those the start recorded")
        seed = secret if values is None else derive_seed(secret, values)
        if found["derivedSeed"] != seed.hex():
            problems.append("the derived seed is not HMAC(secret, contributions)")
        start = found["startCommitment"]
        if start is not None and start != hashlib.sha256(seed).hexdigest():
            problems.append("the start's commitment is not the hash of the derived seed")
        if mine is not None:
            seat, sent = mine
            if values is None or seat >= len(values) or values[seat] != sent:
                problems.append(f"seat {seat}'s contribution is not the one it sent")
        return problems


@dataclass(frozen=True)
class UserError:
    """Why an action was refused (nothing changed)."""

    code: str
    message: str
    field: list[str] | None = None


@dataclass(frozen=True)
class GameEvent:
    """An event of a game's history, as the viewer may see it."""

    seq: int
    version: int
    type: str
    private: bool
    data: Json


@dataclass(frozen=True)
class GameState:
    """A game as the client's seat (or a spectator) sees it. Players, territories, the hand,
    the objective, the outcome and the legal action families are the API's raw dicts;
    each family has its `__typename`, its range fields and a ready `input`.

    S.P.Q.RisiKo!: territories are provinces and sea areas; a province held by neutral
    legionaries has `owner` None and `neutral` its colour (one of `neutral_colours`), a sea
    area lists its `triremes` by seat; players have `victoryPoints` and `triremes`."""

    id: str
    variant: str
    version: int
    status: str  # LOBBY, ACTIVE, FINISHED
    phase: str | None  # SETUP, REINFORCE, (NAVAL_… and SEA_ATTACK,) ATTACK, DEFEND, OCCUPY, OVER
    round: int
    current_player: int | None
    seat_to_act: int | None
    viewer_seat: int | None
    armies_to_place: int
    players: list[Json]
    territories: list[Json]
    hand: list[Json] | None
    objective: Json | None
    legal_actions: list[Json]
    outcome: Json | None
    neutral_colours: list[str] = field(default_factory=list)
    pending_triremes: int = 0  # won with a set, still to place (S.P.Q.RisiKo!)
    pending_power_centres: int = 0

    @classmethod
    def from_data(cls, data: Json) -> GameState:
        return cls(
            id=data["id"],
            variant=data["variant"],
            version=data["version"],
            status=data["status"],
            phase=data["phase"],
            round=data["round"],
            current_player=data["currentPlayer"],
            seat_to_act=data["seatToAct"],
            viewer_seat=data["viewerSeat"],
            armies_to_place=data["armiesToPlace"],
            players=data["players"],
            territories=data["territories"],
            hand=data["hand"],
            objective=data["objective"],
            legal_actions=data["legalActions"],
            outcome=data["outcome"],
            neutral_colours=data["neutralColours"],
            pending_triremes=data["pendingTriremes"],
            pending_power_centres=data["pendingPowerCentres"],
        )

    @property
    def my_turn(self) -> bool:
        """The game waits for the viewer's seat."""
        return self.viewer_seat is not None and self.seat_to_act == self.viewer_seat

    @property
    def finished(self) -> bool:
        return self.status == "FINISHED"

    def owners(self) -> dict[str, int | None]:
        return {t["id"]: t["owner"] for t in self.territories}

    def armies(self) -> dict[str, int]:
        return {t["id"]: t["armies"] for t in self.territories}

    def triremes(self) -> dict[str, dict[int, int]]:
        """S.P.Q.RisiKo!: each sea area's triremes by seat (seas without any are left out)."""
        return {
            t["id"]: {f["seat"]: f["count"] for f in t["triremes"]}
            for t in self.territories
            if t["triremes"]
        }

    def families(self, typename: str) -> list[Json]:
        """The legal families of one kind, e.g. families("LegalAttackUntil")."""
        return [f for f in self.legal_actions if f["__typename"] == typename]


@dataclass(frozen=True)
class Submitted:
    """The answer to submit: the new version and the caller's events, or the user errors
    (`STALE_VERSION`, `NOT_YOUR_TURN`, …) of a refused action; `state` is the game after it."""

    version: int | None
    events: list[GameEvent]
    user_errors: list[UserError]
    state: GameState | None = None

    @property
    def ok(self) -> bool:
        return not self.user_errors


@dataclass(frozen=True)
class Odds:
    """Exact odds of attacking until conquest or exhaustion (see battle_odds)."""

    attackers: int
    defenders: int
    conquest_probability: float
    attacker_survivors: list[float]
    defender_survivors: list[float]
    expected_attacker_losses: float
    expected_defender_losses: float


# Edge kinds that join two land spaces (armies cross them); `coast` joins a province and a
# sea area, `sea` two sea areas (S.P.Q.RisiKo!).
LAND_EDGES = frozenset({"land", "sea_line", "black_line"})


@dataclass(frozen=True)
class Board:
    """A variant's board: territories (id → region), regions (id → bonus, territories) and
    borders: `neighbours` across every edge kind, `land_neighbours` across the edges armies
    cross (in classic, every edge). S.P.Q.RisiKo!: the sea areas are in `seas`; `coasts`
    gives a province its sea areas and a sea area its shore provinces; `sea_neighbours`
    joins sea areas (where fleets move)."""

    id: str
    name: str
    regions: dict[str, Json]
    region_of: dict[str, str | None]
    neighbours: dict[str, frozenset[str]] = field(repr=False)
    seas: frozenset[str] = frozenset()
    land_neighbours: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    coasts: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    sea_neighbours: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_data(cls, data: Json) -> Board:
        ids = [t["id"] for t in data["territories"]]
        kinds = ("all", "land", "coast", "sea")
        joined: dict[str, dict[str, set[str]]] = {k: {t: set() for t in ids} for k in kinds}
        for edge in data["edges"]:
            kind = "land" if edge["kind"] in LAND_EDGES else edge["kind"]
            for found in (joined["all"], joined.get(kind)):
                if found is not None:
                    found[edge["a"]].add(edge["b"])
                    found[edge["b"]].add(edge["a"])

        def frozen(kind: str) -> dict[str, frozenset[str]]:
            return {t: frozenset(n) for t, n in joined[kind].items()}

        return cls(
            id=data["id"],
            name=data["name"],
            regions={r["id"]: r for r in data["regions"]},
            region_of={t["id"]: t["region"] for t in data["territories"]},
            neighbours=frozen("all"),
            seas=frozenset(t["id"] for t in data["territories"] if t["kind"] == "SEA"),
            land_neighbours=frozen("land"),
            coasts=frozen("coast"),
            sea_neighbours=frozen("sea"),
        )


def _event(data: Json) -> GameEvent:
    return GameEvent(data["seq"], data["version"], data["type"], data["private"], data["data"])


def _refusal(error: BaseException) -> ApiError | None:
    """The server closed the WebSocket for good (4401, 4403: a wrong token; 4400: a protocol
    error), not to be retried; None for a connection merely lost."""
    cause: BaseException | None = error
    for _ in range(8):  # along the chain of causes
        if isinstance(cause, ConnectionClosed) and cause.rcvd is not None:
            if cause.rcvd.code in (4401, 4403):
                return ApiError("UNAUTHENTICATED", cause.rcvd.reason or "token refused")
            if cause.rcvd.code == 4400:
                return ApiError("BAD_REQUEST", cause.rcvd.reason or "protocol error")
        if cause is None:
            break
        cause = cause.__cause__ or cause.__context__
    return None


def _check(payload: Json) -> Json:
    """A lobby mutation's payload, or ApiError for its first user error."""
    for error in payload["userErrors"]:
        raise ApiError(error["code"], error["message"])
    return payload


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
                return await self._session.execute(_Request(query, variables))
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
        game_id: str = _check(data["createGame"])["game"]["id"]
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
        payload = _check((await self.execute(JOIN, {"input": request}))["joinGame"])
        accepted = client_seed if payload["clientSeedAccepted"] else None
        token = payload["token"] or self.token  # an account's seat: its own credential acts
        assert token is not None, "a seat without a token"
        return Seat(game_id, payload["seat"], token, accepted)

    async def add_bot(self, game_id: str, policy: str = "ODDS", name: str | None = None) -> int:
        """Seat a bot that the server plays (as a seated player, in the lobby); its seat."""
        request = {"gameId": game_id, "policy": policy, "name": name}
        seat: int = _check((await self.execute(ADD_BOT, {"input": request}))["addBot"])["seat"]
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
        payload = _check((await self.execute(START, {"input": request}))["startGame"])
        return client_seed if payload["clientSeedAccepted"] else None

    async def leave_game(self, game_id: str) -> None:
        """Free the seat in the lobby; resign once the game has started."""
        _check((await self.execute(LEAVE, {"input": {"gameId": game_id}}))["leaveGame"])

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
            events=[_event(e) for e in payload["events"]],
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
                _event(e) for e in await self._pages(game_id, EVENTS_PAGE, "events", "events")
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
                async for data in session.subscribe(_Request(SEAT_EVENTS, {"tokens": tokens})):
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
            request = _Request(EVENTS, {"id": game_id, "after": last})
            try:
                async with Client(transport=transport, execute_timeout=None) as session:
                    async for data in session.subscribe(request):
                        failing_since = None
                        event = _event(data["gameEvents"])
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
                refused = _refusal(error)
                if refused is not None:
                    raise refused from None
                now = loop.time()
                failing_since = failing_since if failing_since is not None else now
                if now - failing_since > patience:
                    raise
            await asyncio.sleep(self.retry_delay)  # dropped or ended by the server: resume
