"""Every game's events through the real server (both stores) as the GameEventDetail union:
the four games and the test game (RISIKO_EXTRA_VARIANTS) each created, joined, started and
played a few actions, then every event read as each seat and a spectator, every field of every
member of the union asked (from the served schema: a kind added tomorrow is asked the day it
exists). Each event's typed detail tells exactly what its stored `data` tells, enums by name
and entries as objects; a variant's own kinds carry its name; the events a seat may not see
stay away from the others, typed or not; and a live subscription gets the same."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from strawberry.utils.str_converters import to_camel_case

from tests.e2e.support import GraphQLClient, Server, subscription

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
GAMES = ("classic", "spqr", "piu", "futurisiko", "skirmish")
ACTIONS = 12  # of each game, the first family offered each time
TYPE = """
query($name: String!) {
  __type(name: $name) {
    possibleTypes { name }
    fields {
      name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }
    }
  }
}"""
CREATE = """
mutation($input: CreateGameInput!) { createGame(input: $input) { game { id } userErrors { code } } }
"""
JOIN = """
mutation($input: JoinGameInput!) { joinGame(input: $input) { token userErrors { code } } }
"""
START = "mutation($input: GameInput!) { startGame(input: $input) { userErrors { code } } }"
SUBMIT = """
mutation($input: SubmitActionInput!) { submitAction(input: $input) { userErrors { code } } }
"""


@dataclass(frozen=True)
class Member:
    """A type of the union: each field's name, what it holds (a scalar, an enum's name, or
    entries: a list of objects with these fields) and the name it is asked under (a field
    whose name another member's field of another type has is aliased: GraphQL would refuse
    to merge them)."""

    name: str
    fields: tuple[tuple[str, str, tuple[str, ...], str], ...]  # (name, kind, parts, asked as)

    def selection(self) -> str:
        asked = []
        for field, _, parts, key in self.fields:
            below = f" {{ {' '.join(parts)} }}" if parts else ""
            asked.append(f"{key}: {field}{below}" if key != field else f"{field}{below}")
        return f"... on {self.name} {{ {' '.join(asked)} }}"

    def told(self, detail: Json) -> Json:
        """What the detail tells, in the stored data's shape (camelCase keys aside)."""
        told: Json = {}
        for field, kind, parts, key in self.fields:
            value = detail[key]
            if kind == "ENUM" and value is not None:
                value = value.lower()
            elif parts and value is not None:
                value = [[entry[part] for part in parts] for entry in value]
            told[field] = value
        return told


def _named(ref: Json) -> Json:
    while ref.get("ofType"):
        ref = ref["ofType"]
    return ref


async def members(graphql: GraphQLClient) -> dict[str, Member]:
    union = (await graphql(TYPE, {"name": "GameEventDetail"}))["__type"]
    shapes: dict[str, list[tuple[str, str, tuple[str, ...], str]]] = {}
    for possible in union["possibleTypes"]:
        shape = (await graphql(TYPE, {"name": possible["name"]}))["__type"]
        fields = shapes[possible["name"]] = []
        for field in shape["fields"]:
            named = _named(field["type"])
            parts: tuple[str, ...] = ()
            if named["kind"] == "OBJECT":
                entry = (await graphql(TYPE, {"name": named["name"]}))["__type"]
                parts = tuple(part["name"] for part in entry["fields"])
            fields.append((field["name"], named["kind"], parts, json.dumps(field["type"])))
    # Of the types a field name has, the one most members share keeps the name.
    kinds: dict[str, Counter[str]] = {}
    for fields in shapes.values():
        for field, _, _, shown in fields:
            kinds.setdefault(field, Counter())[shown] += 1
    return {
        name: Member(
            name,
            tuple(
                (
                    field,
                    kind,
                    parts,
                    field if kinds[field].most_common(1)[0][0] == shown else f"{name}_{field}",
                )
                for field, kind, parts, shown in fields
            ),
        )
        for name, fields in shapes.items()
    }


@pytest.fixture
def server(tmp_path: Path, store_env: dict[str, str]) -> Iterator[Server]:
    env = {**store_env, "RISIKO_EXTRA_VARIANTS": "variants.skirmish"}
    running = Server(tmp_path / "data", env=env).start()
    try:
        yield running
    finally:
        running.stop()


async def played(http: httpx.AsyncClient, variant: str) -> tuple[str, list[str]]:
    """A game of `variant`, three seats, started and played a few actions; its id and the
    seats' tokens."""
    anonymous = GraphQLClient(http)
    created = await anonymous(CREATE, {"input": {"variant": variant, "seed": f"detail-{variant}"}})
    game_id = created["createGame"]["game"]["id"]
    tokens = []
    for name in ("Ada", "Bea", "Cy"):
        joined = await anonymous(JOIN, {"input": {"gameId": game_id, "name": name}})
        assert joined["joinGame"]["userErrors"] == [], joined
        tokens.append(joined["joinGame"]["token"])
    started = await GraphQLClient(http, tokens[0])(START, {"input": {"gameId": game_id}})
    assert started["startGame"]["userErrors"] == []
    offered = "query($id: ID!) { game(id: $id) { legalActions { %s } } }" % (
        await legal_selection(anonymous)
    )
    for _ in range(ACTIONS):
        state = await anonymous("query($id: ID!) { game(id: $id) { seatToAct } }", {"id": game_id})
        seat = state["game"]["seatToAct"]
        if seat is None:
            break
        mine = GraphQLClient(http, tokens[seat])
        families = (await mine(offered, {"id": game_id}))["game"]["legalActions"]
        action = families[0]["input"]
        sent = await mine(SUBMIT, {"input": {"gameId": game_id, "action": action}})
        assert sent["submitAction"]["userErrors"] == [], (variant, action, sent)
    return game_id, tokens


async def legal_selection(graphql: GraphQLClient) -> str:
    union = (await graphql(TYPE, {"name": "LegalAction"}))["__type"]
    return " ".join(f"... on {t['name']} {{ input }}" for t in union["possibleTypes"])


async def history(graphql: GraphQLClient, game_id: str, detail: str) -> list[Json]:
    query = (
        "query($id: ID!) { game(id: $id) { events(first: 100) "
        f"{{ hasMore events {{ seq type private data detail {{ __typename {detail} }} }} }} }} }}"
    )
    page = (await graphql(query, {"id": game_id}))["game"]["events"]
    assert not page["hasMore"]
    events: list[Json] = page["events"]
    return events


def check(events: list[Json], known: dict[str, Member], variant: str) -> set[str]:
    """Each event's detail tells what its data tells; the types seen."""
    seen = set()
    for event in events:
        detail, data = event["detail"], event["data"]
        name = detail["__typename"]
        seen.add(name)
        assert name.endswith(data["type"]), (name, data)
        told = known[name].told(detail)
        stored = {to_camel_case(key): value for key, value in data.items() if key != "type"}
        # A field the data leaves out (added to its kind later, and null) is null typed.
        assert told == {**dict.fromkeys(told), **stored}, (variant, name)
    return seen


async def test_every_games_events_are_served_typed(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        anonymous = GraphQLClient(http)
        known = await members(anonymous)
        detail = " ".join(member.selection() for member in known.values())
        for variant in GAMES:
            game_id, tokens = await played(http, variant)
            public = await history(anonymous, game_id, detail)
            seen = check(public, known, variant)
            assert not any(event["private"] for event in public)
            for seat, token in enumerate(tokens):
                own = await history(GraphQLClient(http, token), game_id, detail)
                seen |= check(own, known, variant)
                assert [e for e in own if not e["private"]] == public
                for event in own:
                    if event["private"]:
                        assert event["data"]["seat"] == seat
            assert {"GameCreated", "PlayerJoined", "GameStarted"} <= seen
            prefix = variant.capitalize()
            if variant != "classic":  # classic tells only the kinds every game shares
                assert any(name.startswith(prefix) for name in seen), (variant, seen)


async def test_a_subscription_serves_the_typed_detail(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        game_id, tokens = await played(http, "futurisiko")
        document = (
            "subscription($id: ID!) { gameEvents(gameId: $id) { seq type detail { __typename "
            "... on FuturisikoPhaseTurnStarted { seat phase } ... on GameStarted { turnOrder } "
            "... on FuturisikoCardDiscarded { card } } } }"
        )
        total = len(await history(GraphQLClient(http, tokens[0]), game_id, ""))
        received = []
        async with subscription(server.ws_url, document, {"id": game_id}, tokens[0]) as stream:
            async for event in stream:
                received.append(event["gameEvents"])
                if len(received) == total:
                    break
        phases = [e["detail"] for e in received if e["type"] == "PhaseTurnStarted"]
        assert phases
        assert all(p["__typename"] == "FuturisikoPhaseTurnStarted" for p in phases)
        assert {p["phase"] for p in phases} <= {"SETUP", "CARDS", "PRODUCTION", "MOVEMENT"}
        started = next(e["detail"] for e in received if e["type"] == "GameStarted")
        assert sorted(started["turnOrder"]) == [0, 1, 2]
