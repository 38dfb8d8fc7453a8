"""The defender's dice, declared (Defend): when the game's defenders declare them, an attack
on a player still playing waits for its answer, a prompt on the kernel's stack (its default,
as when defenders do not declare: the most dice it may roll)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import final

from domain import actions as a
from domain import events as e
from domain.errors import InvalidDice, NotYourTurn, WrongPhase
from domain.flow import OpenPrompt, Phase
from domain.kernel import handles
from domain.legal import LegalAction, LegalDefend
from domain.options import GameOptions, option
from domain.risiko.attack import MAX_DICE, PairwiseAttack
from domain.rng import DerivedRandom


class DefenderDice(enum.Enum):
    """How many dice a defender rolls."""

    MAXIMUM = "maximum"  # the defender always rolls as many dice as it can (up to 3)
    DECLARE = "declare"  # the defender declares its dice after the attacker, before the roll


@dataclass(frozen=True)
class DefenceOptions(GameOptions):
    """Whether defenders declare their dice."""

    defender_dice: DefenderDice = option(
        DefenderDice.MAXIMUM,
        "MAXIMUM: defenders always roll min(3, armies); DECLARE: the defender declares its "
        "dice after the attacker, before the roll.",
        off=DefenderDice.MAXIMUM,
    )


class DeclaredDefence(PairwiseAttack):
    """Its options: `DefenceOptions` (whether defenders declare their dice; they do not in a
    game without them). Hooks: `_engaging(source, target)` (what
    joins an attack as it is declared), `_roll_declared(rng, prompt, defence)` (the roll an
    answer lets go on, for a game whose prompts carry more)."""

    def defenders_declare(self) -> bool:
        options = self.options
        return isinstance(options, DefenceOptions) and options.defender_dice is DefenderDice.DECLARE

    def _engaging(self, source: int, target: int) -> list[e.Event]:
        """What joins the attack as it is declared, before the defender answers."""
        return []

    def _prompt_answers(self, prompt: OpenPrompt) -> LegalAction:
        """The defender's dice: 1 to the most it may roll, which is also the default, as when
        defenders do not declare."""
        target = prompt.values[1]
        return LegalDefend(1, min(MAX_DICE, self.armies[target]))

    @final
    def _defender_declares(self, target: int) -> bool:
        """Whether an attack on `target` waits for its defender's dice: defenders declare in
        this game, and the territory's player is still playing (a player who left, or a
        neutral army, always rolls the most)."""
        defender = self.owner[target]
        return (
            self._declaring
            and defender >= 0
            and not self.resigned[defender]
            and not self.eliminated[defender]
        )

    @final
    def _declare_attack(
        self, seat: int, source: int, target: int, dice: int, topic: str, more: tuple[int, ...]
    ) -> list[e.Event]:
        """The attack waits for the defender's dice: a prompt on the stack, owed by the
        territory's player, of `topic`; its values are the battle's (source, target, the
        attacker's dice) and `more` that a game needs to go on once it is answered."""
        events = self._engaging(source, target)
        defender = self.owner[target]
        self._push_prompt(OpenPrompt(defender, topic, (source, target, dice, *more)))
        self.phase = Phase.DEFEND
        ids = self.board.territories
        return [*events, e.AttackDeclared(seat, ids[source].id, ids[target].id, dice, defender)]

    @final
    @handles(a.Defend)
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
        return self._roll_declared(self._random(), prompt, action.dice)

    def _roll_declared(self, rng: DerivedRandom, prompt: OpenPrompt, defence: int) -> list[e.Event]:
        """The roll the attack of `prompt` waited for, with the `defence` dice declared."""
        source, target, dice = prompt.values
        events = self._roll(rng, self.current, source, target, dice, defence)
        return events + self._after_battle(self.current, target)
