"""The rules engine: a game of classic RisiKo!, the base every variant builds on.

`Game` holds the whole state and changes it only through `apply(seat, action)`, which either
returns the events the action caused or raises a `RuleViolation` having changed nothing:
every check runs before the first change. Randomness comes from `DerivedRandom(seed, seq)`,
so the same seed and the same actions give the same game, event for event.

Territories are indices into the board inside the engine (lists are fast); the API speaks ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from domain import actions as a
from domain import events as e
from domain.actions import doc
from domain.combat import compare_sorted_dice
from domain.errors import (
    CardNotInHand,
    EliminationTooEarly,
    InvalidArmyCount,
    InvalidDice,
    InvalidOptions,
    MinimumGarrison,
    NotAdjacent,
    NotEnoughArmies,
    NotYourTerritory,
    NotYourTurn,
    OptionDisabled,
    OwnTerritory,
    ReinforcementsPending,
    TimeAlreadyExpired,
    UnknownTerritory,
    WrongPhase,
)
from domain.flow import OpenPrompt, Phase
from domain.kernel import Handler, Kernel
from domain.legal import (
    LegalAction,
    LegalAttack,
    LegalAttackUntil,
    LegalDefend,
    LegalEndTurn,
    LegalOccupy,
    LegalPlace,
    LegalStrategicMove,
    LegalTrade,
)
from domain.objectives import DestroyColour, HoldListedTerritories, Objective
from domain.options import DefenderDice, GameOptions, ObjectiveDeck
from domain.rng import DerivedRandom
from domain.ruleset import Ruleset
from domain.state import copy_plain
from domain.views import ARMY, SpaceView, StateView, UnitStack

MAX_DICE = 3
DEFENCE = "defence"  # the topic of the defender's prompt: its dice, when defenders declare
SETUP_ARMIES_PER_TURN = 3


__all__ = ["MAX_DICE", "ClassicState", "Game", "Phase", "copy_plain"]


@dataclass(frozen=True, slots=True)
class ClassicState(StateView):
    """Classic RisiKo!'s own state, beyond the board and the players."""

    name: ClassVar[str] = "ClassicState"
    first_player: int = doc("The seat the dice chose to play first; play goes clockwise.")
    setup_quota: int = doc("Armies the seat in turn places in this setup turn; 0 after it.")
    reinforcements_left: int = doc("Reinforcements the seat in turn still has to place.")
    conquered_this_turn: bool = doc(
        "The seat in turn has conquered a territory this turn: it draws a card at its end."
    )
    time_expired: bool = doc("The time limit has passed: the game ends with this round.")


class Game(Kernel):
    """A game of classic RisiKo!, and the rules S.P.Q.RisiKo! shares with it. Create it with
    the players' names; it deals and starts the setup at once."""

    RULES_REVISIONS: ClassVar[Mapping[int, str]] = {1: "The rules as first played."}

    def _check_options(self, ruleset: Ruleset, options: GameOptions) -> None:
        if options.objectives is ObjectiveDeck.TOURNAMENT and not ruleset.tournament_objectives:
            raise InvalidOptions("this variant has no tournament objectives")

    def _start_state(self) -> None:
        count = len(self.players)
        n_territories = len(self.board.territories)
        self.owner: list[int] = [-1] * n_territories
        self.armies: list[int] = [0] * n_territories
        self.territory_count: list[int] = [0] * count
        self.hands: list[list[str]] = [[] for _ in range(count)]
        self.deck: list[str] = []  # the top card is the last one
        self.discard: list[str] = []
        self.objective_cards: list[str] = [""] * count
        self.objectives: list[str] = [""] * count
        self.setup_remaining: list[int] = [0] * count
        self.setup_quota = 0
        self.pending_reinforcements = 0
        self.conquered_this_turn = False
        self.pending_conquest: tuple[int, int, int, int] | None = None  # source, target, min, max

    # ------------------------------------------------------------------ public API

    def _prompt_answers(self, prompt: OpenPrompt) -> LegalAction:
        """The defender's dice, when defenders declare them (phase DEFEND): 1 to the most it
        may roll, which is also the default, as when defenders do not declare."""
        target = prompt.values[1]
        return LegalDefend(1, min(MAX_DICE, self.armies[target]))

    @property
    def turn_order(self) -> tuple[int, ...]:
        n = len(self.players)
        return tuple((self.first_player + i) % n for i in range(n))

    STATE_VIEW: ClassVar[type[StateView]] = ClassicState

    def state_view(self) -> StateView:
        return ClassicState(
            self.turn_order,
            self.first_player,
            self.setup_quota if self.phase is Phase.SETUP else 0,
            self.pending_reinforcements,
            self.conquered_this_turn,
            self.time_expired,
        )

    def territories_held(self, seat: int) -> int:
        return self.territory_count[seat]

    def armies_of(self, seat: int) -> int:
        owner = self.owner
        return sum(n for t, n in enumerate(self.armies) if owner[t] == seat)

    def hand(self, seat: int) -> Sequence[str]:
        return tuple(self.hands[seat])

    def deck_size(self) -> int:
        return len(self.deck)

    def armies_to_place(self) -> int:
        return self.setup_quota if self.phase is Phase.SETUP else self.pending_reinforcements

    def secret_objective(self, seat: int) -> tuple[str, Objective] | None:
        if not self.objectives[seat]:
            return None  # the games without objectives (S.P.Q.RisiKo!)
        return self.objective_cards[seat], self.objective_of(seat)

    def may_attack(self, source: int, target: int) -> bool:
        """Whether the seat to play may attack now from `source` to `target` (indices): a fast
        check for bots; `apply` gives the reason when it is not allowed."""
        seat = self.current
        if not self._attacks_open():
            return False
        if self.owner[source] != seat or self.owner[target] == seat or self.armies[source] < 2:
            return False
        if target not in self.board.land_neighbours[source] or self._protected(target):
            return False
        low, high = self._attack_dice_range(source, target)
        return low <= high

    def _attacks_open(self) -> bool:
        """Whether this point of the turn allows an attack: every reinforcement placed."""
        if self.phase is Phase.REINFORCE:
            return not self.pending_reinforcements
        return self.phase is Phase.ATTACK

    def objective_of(self, seat: int) -> Objective:
        return self._objective(self.objectives[seat])

    def territory_id(self, index: int) -> str:
        return self.board.territories[index].id

    def reinforcements_for(self, seat: int) -> tuple[int, int, tuple[tuple[str, int], ...]]:
        """(total, from territories, bonuses by region) at the start of `seat`'s turn."""
        from_territories = self.territory_count[seat] // 3
        regions: list[tuple[str, int]] = []
        owner = self.owner
        for position, members in enumerate(self.board.region_members):
            if all(owner[t] == seat for t in members):
                region = self.board.regions[position]
                regions.append((region.id, region.bonus))
        return from_territories + sum(b for _, b in regions), from_territories, tuple(regions)

    def space_views(self) -> list[SpaceView]:
        """Every space as any client may draw it (domain/views.py)."""
        views = []
        for territory, owner, armies in zip(
            self.board.territories, self.owner, self.armies, strict=True
        ):
            seat = owner if owner >= 0 else None
            units = (UnitStack(ARMY, armies, seat),) if armies else ()
            views.append(SpaceView(territory.id, seat, units))
        return views

    def points(self, seat: int) -> int:
        """Ranking points: tournament scoring with tournament objectives (the objective's
        territories held, or the full award for a completed objective); otherwise the number
        of territories held."""
        if self.options.objectives is ObjectiveDeck.TOURNAMENT:
            if self.winner == seat:
                return self.ruleset.tournament_objective_points
            objective = self.objective_of(seat)
            assert isinstance(objective, HoldListedTerritories)
            return objective.points_held(self.board, self.owner, seat)
        return self.territory_count[seat]

    def _bind_handlers(self) -> dict[type[a.Action], Handler]:
        return {
            a.PlaceArmies: self._place_armies,
            a.TradeCards: self._trade_cards,
            a.Attack: self._attack,
            a.AttackUntil: self._attack_until,
            a.Defend: self._defend,
            a.Occupy: self._occupy,
            a.StrategicMove: self._strategic_move,
            a.EndTurn: self._end_turn_action,
            a.ExpireTime: self._expire_time,
            a.Resign: self._resign,
        }

    # 2: the attack waiting for the defender's dice is a prompt on the kernel's stack.
    SNAPSHOT_FORMAT: ClassVar[int] = 2

    _STATE: ClassVar[tuple[str, ...]] = (
        "first_player",
        "owner",
        "armies",
        "territory_count",
        "hands",
        "deck",
        "discard",
        "objective_cards",
        "objectives",
        "setup_remaining",
        "setup_quota",
        "pending_reinforcements",
        "conquered_this_turn",
    )

    def _snapshot_more(self, state: dict[str, Any]) -> None:
        state["pending_conquest"] = list(self.pending_conquest) if self.pending_conquest else None

    def _restore_more(self, state: dict[str, Any]) -> None:
        conquest = state["pending_conquest"]
        self.pending_conquest = (
            (conquest[0], conquest[1], conquest[2], conquest[3]) if conquest else None
        )

    def _turn_actions(self, seat: int) -> list[LegalAction]:
        own = [t for t, o in enumerate(self.owner) if o == seat]
        ids = self.board.territories
        if self.phase is Phase.SETUP:
            return [LegalPlace(tuple(ids[t].id for t in own), 1, self.setup_quota)]
        if self.phase is Phase.OCCUPY:
            assert self.pending_conquest is not None
            source, target, low, high = self.pending_conquest
            return [LegalOccupy(ids[source].id, ids[target].id, low, high)]
        legal: list[LegalAction] = []
        if self.phase is Phase.REINFORCE:
            hand = self.hands[seat]
            owned = frozenset(ids[t].id for t in own)
            for triple in self.ruleset.cards.tradeable_sets(hand):
                set_armies, bonus = self.ruleset.cards.value(triple, owned)
                legal.append(LegalTrade(triple, set_armies + bonus))
            if self.pending_reinforcements:
                legal.append(
                    LegalPlace(tuple(ids[t].id for t in own), 1, self.pending_reinforcements)
                )
                return legal
        neighbours = self.board.land_neighbours
        armies = self.armies
        owner = self.owner
        declare = self.options.defender_dice is DefenderDice.DECLARE
        for source in own:
            if armies[source] < 2:
                continue
            for target in neighbours[source]:
                if owner[target] == seat:
                    continue
                low, high = self._attack_dice_range(source, target)
                if low > high or self._protected(target):
                    continue
                legal.append(LegalAttack(ids[source].id, ids[target].id, low, high))
                if not declare:
                    legal.append(
                        LegalAttackUntil(ids[source].id, ids[target].id, low, 1, armies[source] - 1)
                    )
        for source in own:
            if armies[source] < 2:
                continue
            high = self._strategic_max(source)
            if high < 1:
                continue
            for target in neighbours[source]:
                if owner[target] == seat:
                    legal.append(LegalStrategicMove(ids[source].id, ids[target].id, 1, high))
        legal.append(LegalEndTurn())
        return legal

    # ------------------------------------------------------------------ setup

    def _deal(self, rng: DerivedRandom) -> list[e.Event]:
        n = len(self.players)
        # The dice decide who plays first; play goes clockwise (the seat order).
        self.first_player = rng.below(n)
        events: list[e.Event] = [
            e.GameStarted(
                self.players, self.colours, self.first_player, self.turn_order, self.commitment
            )
        ]

        tournament = self.options.objectives is ObjectiveDeck.TOURNAMENT
        deck = list(self.ruleset.tournament_objectives if tournament else self.ruleset.objectives)
        rng.shuffle(deck)
        for seat in self.turn_order:
            card = deck.pop()
            self.objective_cards[seat] = card
            self.objectives[seat] = self._effective_objective(seat, card)
            events.append(e.ObjectiveAssigned(seat, card, self.objectives[seat]))

        # The 42 territory cards, jolly removed, dealt one at a time from the dealer's right,
        # anticlockwise: the reverse of the playing order, starting with the last player.
        territory_cards = [c.id for c in self.ruleset.cards.cards.values() if c.territory]
        rng.shuffle(territory_cards)
        receivers = tuple(reversed(self.turn_order))
        for i, card_id in enumerate(territory_cards):
            seat = receivers[i % n]
            territory = self.board.index[card_id]
            self.owner[territory] = seat
            self.armies[territory] = 1
            self.territory_count[seat] += 1
        starting = self.ruleset.starting_armies[n]
        for seat in range(n):
            self.setup_remaining[seat] = starting - self.territory_count[seat]
        events.append(e.TerritoriesDealt(tuple(self.owner), starting))
        self.current = self.first_player
        self.setup_quota = min(SETUP_ARMIES_PER_TURN, self.setup_remaining[self.current])
        if self.setup_quota == 0:
            events += self._next_setup_turn(self._random())  # never: 3 or more to place
        return events

    def _effective_objective(self, seat: int, card: str) -> str:
        objective = self._objective(card)
        if isinstance(objective, DestroyColour) and (
            objective.colour == self.colours[seat] or objective.colour not in self.colours
        ):
            return objective.fallback
        return card

    def _objective(self, objective_id: str) -> Objective:
        if objective_id in self.ruleset.tournament_objectives:
            return self.ruleset.tournament_objectives[objective_id]
        return self.ruleset.objectives[objective_id]

    def _next_setup_turn(self, rng: DerivedRandom) -> list[e.Event]:
        order = self.turn_order
        position = order.index(self.current)
        for step in range(1, len(order) + 1):
            seat = order[(position + step) % len(order)]
            if self.setup_remaining[seat] > 0:
                self.current = seat
                self.setup_quota = min(SETUP_ARMIES_PER_TURN, self.setup_remaining[seat])
                return []
        # Everyone has placed everything: the deck, with the jolly, is shuffled, and play starts.
        self.deck = list(self.ruleset.cards.cards)
        rng.shuffle(self.deck)
        self.round = 1
        events: list[e.Event] = [e.DeckShuffled(len(self.deck), False)]
        first = next(seat for seat in self.turn_order if not self.resigned[seat])
        return events + self._start_turn(first)

    # ------------------------------------------------------------------ checks

    def _check_turn(self, seat: int | None) -> int:
        if seat is None or seat != self.current:
            raise NotYourTurn("it is not your turn")
        return seat

    def _territory(self, territory_id: str) -> int:
        index = self.board.index.get(territory_id)
        if index is None:
            raise UnknownTerritory(f"there is no territory {territory_id!r}")
        return index

    def _own_territory(self, seat: int, territory_id: str) -> int:
        index = self._territory(territory_id)
        if self.owner[index] != seat:
            name = self.board.territories[index].name
            raise NotYourTerritory(f"{name} is not yours")
        return index

    def _check_can_act_in_turn(self) -> None:
        """Attacks, the strategic move and the end of the turn all need every reinforcement
        placed; trading cards is over once the first of them happens."""
        if self.phase is Phase.REINFORCE:
            if self.pending_reinforcements:
                raise ReinforcementsPending(
                    f"place your {self.pending_reinforcements} remaining armies first"
                )
        elif self.phase is not Phase.ATTACK:
            raise WrongPhase(f"you cannot do that in the {self.phase.value} phase")

    def _protected(self, target: int) -> bool:
        """No elimination before the end of round `protected_rounds`: a player's last
        territory cannot be attacked until then."""
        owner = self.owner[target]  # negative: a neutral army, which is not a player
        return (
            owner >= 0
            and self.round <= self.options.protected_rounds
            and self.territory_count[owner] == 1
        )

    def _attack_dice_range(self, source: int, target: int) -> tuple[int, int]:
        high = min(MAX_DICE, self.armies[source] - 1)
        low = 1
        if self.options.attacker_dice_at_least_defender:
            low = min(MAX_DICE, self.armies[target])
        return low, high

    def _validate_attack(
        self, seat: int, source_id: str, target_id: str, dice: int
    ) -> tuple[int, int]:
        self._check_can_act_in_turn()
        source = self._own_territory(seat, source_id)
        target = self._territory(target_id)
        board = self.board
        if self.owner[target] == seat:
            raise OwnTerritory(f"{board.territories[target].name} is already yours")
        if target not in board.land_neighbours[source]:
            raise NotAdjacent(
                f"{board.territories[source].name} does not border {board.territories[target].name}"
            )
        if self.armies[source] < 2:
            raise NotEnoughArmies(
                f"{board.territories[source].name} needs at least 2 armies to attack"
            )
        low, high = self._attack_dice_range(source, target)
        if not 1 <= dice <= high:
            raise InvalidDice(f"attack with 1 to {high} dice from {board.territories[source].name}")
        if dice < low:
            raise InvalidDice(
                f"tournament rules: attack with at least as many dice as the defender ({low})"
            )
        if self._protected(target):
            raise EliminationTooEarly(
                f"no player may be eliminated before the end of round "
                f"{self.options.protected_rounds}: {board.territories[target].name} is the "
                f"last territory of {self.players[self.owner[target]]}"
            )
        return source, target

    def _strategic_max(self, source: int) -> int:
        """The most armies a voluntary move may take from `source`."""
        high = self.armies[source] - 1
        if self.options.minimum_garrison and self._borders_enemy(source):
            high = self.armies[source] - 2
        return high

    def _borders_enemy(self, territory: int) -> bool:
        seat = self.owner[territory]
        owner = self.owner
        return any(owner[n] != seat for n in self.board.land_neighbours[territory])

    # ------------------------------------------------------------------ handlers

    def _place_armies(self, seat: int | None, action: a.PlaceArmies) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is Phase.SETUP:
            available = self.setup_quota
        elif self.phase is Phase.REINFORCE:
            available = self.pending_reinforcements
            if available == 0:
                raise InvalidArmyCount("you have no armies left to place")
        else:
            raise WrongPhase(f"you cannot place armies in the {self.phase.value} phase")
        territory = self._own_territory(seat, action.territory)
        if not 1 <= action.armies <= available:
            raise InvalidArmyCount(f"place 1 to {available} armies, not {action.armies}")
        self.armies[territory] += action.armies
        events: list[e.Event] = [e.ArmiesPlaced(seat, action.territory, action.armies)]
        if self.phase is Phase.SETUP:
            self.setup_quota -= action.armies
            self.setup_remaining[seat] -= action.armies
            if self.setup_quota == 0:
                events += self._next_setup_turn(self._random())
            return events
        self.pending_reinforcements -= action.armies
        return events + self._after_armies_changed(seat)

    def _trade_cards(self, seat: int | None, action: a.TradeCards) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is not Phase.REINFORCE:
            raise WrongPhase("cards can be traded only in the reinforcement phase")
        hand = self.hands[seat]
        for card in action.cards:
            if card not in hand:
                raise CardNotInHand(f"you do not hold the card {card!r}")
        owned = frozenset(t.id for t in self.board.territories if self.owner[t.index] == seat)
        armies, bonus = self.ruleset.cards.value(action.cards, owned)
        for card in action.cards:
            hand.remove(card)
        self.discard.extend(action.cards)
        self.pending_reinforcements += armies + bonus
        return [e.CardsTraded(seat, tuple(action.cards), armies, bonus)]

    def _attack(self, seat: int | None, action: a.Attack) -> list[e.Event]:
        seat = self._check_turn(seat)
        source, target = self._validate_attack(seat, action.source, action.target, action.dice)
        self.phase = Phase.ATTACK
        if self._defender_declares(target):
            return self._declare_attack(seat, source, target, action.dice, DEFENCE, ())
        rng = self._random()
        defence = min(MAX_DICE, self.armies[target])
        events = self._roll(rng, seat, source, target, action.dice, defence)
        return events + self._after_battle(seat, target)

    def _defender_declares(self, target: int) -> bool:
        """Whether an attack on `target` waits for its defender's dice: defenders declare in
        this game, and the territory's player is still playing (a player who left, or a
        neutral army, always rolls the most)."""
        defender = self.owner[target]
        return (
            self.options.defender_dice is DefenderDice.DECLARE
            and defender >= 0
            and not self.resigned[defender]
            and not self.eliminated[defender]
        )

    def _declare_attack(
        self, seat: int, source: int, target: int, dice: int, topic: str, more: tuple[int, ...]
    ) -> list[e.Event]:
        """The attack waits for the defender's dice: a prompt on the stack, owed by the
        territory's player, of `topic`; its values are the battle's (source, target, the
        attacker's dice) and `more` that a game needs to go on once it is answered."""
        defender = self.owner[target]
        self._push_prompt(OpenPrompt(defender, topic, (source, target, dice, *more)))
        self.phase = Phase.DEFEND
        ids = self.board.territories
        return [e.AttackDeclared(seat, ids[source].id, ids[target].id, dice, defender)]

    def _defend(self, seat: int | None, action: a.Defend) -> list[e.Event]:
        prompt = self.open_prompt()
        if self.phase is not Phase.DEFEND or prompt is None:
            raise WrongPhase("no attack is waiting for a defender")
        if seat != prompt.seat:
            raise NotYourTurn("only the defender declares the defending dice")
        high = min(MAX_DICE, self.armies[prompt.values[1]])
        if not 1 <= action.dice <= high:
            raise InvalidDice(f"defend with 1 to {high} dice, not {action.dice}")
        self._pop_prompt()
        self.phase = Phase.ATTACK
        rng = self._random()
        return self._roll_declared(rng, prompt, action.dice)

    def _roll_declared(self, rng: DerivedRandom, prompt: OpenPrompt, defence: int) -> list[e.Event]:
        """The roll the attack of `prompt` waited for, with the `defence` dice declared."""
        source, target, dice = prompt.values
        events = self._roll(rng, self.current, source, target, dice, defence)
        return events + self._after_battle(self.current, target)

    def _attack_until(self, seat: int | None, action: a.AttackUntil) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.options.defender_dice is DefenderDice.DECLARE:
            raise OptionDisabled(
                "defenders declare their dice in this game: attack one roll at a time"
            )
        if not 1 <= action.dice <= MAX_DICE:
            raise InvalidDice(f"attack with 1 to {MAX_DICE} dice, not {action.dice}")
        source = self._own_territory(seat, action.source)
        first_dice = min(action.dice, self.armies[source] - 1)
        source, target = self._validate_attack(seat, action.source, action.target, first_dice)
        if not 1 <= action.stop_at < self.armies[source]:
            raise InvalidArmyCount(
                f"stop_at must be between 1 and {self.armies[source] - 1}, not {action.stop_at}"
            )
        self.phase = Phase.ATTACK
        rng = self._random()
        armies = self.armies
        strict = self.options.attacker_dice_at_least_defender
        events: list[e.Event] = []
        while True:
            dice = min(action.dice, armies[source] - 1)
            defence = min(MAX_DICE, armies[target])
            if strict and dice < defence:
                break
            events += self._roll(rng, seat, source, target, dice, defence)
            if self.owner[target] == seat or armies[source] <= action.stop_at:
                break
        return events + self._after_battle(seat, target)

    def _roll(
        self, rng: DerivedRandom, seat: int, source: int, target: int, dice: int, defence: int
    ) -> list[e.Event]:
        attacker, defender = rng.roll(dice, defence)  # each sorted highest first
        attacker_losses, defender_losses = compare_sorted_dice(attacker, defender)
        armies = self.armies
        armies[source] -= attacker_losses
        armies[target] -= defender_losses
        territories = self.board.territories
        events: list[e.Event] = [
            e.DiceRolled(
                seat,
                territories[source].id,
                territories[target].id,
                tuple(attacker),
                tuple(defender),
                attacker_losses,
                defender_losses,
            )
        ]
        if armies[target] == 0:
            events += self._conquer(seat, source, target, dice)
        return events

    def _conquer(self, seat: int, source: int, target: int, dice: int) -> list[e.Event]:
        defender = self.owner[target]
        self.owner[target] = seat
        self.territory_count[seat] += 1
        if defender >= 0:  # not a neutral army
            self.territory_count[defender] -= 1
        self.conquered_this_turn = True
        source_id = self.board.territories[source].id
        target_id = self.board.territories[target].id
        # At least the armies of the last roll move in; the tournament garrison rule limits
        # only the armies moved beyond that.
        high = max(dice, self._strategic_max(source))
        events: list[e.Event] = [
            e.TerritoryConquered(seat, source_id, target_id, max(defender, -1), dice, high)
        ]
        if defender >= 0 and self.territory_count[defender] == 0:
            events += self._eliminate(defender, seat)
        if dice == high:
            self.armies[source] -= dice
            self.armies[target] = dice
            events.append(e.ArmiesMoved(seat, source_id, target_id, dice, False))
        else:
            self.pending_conquest = (source, target, dice, high)
            self.phase = Phase.OCCUPY
        return events

    def _eliminate(self, loser: int, winner: int) -> list[e.Event]:
        self.eliminated[loser] = True
        cards = self.hands[loser]
        self.hands[loser] = []
        self.hands[winner].extend(cards)
        events: list[e.Event] = [e.PlayerEliminated(loser, winner, len(cards))]
        if cards:
            events.append(e.CardsReceived(winner, tuple(cards)))
        return events + self._after_elimination(loser, winner)

    def _after_elimination(self, loser: int, winner: int) -> list[e.Event]:
        """A "destroy colour X" objective of another player becomes its fallback."""
        events: list[e.Event] = []
        colour = self.colours[loser]
        for seat in range(len(self.players)):
            objective = self.objective_of(seat)
            if (
                seat != winner
                and not self.eliminated[seat]
                and isinstance(objective, DestroyColour)
                and objective.colour == colour
            ):
                self.objectives[seat] = objective.fallback
                reason = f"{colour} was destroyed by another player"
                events.append(e.ObjectiveChanged(seat, objective.fallback, reason))
        return events

    def _after_armies_changed(self, seat: int) -> list[e.Event]:
        """Armies placed or moved without a conquest: only objectives that count armies can
        be completed by that."""
        if self.objective_of(seat).counts_armies:
            return self._check_victory()
        return []

    def _after_battle(self, seat: int, target: int) -> list[e.Event]:
        # Losing armies never completes an objective: only a conquest can.
        if self.owner[target] == seat:
            return self._check_victory()
        return []

    def _occupy(self, seat: int | None, action: a.Occupy) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is not Phase.OCCUPY or self.pending_conquest is None:
            raise WrongPhase("there is no conquered territory to occupy")
        source, target, low, high = self.pending_conquest
        base_high = self.armies[source] - 1
        if not low <= action.armies <= base_high:
            raise InvalidArmyCount(f"move {low} to {base_high} armies, not {action.armies}")
        if action.armies > high:
            raise MinimumGarrison(
                f"tournament rules: {self.board.territories[source].name} borders an enemy and "
                f"must keep at least 2 armies; move at most {high}"
            )
        self.armies[source] -= action.armies
        self.armies[target] += action.armies
        self.pending_conquest = None
        self.phase = Phase.ATTACK
        source_id = self.board.territories[source].id
        target_id = self.board.territories[target].id
        events: list[e.Event] = [e.ArmiesMoved(seat, source_id, target_id, action.armies, False)]
        return events + self._after_armies_changed(seat)

    def _strategic_move(self, seat: int | None, action: a.StrategicMove) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_can_act_in_turn()
        source = self._own_territory(seat, action.source)
        target = self._own_territory(seat, action.target)
        names = self.board.territories
        if target not in self.board.land_neighbours[source]:
            raise NotAdjacent(f"{names[source].name} does not border {names[target].name}")
        base_high = self.armies[source] - 1
        if base_high < 1:
            raise NotEnoughArmies(f"{names[source].name} must keep at least one army")
        if not 1 <= action.armies <= base_high:
            raise InvalidArmyCount(f"move 1 to {base_high} armies, not {action.armies}")
        if action.armies > self._strategic_max(source):
            raise MinimumGarrison(
                f"tournament rules: {names[source].name} borders an enemy and must keep at "
                "least 2 armies"
            )
        self.armies[source] -= action.armies
        self.armies[target] += action.armies
        events: list[e.Event] = [
            e.ArmiesMoved(seat, action.source, action.target, action.armies, True)
        ]
        events += self._check_victory()
        if self.phase is Phase.OVER:
            return events
        return events + self._end_turn(seat)

    def _end_turn_action(self, seat: int | None, action: a.EndTurn) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_can_act_in_turn()
        return self._end_turn(seat)

    # A player who leaves is out at once: the attack waiting on it as a defender goes ahead
    # with the default answer, against a departed player.
    LEAVES_BEFORE_ANSWERING: ClassVar[bool] = True

    def _leaving(self, seat: int) -> list[e.Event]:
        """A player leaves the game. Their armies stay on the board and defend with the most
        dice they can; their turns are skipped; a player alone with such armies wins."""
        self.setup_remaining[seat] = 0
        return []

    def _leave_turn(self, seat: int) -> list[e.Event]:
        if self.phase is Phase.SETUP:
            return self._next_setup_turn(self._random())
        events: list[e.Event] = []
        if self.pending_conquest is not None:
            source, target, low, _ = self.pending_conquest
            self.armies[source] -= low
            self.armies[target] += low
            ids = self.board.territories
            events.append(e.ArmiesMoved(seat, ids[source].id, ids[target].id, low, False))
            self.pending_conquest = None
        events += self._drop_prompts()
        self.conquered_this_turn = False  # no card for a player who has left
        return events + self._end_turn(seat)

    def _drop_prompts(self) -> list[e.Event]:
        """The seat in turn has left: the answers its turn waited for are owed no more (an
        attack declared is not rolled)."""
        self.prompt_stack = []
        return []

    def _expire_time(self, seat: int | None, action: a.ExpireTime) -> list[e.Event]:
        if seat is not None:
            raise NotYourTurn("only the game's clock can declare the time limit reached")
        if self.options.time_limit_minutes is None:
            raise OptionDisabled("this game has no time limit")
        if self.time_expired:
            raise TimeAlreadyExpired("the time limit has already been reached")
        self.time_expired = True
        return [e.TimeExpired(self.round)]

    # ------------------------------------------------------------------ turns and the end

    def _end_turn(self, seat: int) -> list[e.Event]:
        events: list[e.Event] = []
        if self.conquered_this_turn:
            events += self._draw_card(seat)
        events.append(e.TurnEnded(seat))
        order = self.turn_order
        position = order.index(seat)
        for step in range(1, len(order) + 1):
            candidate = order[(position + step) % len(order)]
            if not self.eliminated[candidate] and not self.resigned[candidate]:
                break
        new_round = order.index(candidate) <= position
        if new_round:
            limit = self.options.round_limit
            if self.time_expired or (limit is not None and self.round >= limit):
                reason = "time_limit" if self.time_expired else "round_limit"
                return events + self._finish(None, reason)
            self.round += 1
        return events + self._start_turn(candidate)

    def _draw_card(self, seat: int) -> list[e.Event]:
        events: list[e.Event] = []
        if not self.deck and self.discard:
            self.deck = self.discard
            self.discard = []
            self._random().shuffle(self.deck)
            events.append(e.DeckShuffled(len(self.deck), True))
        if not self.deck:
            return events  # every card is in someone's hand
        card = self.deck.pop()
        self.hands[seat].append(card)
        hand_size = len(self.hands[seat])
        return [*events, e.CardDrawn(seat, hand_size), e.CardsReceived(seat, (card,))]

    def _start_turn(self, seat: int) -> list[e.Event]:
        self.current = seat
        self.phase = Phase.REINFORCE
        self.conquered_this_turn = False
        total, from_territories, regions = self.reinforcements_for(seat)
        self.pending_reinforcements = total
        events: list[e.Event] = [e.TurnStarted(seat, self.round, total, from_territories, regions)]
        return events + self._check_victory()

    def _check_victory(self) -> list[e.Event]:
        """A player wins only during their own turn, as soon as the objective is met."""
        seat = self.current
        active = self.active_seats()
        if len(active) <= 1:
            return self._finish(active[0] if active else None, "last_player")
        objective_id = self.objectives[seat]
        objective = self._objective(objective_id)
        if isinstance(objective, DestroyColour):
            target = self.colours.index(objective.colour)
            if self.eliminated[target]:
                return self._finish(seat, "objective")
            return []
        if objective.is_met(self.board, self.owner, self.armies, seat):
            return self._finish(seat, "objective")
        return []

    def _before_finish(self) -> list[e.Event]:
        conquest = self.pending_conquest
        self.pending_conquest = None
        if conquest is None:
            return []
        # A conquest that wins the game is still occupied with the armies of the last roll.
        source, target, low, _ = conquest
        self.armies[source] -= low
        self.armies[target] += low
        ids = self.board.territories
        return [e.ArmiesMoved(self.current, ids[source].id, ids[target].id, low, False)]

    def _revealed_at_end(self) -> tuple[str, ...]:
        return tuple(self.objective_cards) if self.ruleset.objectives else ()
