"""GameService, the one road of every change, with a real SqliteStore and Broker (no HTTP).

Games are played by the aggressive bot against a mirror engine (see api_support): the
service's game, and a game rebuilt from its log, must always equal the mirror.
"""

from __future__ import annotations

import functools
import random
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable
from contextlib import aclosing
from pathlib import Path
from typing import Any, cast

import anyio
import pytest
from graphql import GraphQLEnumType

from api.broker import LOBBY, Broker
from api.service import AuthError, GameService, LobbyLimits, ServiceError
from api.stores.base import RecordedEvent
from api.stores.sqlite import SqliteStore
from domain import actions as a
from domain.errors import CodedError, ErrorCode
from domain.flow import Phase
from tests.integration.api_support import (
    Clock,
    ServiceGame,
    mirror_of,
    play_service,
    service_game,
    state_of,
)
from variants.classic.game import ClassicGame


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "risiko.sqlite3"


@pytest.fixture
async def store(database: Path) -> AsyncIterator[SqliteStore]:
    opened = SqliteStore(database)
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def service(store: SqliteStore, clock: Clock) -> GameService:
    return GameService(store, Broker(), clock=clock)


async def event_types(service: GameService, game_id: str, viewer: int | None) -> list[str]:
    return [e.event.type for e in await service.events(game_id, viewer, 0, 1000)]


async def code_of(call: Awaitable[Any]) -> str:
    """The code of the refusal (a ServiceError, a rule violation, an AuthError) `call` raises."""
    try:
        await call
    except (CodedError, AuthError) as error:
        return error.code
    raise AssertionError("no error")


# --------------------------------------------------------------------------- the lobby


@pytest.mark.anyio
async def test_create_join_start(service: GameService) -> None:
    record = await service.create_game("classic", {"round_limit": 9}, "lobby")
    assert (record.status, record.version, record.seats) == ("lobby", 1, ())
    assert record.options["round_limit"] == 9
    tokens = []
    for name, colour in (("Anna", "verde"), ("Bruno", None), ("Carla", None)):
        joined = await service.join_game(record.id, f"  {name} ", colour)
        tokens.append(joined.token)
        assert await service.seat_for(joined.token) == (record.id, joined.seat)
    session = await service.session(record.id)
    assert [(s.seat, s.name, s.colour) for s in session.record.seats] == [
        (0, "Anna", "verde"),
        (1, "Bruno", "blu"),
        (2, "Carla", "rosso"),
    ]
    assert session.game is None
    started = await service.start_game(record.id, tokens[2])
    assert (started.status, started.version) == ("active", 5)
    session = await service.session(record.id)
    assert session.game is not None
    assert session.game.players == ("Anna", "Bruno", "Carla")
    public = await event_types(service, record.id, None)
    assert public[:5] == [
        "GameCreated",
        "PlayerJoined",
        "PlayerJoined",
        "PlayerJoined",
        "GameStarted",
    ]
    assert "ObjectiveAssigned" not in public
    for seat in range(3):
        private = [
            e for e in await service.events(record.id, seat, 0, 1000) if e.visible_to is not None
        ]
        assert [(e.event.type, e.visible_to) for e in private] == [("ObjectiveAssigned", seat)]
    assert session.last_event == await service.store.last_event_seq(record.id)


@pytest.mark.anyio
async def test_leaving_the_lobby_frees_the_seat_and_renumbers(service: GameService) -> None:
    game = await service_game(service, players=4, start=False)
    before = (await service.session(game.id)).record
    assert [s.colour for s in before.seats] == ["blu", "rosso", "giallo", "verde"]
    record = await service.leave_game(game.id, game.tokens[1])
    assert [(s.seat, s.name, s.colour) for s in record.seats] == [
        (0, "P0", "blu"),
        (1, "P2", "giallo"),
        (2, "P3", "verde"),
    ]
    # Later seats keep their tokens, with their new numbers; the leaver's token is gone.
    assert await service.seat_for(game.tokens[2]) == (game.id, 1)
    assert await service.seat_for(game.tokens[3]) == (game.id, 2)
    assert await code_of(service.seat_for(game.tokens[1])) == "UNAUTHENTICATED"
    events = await service.events(game.id, None, 0, 100)
    assert events[-1].event.to_dict() == {"type": "PlayerLeft", "seat": 1}
    # The freed colour is the first one offered again.
    joined = await service.join_game(game.id, "P4")
    assert (joined.seat, joined.record.seats[-1].colour) == (3, "rosso")
    # The last seat leaving renumbers nobody.
    record = await service.leave_game(game.id, joined.token)
    assert [s.name for s in record.seats] == ["P0", "P2", "P3"]
    started = await service.start_game(game.id, game.tokens[3])
    session = await service.session(game.id)
    assert session.game is not None
    assert session.game.players == ("P0", "P2", "P3")
    assert started.version == 1 + 4 + 1 + 1 + 1 + 1


@pytest.mark.anyio
async def test_lobby_refusals(service: GameService) -> None:
    game = await service_game(service, players=2, start=False)
    assert await code_of(service.start_game(game.id, game.tokens[0])) == "NOT_ENOUGH_PLAYERS"
    assert await code_of(service.join_game(game.id, "x" * 41)) == "INVALID_NAME"
    assert await code_of(service.join_game(game.id, "X", "blu")) == "COLOUR_TAKEN"
    assert await code_of(service.join_game(game.id, "X", "oro")) == "INVALID_COLOUR"
    assert await code_of(service.join_game("nope", "X")) == "GAME_NOT_FOUND"
    assert await code_of(service.create_game("risiko_piu", {})) == "UNKNOWN_VARIANT"
    for options in ({"round_limit": 0}, {"protected_rounds": -1}, {"colour": "blu"}):
        assert await code_of(service.create_game("classic", options)) == "INVALID_OPTIONS"
    assert await code_of(service.leave_game(game.id, None)) == "UNAUTHENTICATED"
    other = await service_game(service, players=3)
    assert await code_of(service.leave_game(game.id, other.tokens[0])) == "FORBIDDEN"
    assert await code_of(service.start_game(game.id, other.tokens[0])) == "FORBIDDEN"
    assert (await service.session(game.id)).record.version == 3


@pytest.mark.anyio
async def test_leaving_after_the_start_is_resigning(service: GameService) -> None:
    game = await service_game(service, players=3, seed="resign")
    mirror = game.game
    waiting = next(s for s in range(3) if s != mirror.current)
    record = await service.leave_game(game.id, game.tokens[waiting])
    mirror.apply(waiting, a.Resign())
    assert record.status == "active"
    assert [s.name for s in record.seats] == ["P0", "P1", "P2"]  # seats stay
    events = await service.events(game.id, None, 0, 1000)
    assert events[-1].event.to_dict() == {"type": "PlayerResigned", "seat": waiting}
    session = await service.session(game.id)
    assert session.game is not None
    assert state_of(session.game) == state_of(mirror)
    assert await code_of(service.leave_game(game.id, game.tokens[waiting])) == "WRONG_PHASE"
    # The second resignation leaves one player: the game is over, won by the last one.
    last = next(s for s in range(3) if s != waiting and s != mirror.current)
    record = await service.leave_game(game.id, game.tokens[mirror.current])
    assert record.status == "finished"
    assert record.winner == last
    assert record.outcome is not None
    assert record.outcome["reason"] == "last_player"
    assert await code_of(service.leave_game(game.id, game.tokens[last])) == "GAME_OVER"
    assert (
        await code_of(service.submit_action(game.id, game.tokens[last], a.EndTurn())) == "GAME_OVER"
    )


# --------------------------------------------------------------------------- playing


@pytest.mark.anyio
async def test_submit_is_idempotent_by_key(service: GameService) -> None:
    game = await service_game(service, seed="idempotent")
    mirror = game.game
    seat = mirror.current
    territory = mirror.board.territories[mirror.owner.index(seat)].id
    action = a.PlaceArmies(territory, 1)
    first = await service.submit_action(game.id, game.tokens[seat], action, None, "key-1")
    mirror.apply(seat, action)
    log = await service.store.log(game.id)
    again = await service.submit_action(game.id, game.tokens[seat], action, None, "key-1")
    different = await service.submit_action(game.id, game.tokens[seat], a.EndTurn(), 2, "key-1")
    assert again == first
    assert different == first
    assert await service.store.log(game.id) == log
    assert first.version == log[-1].seq
    assert all(e.visible_to in (None, seat) for e in first.events)
    session = await service.session(game.id)
    assert session.game is not None
    assert state_of(session.game) == state_of(mirror)
    # A rejected action with a key is not remembered.
    wrong = a.PlaceArmies(territory, 50)
    assert (
        await code_of(service.submit_action(game.id, game.tokens[seat], wrong, None, "key-2"))
        == "INVALID_ARMY_COUNT"
    )
    assert await service.store.idempotent_response(game.id, seat, "key-2") is None
    second = await service.submit_action(game.id, game.tokens[seat], action, None, "key-2")
    assert second.version == first.version + 1
    # Seats the game does not accept actions of, or actions no seat may submit.
    for forbidden in (a.Resign(), a.ExpireTime()):
        code = await code_of(service.submit_action(game.id, game.tokens[seat], forbidden))
        assert code == "INVALID_ACTION"


@pytest.mark.anyio
async def test_two_services_race_and_the_loser_rebuilds(
    database: Path, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes on one SQLite file: the second to append loses with STALE_VERSION, drops
    the engine it had already changed, and rebuilds the truth from the log."""
    other_store = SqliteStore(database)
    await other_store.open()
    try:
        other = GameService(other_store, Broker())
        game = await service_game(service, seed="race")
        mirror = game.game
        await other.session(game.id)  # both processes have the game cached
        seat = mirror.current
        token = game.tokens[seat]
        own = [mirror.board.territories[t].id for t, o in enumerate(mirror.owner) if o == seat]
        winner, loser = a.PlaceArmies(own[0], 1), a.PlaceArmies(own[1], 2)
        append = other_store.append

        async def append_second(*args: Any, **kwargs: Any) -> None:
            await service.submit_action(game.id, token, winner)  # the other process wins
            await append(*args, **kwargs)

        monkeypatch.setattr(other_store, "append", append_second)
        assert await code_of(other.submit_action(game.id, token, loser)) == "STALE_VERSION"
        monkeypatch.setattr(other_store, "append", append)
        mirror.apply(seat, winner)
        assert game.id not in other.sessions  # its changed engine was dropped
        for process in (service, other):
            session = await process.session(game.id)
            assert session.game is not None
            assert state_of(session.game) == state_of(mirror)
            assert session.last_event == await process.store.last_event_seq(game.id)
        # The loser plays on from the truth, and the winner sees it.
        await play_service(other, game, lambda g: g.phase is not Phase.SETUP or g.seq >= 12)
        session = await service.session(game.id)
        assert session.game is not None
        assert state_of(session.game) == state_of(mirror)
        # A race in the lobby ends the same way.
        lobby = await service.create_game("classic", {}, "lobby-race")
        await other.session(lobby.id)
        join_later = other_store.append

        async def join_second(*args: Any, **kwargs: Any) -> None:
            await service.join_game(lobby.id, "First")
            await join_later(*args, **kwargs)

        monkeypatch.setattr(other_store, "append", join_second)
        assert await code_of(other.join_game(lobby.id, "Second")) == "STALE_VERSION"
        monkeypatch.setattr(other_store, "append", join_later)
        record = (await other.session(lobby.id)).record
        assert [s.name for s in record.seats] == ["First"]
        assert (await other.join_game(lobby.id, "Second")).seat == 1
    finally:
        await other_store.close()


def reached(seq: int, game: ClassicGame) -> bool:
    return game.seq >= seq


@pytest.mark.anyio
async def test_a_game_changed_by_another_process_is_caught_up_not_rebuilt(
    database: Path, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes on one SQLite file, each with the game cached: after the other one's
    actions, a process folds the entries it missed into its copy (no rebuild), to the very
    position the live engine holds, across snapshots and the game's resignations too."""
    other_store = SqliteStore(database)
    await other_store.open()
    try:
        other = GameService(other_store, Broker())
        game = await service_game(service, seed="catch-up")
        mirror = game.game
        await other.session(game.id)

        async def never(record: object) -> None:
            raise AssertionError("rebuilt instead of caught up")

        monkeypatch.setattr(other.sessions, "rebuild", never)
        rnd = random.Random(3)
        for behind in (1, 2, 13, 1):  # 13: past a snapshot
            target = mirror.seq + behind
            await play_service(service, game, functools.partial(reached, target), rnd)
            caught = await other.session(game.id)
            live = await service.session(game.id)
            assert caught.game is not None
            assert caught.game is not live.game
            assert state_of(caught.game) == state_of(mirror)
            assert caught.record == live.record
            assert caught.last_event == live.last_event
            # ... and plays on from there.
            await play_service(other, game, functools.partial(reached, target + 1), rnd)
        seat = next(s for s in range(3) if s != mirror.current and not mirror.eliminated[s])
        await service.leave_game(game.id, game.tokens[seat])
        mirror.apply(seat, a.Resign())
        caught = await other.session(game.id)
        assert caught.game is not None
        assert state_of(caught.game) == state_of(mirror)
    finally:
        await other_store.close()


@pytest.mark.anyio
async def test_rebuild_from_the_log_equals_the_live_game(
    database: Path, service: GameService, clock: Clock
) -> None:
    """Every kind of log entry (join, leave, start, action, resign, expire) replays to the
    very position the live engine holds."""
    game = await service_game(
        service, players=5, seed="rebuild", options={"time_limit_minutes": 1}, start=False
    )
    await service.leave_game(game.id, game.tokens[1])
    del game.tokens[1]
    joined = await service.join_game(game.id, "Late")
    game.tokens.append(joined.token)
    started = await service.start_game(game.id, game.tokens[0])
    game.mirror = mirror_of(started)
    mirror = game.game
    await play_service(service, game, lambda g: g.round >= 2 and g.phase is Phase.ATTACK)
    resigning = next(s for s in range(5) if s != mirror.current and not mirror.eliminated[s])
    await service.leave_game(game.id, game.tokens[resigning])
    mirror.apply(resigning, a.Resign())
    clock.now += 61
    await service.expire_time(game.id)
    mirror.apply(None, a.ExpireTime())
    target = mirror.seq + 25
    await play_service(service, game, lambda g: g.seq >= target)
    assert not mirror.is_over

    async def assert_rebuilt() -> None:
        live = await service.session(game.id)
        assert live.game is not None
        assert state_of(live.game) == state_of(mirror)
        fresh_store = SqliteStore(database)
        await fresh_store.open()
        try:
            fresh = GameService(fresh_store, Broker())
            rebuilt = await fresh.session(game.id)
            assert rebuilt.game is not None
            assert rebuilt.game is not live.game
            assert state_of(rebuilt.game) == state_of(mirror)
            assert rebuilt.record == live.record
            assert rebuilt.last_event == live.last_event
        finally:
            await fresh_store.close()

    await assert_rebuilt()
    kinds = {entry.kind for entry in await service.store.log(game.id)}
    assert kinds == {"create", "join", "leave", "start", "action", "resign", "expire"}
    await play_service(service, game, lambda g: False)  # the round ends, and the game
    assert mirror.is_over
    assert mirror.end_reason == "time_limit"
    await assert_rebuilt()
    record = (await service.session(game.id)).record
    assert record.status == "finished"
    assert record.outcome is not None
    assert record.outcome["reason"] == "time_limit"
    assert [e["seat"] for e in record.outcome["ranking"]] == [s for _, s, _ in mirror.ranking]


@pytest.mark.anyio
async def test_a_crowded_cache_rebuilds_what_it_forgot(store: SqliteStore) -> None:
    service = GameService(store, Broker(), cache_size=1)
    first = await service_game(service, seed="first")
    second = await service_game(service, seed="second")
    await play_service(service, first, lambda g: g.seq >= 10)
    await play_service(service, second, lambda g: g.seq >= 10)
    await play_service(service, first, lambda g: g.seq >= 20)
    for game in (first, second):
        session = await service.session(game.id)
        assert session.game is not None
        assert state_of(session.game) == state_of(game.game)


# --------------------------------------------------------------------------- streams


async def collect(
    service: GameService, game_id: str, viewer: int | None, after: int, sink: list[RecordedEvent]
) -> None:
    async with aclosing(stream_of(service, game_id, viewer, after)) as events:
        async for event in events:
            sink.append(event)


def stream_of(
    service: GameService, game_id: str, viewer: int | None, after: int
) -> AsyncGenerator[RecordedEvent, None]:
    """`service.stream`, typed as the async generator it is (to close it)."""
    return cast(AsyncGenerator[RecordedEvent, None], service.stream(game_id, viewer, after))


async def wait_for_length(sink: list[RecordedEvent], length: int, seconds: float = 10) -> None:
    with anyio.fail_after(seconds):
        while len(sink) < length:
            await anyio.sleep(0.005)


@pytest.mark.anyio
async def test_stream_gives_stored_then_live_events_without_gap_or_duplicate(
    service: GameService,
) -> None:
    game = await service_game(service, players=3, seed="stream")
    await play_service(service, game, lambda g: g.round >= 1 and g.phase is Phase.REINFORCE)
    viewers: list[int | None] = [None, 0, 1, 2]
    middle = await service.store.last_event_seq(game.id) // 2
    sinks: dict[tuple[int | None, int], list[RecordedEvent]] = {}
    rnd = random.Random(4)

    async def pause() -> None:  # let the streams run now and then, not after every action
        if rnd.random() < 0.5:
            await anyio.sleep(0)

    async with anyio.create_task_group() as group:
        for viewer in viewers:
            for after in (0, middle):
                sink = sinks[viewer, after] = []
                group.start_soon(collect, service, game.id, viewer, after, sink)
        await anyio.sleep(0)
        # Play on (cards are drawn: private events of others leave gaps for each viewer).
        await play_service(service, game, lambda g: g.round >= 3, pause=pause)
        expected = {viewer: await service.events(game.id, viewer, 0, 10_000) for viewer in viewers}
        for (viewer, after), sink in sinks.items():
            await wait_for_length(sink, len([e for e in expected[viewer] if e.seq > after]))
        await anyio.sleep(0.05)  # nothing more arrives
        group.cancel_scope.cancel()
    assert any(e.event.type == "CardsReceived" for e in expected[0])
    for (viewer, after), sink in sinks.items():
        assert sink == [e for e in expected[viewer] if e.seq > after], (viewer, after)
        assert all(e.visible_to in (None, viewer) for e in sink)
    assert service.broker.subscriber_count(game.id) == 0


@pytest.mark.anyio
async def test_stream_of_an_unknown_game(service: GameService) -> None:
    sink: list[RecordedEvent] = []
    with pytest.raises(ServiceError) as caught:
        await collect(service, "nope", None, 0, sink)
    assert caught.value.code == "GAME_NOT_FOUND"
    assert sink == []
    assert service.broker.subscriber_count("nope") == 0


# --------------------------------------------------------------------------- the clock


@pytest.mark.anyio
async def test_expire_time_ends_the_game_after_the_round(
    service: GameService, clock: Clock
) -> None:
    lobby = await service_game(
        service, seed="clock", options={"time_limit_minutes": 1}, start=False
    )
    await service.expire_time(lobby.id)  # a game in the lobby has no clock running yet
    assert (await service.session(lobby.id)).record.version == 4
    started = await service.start_game(lobby.id, lobby.tokens[0])
    game = ServiceGame(lobby.id, lobby.seed, lobby.tokens)
    game.mirror = mirror_of(started)
    mirror = game.game
    await play_service(service, game, lambda g: g.round >= 1 and g.phase is Phase.ATTACK)
    version = (await service.session(game.id)).record.version
    clock.now += 60
    await service.expire_time(game.id)
    mirror.apply(None, a.ExpireTime())
    events = await service.events(game.id, None, 0, 10_000)
    assert events[-1].event.to_dict() == {"type": "TimeExpired", "round": 1}
    log = await service.store.log(game.id)
    assert (log[-1].kind, log[-1].seat, log[-1].seq) == ("expire", None, version + 1)
    await service.expire_time(game.id)  # once only
    assert (await service.session(game.id)).record.version == version + 1
    # The round in which the time ran out is completed, then the game ends.
    await play_service(service, game, lambda g: False)
    record = (await service.session(game.id)).record
    assert record.status == "finished"
    assert record.outcome is not None
    assert record.outcome["reason"] == "time_limit"
    assert mirror.round == 1
    await service.expire_time(game.id)  # a finished game: nothing to do
    assert (await service.session(game.id)).record == record
    # A game without a time limit has no clock to expire.
    untimed = await service_game(service, seed="untimed")
    assert await code_of(service.expire_time(untimed.id)) == "OPTION_DISABLED"
    assert await code_of(service.expire_time("nope")) == "GAME_NOT_FOUND"


@pytest.mark.anyio
async def test_time_limits_expire_on_the_games_clock(store: SqliteStore, clock: Clock) -> None:
    service = GameService(store, Broker(), clock=clock)
    timed = await service_game(service, seed="due", options={"time_limit_minutes": 1})
    await service_game(service, seed="untimed")
    record = (await service.session(timed.id)).record
    assert record.deadline == clock.now + 60  # kept in the game's row, not in the process
    clock.now += 59
    assert await service.tick() == []
    clock.now += 1
    assert await service.tick() == [timed.id]
    await service.settle()
    session = await service.session(timed.id)
    assert session.game is not None
    assert session.game.time_expired
    assert session.record.deadline is None  # declared once: nothing more is due
    # A restarted process finds nothing more to do.
    restarted = GameService(store, Broker(), clock=clock)
    assert await restarted.tick() == []
    assert (await restarted.session(timed.id)).record.version == session.record.version


# --------------------------------------------------------------------------- lobby limits


@pytest.mark.anyio
async def test_a_creator_has_a_bounded_number_of_unstarted_games(
    store: SqliteStore, clock: Clock
) -> None:
    service = GameService(store, Broker(), clock=clock, lobby=LobbyLimits(2, 3600))
    first = await service.create_game("classic", {}, creator="address:10.0.0.1")
    await service.create_game("classic", {}, creator="address:10.0.0.1")
    refused = service.create_game("classic", {}, creator="address:10.0.0.1")
    assert await code_of(refused) == "TOO_MANY_UNSTARTED_GAMES"
    assert len(await store.games("lobby", None, None, 10)) == 2  # the refused one is not there
    await service.create_game("classic", {}, creator="address:10.0.0.2")  # another creator
    await service.create_game("classic", {})  # nobody in particular: not bounded
    # Starting one frees a place.
    tokens = [(await service.join_game(first.id, name)).token for name in ("Anna", "Bruno", "Ci")]
    await service.start_game(first.id, tokens[0])
    await service.create_game("classic", {}, creator="address:10.0.0.1")
    # The creator is kept as a hash, never as the address itself.
    assert all("10.0.0.1" not in g.creator for g in await store.games(None, None, None, 10))


@pytest.mark.anyio
async def test_games_nobody_starts_are_abandoned_after_their_time(
    store: SqliteStore, clock: Clock
) -> None:
    broker = Broker()
    service = GameService(store, broker, clock=clock, lobby=LobbyLimits(2, 3600))
    idle = await service.create_game("classic", {}, creator="a")
    joined_later = await service.create_game("classic", {}, creator="a")
    started = await service_game(service, seed="started")
    clock.now += 3000
    await service.join_game(joined_later.id, "Anna")  # a change: its time starts again
    clock.now += 601
    async with broker.subscribe(LOBBY) as news:
        assert await service.expire_lobby() == [idle.id]
        assert news.get_nowait() == {"type": "GameFinished", "game_id": idle.id, "winner": None}
    abandoned = (await service.session(idle.id)).record
    assert (abandoned.status, abandoned.winner, abandoned.version) == ("finished", None, 2)
    assert abandoned.outcome == {"winner": None, "reason": "not_started", "ranking": []}
    assert (await event_types(service, idle.id, None))[-1] == "GameAbandoned"
    assert await code_of(service.join_game(idle.id, "Late")) == "GAME_ALREADY_STARTED"
    assert (await service.session(joined_later.id)).record.status == "lobby"
    assert (await service.session(started.id)).record.status == "active"
    assert await service.expire_lobby() == []  # once only
    # The creator may create again, and a rebuilt session reads the abandoned game.
    await service.create_game("classic", {}, creator="a")
    restarted = GameService(store, Broker(), clock=clock)
    assert (await restarted.session(idle.id)).record == abandoned
    clock.now += 3600
    assert await service.expire_lobby() == [joined_later.id]


@pytest.mark.anyio
async def test_lobby_limits_of_zero_are_off(store: SqliteStore, clock: Clock) -> None:
    service = GameService(store, Broker(), clock=clock, lobby=LobbyLimits(0, 0))
    for _ in range(60):
        await service.create_game("classic", {}, creator="a")
    clock.now += 10**9
    assert await service.expire_lobby() == []


def test_the_schema_shows_the_domains_error_codes_as_they_are() -> None:
    """One list of codes, from the rules and the lobby to the schema: a code the service or
    the rules refuse with is a member of it (ServiceError takes nothing else, a game's own
    rule violation declares its code in its folder), so a refusal can never become an
    internal error for want of an enum value."""
    from api.graphql.schema import schema
    from domain.errors import RULE_CODES
    from variants import served

    enum = schema._schema.type_map["ErrorCode"]
    assert isinstance(enum, GraphQLEnumType)
    own = {code for code, cls in RULE_CODES.items() if served(cls)}
    assert set(enum.values) == {code.value for code in ErrorCode} | own
    assert {"NO_NAVAL_SUPERIORITY", "ONCE_PER_GAME", "BATTLES_PENDING"} <= own - set(ErrorCode)
    assert {"TOO_MANY_UNSTARTED_GAMES", "GAME_NOT_FOUND", "STALE_VERSION"} <= set(enum.values)
    assert {"NOT_YOUR_TURN", "INVALID_OPTIONS"} <= set(enum.values)
