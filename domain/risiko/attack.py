"""RisiKo!'s attack: dice compared pair by pair across a land border, one roll (Attack) or until
a conquest or a stop (AttackUntil); a conquest moves armies in (Occupy, when there is a
choice), and a seat that loses its last territory is eliminated. The protected rounds keep a
player's last territory out of reach."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, final

from domain import actions as a
from domain import events as e
from domain.combat import compare_sorted_dice
from domain.errors import (
    EliminationTooEarly,
    InvalidArmyCount,
    InvalidDice,
    InvalidOptions,
    MinimumGarrison,
    NotAdjacent,
    NotEnoughArmies,
    OptionDisabled,
    OwnTerritory,
    WrongPhase,
)
from domain.flow import Phase
from domain.kernel import handles
from domain.legal import LegalAction, LegalAttack, LegalAttackUntil, LegalOccupy
from domain.options import GameOptions, option
from domain.risiko.cards import Deck
from domain.risiko.turns import ClockwiseTurns
from domain.rng import DerivedRandom

MAX_DICE = 3


@dataclass(frozen=True)
class AttackOptions(GameOptions):
    """The protected rounds, and the tournament's dice."""

    # "No elimination before the end of the fourth round": during rounds 1..N nobody may
    # attack the last territory of a player. 0 turns the protection off.
    protected_rounds: int = option(
        4, "No player may be eliminated before the end of this round (0: off).", off=0
    )
    attacker_dice_at_least_defender: bool = option(
        False, "Tournament: no attack with fewer dice than the defender.", off=False
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.protected_rounds < 0:
            raise InvalidOptions("protected_rounds must be 0 or more")


class PairwiseAttack(Deck, ClockwiseTurns):
    """Attacks across land borders with up to three dice a side, the conquest still to occupy
    (`pending_conquest`: source, target, the fewest and the most armies to move in).

    Its options, where the game offers them: `AttackOptions` (the protected rounds and the
    tournament's dice; read once, as the game starts: options do not change).
    Hooks: `_attacks_open()` (this point of the turn allows an attack), `_attack_dice_range`,
    `_may_target(seat, target)`, `_check_attack_spaces(source_id, target_id)` (refusals of
    the spaces, before the shared ones) and `_check_attack(seat, source, target)` (after
    them), `_attack_until_dice(action)`, `defenders_declare()`, `_defender_declares(target)`
    and `_declare_attack` (the defender's dice as a prompt: `DeclaredDefence`), `_roll` (a
    game's own roll), `_conquered` (what a conquest does besides changing hands),
    `_recall()` (what an attack waiting for its defender took along goes back),
    `_after_battle`, `_after_elimination`, `_after_armies_changed`."""

    _STATE: ClassVar[tuple[str, ...]] = ()
    pending_conquest: tuple[int, int, int, int] | None
    # Whether the game defines these hooks: the hot paths skip a hook left as it is here.
    _CHECKS_SPACES: ClassVar[bool] = False
    _CHECKS_MORE: ClassVar[bool] = False
    _LIMITS_TARGETS: ClassVar[bool] = False
    _CAPS_DICE: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        base = PairwiseAttack
        cls._CHECKS_SPACES = cls._check_attack_spaces is not base._check_attack_spaces
        cls._CHECKS_MORE = cls._check_attack is not base._check_attack
        cls._LIMITS_TARGETS = cls._may_target is not base._may_target
        cls._CAPS_DICE = cls._attack_until_dice is not base._attack_until_dice

    def _start_state(self) -> None:
        self.pending_conquest = None  # source, target, min, max
        super()._start_state()
        # The rules the options fix for the whole game, read once (the hot paths read these).
        options = self.options
        if isinstance(options, AttackOptions):
            self._matching_dice = options.attacker_dice_at_least_defender
            self._protection = options.protected_rounds
        else:  # a game without them: neither rule
            self._matching_dice, self._protection = False, 0
        self._declaring = self.defenders_declare()

    def _snapshot_more(self, state: dict[str, Any]) -> None:
        state["pending_conquest"] = list(self.pending_conquest) if self.pending_conquest else None
        super()._snapshot_more(state)

    def _restore_more(self, state: dict[str, Any]) -> None:
        conquest = state["pending_conquest"]
        self.pending_conquest = (
            (conquest[0], conquest[1], conquest[2], conquest[3]) if conquest else None
        )
        super()._restore_more(state)

    # ------------------------------------------------------------------ the rules of an attack

    def _attacks_open(self) -> bool:
        """Whether this point of the turn allows an attack: every reinforcement placed."""
        if self.phase is Phase.REINFORCE:
            return not self.pending_reinforcements
        return self.phase is Phase.ATTACK

    def _attack_dice_range(self, source: int, target: int) -> tuple[int, int]:
        """The fewest and the most dice an attack from `source` on `target` rolls: up to
        three, one army staying behind; at least the defender's with the tournament rule."""
        high = min(MAX_DICE, self.armies[source] - 1)
        if self._matching_dice:
            return min(MAX_DICE, self.armies[target]), high
        return 1, high

    @final
    def _protected(self, target: int) -> bool:
        """No elimination before the end of the protected rounds: a player's last
        territory cannot be attacked until then."""
        owner = self.owner[target]  # negative: a neutral army, which is not a player
        return owner >= 0 and self.round <= self._protection and self.territory_count[owner] == 1

    def _may_target(self, seat: int, target: int) -> bool:
        """Whether `seat` may attack `target`'s holder at all (no truce binds them)."""
        return True

    def _check_attack_spaces(self, source_id: str, target_id: str) -> None:
        """A game's own refusals of an attack's spaces, before the shared ones (none)."""

    def _check_attack(self, seat: int, source: int, target: int) -> None:
        """A game's own refusals of an attack, after the shared ones (none by default)."""

    def _attack_until_dice(self, action: a.AttackUntil) -> int:
        """The dice an AttackUntil rolls at most (a game may cap them: a fortress)."""
        return action.dice

    def _conquered(self, seat: int, target: int, defender: int) -> list[e.Event]:
        """`seat` took `target` from `defender` (negative: nobody, or a neutral army): the
        card it earns at the end of its turn, and the defender eliminated with its last."""
        self.conquered_this_turn = True
        if defender >= 0 and self.territory_count[defender] == 0:
            return self._eliminate(defender, seat)
        return []

    def defenders_declare(self) -> bool:
        """Whether the defenders of this game declare their dice (then no AttackUntil)."""
        return False

    def _defender_declares(self, target: int) -> bool:
        """Whether an attack on `target` waits for its defender's dice."""
        return False

    def _declare_attack(
        self, seat: int, source: int, target: int, dice: int, topic: str, more: tuple[int, ...]
    ) -> list[e.Event]:
        """The attack waits for the defender's dice (`DeclaredDefence`)."""
        raise NotImplementedError

    def _after_battle(self, seat: int, target: int) -> list[e.Event]:
        """After the rolls of an attack (a conquest may complete an objective)."""
        return []

    def _after_elimination(self, loser: int, winner: int) -> list[e.Event]:
        """After `loser` is eliminated by `winner` (its cards are the winner's already)."""
        return []

    @final
    def may_attack(self, source: int, target: int) -> bool:
        """Whether the seat to play may attack now from `source` to `target` (indices): a fast
        check for bots; `apply` gives the reason when it is not allowed."""
        seat = self.current
        if not self._attacks_open():
            return False
        owner = self.owner
        if owner[source] != seat or owner[target] == seat or self.armies[source] < 2:
            return False
        if target not in self.board.land_neighbours[source]:
            return False
        low, high = self._attack_dice_range(source, target)
        if low > high or self._protected(target):
            return False
        return not self._LIMITS_TARGETS or self._may_target(seat, target)

    @final
    def _validate_attack(
        self, seat: int, source_id: str, target_id: str, dice: int
    ) -> tuple[int, int]:
        """An attack of `dice` dice is allowed now, or the first rule it breaks is raised."""
        self._check_can_act_in_turn()
        if self._CHECKS_SPACES:
            self._check_attack_spaces(source_id, target_id)
        source = self._own_territory(seat, source_id)
        board = self.board
        target = board.find(target_id)
        names = board.territories
        if self.owner[target] == seat:
            raise OwnTerritory(f"{names[target].name} is already yours")
        if target not in board.land_neighbours[source]:
            raise NotAdjacent(f"{names[source].name} does not border {names[target].name}")
        if self.armies[source] < 2:
            raise NotEnoughArmies(f"{names[source].name} needs at least 2 armies to attack")
        low, high = self._attack_dice_range(source, target)
        if not 1 <= dice <= high:
            raise InvalidDice(f"attack with 1 to {high} dice from {names[source].name}")
        if dice < low:
            raise InvalidDice(
                f"tournament rules: attack with at least as many dice as the defender ({low})"
            )
        if self._protected(target):
            raise EliminationTooEarly(
                f"no player may be eliminated before the end of round "
                f"{self._protection}: {names[target].name} is the last territory of "
                f"{self.players[self.owner[target]]}"
            )
        if self._CHECKS_MORE:
            self._check_attack(seat, source, target)
        return source, target

    @final
    def _attack_families(self, seat: int) -> list[LegalAction]:
        """An Attack (and, unless defenders declare, an AttackUntil) for every enemy
        neighbour each own territory with 2 armies may attack."""
        ids = self.board.territories
        neighbours = self.board.land_neighbours
        armies = self.armies
        owner = self.owner
        until = not self._declaring
        legal: list[LegalAction] = []
        for source, holder in enumerate(owner):
            if holder != seat or armies[source] < 2:
                continue
            for target in neighbours[source]:
                if owner[target] == seat:
                    continue
                if self._LIMITS_TARGETS and not self._may_target(seat, target):
                    continue
                low, high = self._attack_dice_range(source, target)
                if low > high or self._protected(target):
                    continue
                legal.append(LegalAttack(ids[source].id, ids[target].id, low, high))
                if until:
                    legal.append(
                        LegalAttackUntil(ids[source].id, ids[target].id, low, 1, armies[source] - 1)
                    )
        return legal

    @final
    def _occupy_family(self) -> LegalOccupy:
        assert self.pending_conquest is not None
        source, target, low, high = self.pending_conquest
        ids = self.board.territories
        return LegalOccupy(ids[source].id, ids[target].id, low, high)

    # ------------------------------------------------------------------ the handlers

    @final
    @handles(a.Attack)
    def _attack(self, seat: int | None, action: a.Attack) -> list[e.Event]:
        seat = self._check_turn(seat)
        source, target = self._validate_attack(seat, action.source, action.target, action.dice)
        self.phase = Phase.ATTACK
        if self._defender_declares(target):
            return self._declare_attack(seat, source, target, action.dice, DEFENCE, ())
        defence = min(MAX_DICE, self.armies[target])
        events = self._roll(self._random(), seat, source, target, action.dice, defence)
        return events + self._after_battle(seat, target)

    @final
    @handles(a.AttackUntil)
    def _attack_until(self, seat: int | None, action: a.AttackUntil) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self._declaring:
            raise OptionDisabled(
                "defenders declare their dice in this game: attack one roll at a time"
            )
        if not 1 <= action.dice <= MAX_DICE:
            raise InvalidDice(f"attack with 1 to {MAX_DICE} dice, not {action.dice}")
        source = self._own_territory(seat, action.source)
        dice = self._attack_until_dice(action) if self._CAPS_DICE else action.dice
        first_dice = min(dice, self.armies[source] - 1)
        source, target = self._validate_attack(seat, action.source, action.target, first_dice)
        if not 1 <= action.stop_at < self.armies[source]:
            raise InvalidArmyCount(
                f"stop_at must be between 1 and {self.armies[source] - 1}, not {action.stop_at}"
            )
        self.phase = Phase.ATTACK
        rng = self._random()
        armies = self.armies
        strict = self._matching_dice
        events: list[e.Event] = []
        while True:
            rolled = min(dice, armies[source] - 1)
            defence = min(MAX_DICE, armies[target])
            if strict and rolled < defence:
                break
            events += self._roll(rng, seat, source, target, rolled, defence)
            if self.owner[target] == seat or armies[source] <= action.stop_at:
                break
        return events + self._after_battle(seat, target)

    def _roll(
        self, rng: DerivedRandom, seat: int, source: int, target: int, dice: int, defence: int
    ) -> list[e.Event]:
        """One roll, `dice` against `defence`; the conquest if the defender has none left."""
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

    @final
    def _conquer(self, seat: int, source: int, target: int, dice: int) -> list[e.Event]:
        """`target` falls: at least the armies of the last roll move in, at most what a
        move may take (the armies to choose: Occupy)."""
        defender = self._capture(seat, target)
        source_id = self.board.territories[source].id
        target_id = self.board.territories[target].id
        # At least the armies of the last roll move in; the tournament garrison rule limits
        # only the armies moved beyond that.
        high = max(dice, self._strategic_max(source))
        events: list[e.Event] = [
            e.TerritoryConquered(seat, source_id, target_id, max(defender, -1), dice, high)
        ]
        events += self._conquered(seat, target, defender)
        # The conquerors move in: the armies of the last roll when there is no choice, else
        # the conquest waits to be occupied.
        if dice == high:
            self.armies[source] -= dice
            self.armies[target] = dice
            events.append(e.ArmiesMoved(seat, source_id, target_id, dice, False))
        else:
            self.pending_conquest = (source, target, dice, high)
            self.phase = Phase.OCCUPY
        return events

    @final
    def _eliminate(self, loser: int, winner: int) -> list[e.Event]:
        """`loser` is out: its cards go to `winner` (the games that deal cards)."""
        self.eliminated[loser] = True
        cards = self.hands[loser]
        self.hands[loser] = []
        self.hands[winner].extend(cards)
        events: list[e.Event] = [e.PlayerEliminated(loser, winner, len(cards))]
        if cards:
            events.append(e.CardsReceived(winner, tuple(cards)))
        return events + self._after_elimination(loser, winner)

    @final
    @handles(a.Occupy)
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

    def _recall(self) -> list[e.Event]:
        """What an attack waiting for its defender had taken along goes back (nothing)."""
        return []

    def _leave_turn(self, seat: int) -> list[e.Event]:
        """The seat in turn leaves in play: its turn is abandoned (the setup's: Placement).
        Its armies stay on the board and defend with the most dice they can; its turns are
        skipped; a player alone with such armies wins."""
        if self.phase is Phase.SETUP:
            return super()._leave_turn(seat)
        return self._abandon_turn(seat)

    @final
    def _abandon_turn(self, seat: int) -> list[e.Event]:
        """The seat in turn has left: a conquest still to occupy takes the armies of the last
        roll, the answers its turn waited for are owed no more (an attack declared is not
        rolled), it draws no card, and its turn ends."""
        events = self._occupy_the_least(seat)
        events += self._recall()
        self.prompt_stack = []
        self.conquered_this_turn = False  # no card for a player who has left
        return events + self._end_turn(seat)

    def _before_finish(self) -> list[e.Event]:
        """A conquest that ends the game is still occupied with the armies of the last roll."""
        return self._occupy_the_least(self.current)

    @final
    def _occupy_the_least(self, seat: int) -> list[e.Event]:
        """A conquest still to occupy takes the armies of the last roll (the seat left, or
        the game ended)."""
        conquest = self.pending_conquest
        self.pending_conquest = None
        if conquest is None:
            return []
        source, target, low, _ = conquest
        self.armies[source] -= low
        self.armies[target] += low
        ids = self.board.territories
        return [e.ArmiesMoved(seat, ids[source].id, ids[target].id, low, False)]


DEFENCE = "defence"  # the topic of the defender's prompt: its dice, when defenders declare
