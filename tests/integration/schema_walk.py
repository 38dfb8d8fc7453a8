"""Every field the served schema offers on a game, asked while a game is played, as every kind
of viewer: the tool of the tests that fail on any error a client is not told the code of, and
on any hidden information shown to whoever may not see it.

The selections are built from introspection of the schema the server serves, so a field, a
type or a game added tomorrow is asked the day it exists: every field of every object type
reachable from `Game` (and from `SubmitActionPayload`), every implementation of an interface
and every member of a union by inline fragments, arguments given values from the game when
they are required (else their defaults). The whole introspection query is deeper and dearer
than a document may be, so the schema is read one `__type` at a time.

A game's fields go in as few documents as the server's limits allow: a document the server
refuses for its size (depth, cost, tokens, aliases) is split in two and asked again, and the
split is kept for the next walks.

The games are played by sending, for the seat the game waits for, the ready `input` of one of
the legal families it is offered, chosen by a seeded random generator.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import httpx
from strawberry.utils.str_converters import to_camel_case

from domain.errors import known_codes

Json = dict[str, Any]

# The codes a client may be told, and so may meet (README: Errors; domain.errors.known_codes):
# a rule or the lobby refusing, and a request's token or input refused.
DOCUMENTED_CODES = known_codes() | {
    "UNAUTHENTICATED",
    "FORBIDDEN",
    "NOT_FOUND",
    "BAD_USER_INPUT",
}
# A document refused for its size: the walk splits it (never a finding about the game).
LIMIT_CODES = frozenset(
    {"QUERY_TOO_COMPLEX", "QUERY_TOO_DEEP", "TOO_MANY_TOKENS", "TOO_MANY_ALIASES"}
)
# What a field's description says when only the viewer's own seat may see its value.
SPECTATOR_NULL = "null for a spectator"
# Fields that must be among them: the test would prove nothing if the descriptions changed.
PRIVATE_FIELDS = frozenset({"hand", "objective", "secrets", "viewerSeat"})

TYPE_QUERY = """
query($name: String!) {
  __type(name: $name) {
    kind name possibleTypes { name } enumValues(includeDeprecated: true) { name }
    fields(includeDeprecated: true) {
      name description type { ...Ref } args { name defaultValue type { ...Ref } }
    }
    inputFields { name description type { ...Ref } defaultValue }
  }
}
fragment Ref on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }
"""


# --------------------------------------------------------------------------- the served schema


@dataclass(frozen=True)
class TypeRef:
    kind: str
    name: str | None
    of_type: TypeRef | None

    @classmethod
    def of(cls, plain: Json) -> TypeRef:
        inner = plain.get("ofType")
        return cls(plain["kind"], plain["name"], None if inner is None else cls.of(inner))

    @property
    def named(self) -> TypeRef:
        """The named type inside the list and non-null wrappers."""
        return self if self.of_type is None else self.of_type.named

    @property
    def type_name(self) -> str:
        name = self.named.name
        assert name is not None, self
        return name


@dataclass(frozen=True)
class Argument:
    name: str
    type: TypeRef
    default: str | None

    @property
    def required(self) -> bool:
        return self.type.kind == "NON_NULL" and self.default is None


@dataclass(frozen=True)
class Field:
    name: str
    description: str
    type: TypeRef
    args: tuple[Argument, ...]


@dataclass(frozen=True)
class TypeInfo:
    kind: str
    name: str
    fields: tuple[Field, ...]
    possible_types: tuple[str, ...]
    enum_values: tuple[str, ...]


COMPOSITE = ("OBJECT", "INTERFACE", "UNION")


async def introspect(client: httpx.AsyncClient, roots: Sequence[str]) -> dict[str, TypeInfo]:
    """Every type reachable from `roots` (through fields, arguments and possible types)."""
    types: dict[str, TypeInfo] = {}
    pending = list(roots)
    while pending:
        name = pending.pop()
        if name in types:
            continue
        answer = await _post(client, TYPE_QUERY, {"name": name}, None)
        assert "errors" not in answer, answer
        plain = answer["data"]["__type"]
        assert plain is not None, f"the schema has no type {name}"
        fields = tuple(
            Field(
                f["name"],
                f["description"] or "",
                TypeRef.of(f["type"]),
                tuple(
                    Argument(a["name"], TypeRef.of(a["type"]), a["defaultValue"]) for a in f["args"]
                ),
            )
            for f in plain["fields"] or ()
        ) + tuple(  # an input object's fields, in the same shape
            Field(f["name"], f["description"] or "", TypeRef.of(f["type"]), ())
            for f in plain["inputFields"] or ()
        )
        info = TypeInfo(
            plain["kind"],
            name,
            fields,
            tuple(t["name"] for t in plain["possibleTypes"] or ()),
            tuple(v["name"] for v in plain["enumValues"] or ()),
        )
        types[name] = info
        for field_ in fields:
            pending.extend(_names(field_.type, *(a.type for a in field_.args)))
        pending.extend(info.possible_types)
    return types


def _names(*refs: TypeRef) -> Iterator[str]:
    for ref in refs:
        named = ref.named
        if named.name is not None and not named.name.startswith("__"):
            yield named.name


# --------------------------------------------------------------------------- selections


@dataclass(frozen=True)
class Node:
    """A selection: `head` (a field with its arguments, or `... on Type`) and what it selects
    below it (nothing for a leaf)."""

    head: str
    children: tuple[Node, ...] = ()

    def text(self) -> str:
        if not self.children:
            return self.head
        return f"{self.head} {{ {' '.join(child.text() for child in self.children)} }}".strip()

    def halves(self) -> tuple[Node, Node] | None:
        """Two selections that ask together what this one asks, or None for a leaf."""
        if not self.children:
            return None
        if len(self.children) == 1:
            inner = self.children[0].halves()
            if inner is None:
                return None
            return replace(self, children=(inner[0],)), replace(self, children=(inner[1],))
        middle = len(self.children) // 2
        return (
            replace(self, children=self.children[:middle]),
            replace(self, children=self.children[middle:]),
        )


def literal(value: object) -> str:
    """A GraphQL literal for a plain value (an enum value is passed as `Enum(name)`)."""
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


@dataclass(frozen=True)
class Enum:
    name: str


@dataclass
class Selections:
    """Selections of every field below a type, from the served schema. `values` gives the
    required arguments their values: by argument name first (a territory id for `territory`),
    else by the argument's type."""

    types: Mapping[str, TypeInfo]
    values: Mapping[str, object] = field(default_factory=dict)

    def of(
        self, type_name: str, path: tuple[str, ...] = (), aliased: frozenset[str] = frozenset()
    ) -> tuple[Node, ...]:
        """The selection of every field of `type_name`; a type already being selected above
        (a cycle) is asked for its `__typename` only. `aliased`: the fields asked under an
        alias (`name_Type: name`), a union's members having fields of one name and two types."""
        info = self.types[type_name]
        if type_name in path:
            return (Node("__typename"),)
        path = (*path, type_name)
        if info.kind == "UNION":
            return (Node("__typename"), *self._fragments(info.possible_types, path))
        own = tuple(self.field(f, path, f.name in aliased) for f in info.fields)
        if info.kind == "INTERFACE":
            return (Node("__typename"), *own, *self._fragments(info.possible_types, path))
        return own

    def _fragments(self, names: Sequence[str], path: tuple[str, ...]) -> tuple[Node, ...]:
        clashing = self._clashing(names)
        return tuple(
            Node(f"... on {name}", self.of(name, path, clashing.get(name, frozenset())))
            for name in names
        )

    def _clashing(self, names: Sequence[str]) -> dict[str, frozenset[str]]:
        """The fields of these types (a union's, an interface's) that GraphQL cannot merge: of
        one name and of different types in two of them. The type most of them share keeps
        the name; the others are aliased, by type."""
        shapes: dict[str, dict[TypeRef, list[str]]] = {}
        for name in names:
            for field_ in self.types[name].fields:
                shapes.setdefault(field_.name, {}).setdefault(field_.type, []).append(name)
        aliased: dict[str, set[str]] = {}
        for field_name, by_type in shapes.items():
            if len(by_type) < 2:
                continue
            most = max(by_type.values(), key=len)
            for owners in by_type.values():
                for owner in owners if owners is not most else ():
                    aliased.setdefault(owner, set()).add(field_name)
        return {owner: frozenset(fields) for owner, fields in aliased.items()}

    def field(self, field_: Field, path: tuple[str, ...], aliased: bool = False) -> Node:
        arguments = [
            f"{a.name}: {literal(self.value(field_, a))}" for a in field_.args if a.required
        ]
        head = field_.name + (f"({', '.join(arguments)})" if arguments else "")
        if aliased:
            head = f"{field_.name}_{path[-1]}: {head}"
        if field_.type.named.kind in COMPOSITE:
            return Node(head, self.of(field_.type.type_name, path))
        return Node(head)

    def value(self, field_: Field, argument: Argument) -> object:
        if argument.name in self.values:
            return self.values[argument.name]
        named = argument.type.named
        if argument.type.kind == "NON_NULL" and argument.type.of_type is named:
            by_type: dict[str | None, object] = {
                "Int": 1,
                "Float": 1.0,
                "Boolean": False,
                "ID": self.values.get("id"),
                "String": self.values.get("territory"),
            }
            if named.kind == "ENUM":
                return Enum(self.types[argument.type.type_name].enum_values[0])
            found = by_type.get(named.name)
            if found is not None:
                return found
        raise AssertionError(f"no value for the required argument {field_.name}({argument.name})")


# --------------------------------------------------------------------------- answers


def merge(left: Any, right: Any) -> Any:
    """Two answers to halves of one selection, as the answer to the whole."""
    if isinstance(left, dict) and isinstance(right, dict):
        merged = dict(left)
        for key, value in right.items():
            merged[key] = merge(merged[key], value) if key in merged else value
        return merged
    if isinstance(left, list) and isinstance(right, list):
        assert len(left) == len(right), (left, right)
        return [merge(a, b) for a, b in zip(left, right, strict=True)]
    assert left == right, (left, right)
    return left


def codes(answer: Json) -> list[str | None]:
    return [e.get("extensions", {}).get("code") for e in answer.get("errors") or []]


def refused_for_size(answer: Json) -> bool:
    found = codes(answer)
    return bool(found) and all(code in LIMIT_CODES for code in found)


def check_codes(answer: Json, where: str) -> None:
    """Every error has a documented code: never INTERNAL_SERVER_ERROR, never none."""
    for error, code in zip(answer.get("errors") or [], codes(answer), strict=True):
        assert code in DOCUMENTED_CODES, f"{where}: {error}"


async def _post(client: httpx.AsyncClient, query: str, variables: Json, token: str | None) -> Json:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    response = await client.post(
        "/graphql", json={"query": query, "variables": variables}, headers=headers
    )
    assert response.status_code in (200, 400), response.text  # 400: a refused document
    answer = response.json()
    assert isinstance(answer, dict), answer
    return answer


# --------------------------------------------------------------------------- the walk

END_TURN = {"endTurn": True}
PASS_CHANCE = 0.1  # ending the turn while there is something else to do: games move on
PAGE = 100  # events read a page at a time


def choose(inputs: Sequence[Json], rnd: random.Random) -> Json:
    """A ready input among `inputs`, ending the turn only now and then while something else
    is offered (a uniform choice ends most turns at once, and a game never gets anywhere)."""
    others = [i for i in inputs if i != END_TURN]
    if others and (len(others) == len(inputs) or rnd.random() >= PASS_CHANCE):
        return rnd.choice(others)
    return rnd.choice(inputs)


GAME_QUERY = "query($id: ID!) { game(id: $id) %s }"
SUBMIT = "mutation($input: SubmitActionInput!) { submitAction(input: $input) %s }"
CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) { game { id } userErrors { code message } }
}"""
JOIN = """
mutation($input: JoinGameInput!) { joinGame(input: $input) { token userErrors { code message } } }
"""
START = """
mutation($input: GameInput!) { startGame(input: $input) { userErrors { code message } } }
"""
# What the play needs of the game after each action, to go on; what the checks of a submit
# read in its payload.
NEEDED = "status seatToAct viewerSeat players { cards }"
PAYLOAD_NEEDED = "userErrors { code message } events { private data }"
LEAVE = (
    "mutation($input: GameInput!) { leaveGame(input: $input) { "
    f"game {{ {NEEDED} }} userErrors {{ code message }} }} }}"
)
CATALOGUE = """
{ variants { name minPlayers maxPlayers options { name default } board { territories { id } } } }
"""
SPECTATOR = "spectator"
FOREIGN = "foreign token"


@dataclass
class Viewer:
    name: str  # seat 0, …, the spectator, the foreign token
    token: str | None
    seat: int | None = None


@dataclass
class Walk:
    """One game, played and asked every field of (see the module's docstring)."""

    client: httpx.AsyncClient
    types: Mapping[str, TypeInfo]
    variant: str
    # Account credentials (sessions) that take the first seats, and the foreign viewer's,
    # instead of guests' seat tokens: an account's credential acts for its seat.
    accounts: Sequence[str] = ()
    payload_every: int = 5  # one submit in this many asks for a part of the game's fields
    game_id: str = ""
    viewers: list[Viewer] = field(default_factory=list)
    selections: Selections | None = None
    parts: list[Node] = field(default_factory=list)  # the game's fields, a document each
    payload_parts: list[Node] = field(default_factory=list)  # SubmitActionPayload's own
    walks: int = 0
    submits: int = 0
    cards_held: int = 0  # the most cards a seat read in its hand
    cards_seen: int = 0  # the most cards the players' public counts showed a seat holding

    # ----------------------------------------------------------------------- the lobby

    async def catalogue_entry(self) -> Json:
        catalogue = (await self._data(CATALOGUE, {}, None))["variants"]
        entry = next(v for v in catalogue if v["name"] == self.variant)
        assert isinstance(entry, dict)
        return entry

    async def other_options(self) -> Json:
        """The variant's options (Variant.options) other than their defaults, as a
        GameOptionsInput: every yes-or-no option the other way, every choice another value."""
        fields = {f.name: f.type for f in self.types["GameOptionsInput"].fields}
        chosen: Json = {}
        for option in (await self.catalogue_entry())["options"]:
            name, default = to_camel_case(option["name"]), option["default"]
            if isinstance(default, bool):
                chosen[name] = not default
            elif fields[name].named.kind == "ENUM":
                values = self.types[fields[name].type_name].enum_values
                chosen[name] = next(v for v in values if v.lower() != str(default).lower())
        return chosen

    async def create(
        self, seed: str, players: int, options: Json, time_control: Json | None = None
    ) -> None:
        """A game of `players` seats (as the variant allows), each a viewer, with a spectator
        and a foreign token (a valid token of another game) beside them; not started yet."""
        entry = await self.catalogue_entry()
        players = min(max(players, entry["minPlayers"]), entry["maxPlayers"])
        other = await self._new_game(f"{seed}-other", {})
        self.game_id = await self._new_game(seed, options, time_control)
        for seat in range(players):
            self.viewers.append(Viewer(f"seat {seat}", await self._join(self.game_id), seat))
        self.viewers.append(Viewer(SPECTATOR, None))
        self.viewers.append(Viewer(FOREIGN, await self._join(other, foreign=True)))
        territory = entry["board"]["territories"][0]["id"]
        self.selections = Selections(self.types, {"id": self.game_id, "territory": territory})
        self.parts = [Node("", self.selections.of("Game"))]

    async def _new_game(self, seed: str, options: Json, time_control: Json | None = None) -> str:
        variables = {
            "input": {
                "variant": self.variant,
                "seed": seed,
                "options": options,
                "timeControl": time_control,
            }
        }
        created = (await self._data(CREATE, variables, None))["createGame"]
        assert created["userErrors"] == [], created
        game_id = created["game"]["id"]
        assert isinstance(game_id, str)
        return game_id

    async def _join(self, game_id: str, foreign: bool = False) -> str:
        """A seat's credential: a guest's seat token, or the account's that took it."""
        seated = list(self.accounts[:-1])  # the last account is the foreign game's
        account: str | None = None
        if foreign and self.accounts:
            account = self.accounts[-1]
        elif not foreign and len(self.viewers) < len(seated):
            account = seated[len(self.viewers)]
        variables = {"input": {"gameId": game_id, "name": f"P{len(self.viewers)}"}}
        joined = (await self._data(JOIN, variables, account))["joinGame"]
        assert joined["userErrors"] == [], joined
        token = joined["token"] if account is None else account
        assert isinstance(token, str)
        return token

    async def start(self) -> None:
        first = self.viewers[0].token
        started = await self._data(START, {"input": {"gameId": self.game_id}}, first)
        assert started["startGame"]["userErrors"] == [], started

    async def _data(self, query: str, variables: Json, token: str | None) -> Json:
        answer = await _post(self.client, query, variables, token)
        assert "errors" not in answer, answer
        data = answer["data"]
        assert isinstance(data, dict)
        return data

    # ----------------------------------------------------------------------- asking

    async def ask(self, viewer: Viewer) -> Json:
        """Every field of the game as `viewer` sees it, from as many documents as it takes."""
        answer: Json = {}
        index = 0
        while index < len(self.parts):
            part = self.parts[index]
            query = GAME_QUERY % part.text()
            got = await _post(self.client, query, {"id": self.game_id}, viewer.token)
            if self._split_if_refused(index, got):
                continue
            where = f"{self.variant}, {viewer.name} asking {query[:300]}…"
            check_codes(got, where)
            game = (got.get("data") or {}).get("game")
            assert game is not None, f"{where}: {got}"
            answer = merge(answer, game)
            index += 1
        return answer

    def _split_if_refused(self, index: int, answer: Json) -> bool:
        """Split the part at `index` in two if the server refused its document for its size."""
        if not refused_for_size(answer):
            return False
        halves = self.parts[index].halves()
        assert halves is not None, f"a single field is over the limits: {answer}"
        self.parts[index : index + 1] = halves
        return True

    async def walk(self) -> dict[str, Json]:
        """Every viewer asks every field of the game; the answers are checked."""
        answers = {viewer.name: await self.ask(viewer) for viewer in self.viewers}
        self.walks += 1
        self._check(answers)
        return answers

    def _check(self, answers: Mapping[str, Json]) -> None:
        """What each viewer may see, and nothing more (the README: hidden information)."""
        private = {
            f.name for f in self.types["Game"].fields if SPECTATOR_NULL in f.description.lower()
        }
        assert private >= PRIVATE_FIELDS, private
        spectator = answers[SPECTATOR]
        where = f"{self.variant} at version {spectator['version']}"
        assert answers[FOREIGN] == spectator, f"{where}: a foreign token sees more"
        for name in private:
            assert spectator[name] is None, f"{where}: a spectator sees {name}: {spectator[name]}"
        assert spectator["legalActions"] == [], where
        assert not any(event["private"] for event in spectator["events"]["events"]), where
        cards = {player["seat"]: player["cards"] for player in spectator["players"]}
        # What a spectator sees of the game now (its history aside: a card played is public).
        public_now = json.dumps({k: v for k, v in spectator.items() if k != "events"})
        spaces = {space["id"] for space in spectator["territories"]}
        for viewer in self.viewers:
            if viewer.seat is None:
                continue
            seen = answers[viewer.name]
            assert seen["viewerSeat"] == viewer.seat, where
            begun = spectator["status"] != "LOBBY"
            self._check_hand(seen["hand"], cards[viewer.seat], begun, f"{where}, {viewer.name}")
            for event in seen["events"]["events"]:
                assert not event["private"] or event["data"]["seat"] == viewer.seat, event
            # Who holds which card: a card id (other than a territory's, public anyway) is
            # nowhere in what a spectator sees.
            for card in seen["hand"] or ():
                shown = card["id"] not in spaces and f'"{card["id"]}"' in public_now
                assert not shown, f"{where}: a spectator sees {viewer.name}'s {card['id']}"

    def _check_hand(self, hand: list[Json] | None, count: int, begun: bool, where: str) -> None:
        """A seat reads its own hand once the game has begun: as many cards as all see it
        hold, each with its id and what it is."""
        if not begun:
            assert hand is None, f"{where}: {hand} before the deal"
            return
        assert hand is not None, f"{where} holds {count} cards and cannot read them"
        assert len(hand) == count, f"{where}: {hand}, {count} cards"
        assert all(card["id"] and card["symbol"] for card in hand), f"{where}: {hand}"
        self.cards_held = max(self.cards_held, len(hand))

    async def walk_events(self) -> None:
        """Every event, every page, every field, as each viewer: the spectator and a foreign
        token see the same public events; a seat sees those and its own private ones. The
        page's fields go in as few documents as the limits allow, as the game's do."""
        assert self.selections is not None
        events = next(f for f in self.types["Game"].fields if f.name == "events")
        parts = [Node("", self.selections.of(events.type.type_name))]
        seen: dict[str, list[Json]] = {viewer.name: [] for viewer in self.viewers}
        index, page = 0, PAGE
        while index < len(parts):
            read = {v.name: await self._events(v, parts[index], page) for v in self.viewers}
            if any(found is None for found in read.values()):
                halves = parts[index].halves()
                if halves is not None:
                    parts[index : index + 1] = halves
                else:  # one field of a page is over the limits: smaller pages
                    assert page > 1, f"{self.variant}: one event's field is over the limits"
                    page //= 2
                continue
            for name, found in read.items():
                assert found is not None
                seen[name] = merge(seen[name], found) if index else found
            index += 1
        public = seen[SPECTATOR]
        assert seen[FOREIGN] == public
        assert not any(event["private"] for event in public), self.variant
        for viewer in self.viewers:
            if viewer.seat is None:
                continue
            own = seen[viewer.name]
            assert [event for event in own if not event["private"]] == public, viewer.name
            assert all(e["data"]["seat"] == viewer.seat for e in own if e["private"]), viewer

    async def _events(self, viewer: Viewer, part: Node, page: int) -> list[Json] | None:
        """Every page (of `page` events) of the events `viewer` sees, with the fields of
        `part`; None if the server refused the document for its size."""
        query = (
            "query($id: ID!, $after: Int!) { game(id: $id) { "
            f"events(after: $after, first: {page}) {{ events {{ seq }} hasMore "
            f"{' '.join(node.text() for node in part.children)} }} }} }}"
        )
        found_events: list[Json] = []
        after = 0
        while True:
            got = await _post(
                self.client, query, {"id": self.game_id, "after": after}, viewer.token
            )
            if refused_for_size(got):
                return None
            check_codes(got, f"{self.variant}, {viewer.name} reading events after {after}")
            found = got["data"]["game"]["events"]
            found_events += found["events"]
            if not found["hasMore"]:
                return found_events
            after = found["events"][-1]["seq"]

    # ----------------------------------------------------------------------- playing

    async def play(
        self, rnd: random.Random, max_actions: int, walk_every: int, leave_at: int | None = None
    ) -> int:
        """Play random legal actions until the end or `max_actions`, every viewer asking every
        field every `walk_every` actions and at the end; the last seat leaves the game after
        `leave_at` actions. The actions sent."""
        actions = 0
        await self.walk()
        game = await self._state()
        while game["status"] == "ACTIVE" and actions < max_actions:
            seat = game["seatToAct"]
            assert seat is not None, game
            game = await self.act(self.viewers[seat], rnd)
            actions += 1
            if actions == leave_at:
                game = await self.leave(self.viewers[self.seats - 1])
            first_card = self._first_card(game)
            if actions % walk_every == 0 or actions == leave_at or first_card:
                await self.walk()
        if actions % walk_every:
            await self.walk()
        await self.walk_events()
        return actions

    def _first_card(self, game: Json) -> bool:
        """Whether a seat holds a card and no walk has read one yet (then one walks now: a
        seat may hold cards only a few actions at a time)."""
        counts = [player["cards"] for player in game["players"]]
        self.cards_seen = max([self.cards_seen, *counts])
        return not self.cards_held and self.cards_seen > 0

    async def act(self, viewer: Viewer, rnd: random.Random) -> Json:
        """Send one of `viewer`'s legal families' ready input, asking for every field of the
        payload (and, now and then, for a part of the game's); the payload's game."""
        action = choose(await self._legal_inputs(viewer), rnd)
        variables = {"input": {"gameId": self.game_id, "action": action}}
        part, own = self._submit_part(), self._payload_part()
        while True:
            query = SUBMIT % self._payload(part, own).text()
            answer = await _post(self.client, query, variables, viewer.token)
            if not refused_for_size(answer):
                break
            halves = own.halves()
            if halves is not None:  # the payload's own fields split first
                index = self.payload_parts.index(own)
                self.payload_parts[index : index + 1] = halves
                own = self._payload_part()
                continue
            assert part.children, f"a field of the payload is over the limits: {answer}"
            part = Node("")  # with that part of the payload, this submit asks none of the game's
        self.submits += 1
        where = f"{self.variant}, {viewer.name} sending {action}"
        check_codes(answer, where)
        submitted = (answer.get("data") or {}).get("submitAction")
        assert submitted is not None, f"{where}: {answer}"
        assert submitted["userErrors"] == [], f"{where}: a ready input is refused: {submitted}"
        for event in submitted["events"]:
            assert not event["private"] or event["data"]["seat"] == viewer.seat, event
        game = submitted["game"]
        assert isinstance(game, dict), f"{where}: {answer}"
        assert game["viewerSeat"] == viewer.seat, f"{where}: {game}"
        if "hand" in game:  # the seat's own, shown to it while the game goes on
            assert game["hand"] is not None or game["status"] != "ACTIVE", where
            self.cards_held = max(self.cards_held, len(game["hand"] or ()))
        return game

    async def leave(self, viewer: Viewer) -> Json:
        """`viewer`'s seat leaves the game (it resigns: its units stay); the game after."""
        variables = {"input": {"gameId": self.game_id}}
        left = (await self._data(LEAVE, variables, viewer.token))["leaveGame"]
        # An eliminated seat has nothing to leave: refused, with a code, and nothing changed.
        assert all(error["code"] in DOCUMENTED_CODES for error in left["userErrors"]), left
        if left["game"] is None:
            return await self._state()
        game = left["game"]
        assert isinstance(game, dict)
        return game

    async def _state(self) -> Json:
        """What the play needs of the game to go on."""
        state = await self._data(GAME_QUERY % f"{{ {NEEDED} }}", {"id": self.game_id}, None)
        game = state["game"]
        assert isinstance(game, dict)
        return game

    @property
    def seats(self) -> int:
        return sum(1 for viewer in self.viewers if viewer.seat is not None)

    def _submit_part(self) -> Node:
        """The part of the game's fields a submit asks for: one submit in `payload_every` the
        next part of the walk, the others none."""
        if self.submits % self.payload_every:
            return Node("")
        return self.parts[(self.submits // self.payload_every) % len(self.parts)]

    def _payload_part(self) -> Node:
        """The part of SubmitActionPayload's own fields (its game's aside) a submit asks for,
        each in turn: all of them, unless the limits split them."""
        if not self.payload_parts:
            assert self.selections is not None
            own = self.selections.of("SubmitActionPayload")
            self.payload_parts = [Node("", tuple(node for node in own if node.head != "game"))]
        return self.payload_parts[self.submits % len(self.payload_parts)]

    def _payload(self, part: Node, own: Node) -> Node:
        """The payload's fields `own`, what the checks and the next action need, and its
        game's fields `part`."""
        game = Node("game", (Node(NEEDED), *part.children))
        return Node("", (Node(PAYLOAD_NEEDED), *own.children, game))

    async def _legal_inputs(self, viewer: Viewer) -> list[Json]:
        """The ready input of each legal family `viewer` is offered."""
        legal = next(f for f in self.types["Game"].fields if f.name == "legalActions")
        union = self.types[legal.type.type_name]
        fragments = " ".join(f"... on {name} {{ input }}" for name in union.possible_types)
        query = GAME_QUERY % f"{{ legalActions {{ {fragments} }} }}"
        found = (await self._data(query, {"id": self.game_id}, viewer.token))["game"]
        inputs = [family["input"] for family in found["legalActions"]]
        assert inputs, f"{self.variant}: {viewer.name} is to act and is offered nothing"
        return inputs


# --------------------------------------------------------------------------- a whole game

ROOTS = ("Game", "SubmitActionPayload", "GameOptionsInput")
PLAYERS = 3
ROUNDS = 4  # a round limit, so that a game is walked finished too
MAX_ACTIONS = 160
# Options that bring a game sooner to what it hides: FutuRisiKo! deals a card for every three
# flags, and with a flag each nobody holds one for many rounds.
SOONER: Mapping[str, Json] = {"futurisiko": {"fillBoard": True}}
TIME_CONTROL = {"turnSeconds": 3600}  # a clock to show, never run out


async def walk_game(
    client: httpx.AsyncClient,
    types: Mapping[str, TypeInfo],
    variant: str,
    seed: str,
    *,
    other_options: bool = False,
    walk_every: int = 20,
    accounts: Sequence[str] = (),
) -> Walk:
    """A game of `variant` walked in the lobby, then played to its end (or MAX_ACTIONS) and
    walked on the way, a seat leaving it a third of the way; with `other_options`, every
    option of the variant other than its default, and a clock; with `accounts`, these
    accounts' credentials take the first seats (the last one the foreign game's seat)."""
    walk = Walk(client, types, variant, accounts)
    options: Json = {"roundLimit": ROUNDS, **SOONER.get(variant, {})}
    if other_options:
        options.update(await walk.other_options())
    await walk.create(seed, PLAYERS, options, TIME_CONTROL if other_options else None)
    await walk.walk()
    await walk.start()
    await walk.play(random.Random(seed), MAX_ACTIONS, walk_every, leave_at=MAX_ACTIONS // 3)
    assert walk.walks >= 4, f"{variant}: walked {walk.walks} times"
    # Whenever a seat held a card, a walk came by and the seat read it.
    if walk.cards_seen:
        assert walk.cards_held > 0, f"{variant}: no seat read a card it held"
    return walk
