"""Property-based tests of S.P.Q.RisiKo!: invariants over random legal play.

Hypothesis draws a seed, 3 to 5 players, how the game ends (a small victory-point target, a
round limit or a time limit), a number of steps and how the random player leans: uniform play
seldom goes to sea, so a scenario may prefer the families of the sea and of the cards
(`naval`) or attacks it outnumbers (`aggression`). It may also have a player resign, or the
clock expire, at some step. Every action is chosen among `legal_actions` and `pick`ed from its
family; the invariants are checked after every one.
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
from domain import errors
from domain import events as e
from domain.combat import compare_dice
from domain.errors import RuleViolation
from domain.flow import Phase
from domain.legal import LegalAction, LegalAttack, LegalAttackUntil, LegalTrade
from domain.replay import LogEntry, replay
from domain.views import NEUTRAL_COLOURS, SCORES, declared
from tests.spqr_support import BOARD, PROVINCES, RULESET, SEAS, SPQR
from tests.support import assert_offered_actions_apply, state
from variants.spqr import actions as sa
from variants.spqr import events as se
from variants.spqr.game import SpqrGame, SpqrState
from variants.spqr.legal import (
    LegalBuildTrireme,
    LegalDisbandTrireme,
    LegalMoveFleet,
    LegalNavalBattle,
    LegalPlacePowerCentre,
    LegalPlaceTrireme,
    LegalSeaAttack,
)
from variants.spqr.options import SpqrOptions
from variants.spqr.phases import SpqrPhase

PROPERTY = settings(max_examples=50, deadline=None)
EXPENSIVE = settings(max_examples=15, deadline=None)  # tests that copy the game per action

PROVINCE_INDICES = tuple(BOARD.index[p] for p in PROVINCES)
SEA_INDICES = tuple(BOARD.index[s] for s in SEAS)
LAND = BOARD.land_neighbours
ALL_CARDS: Counter[str] = Counter(list(RULESET.cards.cards))
STEPS = (
    Phase.REINFORCE,
    SpqrPhase.NAVAL_REINFORCE,
    SpqrPhase.NAVAL_MOVE,
    SpqrPhase.NAVAL_COMBAT,
    SpqrPhase.SEA_ATTACK,
    Phase.ATTACK,
)
SEA_AND_CARDS = (
    LegalBuildTrireme,
    LegalDisbandTrireme,
    LegalMoveFleet,
    LegalNavalBattle,
    LegalSeaAttack,
    LegalPlaceTrireme,
    LegalPlacePowerCentre,
    LegalTrade,
)
KNOWN_CODES = errors.known_codes()  # the shared codes and every imported game's own


@dataclass(frozen=True)
class Scenario:
    seed: bytes
    players: int
    steps: int
    choices: int  # seeds the random.Random that chooses the actions
    limit: str  # "target", "rounds" or "time"
    target: int  # the victory points, or the rounds
    naval: float
    aggression: float
    resign_at: int | None  # a step at which a random active seat leaves
    expire_at: int | None  # a step at which the clock expires (time limit only)
    protected_rounds: int = 4
    # Actions played first by the aggressive bot (when the rules allow its choice): random
    # play alone seldom eliminates anyone.
    warmup: int = 0

    def options(self) -> SpqrOptions:
        protected = self.protected_rounds
        if self.limit == "target":
            return SpqrOptions(victory_points=self.target, protected_rounds=protected)
        if self.limit == "rounds":
            return SpqrOptions(
                victory_points=None, round_limit=self.target, protected_rounds=protected
            )
        return SpqrOptions(victory_points=None, time_limit_minutes=60, protected_rounds=protected)

    def new_game(self) -> SpqrGame:
        names = [f"P{i}" for i in range(self.players)]
        game = SPQR.new_game(names, self.options(), seed=self.seed)
        assert isinstance(game, SpqrGame)
        return game


scenarios = st.builds(
    Scenario,
    seed=st.binary(min_size=1, max_size=12),
    players=st.integers(min_value=3, max_value=5),
    steps=st.integers(min_value=1, max_value=350),
    choices=st.integers(min_value=0, max_value=2**32 - 1),
    limit=st.sampled_from(("target", "rounds", "time")),
    target=st.integers(min_value=2, max_value=10),
    naval=st.sampled_from((0.0, 0.5, 0.9)),
    aggression=st.sampled_from((0.0, 0.7, 0.95)),
    resign_at=st.one_of(st.none(), st.integers(min_value=0, max_value=350)),
    expire_at=st.one_of(st.none(), st.integers(min_value=40, max_value=350)),
    protected_rounds=st.sampled_from((4, 0)),
    warmup=st.sampled_from((0, 0, 300, 600)),
)


@dataclass(frozen=True)
class Step:
    seat: int | None
    action: a.Action
    events: list[e.Event]


# --------------------------------------------------------------------------- random play


def choose(
    game: SpqrGame, rnd: random.Random, scenario: Scenario
) -> tuple[int, a.Action, list[LegalAction]]:
    seat = game.seat_to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    assert legal, f"seat {seat} has nothing to do in the {game.phase.value} phase"
    family = rnd.choice(legal)
    if scenario.naval and rnd.random() < scenario.naval:
        preferred = [f for f in legal if isinstance(f, SEA_AND_CARDS)]
        if preferred:
            family = rnd.choice(preferred)
    elif scenario.aggression and rnd.random() < scenario.aggression:
        armies, index = game.armies, BOARD.index
        strong = [
            f
            for f in legal
            if isinstance(f, LegalAttack | LegalAttackUntil)
            and armies[index[f.source]] > armies[index[f.target]]
        ]
        if strong:
            family = rnd.choice(strong)
    return seat, family.pick(rnd), legal


def moves(
    game: SpqrGame, scenario: Scenario
) -> Iterator[tuple[int | None, a.Action, list[LegalAction]]]:
    """The scenario's actions, each chosen in the state the previous one left (the caller
    applies each before asking for the next); the legal families are [] for the resignation
    and the clock, which are never offered."""
    rnd = random.Random(scenario.choices)
    for index in range(scenario.warmup + scenario.steps):
        if game.is_over:
            return
        if index == scenario.expire_at and scenario.limit == "time":
            yield None, a.ExpireTime(), []
            continue
        if index == scenario.resign_at:
            yield rnd.choice(game.active_seats()), a.Resign(), []
            continue
        seat, action, legal = choose(game, rnd, scenario)
        if index < scenario.warmup:
            bot = next(iter(aggressive_policy(game, seat, rnd)))
            if any(family.allows(bot) for family in legal):
                action = bot
        yield seat, action, legal


def play(game: SpqrGame, scenario: Scenario) -> Iterator[Step]:
    for seat, action, legal in moves(game, scenario):
        if legal:
            assert any(family.allows(action) for family in legal), action
        yield Step(seat, action, game.apply(seat, action))


# --------------------------------------------------------------------------- independent views


def empire(game: SpqrGame, seat: int) -> int:
    best = 0
    seen: set[int] = set()
    for start in PROVINCE_INDICES:
        if game.owner[start] != seat or start in seen:
            continue
        component = {start}
        frontier = [start]
        while frontier:
            for neighbour in LAND[frontier.pop()]:
                if game.owner[neighbour] == seat and neighbour not in component:
                    component.add(neighbour)
                    frontier.append(neighbour)
        seen |= component
        best = max(best, len(component))
    return best


def seas_held(game: SpqrGame, seat: int) -> int:
    return sum(
        1
        for sea in SEA_INDICES
        if all(
            game.triremes[sea][seat] > count
            for other, count in enumerate(game.triremes[sea])
            if other != seat
        )
        and game.triremes[sea][seat] > 0
    )


def expected_score(game: SpqrGame, seat: int) -> tuple[int, int, int, int]:
    """The rules' four sources of victory points, computed here from the board alone."""
    others = [s for s in range(len(game.players)) if s != seat]
    mine = empire(game, seat)
    largest = int(mine >= 4 and all(mine > empire(game, s) for s in others))
    count = Counter(game.owner)
    most = int(all(count[seat] > count[s] for s in others))
    fleets = int(all(seas_held(game, seat) > seas_held(game, s) for s in others))
    centres = sum(1 for p in PROVINCE_INDICES if game.power_centre[p] and game.owner[p] == seat)
    return largest, most, fleets, centres


def reinforcements(provinces: int) -> int:
    return 1 if provinces < 3 else 3 if provinces <= 11 else provinces // 3


# --------------------------------------------------------------------------- invariants


@PROPERTY
@given(scenarios)
def test_legionaries_and_triremes_are_conserved(scenario: Scenario) -> None:
    """The board changes only by what the events say: legionaries claimed, placed, built into
    triremes, disbanded from them, lost to the dice; triremes placed, disbanded, sunk."""
    game = scenario.new_game()
    legionaries = sum(ev.armies for ev in game.initial_events if isinstance(ev, se.NeutralPlaced))
    assert sum(game.armies) == legionaries == (3 if scenario.players == 4 else 0)
    triremes = 0
    for step in play(game, scenario):
        for event in step.events:
            if isinstance(event, se.ProvinceClaimed | se.NeutralPlaced | e.ArmiesPlaced):
                legionaries += event.armies
            elif isinstance(event, se.TriremesPlaced):
                legionaries -= event.legionaries
                triremes += event.triremes
                assert event.legionaries == (0 if event.province is None else 3 * event.triremes)
            elif isinstance(event, se.TriremeDisbanded):
                legionaries += event.legionaries
                triremes -= 1
                assert event.legionaries == 2
            elif isinstance(event, e.DiceRolled):
                legionaries -= event.attacker_losses + event.defender_losses
            elif isinstance(event, se.NavalDiceRolled):
                triremes -= event.attacker_losses + event.defender_losses
            elif isinstance(event, se.TriremesSunk):
                triremes -= event.triremes
        assert sum(game.armies) == legionaries
        assert sum(sum(fleet) for fleet in game.triremes) == triremes
        assert min(game.armies) >= 0
        assert min(min(fleet) for fleet in game.triremes) >= 0
        for sea in SEA_INDICES:
            assert (game.owner[sea], game.armies[sea]) == (-1, 0)
        for province in PROVINCE_INDICES:
            assert not any(game.triremes[province])
        for seat, eliminated in enumerate(game.eliminated):
            if eliminated:
                assert all(fleet[seat] == 0 for fleet in game.triremes)


def _check_sea_attack(game: SpqrGame, events: list[e.Event]) -> None:
    """A sea attack: the declared force fights to the end, up to 3 dice each, the defender
    with as many as it can, ties to the defender; the survivors of a conquest move in."""
    launched = next(ev for ev in events if isinstance(ev, se.SeaAttackLaunched))
    rolls = [ev for ev in events if isinstance(ev, e.DiceRolled)]
    target = BOARD.index[launched.target]
    sea = BOARD.index[launched.sea]
    assert sea in BOARD.coasts[BOARD.index[launched.source]]
    assert sea in BOARD.coasts[target]
    fleet = game.triremes[sea]
    if launched.defender >= 0 and not game.eliminated[launched.defender]:
        assert fleet[launched.seat] > fleet[launched.defender]
    assert fleet[launched.seat] >= 1
    conquered = any(isinstance(ev, e.TerritoryConquered) for ev in events)
    defenders = sum(r.defender_losses for r in rolls) + (0 if conquered else game.armies[target])
    force = launched.legionaries
    for roll in rolls:
        assert len(roll.attacker_dice) == min(3, force)
        assert len(roll.defender_dice) == min(3, defenders)
        losses = compare_dice(roll.attacker_dice, roll.defender_dice)
        assert (roll.attacker_losses, roll.defender_losses) == losses
        force -= roll.attacker_losses
        defenders -= roll.defender_losses
    assert force == 0 or defenders == 0
    assert conquered == (defenders == 0)
    if conquered:
        assert game.owner[target] == launched.seat
        assert game.armies[target] == force


def _check_land_rolls(game: SpqrGame, events: list[e.Event]) -> None:
    """Land attacks: the armies before the action, rebuilt from the events, roll by roll."""
    armies = {t.id: game.armies[t.index] for t in BOARD.territories}
    for event in events:
        if isinstance(event, e.DiceRolled):
            armies[event.source] += event.attacker_losses
            armies[event.target] += event.defender_losses
        elif isinstance(event, e.ArmiesMoved):
            armies[event.source] += event.armies
            armies[event.target] -= event.armies
    for event in events:
        if isinstance(event, e.DiceRolled):
            assert 1 <= len(event.attacker_dice) <= min(3, armies[event.source] - 1)
            assert len(event.defender_dice) == min(3, armies[event.target])
            losses = compare_dice(event.attacker_dice, event.defender_dice)
            assert (event.attacker_losses, event.defender_losses) == losses
            assert BOARD.index[event.target] in LAND[BOARD.index[event.source]]
            armies[event.source] -= event.attacker_losses
            armies[event.target] -= event.defender_losses


@PROPERTY
@given(scenarios)
def test_dice_follow_the_rules(scenario: Scenario) -> None:
    """Up to 3 dice each, the defender always with the most it can; on land and in sea
    attacks ties go to the defender, in naval combat they cost nobody anything, and a naval
    combat is over after a roll that sinks nothing or when a fleet is gone."""
    game = scenario.new_game()
    for step in play(game, scenario):
        events = step.events
        if any(isinstance(ev, se.SeaAttackLaunched) for ev in events):
            _check_sea_attack(game, events)
        elif any(isinstance(ev, e.DiceRolled) for ev in events):
            _check_land_rolls(game, events)
        for event in events:
            for dice in (getattr(event, "attacker_dice", ()), getattr(event, "defender_dice", ())):
                assert all(1 <= die <= 6 for die in dice)
                assert list(dice) == sorted(dice, reverse=True)
            if not isinstance(event, se.NavalDiceRolled):
                continue
            fleet = game.triremes[BOARD.index[event.sea]]
            mine = fleet[event.seat] + event.attacker_losses
            theirs = fleet[event.opponent] + event.defender_losses
            assert 1 <= len(event.attacker_dice) <= min(3, mine)
            assert len(event.defender_dice) == min(3, theirs)
            losses = compare_dice(
                event.attacker_dice, event.defender_dice, defender_wins_ties=False
            )
            assert (event.attacker_losses, event.defender_losses) == losses
            gone = fleet[event.seat] == 0 or fleet[event.opponent] == 0
            assert event.over == (sum(losses) == 0 or gone)
            ongoing = [BOARD.index[event.sea], event.opponent]
            assert (game.naval_battle == ongoing) == (not event.over)


@PROPERTY
@given(scenarios)
def test_every_province_is_held_and_garrisoned_after_the_occupation(scenario: Scenario) -> None:
    game = scenario.new_game()
    players = len(game.players)
    occupied = False
    for step in play(game, scenario):
        counts = Counter(game.owner)
        assert game.territory_count == [counts[seat] for seat in range(players)]
        if game.phase is Phase.SETUP:
            for seat in range(players):
                assert game.territory_count[seat] + game.setup_remaining[seat] == 9
            for province in PROVINCE_INDICES:
                owner = game.owner[province]
                expected = 0 if owner == -1 else 2 if owner >= 0 else 3
                assert game.armies[province] == expected
            continue
        if not occupied:  # the first position after the occupation
            occupied = True
            if not any(isinstance(ev, e.PlayerEliminated) for ev in step.events):
                assert game.territory_count == [9] * players
            assert game.round == 1
            assert len(game.deck) == 55
            assert all(game.armies[p] in (2, 3) for p in PROVINCE_INDICES)
        in_transit = None
        if game.phase is Phase.OCCUPY:
            assert game.pending_conquest is not None
            in_transit = game.pending_conquest[1]
        for province in PROVINCE_INDICES:
            owner = game.owner[province]
            assert owner != -1
            assert owner < players
            assert -2 - game.neutral_count < owner
            if province == in_transit:
                assert game.armies[province] == 0
            else:
                assert game.armies[province] >= 1, BOARD.territories[province].id
        assert game.eliminated == [count == 0 for count in game.territory_count]


@PROPERTY
@given(scenarios)
def test_the_generic_view_shows_every_unit_and_marker(scenario: Scenario) -> None:
    """space_views (what the API's units and markers show) holds every legionary, neutral and
    trireme, the power centres and the sea controllers; pieces_to_place what a set won."""
    game = scenario.new_game()
    for _ in play(game, scenario):
        views = game.space_views()
        assert [view.id for view in views] == [t.id for t in BOARD.territories]
        for space, view in zip(BOARD.territories, views, strict=True):
            index = space.index
            assert all(stack.count > 0 for stack in view.units)
            assert view.count("army") == game.armies[index]
            owner = game.owner[index]
            if space.is_sea:
                assert view.owner is None
                for seat in range(scenario.players):
                    assert view.count("trireme", seat) == game.triremes[index][seat]
                fleet = game.triremes[index]
                strongest = max(fleet)
                sole = strongest > 0 and fleet.count(strongest) == 1
                assert view.controlled_by == (fleet.index(strongest) if sole else None)
                continue
            assert view.owner == (owner if owner >= 0 else None)
            assert view.count("trireme") == 0
            neutrals = [stack.neutral for stack in view.units if stack.neutral]
            assert neutrals == ([game.neutral_colours[-2 - owner]] if owner <= -2 else [])
            assert view.markers == (("power_centre",) if game.power_centre[index] else ())
        owed = {"trireme": game.pending_triremes, "power_centre": game.pending_power_centres}
        assert game.pieces_to_place() == {kind: n for kind, n in owed.items() if n}
        own = game.state_view()
        assert isinstance(own, SpqrState)
        assert own.victory_points == tuple(game.victory_points)
        assert declared(game, SCORES) == tuple(game.victory_points)
        assert declared(game, NEUTRAL_COLOURS) == game.neutral_colours


@given(scenarios)
def test_power_centres_stand_apart(scenario: Scenario) -> None:
    game = scenario.new_game()
    placed = 0
    for step in play(game, scenario):
        placed += sum(1 for ev in step.events if isinstance(ev, se.PowerCentrePlaced))
        centres = [p for p, centre in enumerate(game.power_centre) if centre]
        assert set(game.power_centre) <= {0, 1}
        assert len(centres) == placed <= 12
        for province in centres:
            assert province in PROVINCE_INDICES
            assert not any(game.power_centre[n] for n in LAND[province])


@PROPERTY
@given(scenarios)
def test_turns_follow_the_rules(scenario: Scenario) -> None:
    """Victory points only at the start of the own turn and as the rules count them;
    reinforcements by provinces; the steps of a turn in order; a card after a turn with a
    conquest; the end at the target or at the limit."""
    game = scenario.new_game()
    players = len(game.players)
    last_step = 0
    conquered = False
    points = [0] * players
    for step in play(game, scenario):
        events = step.events
        for position, event in enumerate(events):
            if isinstance(event, e.TerritoryConquered):
                conquered = True
            elif isinstance(event, e.TurnEnded):
                drawn = [ev for ev in events[:position] if isinstance(ev, e.CardDrawn)]
                if not (game.resigned[event.seat] and step.seat == event.seat):
                    assert len(drawn) == (1 if conquered else 0)
            elif isinstance(event, e.TurnStarted):
                conquered = False
                last_step = 0
                count = game.owner.count(event.seat)
                assert event.reinforcements == reinforcements(count)
                scored = events[position + 1]
                assert isinstance(scored, se.VictoryPointsScored)
                assert scored.seat == event.seat
                parts = (scored.empire, scored.provinces, scored.seas, scored.power_centres)
                assert parts == expected_score(game, event.seat)
                points[event.seat] += sum(parts)
                assert scored.total == points[event.seat]
            elif isinstance(event, e.GameEnded):
                assert game.is_over
                if event.reason == "victory_points":
                    assert scenario.limit == "target"
                    assert event.winner == game.current
                    assert points[game.current] >= scenario.target
                elif event.reason in ("round_limit", "time_limit"):
                    assert event.winner is None
                    # By victory points; players who resigned come last.
                    ranked = [(game.resigned[seat], -score) for _, seat, score in event.ranking]
                    assert ranked == sorted(ranked)
                    assert all(score == points[seat] for _, seat, score in event.ranking)
        assert game.victory_points == points
        target = game.options.victory_points
        if target is not None and not game.is_over:
            assert max(points) < target
        if game.phase in STEPS:
            assert STEPS.index(game.phase) >= last_step
            last_step = STEPS.index(game.phase)
        if any(isinstance(ev, e.TurnStarted) for ev in events) and not game.is_over:
            assert game.phase is Phase.REINFORCE
            assert (game.pending_triremes, game.pending_power_centres) == (0, 0)
            assert not game.fleet_moved
            assert not game.trireme_disbanded
            assert game.naval_seas == game.sea_attacked == game.conquered_by_sea == []
        if game.phase is not Phase.SETUP:
            cards = Counter(game.deck) + Counter(game.discard)
            for hand in game.hands:
                cards += Counter(hand)
            assert cards == ALL_CARDS


@PROPERTY
@given(scenarios)
def test_the_log_replays_to_the_same_state(scenario: Scenario) -> None:
    game = scenario.new_game()
    log: list[LogEntry] = []
    recorded: list[list[dict[str, Any]]] = []
    middle: dict[str, Any] | None = None
    half = (scenario.warmup + scenario.steps) // 2
    for step in play(game, scenario):
        log.append(LogEntry(step.seat, step.action))
        recorded.append([event.to_dict() for event in step.events])
        if len(log) == half:
            middle = game.snapshot()

    fresh = scenario.new_game()
    assert [ev.to_dict() for ev in fresh.initial_events] == [
        ev.to_dict() for ev in game.initial_events
    ]
    replayed = replay(fresh, log)
    assert [[ev.to_dict() for ev in events] for events in replayed] == recorded
    assert fresh.snapshot() == game.snapshot()
    assert state(fresh) == state(game)

    if middle is not None:  # a snapshot continues the same game
        resumed = scenario.new_game()
        resumed.restore(middle)
        for entry, events in zip(log[half:], recorded[half:], strict=True):
            assert [ev.to_dict() for ev in resumed.apply(entry.seat, entry.action)] == events
        assert resumed.snapshot() == game.snapshot()
        assert state(resumed) == state(game)


@EXPENSIVE
@given(scenarios, st.integers(min_value=0, max_value=2))
def test_every_offered_action_applies(scenario: Scenario, offset: int) -> None:
    """Every extreme member of every family is allowed by it and applies (to a copy of the
    game: at one step in three, since each bound costs a copy)."""
    game = scenario.new_game()
    assert_offered_actions_apply(game, moves(game, scenario), 3, offset)


def _space(rnd: random.Random) -> str:
    return rnd.choice((*PROVINCES, *SEAS, "atlantide"))


def _random_action(rnd: random.Random, game: SpqrGame) -> a.Action:
    """An action of any kind, its spaces and counts drawn near the legal ones or off them."""
    kind = rnd.choice(sorted(set(a.ACTION_TYPES) - {a.Resign.kind}))
    cls = a.ACTION_TYPES[kind]
    if cls is a.TradeCards:
        pool = [*game.hands[game.current], *rnd.sample(list(RULESET.cards.cards), 3)]
        return a.TradeCards(tuple(rnd.choice(pool) for _ in range(rnd.choice((2, 3, 3)))))
    if cls is sa.PlaceNeutral:
        colours = (*game.neutral_colours, *game.colours)
        return sa.PlaceNeutral(_space(rnd), rnd.choice(colours))
    values: dict[str, object] = {}
    for field in dataclasses.fields(cls):
        if field.type == "str":
            values[field.name] = _space(rnd)
        elif field.type == "int":
            values[field.name] = rnd.randint(-1, 6)
        else:  # a list of ids (FutuRisiKo!'s cards)
            values[field.name] = (_space(rnd),)
    return cls(**values)


def _mutate(action: a.Action, rnd: random.Random) -> a.Action:
    """`action` with one space or count changed to something nearby."""
    fields = dataclasses.fields(action)
    if not fields or isinstance(action, a.TradeCards):
        return action
    field = rnd.choice(fields)
    value = getattr(action, field.name)
    new = rnd.choice((value - 1, value + 1, 0, 4)) if field.type == "int" else _space(rnd)
    return dataclasses.replace(action, **{field.name: new})


@EXPENSIVE
@given(scenarios)
def test_an_action_is_accepted_exactly_when_a_legal_family_allows_it(scenario: Scenario) -> None:
    """Offered actions, actions next to them and random ones: accepted if and only if a legal
    family allows them (accepted ones are applied to the engine's `clone`, which must leave the
    game untouched); a refusal has a known code and leaves the whole state as it was."""
    game = scenario.new_game()
    mutations = random.Random(scenario.choices + 1)
    for index, (seat, action, legal) in enumerate(moves(game, scenario)):
        if index % 2 == 0 and legal:
            assert seat is not None
            others = [s for s in range(len(game.players)) if s != seat]
            candidates: list[tuple[int | None, a.Action]] = [
                (mutations.choice(others), action),
                (None, action),
            ]
            candidates += [
                (seat, _mutate(mutations.choice(legal).pick(mutations), mutations))
                for _ in range(4)
            ]
            candidates += [(seat, _random_action(mutations, game)) for _ in range(4)]
            before = state(game)
            for who, candidate in candidates:
                allowed = any(family.allows(candidate) for family in game.legal_actions(who))
                if allowed:
                    game.clone().apply(who, candidate)  # the engine's own copy: shares nothing
                    assert state(game) == before, (who, candidate)
                    continue
                with pytest.raises(RuleViolation) as raised:
                    game.apply(who, candidate)
                assert raised.value.code in KNOWN_CODES, (who, candidate, raised.value)
                assert state(game) == before, (who, candidate)
        game.apply(seat, action)


@PROPERTY
@given(scenarios)
def test_only_the_seat_to_act_has_legal_actions_and_neutrals_never_act(
    scenario: Scenario,
) -> None:
    game = scenario.new_game()
    players = range(len(game.players))
    for _ in play(game, scenario):
        to_act = game.seat_to_act
        if game.is_over:
            assert to_act is None
            assert all(game.legal_actions(seat) == [] for seat in players)
            continue
        assert to_act is not None
        assert to_act in players
        assert not game.eliminated[to_act]
        assert not game.resigned[to_act]
        assert game.legal_actions(to_act)
        assert game.legal_actions(None) == []
        for seat in players:
            if seat != to_act:
                assert game.legal_actions(seat) == []
