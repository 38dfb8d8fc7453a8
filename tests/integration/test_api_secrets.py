"""Hidden information through the API: objectives, hands and the seed stay with their owner.

A real server (a child process) plays a 4-seat game with the aggressive bot into round 3,
when every seat has conquered and holds cards. Then a spectator, a token of another game and
every seat read everything they can (game, viewer, node, games, every page of events, the
gameEvents subscription, the messages of rejected actions): none of it may carry another
seat's objective or cards. Card ids are territory ids, which are public everywhere, so hands
are checked structurally (private events, `hand`, legal trades), objectives also as text.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
import pytest

from domain.flow import Phase
from tests.e2e.support import Server, subscription
from tests.integration.api_support import (
    LEAVE,
    PlayedGame,
    data,
    new_game,
    play,
    post,
    running_server,
    start_game,
    submit,
)
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions

PRIVATE_TYPES = {"ObjectiveAssigned", "ObjectiveChanged", "CardsReceived"}
SEED = "secrets-seed"

LEGAL = """
legalActions {
  __typename
  ... on LegalTradeCards { cards armies input }
  ... on LegalPlaceArmies { territories minArmies maxArmies input }
  ... on LegalAttack { source target minDice maxDice input }
  ... on LegalAttackUntil { source target input }
  ... on LegalDefend { input }
  ... on LegalOccupy { input }
  ... on LegalStrategicMove { source target input }
  ... on LegalEndTurn { input }
}"""
EVENT = "seq version type private data"
EVERYTHING = f"""
query($id: ID!) {{
  game(id: $id) {{
    id status version viewerSeat seed seedCommitment phase round currentPlayer seatToAct
    armiesToPlace deckSize
    players {{ seat name colour territories armies cards eliminated resigned }}
    territories {{ id owner armies }}
    hand {{ id symbol territory }}
    objective {{ id card text territories }}
    {LEGAL}
    outcome {{ winner reason }}
  }}
  viewer {{
    seat name colour
    game {{ id viewerSeat seed hand {{ id symbol }} objective {{ id card text }} {LEGAL} }}
  }}
  node(id: $id) {{
    id
    ... on Game {{ viewerSeat seed hand {{ id }} objective {{ id card text }} {LEGAL} }}
  }}
  games(first: 20) {{
    edges {{
      node {{
        id viewerSeat seed hand {{ id }} objective {{ id card text }} players {{ cards }}
        events(first: 100) {{ events {{ {EVENT} }} hasMore }}
      }}
    }}
  }}
}}"""
EVENTS = f"""
query($id: ID!, $after: Int!) {{
  game(id: $id) {{ events(after: $after, first: 100) {{ events {{ {EVENT} }} hasMore }} }}
}}"""
GAME_EVENTS = f"""
subscription($id: ID!, $after: Int!) {{ gameEvents(gameId: $id, after: $after) {{ {EVENT} }} }}
"""


@dataclass
class Scenario:
    server: Server
    game: PlayedGame[ClassicGame]  # the game in round 3, every seat with cards
    other: PlayedGame[ClassicGame]  # another game, for its tokens

    def viewers(self) -> list[tuple[str, str | None, int | None]]:
        """(label, token, the seat it sees as) for a spectator, another game's seat, and
        every seat of the game."""
        result: list[tuple[str, str | None, int | None]] = [
            ("spectator", None, None),
            ("other game's seat", self.other.token(0), None),
        ]
        result += [(f"seat {s.seat}", s.token, s.seat) for s in self.game.seats]
        return result


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory.mktemp("secrets") / "data")


@pytest.fixture(scope="module")
async def scenario(live_server: Server) -> AsyncIterator[Scenario]:
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as client:
        other = await new_game(client, 3, "another-seed")
        game = await new_game(client, 4, SEED, ClassicOptions(round_limit=6))
        await play(client, game, lambda g: g.round >= 3 and g.phase is Phase.REINFORCE)
        mirror = game.game
        assert not mirror.is_over
        assert sum(1 for hand in mirror.hands if hand) >= 2, mirror.hands
        yield Scenario(live_server, game, other)


# --------------------------------------------------------------------------- checks


def secrets_of(game: ClassicGame, seat: int) -> set[str]:
    """What only `seat` may know, as text: its objective (id, card dealt, text) and the
    jokers in its hand. Territory cards are checked structurally."""
    objective = game.objective_of(seat)
    jokers = {card for card in game.hands[seat] if card.startswith("jolly")}
    return {objective.id, game.objective_cards[seat], objective.text, *jokers}


def forbidden_for(game: ClassicGame, viewer: int | None) -> set[str]:
    others = set[str]().union(*(secrets_of(game, s) for s in range(4) if s != viewer))
    return others - (secrets_of(game, viewer) if viewer is not None else set())


def assert_no_secret_text(answer: Any, game: ClassicGame, viewer: int | None, what: str) -> None:
    text = json.dumps(answer, ensure_ascii=False)
    for secret in forbidden_for(game, viewer):
        assert secret not in text, f"{what} shows {secret!r} to {viewer}"


def assert_events_visible_to(events: list[dict[str, Any]], viewer: int | None) -> None:
    for event in events:
        kind, payload = event["type"], event["data"]
        if kind in PRIVATE_TYPES:
            assert event["private"], event
        if event["private"]:
            assert viewer is not None, f"a spectator sees a private event: {event}"
            assert payload["seat"] == viewer, f"seat {viewer} sees {event}"
        if kind == "CardDrawn":
            assert set(payload) == {"type", "seat", "hand_size"}, event


def assert_game_view(view: dict[str, Any], game: ClassicGame, viewer: int | None) -> None:
    """A `Game` object as `viewer` may see it: its own secrets only, and no seed yet."""
    assert view["seed"] is None
    assert view["viewerSeat"] == viewer
    if viewer is None:
        assert view["hand"] is None
        assert view["objective"] is None
        assert view.get("legalActions", []) == []
        return
    assert [card["id"] for card in view["hand"]] == game.hands[viewer]
    assert view["objective"]["id"] == game.objective_of(viewer).id
    assert view["objective"]["card"] == game.objective_cards[viewer]
    for family in view.get("legalActions", []):
        if family["__typename"] == "LegalTradeCards":
            assert set(family["cards"]) <= set(game.hands[viewer]), family
        elif viewer != game.seat_to_act:
            pytest.fail(f"seat {viewer} may act out of turn: {family}")


async def all_events(
    client: httpx.AsyncClient, game_id: str, token: str | None
) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = (await data(client, EVENTS, {"id": game_id, "after": after}, token))["game"]
        events += page["events"]["events"]
        if not page["events"]["hasMore"]:
            return events
        after = events[-1]["seq"]


# --------------------------------------------------------------------------- tests


@pytest.mark.anyio
async def test_each_seat_sees_its_own_hand_and_objective(scenario: Scenario) -> None:
    game = scenario.game.game
    async with httpx.AsyncClient(base_url=scenario.server.url) as client:
        for seat in scenario.game.seats:
            answer = await data(client, EVERYTHING, {"id": scenario.game.id}, seat.token)
            view = answer["game"]
            assert_game_view(view, game, seat.seat)
            assert view["objective"]["text"] == game.objective_of(seat.seat).text
            assert [p["cards"] for p in view["players"]] == [len(h) for h in game.hands]
            assert answer["viewer"]["seat"] == seat.seat
            assert_game_view(answer["viewer"]["game"], game, seat.seat)
            assert_game_view(answer["node"], game, seat.seat)
            # Its own private events are there: the objective dealt and every card drawn.
            events = await all_events(client, scenario.game.id, seat.token)
            assigned = [e["data"] for e in events if e["type"] == "ObjectiveAssigned"]
            assert [(d["seat"], d["card"]) for d in assigned] == [
                (seat.seat, game.objective_cards[seat.seat])
            ]
            received = {
                c for e in events if e["type"] == "CardsReceived" for c in e["data"]["cards"]
            }
            assert set(game.hands[seat.seat]) <= received


@pytest.mark.anyio
async def test_nobody_reads_another_seats_secrets(scenario: Scenario) -> None:
    game = scenario.game.game
    async with httpx.AsyncClient(base_url=scenario.server.url) as client:
        for label, token, viewer in scenario.viewers():
            answer = await data(client, EVERYTHING, {"id": scenario.game.id}, token)
            assert_no_secret_text(answer, game, viewer, label)
            assert_game_view(answer["game"], game, viewer)
            assert_game_view(answer["node"], game, viewer)
            if token is None:
                assert answer["viewer"] is None
            elif viewer is None:  # another game's token: its own game, not this one
                assert answer["viewer"]["game"]["id"] == scenario.other.id
            # The list of games shows every game as to a spectator, whoever asks.
            nodes = [edge["node"] for edge in answer["games"]["edges"]]
            assert {node["id"] for node in nodes} >= {scenario.game.id, scenario.other.id}
            for node in nodes:
                assert (node["viewerSeat"], node["hand"], node["objective"]) == (None, None, None)
                assert node["seed"] is None
                assert_events_visible_to(node["events"]["events"], None)
            # Every page of the history.
            events = await all_events(client, scenario.game.id, token)
            assert [e["seq"] for e in events] == sorted({e["seq"] for e in events})
            assert_events_visible_to(events, viewer)
            assert_no_secret_text(events, game, viewer, f"events for {label}")
            if viewer is None:
                assert not [e for e in events if e["private"]]


@pytest.mark.anyio
async def test_subscriptions_carry_only_the_viewers_private_events(scenario: Scenario) -> None:
    game = scenario.game.game
    async with httpx.AsyncClient(base_url=scenario.server.url) as client:
        for label, token, viewer in scenario.viewers():
            expected = await all_events(client, scenario.game.id, token)
            received: list[dict[str, Any]] = []
            variables = {"id": scenario.game.id, "after": 0}
            with anyio.fail_after(20):
                async with subscription(
                    scenario.server.ws_url, GAME_EVENTS, variables, token
                ) as stream:
                    async for message in stream:
                        received.append(message["gameEvents"])
                        if received[-1]["seq"] == expected[-1]["seq"]:
                            break
            assert received == expected, label
            assert_events_visible_to(received, viewer)
            assert_no_secret_text(received, game, viewer, f"gameEvents for {label}")


@pytest.mark.anyio
async def test_rejected_actions_reveal_nothing(scenario: Scenario) -> None:
    played = scenario.game
    game = played.game
    current = game.current
    assert game.phase is Phase.REINFORCE
    others = [s for s in range(4) if s != current and game.hands[s]]
    assert others
    held = {card for hand in game.hands for card in hand}
    in_deck = [card for card in game.deck if card not in held][:3]
    async with httpx.AsyncClient(base_url=scenario.server.url) as client:
        before = (await data(client, EVERYTHING, {"id": played.id}))["game"]["version"]

        async def refused(seat: int, cards: list[str], code: str) -> str:
            """The message of a refused trade; it shows no secret but what was sent."""
            action = {"tradeCards": {"cards": cards}}
            payload = await submit(client, played.id, played.token(seat), action)
            assert (payload["version"], payload["events"]) == (None, [])
            [error] = payload["userErrors"]
            assert error["code"] == code, error
            message = str(error["message"])
            for secret in forbidden_for(game, seat) - set(cards):
                assert secret not in message, (cards, message)
            return message

        # Another seat's card, a card in the deck and another seat's objective card get the
        # same answer: the card is not in your hand. Nothing says where it is.
        shapes = set()
        asked = [game.hands[other][0] for other in others]
        asked += [in_deck[0], "not_a_card"]
        asked += [game.objective_cards[other] for other in others]
        for card in asked:
            message = await refused(current, [card], "CARD_NOT_IN_HAND")
            shapes.add(message.replace(card, "X"))
        assert len(shapes) == 1, shapes
        # A seat out of turn, trading its own or another seat's cards.
        for other in others:
            await refused(other, game.hands[other], "NOT_YOUR_TURN")
            await refused(other, game.hands[current] or in_deck, "NOT_YOUR_TURN")
        after = (await data(client, EVERYTHING, {"id": played.id}))["game"]["version"]
    assert after == before == played.version


@pytest.mark.anyio
async def test_seed_is_secret_until_the_end_then_revealed(scenario: Scenario) -> None:
    query = "query($id: ID!) { game(id: $id) { status seed seedCommitment } }"
    async with httpx.AsyncClient(base_url=scenario.server.url) as client:
        played = await new_game(client, 3, "revealed-at-the-end", start=False)
        viewers: list[str | None] = [None, *(s.token for s in played.seats)]
        for token in viewers:  # in the lobby
            assert (await data(client, query, {"id": played.id}, token))["game"]["seed"] is None
        await start_game(client, played)
        for token in viewers:  # playing
            game = (await data(client, query, {"id": played.id}, token))["game"]
            assert (game["status"], game["seed"]) == ("ACTIVE", None)
        for seat in (1, 2):  # two resign: the last player wins
            answer = await data(client, LEAVE, {"input": {"gameId": played.id}}, played.token(seat))
            assert answer["leaveGame"]["userErrors"] == []
        for token in viewers:
            game = (await data(client, query, {"id": played.id}, token))["game"]
            assert game["status"] == "FINISHED"
            assert game["seed"] == b"revealed-at-the-end".hex()
            assert hashlib.sha256(bytes.fromhex(game["seed"])).hexdigest() == game["seedCommitment"]
        # The outcome reveals the objectives, publicly.
        events = await all_events(client, played.id, None)
        [ended] = [e for e in events if e["type"] == "GameEnded"]
        assert ended["data"]["winner"] == 0
        assert len(ended["data"]["objectives"]) == 3
        response = await post(client, "{ games(first: 20) { edges { node { id seed } } } }")
        seeds = {
            e["node"]["id"]: e["node"]["seed"] for e in response.json()["data"]["games"]["edges"]
        }
        assert seeds[played.id] == b"revealed-at-the-end".hex()
        assert seeds[scenario.game.id] is None
