"""Property-based tests of RisiKo! Più: invariants over random legal play.

Hypothesis draws a seed, 3 to 6 players, the options (hidden armies, the dice against a
fortress, a short setup, a round or a time limit), a number of steps and how the random player
leans: uniform play seldom plays its cards or takes a fortress, so a scenario may prefer the
families of the cards (`cards`) or attacks it outnumbers (`aggression`). It may start with
actions of the aggressive bot (`warmup`), have players resign or the clock expire at some
step, and have seats not to act do, now and then, what they are offered out of turn (their
standing orders, their hidden armies). Every action is chosen among the `legal_actions` of its
seat and `pick`ed from its family; the invariants are checked after every one.

The board is followed from the events alone (`Table`): the empires drawn, claims, placements,
hidden armies, dice losses, moves and the flagship's armies at sea; after every action it must
be the game's board, army for army and owner for owner. The same events give the fortresses,
the banners, the Rinforzi track, the reinforcements, the truces, the turn order, the dice with
the Generale's and the Maresciallo's +1 (and the standing orders that play them), the
occupations and the end of the game, each checked against the rules of seed 003 and
docs/piu.md. Each property is tested twice: with defenders rolling the most dice, and with
defenders declaring them (`BOTH_DEFENCES`), when each attack waits for its defender
(`AttackDeclared`, the flagship's armies aboard meanwhile) and the next roll is of the dice it
declared.

A failing scenario is printed as found, not shrunk (a game of hundreds of actions shrinks for
minutes): replay it with `@example(...)` on the test.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import Phase as HPhase
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bots.policies import aggressive_policy
from domain import actions as a
from domain import errors
from domain import events as e
from domain.errors import RuleViolation
from domain.flow import Phase
from domain.legal import LegalAction, LegalAttack, LegalAttackUntil, LegalDefend
from domain.replay import LogEntry, replay
from domain.risiko.defence import DefenderDice
from tests.support import assert_offered_actions_apply, state
from variants import get_variant
from variants.piu import actions as pa
from variants.piu import events as pe
from variants.piu.game import FORTRESS_STEP, PiuGame, PiuState
from variants.piu.legal import (
    LegalAdmiralAttack,
    LegalDiscardSpiedCard,
    LegalPlayDiplomat,
    LegalPlayGeneral,
    LegalPlayRinforzi,
    LegalPlaySpy,
    LegalRevealHiddenArmies,
    LegalStandingOrders,
)
from variants.piu.options import PiuOptions
from variants.piu.phases import PiuPhase

PIU = get_variant("piu")
RULESET = PIU.ruleset
BOARD = RULESET.board
LANDS = tuple(t.id for t in BOARD.lands)
SEAS = tuple(t.id for t in BOARD.seas)
ALL_CARDS: Counter[str] = Counter(list(RULESET.cards.cards))
HAND_SIZE = 3
# The regions by kind, read from the board's data: 6 empires, 3 independent blocks.
EMPIRE_IDS = ("britannico", "francese", "germanico", "austro_ungarico", "russo", "ottomano")
BLOCK_IDS = ("scandinavia", "spagna", "italia")
MEMBERS: dict[str, frozenset[str]] = {
    region: frozenset(BOARD.region(region).territories) for region in EMPIRE_IDS + BLOCK_IDS
}
LAND_NEIGHBOURS: dict[str, frozenset[str]] = {
    t.id: frozenset(BOARD.territories[n].id for n in BOARD.land_neighbours[t.index])
    for t in BOARD.lands
}
STARTING = {3: 35, 4: 30, 5: 25, 6: 20}  # Castle Risk's, docs/piu.md
TRACK = tuple(range(3, 15))  # the k-th Rinforzi of a cycle gives k + 2
CARD_FAMILIES = (
    LegalPlayRinforzi,
    LegalPlaySpy,
    LegalDiscardSpiedCard,
    LegalPlayDiplomat,
    LegalPlayGeneral,
    LegalAdmiralAttack,
    LegalRevealHiddenArmies,
)
PRIVATE_EVENTS = (
    e.CardsReceived,
    pe.HiddenTerritoryChosen,
    pe.SpyReport,
    pe.CardLost,
    pe.StandingOrdersSet,
)
KNOWN_CODES = errors.known_codes()  # the shared codes and every imported game's own
OPTIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "hidden-5": {"hidden_armies": 5},
    "no-hidden": {"hidden_armies": 0},
    "fortress-2": {"fortress_attack_dice": 2},
    "short": {"starting_armies": 15, "hidden_armies": 8, "fortress_attack_dice": 1},
    "rounds": {"round_limit": 3},
    "timed": {"time_limit_minutes": 60},
}

# No shrinking: a game of hundreds of actions shrinks for minutes; the failing scenario is
# printed as found (replay it with @example or --hypothesis-seed).
FIND = (HPhase.explicit, HPhase.reuse, HPhase.generate)
PROPERTY = settings(max_examples=30, deadline=None, phases=FIND)
EXPENSIVE = settings(max_examples=10, deadline=None, phases=FIND)  # copy the game per action
# Each property holds whether defenders roll the most or declare their dice: a test of each
# (drawn by hypothesis, the option came up in as few as 2 games of 40).
BOTH_DEFENCES = pytest.mark.parametrize("declare", [False, True], ids=["maximum", "declare"])


@dataclass(frozen=True)
class Scenario:
    seed: bytes
    players: int
    options: str
    steps: int
    choices: int  # seeds the random.Random that chooses the actions
    cards: float  # how often the player prefers a family of the cards
    aggression: float  # how often it prefers an attack it outnumbers
    resign_at: tuple[int, ...]  # the steps at which a random active seat leaves
    expire_at: int | None  # a step at which the clock expires (with a time limit)
    # Every this many steps, a seat not to act does what it may out of turn: its standing
    # orders, its hidden armies.
    out_of_turn_every: int | None
    warmup: int = 0  # actions played first by the aggressive bot, when a family allows them
    declare: bool = False  # defenders declare their dice (option defender_dice): BOTH_DEFENCES

    def new_game(self) -> PiuGame:
        names = [f"P{i}" for i in range(self.players)]
        options = dict(OPTIONS[self.options])
        if self.declare:
            options["defender_dice"] = DefenderDice.DECLARE
        game = PIU.new_game(names, PiuOptions(**options), seed=self.seed)
        assert isinstance(game, PiuGame)
        return game


scenarios = st.builds(
    Scenario,
    seed=st.binary(min_size=1, max_size=12),
    players=st.integers(min_value=3, max_value=6),
    options=st.sampled_from(sorted(OPTIONS)),
    steps=st.integers(min_value=1, max_value=400),
    choices=st.integers(min_value=0, max_value=2**32 - 1),
    cards=st.sampled_from((0.0, 0.5, 0.9)),
    aggression=st.sampled_from((0.0, 0.7, 0.95)),
    resign_at=st.lists(st.integers(min_value=0, max_value=400), max_size=2).map(tuple),
    expire_at=st.one_of(st.none(), st.integers(min_value=40, max_value=400)),
    out_of_turn_every=st.sampled_from((None, 5, 17)),
    warmup=st.sampled_from((0, 0, 100, 300)),
)


@dataclass(frozen=True)
class Step:
    seat: int | None
    action: a.Action
    events: list[e.Event]
    before: PiuGame  # the game as it was before the action (a clone)


# --------------------------------------------------------------------------- random play


def choose(
    game: PiuGame, rnd: random.Random, scenario: Scenario
) -> tuple[int, a.Action, list[LegalAction]]:
    seat = game.seat_to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    assert legal, f"seat {seat} has nothing to do in the {game.phase.value} phase"
    family = rnd.choice(legal)
    if isinstance(family, LegalStandingOrders) and rnd.random() < 0.8:
        family = rnd.choice(legal)  # offered at every step: it would take too many of them
    if scenario.cards and rnd.random() < scenario.cards:
        preferred = [f for f in legal if isinstance(f, CARD_FAMILIES)]
        if preferred:
            family = rnd.choice(preferred)
    elif scenario.aggression and rnd.random() < scenario.aggression:
        armies, index = game.armies, BOARD.index
        strong: list[LegalAction] = [
            f
            for f in legal
            if isinstance(f, LegalAttack | LegalAttackUntil)
            and armies[index[f.source]] > armies[index[f.target]]
        ]
        strong += [f for f in legal if isinstance(f, LegalAdmiralAttack)]
        if strong:
            family = rnd.choice(strong)
    return seat, family.pick(rnd), legal


def moves(
    game: PiuGame, scenario: Scenario
) -> Iterator[tuple[int | None, a.Action, list[LegalAction]]]:
    """The scenario's actions, each chosen in the state the previous one left (the caller
    applies each before asking for the next); the legal families are [] for the resignation
    and the clock, which are never offered."""
    rnd = random.Random(scenario.choices)
    every = scenario.out_of_turn_every
    for index in range(scenario.warmup + scenario.steps):
        if game.is_over:
            return
        if index in scenario.resign_at:
            yield rnd.choice(game.active_seats()), a.Resign(), []
            continue
        if index == scenario.expire_at and game.options.time_limit_minutes is not None:
            yield None, a.ExpireTime(), []
            continue
        if every and index % every == every - 1:
            other = rnd.choice([s for s in range(len(game.players)) if s != game.seat_to_act])
            offered = game.legal_actions(other)
            if offered:
                reveal = [f for f in offered if isinstance(f, LegalRevealHiddenArmies)]
                family = reveal[0] if reveal and rnd.random() < 0.5 else rnd.choice(offered)
                yield other, family.pick(rnd), offered
                continue
        seat, action, legal = choose(game, rnd, scenario)
        if index < scenario.warmup:
            bot = next(iter(aggressive_policy(game, seat, rnd)))
            if any(family.allows(bot) for family in legal):
                action = bot
        yield seat, action, legal


def play(game: PiuGame, scenario: Scenario) -> Iterator[Step]:
    for seat, action, legal in moves(game, scenario):
        if legal:
            assert any(family.allows(action) for family in legal), action
        before = game.clone()
        assert isinstance(before, PiuGame)
        yield Step(seat, action, game.apply(seat, action), before)


# --------------------------------------------------------------------------- the table


@dataclass
class Attack:
    source: str
    target: str
    general: bool = False
    marshal: bool = False
    started: bool = False


@dataclass
class Table:
    """The game as the events tell it, kept apart from the engine's state."""

    players: int
    options: PiuOptions
    owner: dict[str, int] = field(default_factory=dict)
    armies: dict[str, int] = field(default_factory=dict)
    empire: list[str] = field(default_factory=list)
    fortress: dict[int, str] = field(default_factory=dict)
    fallen: set[int] = field(default_factory=set)
    banners: dict[int, list[int]] = field(default_factory=dict)
    hidden: dict[int, str] = field(default_factory=dict)
    revealed: set[int] = field(default_factory=set)
    resigned: set[int] = field(default_factory=set)
    rinforzi: int = 0
    marshal_orders: dict[int, str] = field(default_factory=dict)
    spy_orders: dict[int, str] = field(default_factory=dict)
    taken: Counter[int] = field(default_factory=Counter)  # cards taken from eliminated players
    attack: Attack | None = None
    flagship: list[Any] | None = None  # [source, target, armies aboard]
    placed: int = 0  # armies put on the board: drawn empires, claims, placements, hidden
    lost: int = 0
    turn_seat: int | None = None
    started: bool = False  # the setup is over
    order: tuple[int, ...] = ()
    round: int = 0
    truces: set[tuple[int, int]] = field(default_factory=set)  # (imposer, target)
    fought: bool = False  # the seat in turn has attacked this turn (its cards step is over)
    sailed: int = 0  # flagship attacks this turn
    last_dice: int = 0  # the attacker's dice of the last roll
    conquest: tuple[str, str, int, int] | None = None  # a conquest waiting to be occupied
    # An attack waiting for its defender's dice: source, target and the attacker's dice.
    declared: tuple[str, str, int] | None = None
    expired: bool = False  # the time limit has passed

    def __post_init__(self) -> None:
        self.owner = dict.fromkeys(LANDS, -1)
        self.armies = dict.fromkeys(LANDS, 0)
        self.banners = {seat: [seat] for seat in range(self.players)}
        self.marshal_orders = dict.fromkeys(range(self.players), pa.MARSHAL_ALWAYS)
        self.spy_orders = dict.fromkeys(range(self.players), pa.SPY_BLOCK)

    def is_fortress(self, territory: str) -> bool:
        seat = self.owner[territory]
        return seat >= 0 and self.fortress.get(seat) == territory and seat not in self.fallen

    def whole(self, seat: int, region: str) -> bool:
        return all(self.owner[t] == seat for t in MEMBERS[region])

    def empires_besides_own(self, seat: int) -> int:
        return sum(1 for r in EMPIRE_IDS if r != self.empire[seat] and self.whole(seat, r))

    def reinforcements(self, seat: int) -> int:
        empires = sum(6 for r in EMPIRE_IDS if self.whole(seat, r))
        blocks = [r for r in BLOCK_IDS if self.whole(seat, r)]
        from_blocks = 15 if len(blocks) == len(BLOCK_IDS) else 4 * len(blocks)
        banners = 2 * sum(1 for other in self.banners[seat] if other != seat)
        return empires + from_blocks + banners

    def active(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.fallen and s not in self.resigned]

    # ------------------------------------------------------------------ events

    def most_dice(self, target: str) -> int:
        """The most dice an attack on `target` rolls."""
        return self.options.fortress_attack_dice if self.is_fortress(target) else 3

    def follow(
        self, events: list[e.Event], before: PiuGame | None, action: a.Action | None = None
    ) -> None:
        """Every event in order, each checked against the table as it stands; `before` is the
        game before the action (its hands and orders say what the out-of-turn cards do), and
        `action` the action (a defender's declared dice)."""
        marshal_due: str | None = None
        answer = action.dice if isinstance(action, a.Defend) else None
        if answer is not None:
            assert self.declared is not None, "dice declared for no attack"
        for position, event in enumerate(events):
            rest = events[position + 1 :]
            if isinstance(event, e.GameStarted):
                self.order = tuple(event.turn_order)
                assert sorted(self.order) == list(range(self.players))
            elif isinstance(event, pe.EmpiresDrawn):
                self.empire = list(event.empires)
                assert event.starting_armies == (
                    self.options.starting_armies or STARTING[self.players]
                )
                for space, seat in zip(BOARD.territories, event.owners, strict=True):
                    if space.is_sea:
                        assert seat == -1
                        continue
                    if seat >= 0:
                        assert space.id in MEMBERS[event.empires[seat]]
                        self.owner[space.id] = seat
                        self.armies[space.id] = 1
                        self.placed += 1
                for seat, region in enumerate(event.empires):
                    assert region in EMPIRE_IDS
                    assert self.whole(seat, region)
                assert len(set(event.empires)) == self.players
            elif isinstance(event, pe.FortressPlaced):
                assert event.seat not in self.fortress
                assert event.territory in MEMBERS[self.empire[event.seat]]
                assert self.owner[event.territory] == event.seat
                self.fortress[event.seat] = event.territory
            elif isinstance(event, pe.TerritoryClaimed):
                assert self.owner[event.territory] == -1, event
                self.owner[event.territory] = event.seat
                self.armies[event.territory] = 1
                self.placed += 1
            elif isinstance(event, e.ArmiesPlaced):
                assert self.owner[event.territory] == event.seat, event
                assert event.armies >= 1
                self.armies[event.territory] += event.armies
                self.placed += event.armies
            elif isinstance(event, pe.HiddenTerritoryChosen):
                assert event.seat not in self.hidden
                assert event.territory in LANDS
                assert event.territory not in self.fortress.values()
                self.hidden[event.seat] = event.territory
            elif isinstance(event, pe.HiddenArmiesRevealed):
                assert event.seat not in self.revealed, "the hidden armies come out once"
                assert self.hidden[event.seat] == event.territory
                assert self.owner[event.territory] == event.seat
                size = self.options.hidden_armies
                assert event.armies == (TRACK[self.rinforzi % 12] if size is None else size)
                assert event.armies > 0
                self.revealed.add(event.seat)
                self.armies[event.territory] += event.armies
                self.placed += event.armies
            elif isinstance(event, pe.RinforziPlayed | pe.SpyPlayed | pe.TruceImposed):
                assert not self.fought, f"{event} after an attack of the turn"
                assert event.seat == self.turn_seat
                self._card_step(event, before, rest)
            elif isinstance(event, pe.TrucesEnded):  # as the imposer's turn starts
                assert rest, "a truce ends as its imposer's turn starts"
                assert isinstance(rest[0], e.TurnStarted), rest[:1]
                assert rest[0].seat == event.seat
                ended = {truce for truce in self.truces if truce[0] == event.seat}
                assert ended, event
                assert {target for _, target in ended} == set(event.players)
                self.truces -= ended
            elif isinstance(event, pe.StandingOrdersSet):
                self.marshal_orders[event.seat] = event.marshal
                self.spy_orders[event.seat] = event.spy
            elif isinstance(event, pe.CardLost):
                assert before is not None
                assert event.card in before.hands[event.seat]
            elif isinstance(event, pe.GeneralPlayed):
                assert event.seat == self.turn_seat
                assert self.owner[event.source] == event.seat != self.owner[event.target]
                self.fought = True  # the cards step is over
                self.attack = Attack(event.source, event.target, general=True)
            elif isinstance(event, pe.MarshalPlayed):
                assert before is not None
                defender = event.seat
                assert self.owner[event.territory] == defender
                orders = before.marshal_orders[defender]
                assert orders != pa.MARSHAL_NEVER
                if orders == pa.MARSHAL_FORTRESS:
                    assert self.fortress.get(defender) == event.territory
                assert event.card in before.hands[defender]
                marshal_due = event.territory
            elif isinstance(event, pe.FlagshipSailed):
                assert self.flagship is None
                assert self.owner[event.source] == event.seat != self.owner[event.target]
                assert 1 <= event.armies < self.armies[event.source]
                assert event.seat == self.turn_seat
                self.sailed += 1
                assert self.sailed == 1, "the flagship sails once a turn"
                self.no_truce(event.seat, self.owner[event.target])
                self.fought = True
                self.armies[event.source] -= event.armies
                self.flagship = [event.source, event.target, event.armies]
            elif isinstance(event, e.AttackDeclared):
                self._declared(event, before, marshal_due)
                assert not rest, "an attack declared waits for its defender's dice"
                marshal_due = None
            elif isinstance(event, e.DiceRolled):
                assert event.seat == self.turn_seat
                self.no_truce(event.seat, self.owner[event.target])
                self.fought = True
                self.last_dice = len(event.attacker_dice)
                self._roll(event, before, marshal_due, answer)
                marshal_due = None
                answer = None
            elif isinstance(event, e.TerritoryConquered):
                assert self.armies[event.target] == 0, event
                assert self.owner[event.target] == event.defender
                assert self.owner[event.source] == event.seat
                if self.flagship is not None:  # every army aboard lands
                    assert event.min_armies == event.max_armies == self.flagship[2]
                else:
                    assert event.min_armies == self.last_dice, event
                    most = max(self.last_dice, self.armies[event.source] - 1)
                    assert event.max_armies == most, event
                    self.conquest = (event.source, event.target, event.min_armies, most)
                self.owner[event.target] = event.seat
                self.attack = None
                if self.is_fortress_of(event.defender, event.target):
                    assert rest, "a fortress taken falls"
                    assert isinstance(rest[0], pe.FortressFallen), rest[:1]
            elif isinstance(event, pe.FortressFallen):
                assert self.fortress[event.seat] == event.territory
                assert self.owner[event.territory] == event.by
                assert event.seat not in self.fallen
                assert list(event.banners) == self.banners[event.seat]
                self.banners[event.by] += self.banners[event.seat]
                self.banners[event.seat] = []
                self.fallen.add(event.seat)
                self.truces = {truce for truce in self.truces if event.seat not in truce}
                assert rest, "a fallen fortress eliminates"
                assert isinstance(rest[0], e.PlayerEliminated), rest[:1]
                eliminated = rest[0]
                assert (eliminated.seat, eliminated.by) == (event.seat, event.by)
            elif isinstance(event, e.PlayerEliminated):
                assert event.seat in self.fallen, "only a fallen fortress eliminates"
                self.taken[event.by] += event.cards_taken
            elif isinstance(event, pe.FlagshipUnloaded):
                assert self.flagship is not None
                source, target, aboard = self.flagship
                assert event.armies == aboard > 0
                if event.territory == target:
                    assert self.owner[target] == event.seat
                    assert self.armies[target] == 0
                else:
                    assert event.territory == source
                    self.attack = None
                self.armies[event.territory] += aboard
                self.flagship = None
                self.declared = None  # an attacker who left takes its armies back
            elif isinstance(event, e.ArmiesMoved):
                assert self.owner[event.source] == self.owner[event.target] == event.seat
                assert 1 <= event.armies < self.armies[event.source], event
                assert event.seat == self.turn_seat
                if event.strategic:  # the move ends the turn
                    assert self.conquest is None
                    assert event.target in LAND_NEIGHBOURS[event.source]
                    assert any(isinstance(ev, e.TurnEnded | e.GameEnded) for ev in rest)
                else:  # the occupation of the conquest
                    assert self.conquest is not None, event
                    source, target, low, high = self.conquest
                    assert (event.source, event.target) == (source, target)
                    assert low <= event.armies <= high, (event, self.conquest)
                    self.conquest = None
                self.armies[event.source] -= event.armies
                self.armies[event.target] += event.armies
            elif isinstance(event, e.PlayerResigned):
                self.resigned.add(event.seat)
                self.truces = {truce for truce in self.truces if event.seat not in truce}
            elif isinstance(event, e.TurnStarted):
                self._next_turn(event)
                self.attack = None
                self.conquest = None
                self.fought = False
                self.sailed = 0
                self.turn_seat = event.seat
                self.started = True
                assert event.seat in self.active()
                assert event.reinforcements == self.reinforcements(event.seat), event
                assert sum(armies for _, armies in event.from_regions) == event.reinforcements
            elif isinstance(event, e.TurnEnded):
                assert event.seat == self.turn_seat
                assert self.conquest is None
                if self.declared is not None:  # the attacker left: its attack is not rolled
                    assert event.seat in self.resigned
                    self.declared = None
                self.attack = None
            elif isinstance(event, e.TimeExpired):
                assert not self.expired
                assert self.options.time_limit_minutes is not None
                self.expired = True
            elif isinstance(event, e.GameEnded):
                self._ended(event)
                self.declared = None
        assert answer is None, "the declared dice were never rolled"
        if self.flagship is not None and self.declared is None:  # every army aboard sank
            assert self.flagship[2] == 0, self.flagship
            self.flagship = None
            self.attack = None

    def no_truce(self, seat: int, defender: int) -> None:
        assert (seat, defender) not in self.truces, f"{seat} attacks {defender} in a truce"
        assert (defender, seat) not in self.truces, f"{seat} attacks {defender} in a truce"

    def _next_turn(self, event: e.TurnStarted) -> None:
        """Turns go round the turn order, skipping the seats out of the game."""
        active = self.active()
        if self.turn_seat is None:
            expected = next(seat for seat in self.order if seat in active)
            self.round = 1
        else:
            position = self.order.index(self.turn_seat)
            following = [*self.order[position + 1 :], *self.order[: position + 1]]
            expected = next(seat for seat in following if seat in active)
            if self.order.index(expected) <= position:
                self.round += 1
        assert event.seat == expected, (event, expected)
        assert event.round == self.round, (event, self.round)

    def _card_step(self, event: e.Event, before: PiuGame | None, rest: list[e.Event]) -> None:
        """A card of the cards step: the Rinforzi track, the Spia blocked or reporting, the
        truce imposed."""
        if isinstance(event, pe.RinforziPlayed):
            assert event.step == self.rinforzi % 12 + 1
            assert event.armies == TRACK[self.rinforzi % 12] == event.step + 2
            self.rinforzi += 1
        elif isinstance(event, pe.TruceImposed):
            assert event.player != event.seat
            assert event.player in self.active()
            assert (event.seat, event.player) not in self.truces
            self.truces.add((event.seat, event.player))
        elif isinstance(event, pe.SpyPlayed):
            assert before is not None
            assert event.player != event.seat
            assert event.player in self.active()
            spied_hand = before.hands[event.player]
            blocks = any(c.startswith("spia_") for c in spied_hand) and (
                before.spy_orders[event.player] == pa.SPY_BLOCK
            )
            assert rest, "a Spia is blocked or reports"
            following = rest[0]
            if blocks:
                assert isinstance(following, pe.SpyBlocked), (event, following)
                assert (following.seat, following.spy) == (event.player, event.seat)
                assert following.card in spied_hand
            else:
                assert isinstance(following, pe.SpyReport), (event, following)
                assert (following.seat, following.player) == (event.seat, event.player)
                assert following.cards == tuple(spied_hand)

    def is_fortress_of(self, seat: int, territory: str) -> bool:
        return seat >= 0 and self.fortress.get(seat) == territory and seat not in self.fallen

    def _engaged(
        self, source: str, target: str, before: PiuGame | None, marshal_due: str | None
    ) -> Attack:
        """The attack from `source` on `target`: the one under way, or one that starts now,
        declared or rolled, which the defender's Maresciallo joins if its orders say so."""
        attack = self.attack
        if attack is None or (attack.source, attack.target) != (source, target):
            attack = self.attack = Attack(source, target)
        if attack.started:
            assert marshal_due is None, "a Maresciallo joins an attack as it starts"
            return attack
        attack.started = True
        assert before is not None
        defender = self.owner[target]
        expected = False
        if defender in self.active():
            orders = before.marshal_orders[defender]
            wanted = orders == pa.MARSHAL_ALWAYS or (
                orders == pa.MARSHAL_FORTRESS and self.is_fortress_of(defender, target)
            )
            holds = any(c.startswith("maresciallo_") for c in before.hands[defender])
            expected = wanted and holds
        assert (marshal_due == target) == expected, (source, target, marshal_due, expected)
        attack.marshal = marshal_due == target
        return attack

    def _declared(
        self, event: e.AttackDeclared, before: PiuGame | None, marshal_due: str | None
    ) -> None:
        """An attack waits for the dice of a defender still playing, in a game whose
        defenders declare them: by land, or the flagship's next roll."""
        assert self.options.defender_dice is DefenderDice.DECLARE
        assert self.declared is None
        source, target = event.source, event.target
        assert event.seat == self.turn_seat == self.owner[source]
        assert event.defender == self.owner[target] != event.seat
        assert event.defender in self.active()
        self.no_truce(event.seat, event.defender)
        self.fought = True
        most = self.most_dice(target)
        if self.flagship is not None:  # every army aboard rolls
            assert (self.flagship[0], self.flagship[1]) == (source, target)
            assert event.dice == min(most, self.flagship[2]) > 0, (event, self.flagship)
        else:
            assert 1 <= event.dice <= min(most, self.armies[source] - 1), event
        self._engaged(source, target, before, marshal_due)
        self.declared = (source, target, event.dice)

    def _roll(
        self,
        event: e.DiceRolled,
        before: PiuGame | None,
        marshal_due: str | None,
        answer: int | None,
    ) -> None:
        source, target = event.source, event.target
        attack = self._engaged(source, target, before, marshal_due)
        most = self.most_dice(target)
        attackers = list(event.attacker_dice)
        defenders = list(event.defender_dice)
        assert all(1 <= die <= 6 for die in attackers + defenders)
        assert attackers == sorted(attackers, reverse=True)
        assert defenders == sorted(defenders, reverse=True)
        # The defender rolls the dice it declared; the most it may when it does not declare
        # (the game's option, or a player out of the game), or left before answering.
        declared = self.declared
        self.declared = None
        if declared is not None:
            assert (declared[0], declared[1]) == (source, target), (event, declared)
            assert len(attackers) == declared[2], (event, declared)
        elif self.options.defender_dice is DefenderDice.DECLARE:
            assert self.owner[target] not in self.active(), event
        if answer is not None:
            assert declared is not None
            assert len(defenders) == answer, (event, answer)
        else:
            assert len(defenders) == min(3, self.armies[target]), event
        if self.flagship is not None:
            assert (self.flagship[0], self.flagship[1]) == (source, target)
            assert len(attackers) == min(most, self.flagship[2]), event
        else:
            assert 1 <= len(attackers) <= min(most, self.armies[source] - 1), event
        if attack.general:
            attackers[0] += 1
        if attack.marshal:
            defenders[0] += 1
        wins = sum(1 for x, y in zip(attackers, defenders, strict=False) if x > y)
        pairs = min(len(attackers), len(defenders))
        assert (event.attacker_losses, event.defender_losses) == (pairs - wins, wins), event
        self.armies[target] -= event.defender_losses
        if self.flagship is not None:
            self.flagship[2] -= event.attacker_losses
        else:
            self.armies[source] -= event.attacker_losses
        self.lost += event.attacker_losses + event.defender_losses
        assert self.armies[target] >= 0

    def points(self, seat: int) -> int:
        """Ranking points: 100 a whole empire besides its own, then 1 a territory."""
        held = sum(1 for owner in self.owner.values() if owner == seat)
        return 100 * self.empires_besides_own(seat) + held

    def _ended(self, event: e.GameEnded) -> None:
        ranked = [seat for _, seat, _ in event.ranking]
        assert sorted(ranked) == list(range(self.players))
        assert all(points == self.points(seat) for _, seat, points in event.ranking), event
        if event.reason in ("round_limit", "time_limit"):
            assert event.winner is None
            if event.reason == "round_limit":
                assert self.round == self.options.round_limit
            else:
                assert self.expired
            order = [(seat in self.resigned, -points) for _, seat, points in event.ranking]
            assert order == sorted(order), event
        elif event.reason == "empires":
            assert event.winner is not None
            assert event.winner == self.turn_seat
            assert self.empires_besides_own(event.winner) >= 3
        else:
            assert event.reason == "last_player", event
            active = self.active()
            assert len(active) <= 1
            assert event.winner == (active[0] if active else None)

    def compare(self, game: PiuGame) -> None:
        """The table is the game's board."""
        for space in BOARD.territories:
            index = space.index
            if space.is_sea:
                assert (game.owner[index], game.armies[index]) == (-1, 0)
                continue
            assert game.owner[index] == self.owner[space.id], space.id
            assert game.armies[index] == self.armies[space.id], space.id
        aboard = self.flagship[2] if self.flagship is not None else 0
        assert sum(self.armies.values()) + aboard == self.placed - self.lost
        assert game.eliminated == [seat in self.fallen for seat in range(self.players)]
        view = game.state_view()
        assert isinstance(view, PiuState)
        assert view.flagship_armies == aboard
        waiting = game.open_prompt()
        if self.declared is None:
            assert waiting is None, waiting
        else:  # the defender owes the dice of the battle declared
            assert waiting is not None
            assert waiting.seat == self.owner[self.declared[1]] == game.seat_to_act
            ids = [BOARD.territories[t].id for t in waiting.values[:2]]
            assert (*ids, waiting.values[2]) == self.declared
            assert game.legal_actions(waiting.seat) == [
                LegalDefend(1, min(3, self.armies[self.declared[1]]))
            ]


def check_after(game: PiuGame, table: Table, step: Step) -> None:
    """The invariants after one action."""
    players = len(game.players)
    table.compare(game)
    # The fortresses: one standing per player still in the game, on its own empire.
    view = game.state_view()
    assert isinstance(view, PiuState)
    if game.setup_step != FORTRESS_STEP:
        standing = view.fortresses
        for seat in range(players):
            if seat in table.fallen:
                assert standing[seat] == ""
                continue
            if seat not in table.fortress:  # left the game before placing it
                assert game.resigned[seat]
                continue
            territory = table.fortress[seat]
            assert standing[seat] == territory
            assert game.owner[BOARD.index[territory]] == seat
            assert territory in MEMBERS[table.empire[seat]]
        assert len({t for t in standing if t}) == sum(1 for t in standing if t)
        marked = [v.id for v in game.space_views() if "fortress" in v.markers]
        assert sorted(marked) == sorted(t for t in standing if t)
    # Every land territory is held, with armies, once the claims are over (seed 003: every
    # territory is occupied before the rest of the armies are placed); not in a game that
    # ended during them, when all but one player left.
    if game.setup_step in ("", "place", "hidden"):
        conquest = game.pending_conquest
        in_transit = conquest[1] if conquest is not None else None
        for space in BOARD.lands:
            assert game.owner[space.index] >= 0, f"{space.id} is free after the claims"
            if space.index != in_transit:
                assert game.armies[space.index] >= 1, space.id
    # Cards: the 48, each once, between the deck, the discard pile and the hands.
    cards = Counter(game.deck) + Counter(game.discard)
    for hand in game.hands:
        cards += Counter(hand)
    if table.started or game.deck:
        assert cards == ALL_CARDS
    else:
        assert not cards
    for seat in range(players):
        assert len(game.hands[seat]) <= HAND_SIZE + table.taken[seat], (seat, game.hands)
        if seat in table.fallen:
            assert game.hands[seat] == []
    # The draw: up to three for the seat in turn, once its reinforcements are placed.
    events = step.events
    drawn = [ev for ev in events if isinstance(ev, e.CardDrawn)]
    dealt = any(isinstance(ev, e.DeckShuffled) and not ev.reshuffle for ev in events)
    for ev in drawn:
        assert ev.hand_size <= HAND_SIZE
        if not dealt:
            assert ev.seat == table.turn_seat
    if dealt:
        for seat in range(players):
            if not game.resigned[seat]:
                received = [ev for ev in events if isinstance(ev, e.CardsReceived)]
                assert sum(len(ev.cards) for ev in received if ev.seat == seat) == HAND_SIZE
    if not game.is_over and game.phase is not Phase.SETUP:
        seat = game.current
        turned = any(isinstance(ev, e.TurnStarted) for ev in events)
        drew_now = game.phase is PiuPhase.CARDS and (turned or step.before.phase is Phase.REINFORCE)
        if drew_now and not dealt:
            held = len(step.before.hands[seat])
            expected = max(held, HAND_SIZE)
            mine = [ev for ev in drawn if ev.seat == seat]
            if game.deck or game.discard:
                assert len(game.hands[seat]) == expected, (held, game.hands[seat])
                assert len(mine) == expected - held
            else:
                assert len(game.hands[seat]) <= expected
        if game.phase is Phase.REINFORCE:
            assert game.pending_reinforcements > 0
        # The game goes on: the seat in turn does not hold three empires besides its own.
        assert table.empires_besides_own(seat) < 3
        assert seat in table.active()
    # A Spia that saw a hand waits for its discard; an empty hand is seen empty, and that is all.
    for event in events:
        if isinstance(event, pe.SpyReport) and not game.is_over:
            assert game.spied == (event.player if event.cards else -1), (event, game.spied)
        if isinstance(event, pe.SpiedCardDiscarded):
            assert game.spied == -1
            assert event.seat == step.seat == game.current
    # Rinforzi and the banners, as the public state shows them.
    assert view.rinforzi_played == table.rinforzi
    for holder, held_banners in table.banners.items():
        for banner in held_banners:
            assert view.banner_holders[banner] == holder


# --------------------------------------------------------------------------- the tests


@BOTH_DEFENCES
@PROPERTY
@given(scenarios)
@example(  # two of three players leave during the claims: the game ends with free territories
    Scenario(b"d\xcb^", 3, "rounds", 263, 41230, 0.0, 0.0, (0, 14), None, None),
)
def test_the_board_follows_the_events_and_the_rules(declare: bool, scenario: Scenario) -> None:
    """Armies, owners, fortresses, banners, cards, hands, dice, reinforcements and the end,
    each followed from the events and checked against the game after every action."""
    scenario = dataclasses.replace(scenario, declare=declare)
    game = scenario.new_game()
    table = Table(len(game.players), game.options)
    table.follow(game.initial_events, None)
    table.compare(game)
    assert sum(game.armies) == table.placed
    for step in play(game, scenario):
        table.follow(step.events, step.before, step.action)
        check_after(game, table, step)
        if game.phase is Phase.SETUP and not any(game.resigned):
            total = STARTING[scenario.players]
            total = game.options.starting_armies or total
            assert sum(game.armies) + sum(game.setup_remaining) == scenario.players * total


def _check_visibility(event: e.Event, players: int, game: PiuGame) -> None:
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
    # A card named in public has been played: it is in no hand any more.
    data = event.to_dict()
    named = [data[key] for key in ("card", "cards", "hand") if key in data]
    flat = [c for value in named for c in (value if isinstance(value, list) else [value])]
    for card in (c for c in flat if isinstance(c, str)):
        assert card in ALL_CARDS, (event, card)
        assert all(card not in hand for hand in game.hands), (event, card)


@BOTH_DEFENCES
@PROPERTY
@given(scenarios)
def test_private_events_are_seen_only_by_their_seat(declare: bool, scenario: Scenario) -> None:
    """What a seat keeps secret (its cards, its hidden armies' territory, what its Spia saw,
    the card it lost, its standing orders) is in private events, seen by that seat alone; a
    card named in a public event has left every hand."""
    scenario = dataclasses.replace(scenario, declare=declare)
    game = scenario.new_game()
    players = len(game.players)
    for event in game.initial_events:
        _check_visibility(event, players, game)
    for step in play(game, scenario):
        for event in step.events:
            _check_visibility(event, players, game)
            if isinstance(event, pe.SpyReport):
                assert event.seat == step.seat
            if isinstance(event, pe.HiddenTerritoryChosen):
                written = [ev for ev in step.events if isinstance(ev, pe.HiddenTerritoryWritten)]
                assert [ev.player for ev in written] == [event.seat]
            if isinstance(event, e.CardDrawn):
                received = [
                    ev
                    for ev in step.events
                    if isinstance(ev, e.CardsReceived) and ev.seat == event.seat
                ]
                assert received, "a drawn card reaches its holder in a private event"
        # What a seat alone knows of its own: its hidden territory and orders.
        for seat in range(players):
            secrets = dict(game.private_state(seat))
            hidden = game.hidden[seat]
            assert secrets["hidden_territory"] == (
                BOARD.territories[hidden].id if hidden >= 0 else ""
            )
            assert secrets["marshal_orders"] == game.marshal_orders[seat]


def as_json(events: list[e.Event]) -> list[dict[str, Any]]:
    stored: list[dict[str, Any]] = json.loads(json.dumps([ev.to_dict() for ev in events]))
    return stored


@BOTH_DEFENCES
@PROPERTY
@given(scenarios)
def test_the_log_replays_to_the_same_state(declare: bool, scenario: Scenario) -> None:
    scenario = dataclasses.replace(scenario, declare=declare)
    game = scenario.new_game()
    log: list[LogEntry] = []
    recorded: list[list[dict[str, Any]]] = []
    middle: dict[str, Any] | None = None
    half = (scenario.warmup + scenario.steps) // 2
    for step in play(game, scenario):
        # As a store keeps them: the action, its events and the snapshot through JSON.
        action = a.action_from_dict(json.loads(json.dumps(step.action.to_dict())))
        assert action == step.action
        log.append(LogEntry(step.seat, action))
        recorded.append(json.loads(json.dumps([event.to_dict() for event in step.events])))
        if len(log) == half:
            middle = json.loads(json.dumps(game.snapshot()))

    fresh = scenario.new_game()
    assert [ev.to_dict() for ev in fresh.initial_events] == [
        ev.to_dict() for ev in game.initial_events
    ]
    replayed = replay(fresh, log)
    assert [as_json(events) for events in replayed] == recorded
    assert fresh.snapshot() == game.snapshot()
    assert state(fresh) == state(game)

    if middle is not None:  # a snapshot continues the same game
        resumed = scenario.new_game()
        resumed.restore(middle)
        for entry, events in zip(log[half:], recorded[half:], strict=True):
            assert as_json(resumed.apply(entry.seat, entry.action)) == events
        assert resumed.snapshot() == game.snapshot()
        assert state(resumed) == state(game)


@BOTH_DEFENCES
@EXPENSIVE
@given(scenarios, st.integers(min_value=0, max_value=2))
def test_every_offered_action_applies(declare: bool, scenario: Scenario, offset: int) -> None:
    """Every extreme member of every family is allowed by it and applies (to a copy of the
    game: at one step in three, since each bound costs a copy)."""
    scenario = dataclasses.replace(scenario, declare=declare)
    game = scenario.new_game()
    assert_offered_actions_apply(game, moves(game, scenario), 3, offset)


def _space(rnd: random.Random) -> str:
    return rnd.choice((*LANDS, *SEAS, "atlantide"))


def _card(rnd: random.Random, game: PiuGame) -> str:
    pool = [*game.hands[game.current], *rnd.sample(sorted(ALL_CARDS), 3), "spia_99", ""]
    return rnd.choice(pool)


def _value(name: str, kind: Any, rnd: random.Random, game: PiuGame) -> object:
    if name == "card":
        return _card(rnd, game)
    if name == "marshal":
        return rnd.choice((*pa.MARSHAL_ORDERS, "sometimes"))
    if name == "spy":
        return rnd.choice((*pa.SPY_ORDERS, "peek"))
    if kind == "str":
        return _space(rnd)
    if kind == "tuple[str, ...]":
        return tuple(_card(rnd, game) for _ in range(3))
    return rnd.randint(-1, 7)


def _random_action(rnd: random.Random, game: PiuGame) -> a.Action:
    """An action of any kind, its spaces, cards and counts drawn near the legal ones or off."""
    kind = rnd.choice(sorted(set(a.ACTION_TYPES) - {a.Resign.kind}))
    cls = a.ACTION_TYPES[kind]
    values = {f.name: _value(f.name, f.type, rnd, game) for f in dataclasses.fields(cls)}
    return cls(**values)


def _plausible(rnd: random.Random, game: PiuGame) -> list[a.Action]:
    """Actions the seat in turn could well mean now, offered or not: its own territories and
    cards, the hidden armies, the end of its turn."""
    seat = game.current
    own = [t.id for t in BOARD.lands if game.owner[t.index] == seat] or ["atlantide"]
    hand = game.hands[seat] or ["rinforzi_01"]
    others = [s for s in range(len(game.players)) if s != seat]
    foe = [t.id for t in BOARD.lands if game.owner[t.index] != seat] or ["atlantide"]
    spied = [c for h in game.hands for c in h] or ["spia_01"]
    return [
        a.PlaceArmies(rnd.choice(own), 1),
        pa.RevealHiddenArmies(),
        a.EndTurn(),
        pa.PlayRinforzi(rnd.choice(hand)),
        pa.PlaySpy(rnd.choice(hand), rnd.choice(others)),
        pa.PlayDiplomat(rnd.choice(hand), rnd.choice(others)),
        pa.PlayGeneral(rnd.choice(hand), rnd.choice(own), rnd.choice(foe)),
        pa.AdmiralAttack(rnd.choice(hand), rnd.choice(own), rnd.choice(foe), 1, 0),
        pa.DiscardSpiedCard(rnd.choice(spied)),
        a.AttackUntil(rnd.choice(own), rnd.choice(foe), 3, 1),
        a.Attack(rnd.choice(own), rnd.choice(foe), rnd.randint(1, 3)),
        a.Defend(rnd.randint(0, 4)),
        a.StrategicMove(rnd.choice(own), rnd.choice(own), 1),
        pa.ChooseFortress(rnd.choice(own)),
        pa.ClaimTerritory(rnd.choice(foe)),
        pa.WriteHiddenTerritory(rnd.choice(own)),
    ]


def _mutate(action: a.Action, rnd: random.Random, game: PiuGame) -> a.Action:
    """`action` with one space, card, seat or count changed to something nearby."""
    fields = dataclasses.fields(action)
    if not fields:
        return action
    chosen = rnd.choice(fields)
    value = getattr(action, chosen.name)
    if isinstance(value, int) and not isinstance(value, bool):
        new: object = rnd.choice((value - 1, value + 1, 0, 4))
    else:
        new = _value(chosen.name, chosen.type, rnd, game)
    return dataclasses.replace(action, **{chosen.name: new})


def refusal(game: PiuGame, who: int | None, candidate: a.Action) -> RuleViolation:
    """The violation `candidate` raises; the test fails, saying what was offered, if the game
    accepts it."""
    offered = [type(f).__name__ for f in game.legal_actions(who)]
    try:
        game.apply(who, candidate)
    except RuleViolation as violation:
        return violation
    pytest.fail(f"{candidate} by seat {who} is accepted, not offered: {offered}")


@BOTH_DEFENCES
@EXPENSIVE
@given(scenarios)
def test_an_action_is_accepted_exactly_when_a_legal_family_allows_it(
    declare: bool, scenario: Scenario
) -> None:
    """Offered actions, actions next to them and random ones: accepted if and only if a legal
    family allows them (the seat to act's, or another seat's out of turn); accepted ones
    are applied to the engine's `clone`, which must leave the game untouched; a refusal has a
    known code and leaves the whole state, and the snapshot, as they were."""
    scenario = dataclasses.replace(scenario, declare=declare)
    game = scenario.new_game()
    mutations = random.Random(scenario.choices + 1)
    for index, (seat, action, legal) in enumerate(moves(game, scenario)):
        if (index % 2 == 0 or game.spied >= 0 or game.phase is Phase.OCCUPY) and legal:
            assert seat is not None
            others = [s for s in range(len(game.players)) if s != seat]
            candidates: list[tuple[int | None, a.Action]] = [
                (mutations.choice(others), action),
                (None, action),
            ]
            candidates += [
                (seat, _mutate(mutations.choice(legal).pick(mutations), mutations, game))
                for _ in range(4)
            ]
            candidates += [(seat, _random_action(mutations, game)) for _ in range(4)]
            candidates += [(mutations.choice(others), _random_action(mutations, game))]
            candidates += [(seat, plausible) for plausible in _plausible(mutations, game)]
            for other in mutations.sample(others, 2):  # out of turn, offered or not
                marshal = mutations.choice(pa.MARSHAL_ORDERS)
                orders = pa.SetStandingOrders(marshal, mutations.choice(pa.SPY_ORDERS))
                candidates += [(other, pa.RevealHiddenArmies()), (other, orders)]
            before = state(game)
            snapshot = game.snapshot()
            for who, candidate in candidates:
                allowed = any(family.allows(candidate) for family in game.legal_actions(who))
                if allowed:
                    game.clone().apply(who, candidate)  # the engine's own copy: shares nothing
                    assert state(game) == before, (who, candidate)
                    continue
                violation = refusal(game, who, candidate)
                assert violation.code in KNOWN_CODES, (who, candidate, violation)
                assert state(game) == before, (who, candidate)
                assert game.snapshot() == snapshot, (who, candidate)
        game.apply(seat, action)


OUT_OF_TURN = (LegalRevealHiddenArmies, LegalStandingOrders)


@BOTH_DEFENCES
@PROPERTY
@given(scenarios)
def test_only_the_seat_to_act_plays_its_turn(declare: bool, scenario: Scenario) -> None:
    """The seat to act has its families (and the clock's least action for it is accepted);
    every other seat still playing, once the setup is over, only what it may do out of turn
    (its standing orders, its hidden armies when they may come out); the others, spectators
    and everyone once the game is over, nothing. While an attack waits for its defender's
    dice, the defender is the seat to act, offered only its dice (the clock's default: the
    most), and nobody else anything."""
    scenario = dataclasses.replace(scenario, declare=declare)
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
        # What the clock plays for a seat out of time is accepted, and moves the game on.
        least = game.least_action(to_act)
        assert not isinstance(least, pa.SetStandingOrders), least
        game.clone().apply(to_act, least)
        prompts = game.prompts()
        if prompts:
            (prompt,) = prompts
            assert game.phase is Phase.DEFEND
            assert prompt.seat == to_act != game.current
            assert game.legal_actions(to_act) == [prompt.answers]
            assert isinstance(prompt.answers, LegalDefend)
            assert least == prompt.default == a.Defend(prompt.answers.max_dice)
        else:
            assert to_act == game.current
        for seat in players:
            if seat == to_act:
                continue
            families = game.legal_actions(seat)
            playing = not (game.eliminated[seat] or game.resigned[seat])
            if game.phase is Phase.SETUP or not playing or prompts:
                assert families == [], (seat, families)
                continue
            assert all(isinstance(f, OUT_OF_TURN) for f in families), families
            assert any(isinstance(f, LegalStandingOrders) for f in families)
            reveal = [f for f in families if isinstance(f, LegalRevealHiddenArmies)]
            assert bool(reveal) == bool(game.hidden_armies_now(seat))
