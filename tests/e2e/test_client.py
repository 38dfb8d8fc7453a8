"""The Python client (client/api.py) against a real server, on both stores: the lobby, the
game as a seat sees it, submit with its retries and idempotency, and the event stream's
resumption, after the consumer closed it and after the server went away and came back."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from gql.transport.exceptions import TransportConnectionFailed
from risiko_client.api import ActionInput, ApiError, GameEvent, GameState, RisikoClient, Seat

from domain.odds import TieRule, battle_odds
from tests.e2e.support import Server

pytestmark = pytest.mark.anyio

Json = dict[str, Any]


@contextlib.asynccontextmanager
async def table(server: Server, players: int = 3) -> AsyncIterator[tuple[str, list[RisikoClient]]]:
    """A started game with a seeded deal, and one client per seat."""
    async with RisikoClient(server.url) as lobby:
        game_id = await lobby.create_game(seed="client-1", options={"roundLimit": 5})
        seats = [await lobby.join_game(game_id, f"Seat {n}") for n in range(players)]
        clients = [lobby.with_token(seat.token) for seat in seats]
        try:
            await clients[0].start_game(game_id)
            yield game_id, clients
        finally:
            for client in clients:
                await client.close()


def simple(state: GameState) -> ActionInput:
    """End the turn when allowed, else the first family's ready input: the game moves on."""
    for family in state.legal_actions:
        if family["__typename"] == "LegalEndTurn":
            return dict(family["input"])
    return dict(state.legal_actions[0]["input"])


async def advance(game_id: str, clients: list[RisikoClient], actions: int) -> GameState:
    """Whoever is to act plays `actions` simple moves."""
    state = await clients[0].game(game_id)
    for _ in range(actions):
        seat = state.seat_to_act
        assert seat is not None
        state = await clients[seat].game(game_id)
        submitted = await clients[seat].submit(game_id, simple(state), state.version)
        assert submitted.ok, submitted.user_errors
        assert submitted.state is not None
        state = submitted.state
    return state


async def history(client: RisikoClient, game_id: str) -> list[Json]:
    events: list[Json] = []
    after = 0
    while True:
        query = """query($id: ID!, $after: Int!) { game(id: $id) {
            events(after: $after, first: 100) { hasMore events { seq version type private data } }
        } }"""
        page = (await client.query(query, {"id": game_id, "after": after}))["game"]["events"]
        events += page["events"]
        if not page["hasMore"]:
            return events
        after = events[-1]["seq"]


def as_dicts(events: list[GameEvent]) -> list[Json]:
    return [
        {"seq": e.seq, "version": e.version, "type": e.type, "private": e.private, "data": e.data}
        for e in events
    ]


async def test_lobby_and_the_game_as_a_seat_sees_it(server: Server) -> None:
    async with RisikoClient(server.url) as lobby:
        game_id = await lobby.create_game("classic", {"roundLimit": 5}, seed="lobby")
        anna = await lobby.join_game(game_id, "Anna", colour="rosso")
        assert anna == Seat(game_id, 0, anna.token)
        with pytest.raises(ApiError) as taken:
            await lobby.join_game(game_id, "Bruno", colour="rosso")
        assert taken.value.code == "COLOUR_TAKEN"
        bruno = await lobby.join_game(game_id, "Bruno")
        guest = await lobby.join_game(game_id, "Guest")
        async with lobby.with_token(guest.token) as leaving:
            await leaving.leave_game(game_id)  # in the lobby: the seat is freed
        with pytest.raises(ApiError) as anonymous:
            await lobby.start_game(game_id)
        assert anonymous.value.code == "UNAUTHENTICATED"
        carla = await lobby.join_game(game_id, "Carla")
        async with lobby.with_token(anna.token) as client:
            await client.start_game(game_id)
            state = await client.game(game_id)
        spectator = await lobby.game(game_id)
        with pytest.raises(ApiError) as missing:
            await lobby.game("R2FtZTpub3RoaW5n")
        assert missing.value.code == "NOT_FOUND"
        async with lobby.with_token("not-a-token") as stranger:
            with pytest.raises(ApiError) as refused:
                await stranger.game(game_id)
            assert refused.value.code == "UNAUTHENTICATED"
            with pytest.raises(ApiError) as closed:  # the WebSocket refused, not retried
                async with contextlib.aclosing(stranger.events(game_id)) as stream:
                    await anext(stream)
            assert closed.value.code == "UNAUTHENTICATED"

    assert [bruno.seat, carla.seat] == [1, 2]
    assert (state.status, state.phase, state.viewer_seat) == ("ACTIVE", "SETUP", 0)
    assert [p["name"] for p in state.players] == ["Anna", "Bruno", "Carla"]
    assert state.players[0]["colour"] == "rosso"
    assert len(state.territories) == 42
    assert state.hand == []
    assert state.objective is not None
    assert state.my_turn == (state.seat_to_act == 0)
    if state.my_turn:
        (family,) = state.legal_actions
        assert family["__typename"] == "LegalPlaceArmies"
        assert family["input"]["placeArmies"]["armies"] == family["maxArmies"]
    assert spectator.viewer_seat is None
    assert spectator.hand is None
    assert spectator.objective is None
    assert spectator.legal_actions == []


async def test_submit_is_idempotent_and_refusals_are_data(server: Server) -> None:
    async with table(server) as (game_id, clients):
        state = await clients[0].game(game_id)
        seat = state.seat_to_act
        assert seat is not None
        mine = clients[seat]
        state = await mine.game(game_id)
        action = simple(state)

        first = await mine.submit(game_id, action, state.version, client_mutation_id="m-1")
        assert first.ok
        assert first.version == state.version + 1
        assert first.events
        # The answer was lost, say: the same id again applies nothing, returns the first answer.
        again = await mine.submit(game_id, action, state.version, client_mutation_id="m-1")
        assert (again.version, again.events, again.user_errors) == (
            first.version,
            first.events,
            [],
        )
        assert (await mine.game(game_id)).version == first.version

        stale = await mine.submit(game_id, action, state.version)
        assert [e.code for e in stale.user_errors] == ["STALE_VERSION"]
        assert stale.version is None
        assert not stale.ok
        now = await mine.game(game_id)
        idle = next(client for n, client in enumerate(clients) if n != now.seat_to_act)
        refused = await idle.submit(game_id, {"endTurn": True}, now.version)
        assert [e.code for e in refused.user_errors] == ["NOT_YOUR_TURN"]
        assert (await mine.game(game_id)).version == first.version


async def test_submit_retries_a_lost_answer_with_the_same_id(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with table(server) as (game_id, clients):
        seat = (await clients[0].game(game_id)).seat_to_act
        assert seat is not None
        client = clients[seat]
        state = await client.game(game_id)
        sent: list[Json] = []
        real = client.execute

        async def answer_lost_once(query: str, variables: Json | None = None) -> Json:
            """The request reaches the server; the first answer never comes back."""
            sent.append(dict(variables or {}))
            data = await real(query, variables)
            if len(sent) == 1:
                raise TransportConnectionFailed("connection reset")
            return data

        monkeypatch.setattr(client, "execute", answer_lost_once)
        submitted = await client.submit(game_id, simple(state), state.version)
        monkeypatch.undo()

        assert len(sent) == 2
        assert sent[0]["input"]["clientMutationId"] == sent[1]["input"]["clientMutationId"]
        # Applied once: the retry got the first answer, not STALE_VERSION, and one version more.
        assert submitted.ok
        assert submitted.version == state.version + 1
        assert (await client.game(game_id)).version == state.version + 1
        public = [e for e in await history(clients[seat], game_id) if e["version"] > state.version]
        assert {e["version"] for e in public} == {state.version + 1}


async def test_events_resume_after_the_consumer_closed_the_stream(server: Server) -> None:
    async with table(server) as (game_id, clients):
        seen: list[GameEvent] = []
        async with contextlib.aclosing(clients[0].events(game_id)) as stream:
            async for event in stream:
                seen.append(event)
                if len(seen) == 5:
                    break
        await advance(game_id, clients, 12)
        everything = await history(clients[0], game_id)
        async with contextlib.aclosing(clients[0].events(game_id, after=seen[-1].seq)) as stream:
            async for event in stream:
                seen.append(event)
                if event.seq == everything[-1]["seq"]:
                    break
        assert as_dicts(seen) == everything


async def test_events_reconnect_when_the_server_restarts(server: Server) -> None:
    async with table(server) as (game_id, clients):
        seen: list[GameEvent] = []
        wanted = asyncio.Event()
        target = 0

        async def follow() -> None:
            async for event in clients[1].events(game_id, patience=60):
                seen.append(event)
                if event.seq >= target:
                    wanted.set()

        state = await advance(game_id, clients, 3)
        target = max(e["seq"] for e in await history(clients[1], game_id))
        follower = asyncio.create_task(follow())
        try:
            await asyncio.wait_for(wanted.wait(), 20)
            await asyncio.to_thread(server.stop)  # every connection drops
            await asyncio.sleep(0.5)  # the stream notices, and retries meanwhile
            await asyncio.to_thread(server.start)
            wanted.clear()
            state = await advance(game_id, clients, 6)
            target = max(e["seq"] for e in await history(clients[1], game_id))
            await asyncio.wait_for(wanted.wait(), 30)
        finally:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower
        assert state.version > 3
        # Seat 1's view of the whole history: nothing missed, nothing twice, in order.
        assert as_dicts(seen) == await history(clients[1], game_id)


async def test_spqr_board_and_naval_odds_through_the_client(server: Server) -> None:
    async with RisikoClient(server.url) as client:
        board = await client.board("spqr")
        classic = await client.board("classic")
        land = await client.battle_odds(3, 1)
        naval = await client.battle_odds(3, 1, naval=True)
    # Armies cross land borders only; provinces touch sea areas by their coasts.
    assert board.land_neighbours["italia"] == {"cisalpina"}
    assert board.coasts["italia"] == {"hadriaticum", "ionium", "tyrrenum"}
    assert "italia" in board.coasts["tyrrenum"]
    assert "ionium" in board.sea_neighbours["tyrrenum"]
    assert board.land_neighbours["sicilia"] == frozenset()
    assert board.seas >= {"tyrrenum", "ionium"}
    assert classic.land_neighbours == classic.neighbours  # every classic border is crossed
    assert classic.coasts == {t: frozenset() for t in classic.neighbours}
    # Naval combat: ties remove nothing and a roll that removes nothing ends it.
    expected = battle_odds(3, 1, tie_rule=TieRule.NO_LOSS, stop_on_no_loss=True)
    assert naval.conquest_probability == pytest.approx(expected.conquest_probability)
    assert naval.conquest_probability != pytest.approx(land.conquest_probability)


async def test_a_clock_a_bot_the_server_plays_and_a_seats_stream(server: Server) -> None:
    """The client seats a server bot, follows its own seat's notices, and plays its turns
    from them alone: a bot for fifty games needs no poll."""
    async with RisikoClient(server.url) as lobby:
        game_id = await lobby.create_game(
            seed="client-clock", options={"roundLimit": 3}, time_control={"turnSeconds": 600}
        )
        me = await lobby.join_game(game_id, "Me")
        async with lobby.with_token(me.token) as client:
            seats = [await client.add_bot(game_id, policy) for policy in ("ODDS", "RANDOM")]
            assert seats == [1, 2]
            with pytest.raises(ApiError) as refused:
                await lobby.add_bot(game_id)  # no token: no seat at this table
            assert refused.value.code == "UNAUTHENTICATED"
            await client.start_game(game_id)
            kinds = []
            async for notice in client.seat_events([me.token]):
                kinds.append(notice["kind"])
                if notice["kind"] == "YOUR_TURN":
                    assert notice["deadline"] is not None
                    state = await client.game(game_id)
                    while state.my_turn and state.status == "ACTIVE":
                        submitted = await client.submit(game_id, simple(state), state.version)
                        assert submitted.ok, submitted.user_errors
                        assert submitted.state is not None
                        state = submitted.state
            final = await client.game(game_id)
    assert final.status == "FINISHED"
    assert kinds[-1] == "GAME_ENDED"
    assert kinds.count("YOUR_TURN") >= 3
