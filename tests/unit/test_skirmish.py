"""The test game (variants/skirmish): every rule of its README, and whole games that hold the
kernel's promises (prompts, a turn order drawn every round, round phases, two kinds of unit,
modifiers, copies and snapshots, determinism) for a game that is not shaped like RisiKo!."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.policies import aggressive_policy, random_policy
from domain import actions as a
from domain import events as e
from domain.errors import (
    InvalidArmyCount,
    InvalidDice,
    InvalidOptions,
    NotAdjacent,
    NotYourTerritory,
    NotYourTurn,
    OwnTerritory,
    WrongPhase,
)
from domain.legal import is_legal
from domain.replay import LogEntry, VerificationError, verify_game
from domain.views import ARMY
from variants.skirmish import VARIANT as SKIRMISH
from variants.skirmish import actions as sa
from variants.skirmish import events as se
from variants.skirmish.errors import ArtilleryLimit
from variants.skirmish.game import ARTILLERY, SkirmishGame
from variants.skirmish.legal import LegalHoldGround, LegalMarch, LegalRecruit
from variants.skirmish.phases import BATTLE, MUSTER


def new(players: int = 3, seed: bytes = b"skirmish", **options: object) -> SkirmishGame:
    game = SKIRMISH.new_game(
        [f"P{n}" for n in range(players)], SKIRMISH.options(options), seed=seed
    )
    assert isinstance(game, SkirmishGame)
    return game


def space(game: SkirmishGame, space_id: str) -> int:
    return game.board.index[space_id]


def own_spaces(game: SkirmishGame, seat: int) -> list[str]:
    return [game.board.territories[s].id for s in game.forces.held_by(seat)]


def muster_all(game: SkirmishGame) -> None:
    """Every seat spends its muster on armies, on its first space."""
    while game.phase is MUSTER:
        seat = game.current
        game.apply(seat, sa.Recruit(own_spaces(game, seat)[0], ARMY, game.points_left))


def check_invariants(game: SkirmishGame) -> None:
    forces = game.forces
    for s, owner in enumerate(forces.owner):
        assert owner >= 0, "every space is held"
        assert forces.count(s, owner, ARMY) >= 1, "a held space keeps an army"
        assert forces.seats_on(s) == [owner], "only the holder's units are on a space"
        for seat in range(len(game.players)):
            for unit in game.UNIT_KINDS:
                assert 0 <= forces.unmoved(s, seat, unit) <= forces.count(s, seat, unit)
    for seat in range(len(game.players)):
        assert game.eliminated[seat] == (not forces.held_by(seat))
    if not game.is_over:
        assert len(game.prompt_stack) <= 1
        to_act = game.seat_to_act
        assert to_act is not None
        prompts = game.prompts()
        assert [p.seat for p in prompts] == ([to_act] if game.prompt_stack else [])
        legal = game.legal_actions(to_act)
        assert legal
        for prompt in prompts:
            assert legal == [prompt.answers]
            assert prompt.answers.allows(prompt.default)
        others = [s for s in range(len(game.players)) if s != to_act]
        assert all(game.legal_actions(s) == [] for s in others)


def play(game: SkirmishGame, rnd: random.Random, policy: str = "random") -> list[e.Event]:
    events = list(game.initial_events)
    for _ in range(5000):
        if game.is_over:
            return events
        check_invariants(game)
        seat = game.seat_to_act
        assert seat is not None
        chooser = random_policy if policy == "random" else aggressive_policy
        action = next(iter(chooser(game, seat, rnd)))
        assert is_legal(game.legal_actions(seat), action)
        events += game.apply(seat, action)
    raise AssertionError("no end")


# ---------------------------------------------------------------------- whole games


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.binary(min_size=1, max_size=6), st.integers(0, 2**16))
def test_whole_games_keep_every_invariant(players: int, seed: bytes, choices: int) -> None:
    game = new(players, seed)
    events = play(game, random.Random(choices))
    assert game.is_over
    assert game.seat_to_act is None
    assert game.prompts() == []
    assert isinstance(events[-1], e.GameEnded)
    assert sorted(seat for _, seat, _ in game.ranking) == list(range(players))


def test_the_same_seed_and_actions_give_the_same_game() -> None:
    first = [event.to_dict() for event in play(new(seed=b"same"), random.Random(3))]
    second = [event.to_dict() for event in play(new(seed=b"same"), random.Random(3))]
    assert first == second


def test_a_snapshot_or_a_clone_continues_the_same_game() -> None:
    game, rnd = new(seed=b"snap"), random.Random(5)
    for _ in range(60):
        seat = game.seat_to_act
        assert seat is not None
        game.apply(seat, random_policy(game, seat, rnd)[0])
    twin = new(seed=b"snap")
    twin.restore(json.loads(json.dumps(game.snapshot())))
    clone = game.clone()
    assert isinstance(clone, SkirmishGame)
    for _ in range(60):
        if game.is_over:
            break
        seat = game.seat_to_act
        assert seat is not None
        action = random_policy(game, seat, rnd)[0]
        expected = [event.to_dict() for event in game.apply(seat, action)]
        assert [event.to_dict() for event in twin.apply(seat, action)] == expected
        assert [event.to_dict() for event in clone.apply(seat, action)] == expected
    assert twin.snapshot() == game.snapshot() == clone.snapshot()


def test_the_example_bot_plays_it_with_no_policy_of_its_own() -> None:
    game = new(4, b"bot")
    play(game, random.Random(1), policy="aggressive")
    assert game.is_over


# ---------------------------------------------------------------------- the rules


def test_the_deal_shares_every_space_with_two_armies() -> None:
    game = new(3)
    dealt = [event for event in game.initial_events if isinstance(event, se.SpacesDealt)]
    assert dealt == [se.SpacesDealt(tuple(game.forces.owner), 2)]
    assert sorted(len(game.forces.held_by(seat)) for seat in range(3)) == [2, 2, 3]
    assert all(game.forces.count(s, o, ARMY) == 2 for s, o in enumerate(game.forces.owner))


def test_every_seat_musters_in_the_rounds_order_before_any_battle() -> None:
    game = new(3)
    drawn = [event for event in game.initial_events if isinstance(event, se.TurnOrderDrawn)]
    assert drawn == [se.TurnOrderDrawn(1, tuple(game.order))]
    mustered = []
    while game.phase is MUSTER:
        mustered.append(game.current)
        seat = game.current
        game.apply(seat, sa.Recruit(own_spaces(game, seat)[0], ARMY, game.points_left))
    assert mustered == game.order
    assert game.phase is BATTLE
    assert game.current == game.order[0]


def test_the_order_is_drawn_again_every_round() -> None:
    firsts = set()
    for seed in range(12):
        game = new(3, f"order-{seed}".encode())
        events = play(game, random.Random(seed))
        orders = [event for event in events if isinstance(event, se.TurnOrderDrawn)]
        assert [o.round for o in orders] == list(range(1, len(orders) + 1))
        firsts |= {o.order[0] for o in orders[1:]}
    assert firsts == {0, 1, 2}


def test_recruit_points_pay_for_armies_and_artillery() -> None:
    game = new(3)
    seat = game.current
    assert game.points_left == game.armies_to_place() == 2 + len(own_spaces(game, seat))
    home = own_spaces(game, seat)[0]
    with pytest.raises(InvalidArmyCount):
        game.apply(seat, sa.Recruit(home, ARTILLERY, game.points_left // 2 + 1))
    other = next(t.id for t in game.board.territories if t.id not in own_spaces(game, seat))
    with pytest.raises(NotYourTerritory):
        game.apply(seat, sa.Recruit(other, ARMY, 1))
    with pytest.raises(WrongPhase):
        game.apply(seat, a.EndTurn())
    points = game.points_left
    game.apply(seat, sa.Recruit(home, ARTILLERY, 1))
    assert game.points_left == points - 2
    assert game.forces.count(space(game, home), seat, ARTILLERY) == 1
    events = game.apply(seat, sa.Recruit(home, ARMY, game.points_left))
    assert e.TurnEnded(seat) in events  # the muster ends when its points are spent
    assert game.current != seat


def battle_ready(seed: bytes = b"skirmish") -> tuple[SkirmishGame, int, str, str]:
    """A game in its first battle turn, and an assault its seat may make."""
    game = new(3, seed)
    muster_all(game)
    seat = game.current
    for source in game.forces.held_by(seat):
        for target in game.board.land_neighbours[source]:
            if game.forces.owner[target] != seat and game.forces.count(source, seat, ARMY) > 1:
                ids = game.board.territories
                return game, seat, ids[source].id, ids[target].id
    raise AssertionError("no assault in this seed")


def test_an_assault_waits_for_the_defenders_answer() -> None:
    game, seat, source, target = battle_ready()
    defender = game.forces.owner[space(game, target)]
    events = game.apply(seat, sa.Assault(source, target, 1))
    assert events == [se.AssaultDeclared(seat, source, target, 1, defender)]
    assert game.seat_to_act == defender
    assert game.current == seat
    (prompt,) = game.prompts()
    assert isinstance(prompt.answers, LegalHoldGround)
    assert prompt.default == sa.HoldGround(prompt.answers.max_dice)
    with pytest.raises(WrongPhase, match="waits for an answer"):
        game.apply(seat, a.EndTurn())
    bystander = next(s for s in range(3) if s not in (seat, defender))
    with pytest.raises(NotYourTurn):
        game.apply(bystander, sa.HoldGround(1))
    with pytest.raises(InvalidDice):
        game.apply(defender, sa.HoldGround(3))
    rolled = game.apply(defender, sa.HoldGround(1))
    assert isinstance(rolled[0], se.AssaultRolled)
    assert len(rolled[0].defender_dice) == 1
    assert game.prompt_stack == []
    assert game.seat_to_act == seat


def test_a_defender_who_resigns_answers_with_the_default() -> None:
    game, seat, source, target = battle_ready()
    defender = game.forces.owner[space(game, target)]
    most = min(2, game.forces.count(space(game, target), defender, ARMY))  # the default
    game.apply(seat, sa.Assault(source, target, 1))
    events = game.apply(defender, a.Resign())
    (rolled,) = [event for event in events if isinstance(event, se.AssaultRolled)]
    assert len(rolled.defender_dice) == most
    assert game.seat_to_act == seat


def test_an_assault_on_a_resigned_player_is_answered_at_once() -> None:
    game, seat, source, target = battle_ready()
    defender = game.forces.owner[space(game, target)]
    game.resigned[defender] = True
    events = game.apply(seat, sa.Assault(source, target, 1))
    assert isinstance(events[1], se.AssaultRolled)
    assert game.prompt_stack == []


def test_assaults_are_refused_where_the_rules_say() -> None:
    game, seat, source, target = battle_ready()
    with pytest.raises(OwnTerritory):
        game.apply(seat, sa.Assault(source, source, 1))
    armies = game.forces.count(space(game, source), seat, ARMY)
    with pytest.raises(InvalidArmyCount):
        game.apply(seat, sa.Assault(source, target, min(4, armies)))
    # North and South do not touch.
    north, south = space(game, "north"), space(game, "south")
    for held, holder in ((north, seat), (south, (seat + 1) % 3)):
        for other in range(3):
            game.forces.clear(held, other)
        game.forces.owner[held] = holder
        game.forces.add(held, holder, ARMY, 4)
    with pytest.raises(NotAdjacent):
        game.apply(seat, sa.Assault("north", "south", 1))


def test_artillery_adds_one_to_its_sides_highest_die() -> None:
    game, seat, source, target = battle_ready()
    defender = game.forces.owner[space(game, target)]
    game.forces.add(space(game, source), seat, ARTILLERY, 1)
    game.forces.add(space(game, target), defender, ARTILLERY, 1)
    game.apply(seat, sa.Assault(source, target, 1))
    (rolled,) = game.apply(defender, sa.HoldGround(1))[:1]
    assert isinstance(rolled, se.AssaultRolled)
    assert rolled.modifiers == ("attacker+1:artillery", "defender+1:artillery")
    attack, defence = rolled.attacker_dice[0] + 1, rolled.defender_dice[0] + 1
    expected = (0, 1) if attack > defence else (1, 0)
    assert (rolled.attacker_losses, rolled.defender_losses) == expected


def test_a_taken_space_loses_its_artillery_and_gets_the_survivors() -> None:
    for seed in range(40):
        game, seat, source, target = battle_ready(f"take-{seed}".encode())
        s, t = space(game, source), space(game, target)
        defender = game.forces.owner[t]
        game.forces.add(s, seat, ARMY, 10)
        game.forces.add(t, defender, ARTILLERY, 1)
        while game.forces.owner[t] == defender:
            game.apply(seat, sa.Assault(source, target, 3))
            events = game.apply(defender, sa.HoldGround(1))
        taken = [event for event in events if isinstance(event, se.SpaceTaken)]
        assert taken
        assert taken[0].artillery_destroyed == 1
        assert game.forces.count(t, seat, ARMY) == taken[0].armies_moved >= 1
        assert game.forces.count(t, defender, ARTILLERY) == 0
        assert game.forces.unmoved(t, seat, ARMY) == 0  # they have moved this turn
        return
    raise AssertionError("no conquest found")


def test_each_unit_marches_once_a_turn_and_a_space_keeps_an_army() -> None:
    game = new(2, b"march")
    muster_all(game)
    seat = game.current
    forces = game.forces
    pair = next(
        (s, t)
        for s in forces.held_by(seat)
        for t in game.board.land_neighbours[s]
        if forces.owner[t] == seat
    )
    ids = game.board.territories
    source, target = ids[pair[0]].id, ids[pair[1]].id
    armies = forces.count(pair[0], seat, ARMY)
    with pytest.raises(InvalidArmyCount):
        game.apply(seat, sa.March(source, target, ARMY, armies))
    game.apply(seat, sa.March(source, target, ARMY, armies - 1))
    with pytest.raises(InvalidArmyCount):
        game.apply(seat, sa.March(target, source, ARMY, armies - 1))  # they have moved


def test_only_its_own_options_are_accepted() -> None:
    with pytest.raises(InvalidOptions):
        SKIRMISH.options({"objectives": "tournament"})
    assert new(2, round_limit=1).options.round_limit == 1
    game = new(2, b"limit", round_limit=1)
    events = play(game, random.Random(0))
    assert isinstance(events[-1], e.GameEnded)
    assert game.round == 1
    assert events[-1].reason in {"round_limit", "last_player"}


def test_a_finished_game_verifies_against_its_seed() -> None:
    game, rnd = new(3, b"verified"), random.Random(9)
    log: list[LogEntry] = []
    recorded = [[event.to_dict() for event in game.initial_events]]
    while not game.is_over:
        seat = game.seat_to_act
        assert seat is not None
        action = random_policy(game, seat, rnd)[0]
        log.append(LogEntry(seat, action))
        recorded.append([event.to_dict() for event in game.apply(seat, action)])
    verify_game(new(3, b"verified"), game.commitment, log, recorded)
    recorded[-1][0]["seat"] = 99
    with pytest.raises(VerificationError):
        verify_game(new(3, b"verified"), game.commitment, log, recorded)


# ---------------------------------------------------------------------- its own option, code, event


def test_the_artillery_limit_caps_a_space_and_what_is_offered() -> None:
    game = new(2, b"limited", artillery_limit=1)
    seat = game.current
    first, second = own_spaces(game, seat)[:2]
    game.apply(seat, sa.Recruit(first, ARTILLERY, 1))
    with pytest.raises(ArtilleryLimit):
        game.apply(seat, sa.Recruit(first, ARTILLERY, 1))
    offered = [f for f in game.legal_actions(seat) if isinstance(f, LegalRecruit)]
    artillery = [f for f in offered if f.unit == ARTILLERY]
    assert artillery
    assert all(first not in f.spaces and f.max_count == 1 for f in artillery)
    assert any(second in f.spaces for f in artillery)
    with pytest.raises(ArtilleryLimit):  # two where one more fits
        game.apply(seat, sa.Recruit(second, ARTILLERY, 2))


def test_artillery_marches_only_where_the_limit_leaves_room() -> None:
    game = new(2, b"march", artillery_limit=1)
    seat = game.current
    forces = game.forces
    source, target = next(
        (s, t)
        for s in forces.held_by(seat)
        for t in game.board.land_neighbours[s]
        if forces.owner[t] == seat
    )
    ids = game.board.territories
    game.apply(seat, sa.Recruit(ids[source].id, ARTILLERY, 1))
    game.apply(seat, sa.Recruit(ids[target].id, ARTILLERY, 1))
    muster_all(game)
    while game.current != seat:  # the other seat's battle phase
        game.apply(game.current, a.EndTurn())
    marches = [f for f in game.legal_actions(seat) if isinstance(f, LegalMarch)]
    assert not [f for f in marches if f.unit == ARTILLERY and f.target == ids[target].id]
    with pytest.raises(ArtilleryLimit):
        game.apply(seat, sa.March(ids[source].id, ids[target].id, ARTILLERY, 1))


def test_without_a_limit_artillery_stacks() -> None:
    game = new(2, b"limited")
    seat = game.current
    first = own_spaces(game, seat)[0]
    game.apply(seat, sa.Recruit(first, ARTILLERY, 1))
    game.apply(seat, sa.Recruit(first, ARTILLERY, 1))
    assert game.forces.count(space(game, first), seat, ARTILLERY) == 2


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 4), st.binary(min_size=1, max_size=6), st.integers(0, 2**16))
def test_limited_games_offer_exactly_what_is_accepted(
    players: int, seed: bytes, choices: int
) -> None:
    game = new(players, seed, artillery_limit=1)
    events = play(game, random.Random(choices))  # every offered action applies
    assert isinstance(events[-1], e.GameEnded)
    forces = game.forces
    for s in range(len(game.board.territories)):
        for seat in range(players):
            assert forces.count(s, seat, ARTILLERY) <= 1


def test_every_round_ends_with_the_spaces_each_seat_holds() -> None:
    game = new(3, b"rounds", round_limit=3)
    events = play(game, random.Random(5))
    ended = [event for event in events if isinstance(event, se.RoundEnded)]
    assert [event.round for event in ended] == list(range(1, game.round + 1))
    last = ended[-1]
    assert list(last.spaces) == [len(game.forces.held_by(s)) for s in range(3)]
    assert sum(last.spaces) == len(game.board.territories)
    at = events.index(last)
    assert isinstance(events[at + 1], e.GameEnded | se.TurnOrderDrawn)
