"""Property-based tests of FutuRisiKo!: invariants over random legal play.

Hypothesis draws a seed, 3 to 6 players, the options that change play (the board filled at
setup, which unit a hit takes first) and how the player leans (uniform among the families, or
the aggressive bot's play, with random choices mixed in); games end by a short round limit.
Every action is chosen among `legal_actions`; the invariants are checked after every one.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.policies import aggressive_policy
from domain import actions as a
from domain import events as e
from domain.errors import RuleViolation, known_codes
from domain.legal import LegalAction
from domain.replay import LogEntry, replay
from tests.unit.futurisiko_positions import new
from variants.futurisiko import actions as fa
from variants.futurisiko import events as fe
from variants.futurisiko.game import FutuGame
from variants.futurisiko.phases import CARDS, PRODUCTION
from variants.futurisiko.ruleset import AIRCRAFT, CARD_TYPES, FLAG, SUBMARINE, TANK

PROPERTY = settings(max_examples=30, deadline=None)
EXPENSIVE = settings(max_examples=10, deadline=None)  # tests that copy the game per action
KNOWN_CODES = known_codes()  # the shared codes and every imported game's own


@dataclass(frozen=True)
class Scenario:
    seed: bytes
    players: int
    fill_board: bool
    losses: str
    aggressive: float  # the share of actions the aggressive bot chooses
    choices: int
    rounds: int

    def new_game(self) -> FutuGame:
        return new(
            self.players,
            self.seed,
            fill_board=self.fill_board,
            losses=self.losses,
            round_limit=self.rounds,
        )


scenarios = st.builds(
    Scenario,
    seed=st.binary(min_size=1, max_size=8),
    players=st.integers(3, 6),
    fill_board=st.booleans(),
    losses=st.sampled_from(("tanks_first", "aircraft_first")),
    aggressive=st.sampled_from((0.0, 0.7, 1.0)),
    choices=st.integers(0, 2**16),
    rounds=st.integers(2, 7),
)


@dataclass
class Step:
    seat: int | None
    action: a.Action
    legal: list[LegalAction]
    events: list[e.Event]


def play(game: FutuGame, scenario: Scenario, limit: int = 3000) -> Iterator[Step]:
    rnd = random.Random(scenario.choices)
    for _ in range(limit):
        if game.is_over:
            return
        seat = game.seat_to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        if rnd.random() < scenario.aggressive:
            action = next(iter(aggressive_policy(game, seat, rnd)))
        else:
            action = rnd.choice(legal).pick(rnd)
        assert any(family.allows(action) for family in legal), action
        yield Step(seat, action, legal, game.apply(seat, action))
    raise AssertionError("the round limit did not end the game")


def units(game: FutuGame) -> Counter[tuple[int, str]]:
    forces = game.forces
    return Counter(
        {
            (seat, kind): forces.units_of(seat, kind)
            for seat in range(len(game.players))
            for kind in game.UNIT_KINDS
        }
    )


def changes(events: list[e.Event]) -> Counter[tuple[int, str]]:
    """What the events say was built and destroyed, by seat and kind."""
    change: Counter[tuple[int, str]] = Counter()
    for event in events:
        if isinstance(event, fe.UnitsProduced):
            change[event.seat, event.unit] += event.count
        elif isinstance(event, fe.UnitsHit):
            change[event.defender, TANK] -= event.tanks_lost
            change[event.defender, AIRCRAFT] -= event.aircraft_lost
        elif isinstance(event, fe.BattleFought):
            change[event.seat, TANK] -= event.attacker_tanks_lost
            change[event.seat, AIRCRAFT] -= event.attacker_aircraft_lost
            change[event.defender, TANK] -= event.defender_tanks_lost
            change[event.defender, AIRCRAFT] -= event.defender_aircraft_lost
        elif isinstance(event, fe.SubmarineSunk):
            change[event.owner, SUBMARINE] -= 1
        elif isinstance(event, fe.UnitsRemoved):
            change[event.seat, TANK] -= event.tanks
            change[event.seat, AIRCRAFT] -= event.aircraft
            change[event.seat, SUBMARINE] -= event.submarines
    return change


def check_board(game: FutuGame) -> None:
    forces = game.forces
    supply = game.ruleset.supply
    for territory in game.board.territories:
        space = territory.index
        owner = forces.owner[space]
        assert forces.markers[space] == ([FLAG] if owner >= 0 else [])
        if territory.is_sea:
            assert owner == -1
            assert all(
                forces.count(space, s, kind) == 0
                for s in range(len(game.players))
                for kind in (TANK, AIRCRAFT)
            ), "no aircraft or tank at sea"
        else:
            assert all(forces.count(space, s, SUBMARINE) == 0 for s in range(len(game.players)))
        for seat in range(len(game.players)):
            for kind in game.UNIT_KINDS:
                assert 0 <= forces.unmoved(space, seat, kind) <= forces.count(space, seat, kind)
    for seat in range(len(game.players)):
        assert game.territories_held(seat) <= supply[FLAG]
        for kind in game.UNIT_KINDS:
            assert forces.units_of(seat, kind) <= supply[kind]
        if game.eliminated[seat]:
            assert not game.hands[seat]
            assert all(forces.total(s, seat) == 0 for s in range(len(game.board.territories)))
    cards = [*game.draw_pile, *game.discard_pile, *(c for hand in game.hands for c in hand)]
    assert sorted(cards) == sorted(card.id for card in game.ruleset.deck)


def check_between_turns(game: FutuGame) -> None:
    """Outside a seat's operations, a territory holds one seat's units at most, and only the
    seat whose flag stands there, if one does."""
    if game.phase not in (CARDS, PRODUCTION) or game.is_over:
        return
    forces = game.forces
    for land in game.board.lands:
        seats = forces.seats_on(land.index)
        assert len(seats) <= 1, land.id
        owner = forces.owner[land.index]
        assert owner == -1 or seats in ([], [owner]), land.id


def check_turn(game: FutuGame) -> None:
    if game.is_over:
        assert game.seat_to_act is None
        return
    to_act = game.seat_to_act
    assert to_act is not None
    legal = game.legal_actions(to_act)
    assert legal
    for prompt in game.prompts():
        assert legal == [prompt.answers]
        assert prompt.answers.allows(prompt.default)
    assert all(not game.legal_actions(s) for s in range(len(game.players)) if s != to_act)


@PROPERTY
@given(scenarios)
def test_units_change_only_by_production_and_hits_and_the_board_stays_sound(
    scenario: Scenario,
) -> None:
    game = scenario.new_game()
    expected = units(game)
    for step in play(game, scenario):
        expected.update(changes(step.events))
        assert +expected == +units(game), step.action
        check_board(game)
        check_between_turns(game)
        check_turn(game)
    assert game.is_over


def _space(rnd: random.Random, game: FutuGame) -> str:
    return rnd.choice((*(t.id for t in game.board.territories), "atlantide", ""))


def _random_action(rnd: random.Random, game: FutuGame) -> a.Action:
    """An action of this game, its spaces, counts, cards drawn near the legal ones or off."""
    kinds: list[type[a.Action]] = [
        fa.PlaceFlag,
        fa.ReceiveCards,
        fa.Produce,
        fa.PlayCard,
        fa.MoveUnits,
        fa.AmphibiousMove,
        fa.Torpedo,
        fa.Battle,
        fa.BattleCards,
        a.EndTurn,
    ]
    cls = rnd.choice(kinds)
    values: dict[str, object] = {}
    for field in dataclasses.fields(cls):
        if field.name == "unit":
            values[field.name] = rnd.choice((TANK, AIRCRAFT, SUBMARINE, "ship"))
        elif field.name in ("card", "discard"):
            values[field.name] = rnd.choice((*CARD_TYPES, *game.hands[game.current], ""))
        elif field.name == "cards":
            values[field.name] = tuple(rnd.sample(CARD_TYPES, rnd.randint(0, 2)))
        elif field.type == "str":
            values[field.name] = _space(rnd, game)
        else:
            values[field.name] = rnd.randint(-1, 6)
    return cls(**values)


def _mutate(action: a.Action, rnd: random.Random, game: FutuGame) -> a.Action:
    fields = [f for f in dataclasses.fields(action) if f.type in ("str", "int")]
    if not fields:
        return action
    field = rnd.choice(fields)
    value = getattr(action, field.name)
    new = rnd.choice((value - 1, value + 1, 0, 9)) if field.type == "int" else _space(rnd, game)
    return dataclasses.replace(action, **{field.name: new})


@EXPENSIVE
@given(scenarios)
def test_offered_actions_apply_and_the_rest_are_refused_changing_nothing(
    scenario: Scenario,
) -> None:
    """Every family's extremes, ready action and a pick are allowed by it and apply (to a
    copy); actions next to them and random ones apply exactly when a family allows them, and
    a refusal has a known code and leaves the whole state as it was."""
    game = scenario.new_game()
    mutations = random.Random(scenario.choices + 1)
    seats = range(len(game.players))
    for index, step in enumerate(play_checked(game, scenario)):
        if index % 3:
            continue
        seat = game.seat_to_act
        if seat is None:
            return
        for family in game.legal_actions(seat):
            for member in [*family.bounds(), family.ready(), family.pick(mutations)]:
                assert family.allows(member), (family, member)
                game.clone().apply(seat, member)
        before = game.snapshot()
        candidates: list[tuple[int | None, a.Action]] = [
            (mutations.choice([s for s in seats if s != seat]), step.ready),
            (None, step.ready),
        ]
        legal = game.legal_actions(seat)
        candidates += [(seat, _mutate(mutations.choice(legal).pick(mutations), mutations, game))]
        candidates += [(seat, _random_action(mutations, game)) for _ in range(4)]
        for who, candidate in candidates:
            if any(family.allows(candidate) for family in game.legal_actions(who)):
                game.clone().apply(who, candidate)
            else:
                with pytest.raises(RuleViolation) as raised:
                    game.apply(who, candidate)
                assert raised.value.code in KNOWN_CODES, (who, candidate, raised.value)
            assert game.snapshot() == before, (who, candidate)


@dataclass
class Checked:
    ready: a.Action


def play_checked(game: FutuGame, scenario: Scenario) -> Iterator[Checked]:
    """Yields before each action of `play` (the test looks at the state the action meets)."""
    rnd = random.Random(scenario.choices)
    for _ in range(3000):
        if game.is_over:
            return
        seat = game.seat_to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        yield Checked(legal[0].ready())
        if rnd.random() < scenario.aggressive:
            action = next(iter(aggressive_policy(game, seat, rnd)))
        else:
            action = rnd.choice(legal).pick(rnd)
        game.apply(seat, action)


@PROPERTY
@given(scenarios)
def test_the_log_replays_the_same_events_and_a_snapshot_continues_the_same_game(
    scenario: Scenario,
) -> None:
    game = scenario.new_game()
    log: list[LogEntry] = []
    recorded: list[list[dict[str, Any]]] = []
    snapshots: dict[int, dict[str, Any]] = {}
    for step in play(game, scenario):
        log.append(LogEntry(step.seat, step.action))
        recorded.append([event.to_dict() for event in step.events])
        if len(log) % 97 == 1:
            snapshots[len(log)] = game.snapshot()
    fresh = scenario.new_game()
    assert [ev.to_dict() for ev in fresh.initial_events] == [
        ev.to_dict() for ev in game.initial_events
    ]
    assert [[ev.to_dict() for ev in events] for events in replay(fresh, log)] == recorded
    assert fresh.snapshot() == game.snapshot()
    for taken, snapshot in snapshots.items():
        resumed = scenario.new_game()
        resumed.restore(snapshot)
        for entry, events in zip(log[taken:], recorded[taken:], strict=True):
            assert [ev.to_dict() for ev in resumed.apply(entry.seat, entry.action)] == events
        assert resumed.snapshot() == game.snapshot()


@PROPERTY
@given(scenarios)
def test_a_hand_is_told_only_to_its_seat(scenario: Scenario) -> None:
    game = scenario.new_game()
    for step in play(game, scenario):
        for event in step.events:
            if isinstance(event, e.CardsReceived | fe.CardDiscarded):
                assert event.visible_to == event.seat
            else:
                assert event.visible_to is None
                shown = str(event.to_dict())  # played cards have left their hand
                assert not any(card in shown for hand in game.hands for card in hand)
