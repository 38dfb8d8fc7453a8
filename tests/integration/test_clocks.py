"""Turn clocks, absent players and seated bots, through GameService with a real SqliteStore
and a clock the tests move by hand (no HTTP; tests/e2e/test_online_play.py has the server)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from api.broker import Broker
from api.clock import ClockState, PlayedByProxy
from api.read_models import replay_entry
from api.service import Forbidden, GameService, ServiceError, Unauthenticated
from api.stores.base import GameRecord
from api.stores.sqlite import SqliteStore
from bots.seated import BotPolicy
from domain import actions as a
from domain.flow import Phase
from tests.integration.api_support import Clock, state_of
from tests.support import classic
from variants import VARIANTS
from variants.skirmish import VARIANT as SKIRMISH


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = SqliteStore(tmp_path / "risiko.sqlite3")
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: SqliteStore, clock: Clock) -> AsyncIterator[GameService]:
    service = GameService(store, Broker(), clock=clock)
    yield service
    await service.close()


async def table(
    service: GameService,
    humans: int,
    bots: int,
    time_control: dict[str, Any] | None,
    options: dict[str, Any] | None = None,
    seed: str = "clocks",
) -> tuple[str, list[str]]:
    """A started classic game: `humans` seats (their tokens), then `bots` seated bots."""
    record = await service.create_game("classic", options or {}, seed, time_control=time_control)
    tokens = [(await service.join_game(record.id, f"P{i}")).token for i in range(humans)]
    for _ in range(bots):
        await service.add_bot(record.id, tokens[0], BotPolicy.ODDS)
    await service.start_game(record.id, tokens[0])
    return record.id, tokens


async def run_clock(service: GameService, clock: Clock, game_id: str, step: float) -> GameRecord:
    """The clock's work, moving time on by `step` whenever nothing is due, until the end."""
    for _ in range(10_000):
        await service.tick()
        await service.settle()
        record = (await service.session(game_id)).record
        if record.status == "finished":
            return record
        if record.deadline is None or record.deadline > clock.now:
            clock.now += step
    raise AssertionError("the game never ended")


async def replayed(service: GameService, game_id: str) -> dict[str, Any]:
    """The game folded from its log alone, entry by entry, from the start."""
    record = (await service.session(game_id)).record
    game = None
    for entry in await service.store.log(game_id):
        game = replay_entry(record, game, entry)
    assert game is not None
    return state_of(classic(game))


async def entries(service: GameService, game_id: str) -> list[tuple[str, int | None]]:
    return [(e.kind, e.seat) for e in await service.store.log(game_id)]


@pytest.mark.anyio
async def test_a_seat_that_never_acts_is_played_by_proxy_then_resigns(
    service: GameService, clock: Clock
) -> None:
    control = {"turn_seconds": 60, "resign_after": 2}
    game_id, _ = await table(service, 1, 2, control)
    record = await run_clock(service, clock, game_id, 30)
    log = await entries(service, game_id)
    assert ("resign", 0) in log  # after two absences in a row
    assert {kind for kind, seat in log if seat == 0} <= {"proxy", "resign", "join", "start"}
    assert {kind for kind, seat in log if seat in (1, 2)} <= {"bot", "join"}
    events = await service.events(game_id, None, 0, 100_000)
    notes = [e.event.to_dict() for e in events if e.event.type == "PlayedByProxy"]
    assert [n["reason"] for n in notes if n["reason"] != "turn_timeout"] == ["absent_resigns"]
    assert [n["absences"] for n in notes if n["reason"] == "absent_resigns"] == [2]
    # Every entry the proxy played is marked, first among its events.
    proxied = {e.seq for e in await service.store.log(game_id) if e.kind == "proxy"}
    firsts: dict[int, str] = {}
    for event in events:
        firsts.setdefault(event.log_seq, event.event.type)
    assert proxied
    assert {firsts[seq] for seq in proxied} == {"PlayedByProxy"}
    assert record.outcome is not None
    assert record.outcome["winner"] in (1, 2)
    session = await service.session(game_id)
    assert session.game is not None
    assert await replayed(service, game_id) == state_of(classic(session.game))


@pytest.mark.anyio
async def test_clock_changes_are_public_events(service: GameService, clock: Clock) -> None:
    game_id, _ = await table(service, 3, 0, {"turn_seconds": 60})
    events = await service.events(game_id, None, 0, 1000)
    changed = [e.event.to_dict() for e in events if e.event.type == "ClockChanged"]
    session = await service.session(game_id)
    assert session.game is not None
    first = session.game.seat_to_act
    assert changed == [
        {
            "type": "ClockChanged",
            "seat": first,
            "kind": "turn",
            "deadline": clock.now + 60,
            "banks": [],
        }
    ]
    assert session.record.deadline == clock.now + 60
    # An untimed game tells nothing of the kind.
    plain = await service.create_game("classic", {}, "plain")
    assert "ClockChanged" not in [e.event.type for e in await service.events(plain.id, None, 0, 99)]


@pytest.mark.anyio
async def test_minimal_absence_ends_the_turn_with_the_least(
    service: GameService, clock: Clock
) -> None:
    control = {"turn_seconds": 60, "absence": "minimal", "resign_after": 100}
    game_id, _ = await table(service, 3, 0, control)
    for _ in range(12):  # four rounds of the initial placement, everyone absent
        clock.now += 61
        await service.tick()
        await service.settle()
    log = await service.store.log(game_id)
    played = [a.action_from_dict(e.payload) for e in log if e.kind == "proxy"]
    assert played
    assert {type(action) for action in played} <= {a.PlaceArmies, a.EndTurn}
    # Each timeout counted: nobody acted, so absences grow in a row.
    record = (await service.session(game_id)).record
    assert record.clock is not None
    assert sum(ClockState.from_plain(record.clock).absences) >= 3


@pytest.mark.anyio
async def test_an_answer_owed_gets_its_default_at_its_own_deadline(
    service: GameService, clock: Clock
) -> None:
    control = {"turn_seconds": 600, "answer_seconds": 20, "resign_after": 5}
    game_id, tokens = await table(service, 3, 0, control, {"defender_dice": "declare"})
    # Everyone places and plays through the service until a defence is owed.
    while True:
        session = await service.session(game_id)
        assert session.game is not None
        game = classic(session.game)
        seat = game.seat_to_act
        assert seat is not None
        if game.phase is Phase.DEFEND:
            break
        families = game.legal_actions(seat)
        attack = next((f for f in families if f.kind == "attack"), None)
        action = attack.ready() if attack is not None else families[0].ready()
        await service.submit_action(game_id, tokens[seat], action)
    prompt = game.open_prompt()
    assert prompt is not None
    record = session.record
    assert record.clock is not None
    state = ClockState.from_plain(record.clock)
    assert (state.holder, state.kind, state.deadline) == (prompt.seat, "answer", clock.now + 20)
    paused = state.paused
    assert paused is not None
    clock.now += 19
    assert await service.tick() == []
    clock.now += 1
    assert await service.tick() == [game_id]
    await service.settle()
    log = await service.store.log(game_id)
    assert (log[-1].kind, log[-1].seat, log[-1].payload["kind"]) == ("proxy", prompt.seat, "defend")
    after = (await service.session(game_id)).record
    assert after.clock is not None
    resumed = ClockState.from_plain(after.clock)
    # The turn's time stood still while the answer was owed.
    assert (resumed.kind, resumed.deadline) == ("turn", clock.now + paused)
    assert resumed.absences[prompt.seat] == 1


@pytest.mark.anyio
async def test_a_late_move_comes_after_the_clock_and_nothing_is_doubled(
    service: GameService, clock: Clock
) -> None:
    control = {"turn_seconds": 60, "absence": "minimal"}
    game_id, tokens = await table(service, 3, 0, control)
    session = await service.session(game_id)
    assert session.game is not None
    game = classic(session.game)
    seat = game.seat_to_act
    assert seat is not None
    move = game.legal_actions(seat)[0].ready()
    version = session.record.version
    clock.now += 61  # the deadline has passed, and the clock has not acted yet
    with pytest.raises(ServiceError) as refused:
        await service.submit_action(game_id, tokens[seat], move, expected_version=version)
    assert refused.value.code == "STALE_VERSION"
    await service.settle()
    log = await service.store.log(game_id)
    assert [(e.kind, e.seat) for e in log[version:]][:1] == [("proxy", seat)]
    assert not [e for e in log if e.kind == "action"]


@pytest.mark.anyio
async def test_two_services_on_one_store_act_once(store: SqliteStore, clock: Clock) -> None:
    first, second = (GameService(store, Broker(), clock=clock) for _ in range(2))
    control = {"turn_seconds": 60, "absence": "minimal", "resign_after": 100}
    game_id, _ = await table(first, 3, 0, control)
    version = (await first.session(game_id)).record.version
    clock.now += 61
    await asyncio.gather(first.tick(), second.tick())
    await asyncio.gather(first.settle(), second.settle())
    log = await store.log(game_id)
    timeouts = [
        e.event
        for e in await first.events(game_id, None, 0, 10_000)
        if isinstance(e.event, PlayedByProxy)
    ]
    # One absence, acted once, whichever service got there first; the turn's rest follows.
    assert [t.absences for t in timeouts] == [1] * len(timeouts)
    assert len({t.seat for t in timeouts}) == 1
    assert log[version].kind == "proxy"
    assert len(log) == len({e.seq for e in log})


@pytest.mark.anyio
async def test_seating_bots_is_for_seated_players_in_the_lobby(service: GameService) -> None:
    record = await service.create_game("classic", {}, "bots")
    with pytest.raises(Unauthenticated):
        await service.add_bot(record.id, None)
    other = await service.create_game("classic", {}, "other")
    stranger = await service.join_game(other.id, "Stranger")
    with pytest.raises(Forbidden):
        await service.add_bot(record.id, stranger.token)
    host = await service.join_game(record.id, "Host")
    joined = await service.add_bot(record.id, host.token, BotPolicy.RANDOM)
    seat = joined.record.seats[joined.seat]
    assert (seat.name, seat.bot) == ("Bot 1 (random)", "random")
    events = await service.events(record.id, None, 0, 99)
    assert events[-1].event.to_dict() == {
        "type": "BotJoined",
        "seat": 1,
        "name": "Bot 1 (random)",
        "colour": seat.colour,
        "policy": "random",
    }
    for _ in range(4):
        await service.add_bot(record.id, host.token)
    with pytest.raises(ServiceError) as full:
        await service.add_bot(record.id, host.token)
    assert full.value.code == "GAME_FULL"
    await service.start_game(record.id, host.token)
    with pytest.raises(ServiceError) as started:
        await service.add_bot(record.id, host.token)
    assert started.value.code == "GAME_ALREADY_STARTED"


async def bots_alone(
    service: GameService, seed: str, bots: int, variant: str = "classic"
) -> GameRecord:
    """A game of `bots` seated bots, started by a person who then leaves it."""
    record = await service.create_game(variant, {}, seed)
    host = await service.join_game(record.id, "Host")
    for _ in range(bots):
        await service.add_bot(record.id, host.token)
    await service.start_game(record.id, host.token)
    await service.leave_game(record.id, host.token)
    return record


@pytest.mark.anyio
async def test_bots_alone_play_a_game_to_its_end_at_once(
    service: GameService, clock: Clock
) -> None:
    """No clock needed: a bot to act is due at once, and each of its moves kicks the next;
    the person who seated them leaves at the start."""
    record = await bots_alone(service, "bots-only", 3)
    start = clock.now
    for _ in range(1000):
        await service.settle()
        if (await service.session(record.id)).record.status == "finished":
            break
        await service.tick()  # after a batch of CLOCK_STEPS moves: the next one
    session = await service.session(record.id)
    assert session.record.status == "finished"
    assert clock.now == start
    assert session.game is not None
    assert await replayed(service, record.id) == state_of(classic(session.game))


@pytest.mark.anyio
async def test_odds_bots_alone_play_a_futurisiko_game_to_a_winner(
    service: GameService, clock: Clock
) -> None:
    """FutuRisiKo!'s seated odds bot produces, moves and fights (variants/futurisiko/bot.py):
    three of them win a game through the service, every move accepted."""
    record = await bots_alone(service, "futu-bots", 3, "futurisiko")
    for _ in range(3000):
        await service.settle()
        if (await service.session(record.id)).record.status == "finished":
            break
        await service.tick()
    session = await service.session(record.id)
    assert session.record.status == "finished"
    assert session.game is not None
    assert session.game.winner is not None
    log = await service.store.log(record.id, 0)
    assert {entry.kind for entry in log} >= {"bot"}
    played = {entry.payload.get("kind") for entry in log if entry.kind == "bot"}
    assert {"produce", "move_units", "battle"} <= played, played


@pytest.mark.anyio
@pytest.mark.parametrize("absence", ["proxy", "minimal"])
@pytest.mark.parametrize("variant", ["classic", "spqr", "piu", "skirmish"])
async def test_every_game_ends_when_nobody_is_there(
    service: GameService,
    clock: Clock,
    variant: str,
    absence: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever the game, the absence policy moves it on, through every phase the game has
    (the least the rules allow, or the odds bot; answers owed get their default), until the
    round limit, and absent players resign in the end: nothing waits forever."""
    monkeypatch.setitem(VARIANTS, SKIRMISH.name, SKIRMISH)  # for this test only
    plans: list[tuple[int, dict[str, Any]]] = [(100, {"round_limit": 3}), (2, {})]
    for resign_after, options in plans:
        control = {
            "turn_seconds": 60,
            "answer_seconds": 10,
            "absence": absence,
            "resign_after": resign_after,
        }
        if variant in ("classic", "piu"):  # answers owed, each given its default
            options = {**options, "defender_dice": "declare"}
        record = await service.create_game(
            variant, options, f"away-{variant}", time_control=control
        )
        tokens = [(await service.join_game(record.id, f"P{i}")).token for i in range(3)]
        await service.start_game(record.id, tokens[0])
        finished = await run_clock(service, clock, record.id, 30)
        assert finished.outcome is not None
        log = await entries(service, record.id)
        assert {kind for kind, _ in log} <= {"create", "join", "start", "proxy", "resign"}
        resigned = sum(kind == "resign" for kind, _ in log)
        if resign_after == 2:
            assert (finished.outcome["reason"], resigned) == ("last_player", 2)
        else:
            assert finished.outcome["reason"] != "last_player"
            assert resigned == 0
            assert sum(kind == "proxy" for kind, _ in log) >= 9  # three rounds, three seats
            if "defender_dice" in options and absence == "proxy":  # the proxy attacks
                played = await service.store.log(record.id)
                answers = [e for e in played if e.kind == "proxy" and e.payload["kind"] == "defend"]
                assert answers, "no defence was owed, so none got its default"


@pytest.mark.anyio
async def test_a_bots_refused_move_never_stalls_its_game(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seated bot whose policy proposes what the rules refuse plays the least the rules
    allow instead, through the same write path: the game moves on."""
    import api.scheduler

    monkeypatch.setattr(api.scheduler, "seated_choice", lambda *_: a.EndTurn())  # not in setup
    record = await bots_alone(service, "stubborn", 2)
    await service.settle()
    log = await service.store.log(record.id)
    bots = [a.action_from_dict(e.payload) for e in log if e.kind == "bot"]
    assert len(bots) >= 10  # the bots played on, each move the least the rules allow
    assert {type(action) for action in bots[:10]} == {a.PlaceArmies}
