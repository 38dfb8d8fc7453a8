"""Property-based tests: invariants of the engine over random legal play.

Hypothesis draws a seed, a player count, a set of options and a number of steps; the game is
then played by choosing a family of legal actions at random and `pick`ing one action from it.
After (or before) every step the invariants below are checked.

Uniform random play seldom gets past a few conquests, so a scenario may also prefer attacks
it outnumbers (`aggression`) and start with up to 600 actions of the aggressive bot
(`warmup`): about a fifth of the scenarios then reach eliminations and the end of the game.
Every one of those actions is checked like the others.
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
from domain.legal import (
    LegalAction,
    LegalAttack,
    LegalAttackUntil,
    LegalEndTurn,
    LegalStrategicMove,
)
from domain.replay import LogEntry, replay
from domain.risiko.defence import DefenderDice
from tests.support import (
    CLASSIC,
    arrange,
    assert_offered_actions_apply,
    classic,
    clone,
    new_game,
    state,
)
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions

OPTIONS: dict[str, ClassicOptions] = {
    "default": ClassicOptions(),
    "declare": ClassicOptions(defender_dice=DefenderDice.DECLARE),
    "tournament": ClassicOptions.tournament(),
}
RULESET = CLASSIC.ruleset
TERRITORY_IDS: tuple[str, ...] = tuple(t.id for t in RULESET.board.territories)
ALL_CARDS: Counter[str] = Counter(list(RULESET.cards.cards))
JOLLY_IDS = frozenset(card.id for card in RULESET.cards.cards.values() if card.territory is None)
OBJECTIVE_IDS = frozenset(RULESET.objectives) | frozenset(RULESET.tournament_objectives)
PRIVATE_EVENTS = (
    e.ObjectiveAssigned,
    e.ObjectiveChanged,
    e.CardsReceived,
)
KNOWN_CODES = errors.known_codes()  # the shared codes and every imported game's own

PROPERTY = settings(max_examples=60, deadline=None)
EXPENSIVE = settings(max_examples=25, deadline=None)  # tests that copy the game per action


@dataclass(frozen=True)
class Scenario:
    seed: bytes
    players: int
    options: str
    steps: int
    choices: int  # seeds the random.Random that chooses the actions
    # How often the player prefers an attack it outnumbers: random play alone seldom reaches
    # eliminations, reshuffles of the deck or the end of the game.
    aggression: float = 0.0
    # Actions played first by the aggressive bot, to reach the late game quickly.
    warmup: int = 0

    def new_game(self) -> ClassicGame:
        names = [f"P{i}" for i in range(self.players)]
        return classic(CLASSIC.new_game(names, OPTIONS[self.options], seed=self.seed))


scenarios = st.builds(
    Scenario,
    seed=st.binary(min_size=1, max_size=16),
    players=st.integers(min_value=3, max_value=6),
    options=st.sampled_from(sorted(OPTIONS)),
    steps=st.integers(min_value=1, max_value=300),
    choices=st.integers(min_value=0, max_value=2**32 - 1),
    aggression=st.sampled_from((0.0, 0.7, 0.95)),
    warmup=st.sampled_from((0, 0, 150, 300, 600)),
)


@dataclass(frozen=True)
class Step:
    seat: int
    action: a.Action
    events: list[e.Event]


# --------------------------------------------------------------------------- helpers


def choose(
    game: ClassicGame, rnd: random.Random, aggression: float = 0.0
) -> tuple[int, a.Action, list[LegalAction]]:
    """A family of legal actions chosen at random, and one action picked from it."""
    seat = game.seat_to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    assert legal, f"seat {seat} has nothing to do in the {game.phase.value} phase"
    family = rnd.choice(legal)
    if aggression and rnd.random() < aggression:
        armies, index = game.armies, game.board.index
        strong = [
            f
            for f in legal
            if isinstance(f, LegalAttack | LegalAttackUntil)
            and armies[index[f.source]] > armies[index[f.target]]
        ]
        if strong:
            family = rnd.choice(strong)
        elif isinstance(family, LegalEndTurn | LegalStrategicMove):
            family = rnd.choice(legal)  # play on a little longer
    return seat, family.pick(rnd), legal


def moves(
    game: ClassicGame, scenario: Scenario
) -> Iterator[tuple[int, a.Action, list[LegalAction]]]:
    """The scenario's actions, each chosen in the state left by the previous one: the caller
    applies each action before asking for the next. Yields the seat, the action and the
    legal families it was chosen from."""
    rnd = random.Random(scenario.choices)
    for index in range(scenario.warmup + scenario.steps):
        if game.is_over:
            return
        seat, action, legal = choose(game, rnd, scenario.aggression)
        if index < scenario.warmup:
            bot = next(iter(aggressive_policy(game, seat, rnd)))
            if any(family.allows(bot) for family in legal):  # no AttackUntil when declaring
                action = bot
        yield seat, action, legal


def play(game: ClassicGame, scenario: Scenario) -> Iterator[Step]:
    """Play the scenario; yields after each applied action."""
    for seat, action, legal in moves(game, scenario):
        assert any(family.allows(action) for family in legal), action
        yield Step(seat, action, game.apply(seat, action))


def positions(game: ClassicGame, scenario: Scenario) -> Iterator[Step | None]:
    """None for the position after the deal, then each step as it is played."""
    yield None
    yield from play(game, scenario)


def strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


# --------------------------------------------------------------------------- invariants


@PROPERTY
@given(scenarios)
def test_armies_are_conserved(scenario: Scenario) -> None:
    game = scenario.new_game()
    players = len(game.players)
    starting = RULESET.starting_armies[players]
    dealt = next(ev for ev in game.initial_events if isinstance(ev, e.TerritoriesDealt))
    assert dealt.starting_armies == starting
    placed = len(dealt.owners)  # one army on every dealt territory
    assert sum(game.armies) == placed == 42
    lost = 0
    setup_total_checked = False
    for step in play(game, scenario):
        for event in step.events:
            if isinstance(event, e.ArmiesPlaced):
                placed += event.armies
            elif isinstance(event, e.DiceRolled):
                lost += event.attacker_losses + event.defender_losses
        assert sum(game.armies) == placed - lost
        if game.phase is Phase.SETUP:
            assert sum(game.armies) + sum(game.setup_remaining) == players * starting
        elif not setup_total_checked:
            assert lost == 0
            assert sum(game.armies) == players * starting
            setup_total_checked = True


@PROPERTY
@given(scenarios)
def test_dice_rolls_follow_the_rules(scenario: Scenario) -> None:
    game = scenario.new_game()
    options = game.options
    for step in play(game, scenario):
        if not any(isinstance(ev, e.DiceRolled) for ev in step.events):
            continue
        # Rebuild the armies before the action from the events, roll by roll.
        armies = dict(zip(TERRITORY_IDS, game.armies, strict=True))
        for event in step.events:
            if isinstance(event, e.DiceRolled):
                armies[event.source] += event.attacker_losses
                armies[event.target] += event.defender_losses
            elif isinstance(event, e.ArmiesMoved):
                armies[event.source] += event.armies
                armies[event.target] -= event.armies
        for event in step.events:
            if not isinstance(event, e.DiceRolled):
                continue
            attack, defence = event.attacker_dice, event.defender_dice
            assert all(1 <= die <= 6 for die in attack + defence)
            assert list(attack) == sorted(attack, reverse=True)
            assert list(defence) == sorted(defence, reverse=True)
            assert 1 <= len(attack) <= min(3, armies[event.source] - 1)
            assert 1 <= len(defence) <= min(3, armies[event.target])
            if options.defender_dice is DefenderDice.MAXIMUM:
                assert len(defence) == min(3, armies[event.target])
            if options.attacker_dice_at_least_defender:
                assert len(attack) >= len(defence)
            losses = compare_dice(attack, defence)
            assert (event.attacker_losses, event.defender_losses) == losses
            armies[event.source] -= event.attacker_losses
            armies[event.target] -= event.defender_losses


@PROPERTY
@given(scenarios)
def test_turns_follow_the_rules(scenario: Scenario) -> None:
    """Setup quotas of three, clockwise turns skipping the eliminated, reinforcements of
    territories / 3 plus whole continents, and one card after a turn with a conquest."""
    game = scenario.new_game()
    order = game.turn_order
    board = game.board
    last_turn: tuple[int, int] | None = None  # seat and round of the last turn started
    conquered = False
    for step in positions(game, scenario):
        if game.phase is Phase.SETUP:
            assert 1 <= game.setup_quota <= min(3, game.setup_remaining[game.current])
            continue
        assert game.setup_remaining == [0] * len(game.players)
        events = step.events if step is not None else []
        for position, event in enumerate(events):
            if isinstance(event, e.TerritoryConquered):
                conquered = True
            elif isinstance(event, e.TurnEnded):
                drawn = [ev for ev in events[:position] if isinstance(ev, e.CardDrawn)]
                all_held = sum(len(hand) for hand in game.hands) == 44
                assert len(drawn) == (1 if conquered and not all_held else 0)
            elif isinstance(event, e.TurnStarted):
                seat = event.seat
                assert not game.eliminated[seat]
                if last_turn is not None:
                    previous, previous_round = last_turn
                    after = order[order.index(previous) + 1 :] + order[: order.index(previous)]
                    expected = next(s for s in (*after, previous) if not game.eliminated[s])
                    assert seat == expected
                    wrapped = order.index(seat) <= order.index(previous)
                    assert event.round == previous_round + (1 if wrapped else 0)
                else:
                    assert (seat, event.round) == (game.first_player, 1)
                regions = tuple(
                    (region.id, region.bonus)
                    for region, members in zip(board.regions, board.region_members, strict=True)
                    if all(game.owner[t] == seat for t in members)
                )
                from_territories = game.owner.count(seat) // 3
                assert (event.from_territories, event.from_regions) == (from_territories, regions)
                assert event.reinforcements == from_territories + sum(b for _, b in regions)
                last_turn = (seat, event.round)
                conquered = False


@PROPERTY
@given(scenarios)
def test_every_territory_is_owned_and_garrisoned(scenario: Scenario) -> None:
    game = scenario.new_game()
    players = len(game.players)
    for step in positions(game, scenario):
        del step
        in_transit: set[str] = set()
        if game.phase is Phase.OCCUPY:
            assert game.pending_conquest is not None
            in_transit.add(game.territory_id(game.pending_conquest[1]))
        for territory in game.board.territories:
            assert 0 <= game.owner[territory.index] < players, territory.id
            if territory.id in in_transit:
                assert game.armies[territory.index] == 0
            else:
                assert game.armies[territory.index] >= 1, territory.id
        counts = Counter(game.owner)
        assert game.territory_count == [counts[seat] for seat in range(players)]
        assert sum(game.territory_count) == len(game.board.territories)
        assert game.eliminated == [count == 0 for count in game.territory_count]


@PROPERTY
@given(scenarios)
def test_cards_are_conserved(scenario: Scenario) -> None:
    game = scenario.new_game()
    for _ in positions(game, scenario):
        if game.phase is Phase.SETUP:
            assert game.deck == game.discard == []
            assert all(hand == [] for hand in game.hands)
            continue
        cards = Counter(game.deck) + Counter(game.discard)
        for hand in game.hands:
            cards += Counter(hand)
        assert cards == ALL_CARDS
        assert sum(cards.values()) == 44
        for seat, eliminated in enumerate(game.eliminated):
            if eliminated:
                assert game.hands[seat] == []


@PROPERTY
@given(scenarios)
def test_the_log_replays_to_the_same_state(scenario: Scenario) -> None:
    game = scenario.new_game()
    log: list[LogEntry] = []
    recorded: list[list[dict[str, Any]]] = []
    for step in play(game, scenario):
        log.append(LogEntry(step.seat, step.action))
        recorded.append([event.to_dict() for event in step.events])

    fresh = scenario.new_game()
    assert [ev.to_dict() for ev in fresh.initial_events] == [
        ev.to_dict() for ev in game.initial_events
    ]
    replayed = replay(fresh, log)
    assert [[ev.to_dict() for ev in events] for events in replayed] == recorded
    assert fresh.owner == game.owner
    assert fresh.armies == game.armies
    assert fresh.hands == game.hands
    assert fresh.deck == game.deck
    assert (fresh.phase, fresh.current, fresh.round) == (game.phase, game.current, game.round)
    assert state(fresh) == state(game)


@EXPENSIVE
@given(scenarios, st.integers(min_value=0, max_value=3))
def test_every_offered_action_applies(scenario: Scenario, offset: int) -> None:
    """Every extreme member of every family is allowed by it and applies (on a copy of the
    game: at one step in four, since each bound costs a copy)."""
    game = scenario.new_game()
    assert_offered_actions_apply(game, moves(game, scenario), 4, offset)


def _mutate(action: a.Action, rnd: random.Random, game: ClassicGame) -> a.Action:
    """`action` with one field changed to something nearby or nonsensical."""
    values = dataclasses.fields(action)
    if not values:
        return _random_action(rnd, game)
    field = rnd.choice(values)
    value = getattr(action, field.name)
    new: object
    if isinstance(value, bool) or field.name == "cards":
        hand = game.hands[game.current]
        pool = [*hand, *JOLLY_IDS, "atlantide", rnd.choice(TERRITORY_IDS)]
        new = tuple(rnd.choice(pool) for _ in range(rnd.choice((2, 3, 3, 4))))
    elif isinstance(value, int):
        new = rnd.choice((-1, 0, value - 1, value + 1, value + 2, 4, 99))
    else:
        new = rnd.choice(("atlantide", "", "ALASKA", "Perù", rnd.choice(TERRITORY_IDS)))
    return dataclasses.replace(action, **{field.name: new})


def _random_action(rnd: random.Random, game: ClassicGame) -> a.Action:
    # Resigning is always possible and never offered: it is leaving, not a move of play.
    kind = rnd.choice(sorted(set(a.ACTION_TYPES) - {a.Resign.kind}))

    def territory() -> str:
        return rnd.choice((*TERRITORY_IDS, "atlantide"))

    def count() -> int:
        return rnd.randint(-1, 6)

    if kind == "place_armies":
        return a.PlaceArmies(territory(), count())
    if kind == "trade_cards":
        pool = [*game.hands[game.current], *JOLLY_IDS, *rnd.sample(TERRITORY_IDS, 3)]
        return a.TradeCards((rnd.choice(pool), rnd.choice(pool), rnd.choice(pool)))
    if kind == "attack":
        return a.Attack(territory(), territory(), count())
    if kind == "attack_until":
        return a.AttackUntil(territory(), territory(), count(), count())
    if kind == "defend":
        return a.Defend(count())
    if kind == "occupy":
        return a.Occupy(count())
    if kind == "strategic_move":
        return a.StrategicMove(territory(), territory(), count())
    # Any other kind (those of S.P.Q.RisiKo! here): spaces and counts drawn the same way.
    cls = a.ACTION_TYPES[kind]
    values: dict[str, object] = {}
    for field in dataclasses.fields(cls):
        if field.type == "str":
            values[field.name] = territory()
        elif field.type == "int":
            values[field.name] = count()
        else:  # a list of ids (FutuRisiKo!'s cards)
            values[field.name] = (territory(),)
    return cls(**values)


def _candidates(
    game: ClassicGame, rnd: random.Random, seat: int, legal: list[LegalAction]
) -> list[tuple[int | None, a.Action]]:
    players = len(game.players)
    chosen = rnd.choice(legal).pick(rnd)
    other = (seat + rnd.randrange(1, players)) % players
    found: list[tuple[int | None, a.Action]] = [
        (other, chosen),
        (None, chosen),
        (None, a.ExpireTime()),
    ]
    found += [(seat, _mutate(rnd.choice(legal).pick(rnd), rnd, game)) for _ in range(4)]
    found += [(seat, _random_action(rnd, game)) for _ in range(3)]
    found += [(rnd.choice((seat, other)), _random_action(rnd, game)) for _ in range(2)]
    return found


def _check_acceptance(game: ClassicGame, who: int | None, candidate: a.Action) -> None:
    allowed = any(family.allows(candidate) for family in game.legal_actions(who))
    if allowed:
        clone(game).apply(who, candidate)
        return
    before = state(game)
    with pytest.raises(RuleViolation) as raised:
        game.apply(who, candidate)
    assert raised.value.code in KNOWN_CODES, (who, candidate, raised.value)
    assert state(game) == before, (who, candidate)


@EXPENSIVE
@given(scenarios)
def test_rejected_actions_change_nothing(scenario: Scenario) -> None:
    """An action is accepted if and only if a legal family allows it; a rejected one raises
    a RuleViolation with a known code and leaves the whole state as it was."""
    game = scenario.new_game()
    mutations = random.Random(scenario.choices + 1)
    for index, (seat, action, legal) in enumerate(moves(game, scenario)):
        if index % 2 == 0:
            for who, candidate in _candidates(game, mutations, seat, legal):
                _check_acceptance(game, who, candidate)
        game.apply(seat, action)
    if game.is_over:
        before = state(game)
        with pytest.raises(RuleViolation) as raised:
            game.apply(game.current, a.EndTurn())
        assert raised.value.code == "GAME_OVER"
        assert state(game) == before


@PROPERTY
@given(scenarios)
def test_only_the_seat_to_act_has_legal_actions(scenario: Scenario) -> None:
    game = scenario.new_game()
    players = range(len(game.players))
    for _ in positions(game, scenario):
        to_act = game.seat_to_act
        if game.is_over:
            assert to_act is None
        else:
            assert to_act is not None
            assert not game.eliminated[to_act]
            assert game.legal_actions(to_act)
        assert game.legal_actions(None) == []
        for seat in players:
            if seat != to_act:
                assert game.legal_actions(seat) == []


def _check_visibility(event: e.Event, players: int) -> None:
    viewers: list[int | None] = [*range(players), None]
    if isinstance(event, PRIVATE_EVENTS):
        owner = event.seat
        assert event.private
        assert event.visible_to == owner
        assert event.is_visible_to(owner)
        for viewer in viewers:
            if viewer != owner:
                assert not event.is_visible_to(viewer), (event, viewer)
        return
    assert not event.private, event
    assert event.visible_to is None
    assert all(event.is_visible_to(viewer) for viewer in viewers)
    data = event.to_dict()
    if not isinstance(event, e.GameEnded):
        leaked = OBJECTIVE_IDS.intersection(strings(data))
        assert not leaked, (event, leaked)
    if not isinstance(event, e.CardsTraded):
        # Counts of cards are public (DeckShuffled.cards), the cards themselves are not.
        assert not [card for key in ("card", "cards", "hand") for card in strings(data.get(key))]
        assert not JOLLY_IDS.intersection(strings(data)), event


@PROPERTY
@given(scenarios)
def test_private_events_are_seen_only_by_their_seat(scenario: Scenario) -> None:
    game = scenario.new_game()
    players = len(game.players)
    for event in game.initial_events:
        _check_visibility(event, players)
    assigned = [ev.seat for ev in game.initial_events if isinstance(ev, e.ObjectiveAssigned)]
    assert sorted(assigned) == list(range(players))
    for step in play(game, scenario):
        for event in step.events:
            _check_visibility(event, players)
            if isinstance(event, e.CardsTraded):
                # The traded cards are shown as they leave the hand for the discard pile.
                assert set(event.cards) <= set(game.discard)
                assert not set(event.cards) & set(game.hands[event.seat])
            if isinstance(event, e.CardDrawn):
                received = [
                    ev
                    for ev in step.events
                    if isinstance(ev, e.CardsReceived) and ev.seat == event.seat
                ]
                assert received, "a drawn card reaches its holder in a private event"


# --------------------------------------------------------------------------- the deck runs out


def test_cards_are_conserved_through_a_reshuffle() -> None:
    """Random play seldom draws 44 cards: the reshuffle of the discard pile, by hand."""
    game = new_game(4, seed=b"reshuffle")
    hands = {1: ["alaska", "jolly_1"], 2: ["cina", "siam", "india"]}
    arrange(game, {"alaska": 0, "kamchatka": 1, "cina": 2}, hands=hands, others=3)
    game.discard, game.deck = game.deck, []
    game.conquered_this_turn = True
    events = game.apply(0, a.EndTurn())
    assert events[0] == e.DeckShuffled(39, True)
    assert isinstance(events[1], e.CardDrawn)
    assert events[1].seat == 0
    assert events[1].hand_size == 1
    assert events[2] == e.CardsReceived(0, tuple(game.hands[0]))
    assert game.discard == []
    assert len(game.deck) == 38
    held = Counter(game.deck) + Counter(card for hand in game.hands for card in hand)
    assert held == ALL_CARDS


def test_no_card_is_drawn_when_every_card_is_held() -> None:
    game = new_game(4, seed=b"no-cards-left")
    cards = list(RULESET.cards.cards)
    hands = {seat: cards[seat * 11 : (seat + 1) * 11] for seat in range(4)}
    arrange(game, {"alaska": 0, "kamchatka": 1, "cina": 2}, hands=hands, others=3)
    assert game.deck == game.discard == []
    game.conquered_this_turn = True
    events = game.apply(0, a.EndTurn())
    assert not [ev for ev in events if isinstance(ev, e.CardDrawn | e.CardsReceived)]
    assert [len(hand) for hand in game.hands] == [11, 11, 11, 11]
