"""S.P.Q.RisiKo!'s sea attack: legionaries cross a sea area where the attacker has more
triremes than the defender, and fight until one side is gone; once a turn on a province, and
not from one taken by sea this turn. The rule is one function, `_sea_attack_refusal`, which
the handler raises and the legal families skip."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, final

from domain import events as e
from domain.combat import compare_dice
from domain.errors import (
    EliminationTooEarly,
    InvalidArmyCount,
    MinimumGarrison,
    NotAdjacent,
    NotEnoughArmies,
    OncePerTurn,
    OwnTerritory,
    RuleViolation,
)
from domain.kernel import handles
from domain.legal import LegalAction
from domain.risiko.attack import MAX_DICE, PairwiseAttack
from variants.spqr import actions as sa
from variants.spqr import events as se
from variants.spqr.errors import NoNavalSuperiority
from variants.spqr.fleet import Fleets
from variants.spqr.legal import LegalSeaAttack
from variants.spqr.phases import SpqrPhase
from variants.spqr.steps import NEUTRAL_IN_EVENTS


class SeaAttacks(Fleets, PairwiseAttack):
    """The provinces attacked by sea this turn, and those taken by sea."""

    _STATE: ClassVar[tuple[str, ...]] = ("sea_attacked", "conquered_by_sea")
    sea_attacked: list[int]  # provinces attacked by sea this turn
    conquered_by_sea: list[int]  # provinces taken by sea this turn

    def _start_state(self) -> None:
        self.sea_attacked = []
        self.conquered_by_sea = []
        super()._start_state()

    @final
    def _sea_attack_refusal(self, seat: int, source: int, target: int, sea: int) -> str | None:
        """Why `seat` may not attack `target` from its `source` across `sea` (the board, the
        fleets and this turn's attacks), or None: the families offer exactly the others."""
        if self.owner[target] == seat:
            return "own"
        coasts = self.board.coasts
        if sea not in coasts[source] or sea not in coasts[target]:
            return "coast"
        if not self._superior(seat, sea, self.owner[target]):
            return "superiority"
        if target in self.sea_attacked:
            return "attacked"
        if source in self.conquered_by_sea:
            return "taken"
        if self._protected(target):
            return "protected"
        return None

    @final
    def _refuse_sea_attack(self, seat: int, source: int, target: int, sea: int) -> None:
        """Raise the refusal `_sea_attack_refusal` finds, told in words."""
        reason = self._sea_attack_refusal(seat, source, target, sea)
        if reason is None:
            return
        names = self.board.territories
        refusals: Mapping[str, RuleViolation] = {
            "own": OwnTerritory(f"{names[target].name} is already yours"),
            "coast": NotAdjacent(
                f"{names[source].name} and {names[target].name} are not both on {names[sea].name}"
            ),
            "superiority": NoNavalSuperiority(
                f"you need more triremes on {names[sea].name} than the defender"
            ),
            "attacked": OncePerTurn(
                f"{names[target].name} has already been attacked by sea this turn"
            ),
            "taken": OncePerTurn(
                f"{names[source].name} was taken by sea this turn: it may attack only by land"
            ),
            "protected": EliminationTooEarly(
                f"no player may be eliminated before the end of round "
                f"{self._protection}: {names[target].name} is the last province of "
                f"{self.players[self.owner[target]]}"
            ),
        }
        raise refusals[reason]

    @final
    def _sea_attack_families(
        self, seat: int, own: list[int], spare: dict[int, int]
    ) -> list[LegalAction]:
        """Every sea attack `seat` may launch, each with every legionary that may sail."""
        ids = self.board.territories
        fleet = self.triremes
        coasts = self.board.coasts
        legal: list[LegalAction] = []
        for source in own:
            most = spare[source]
            if most < 1:
                continue
            for sea in coasts[source]:
                if not fleet[sea][seat]:
                    continue
                for target in coasts[sea]:
                    if self.owner[target] == seat:  # the commonest refusal, at no call's cost
                        continue
                    if self._sea_attack_refusal(seat, source, target, sea) is None:
                        legal.append(
                            LegalSeaAttack(ids[source].id, ids[target].id, ids[sea].id, 1, most)
                        )
        return legal

    @final
    @handles(sa.SeaAttack)
    def _sea_attack(self, seat: int | None, action: sa.SeaAttack) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_step(SpqrPhase.SEA_ATTACK)
        source = self._own_province(seat, action.source)
        target = self.board.land(action.target)
        sea = self.board.sea(action.sea)
        self._refuse_sea_attack(seat, source, target, sea)
        names = self.board.territories
        if self.armies[source] < 2:
            raise NotEnoughArmies(f"{names[source].name} needs at least 2 legionaries to attack")
        most = self._strategic_max(source)  # a sea attack's force is bound like a move
        if not 1 <= action.legionaries <= self.armies[source] - 1:
            raise InvalidArmyCount(
                f"attack with 1 to {self.armies[source] - 1} legionaries, not {action.legionaries}"
            )
        if action.legionaries > most:
            raise MinimumGarrison(
                f"{names[source].name} borders an enemy and must keep at least 2 legionaries: "
                f"attack with at most {most}"
            )
        defender = self.owner[target]
        self.phase = SpqrPhase.SEA_ATTACK
        self.sea_attacked.append(target)
        self.armies[source] -= action.legionaries
        events: list[e.Event] = [
            se.SeaAttackLaunched(
                seat,
                action.source,
                action.target,
                action.sea,
                action.legionaries,
                max(defender, NEUTRAL_IN_EVENTS),
            )
        ]
        force, rolled = self._sea_battle(seat, action, target)
        events += rolled
        if self.armies[target]:
            return events
        return events + self._landed(seat, action, target, force)

    @final
    def _sea_battle(
        self, seat: int, action: sa.SeaAttack, target: int
    ) -> tuple[int, list[e.Event]]:
        """Rolls until the force or the defenders are gone: the force left, and the rolls."""
        rng = self._random()
        armies = self.armies
        force = action.legionaries
        events: list[e.Event] = []
        while force and armies[target]:
            attacker, defending = rng.roll(min(MAX_DICE, force), min(MAX_DICE, armies[target]))
            attacker_losses, defender_losses = compare_dice(attacker, defending)
            force -= attacker_losses
            armies[target] -= defender_losses
            events.append(
                e.DiceRolled(
                    seat,
                    action.source,
                    action.target,
                    tuple(attacker),
                    tuple(defending),
                    attacker_losses,
                    defender_losses,
                )
            )
        return force, events

    @final
    def _landed(self, seat: int, action: sa.SeaAttack, target: int, force: int) -> list[e.Event]:
        """The province is taken by sea: the force that survived lands on it."""
        defender = self._capture(seat, target)
        self.armies[target] = force
        self.conquered_this_turn = True
        self.conquered_by_sea.append(target)
        taken_from = max(defender, NEUTRAL_IN_EVENTS)
        events: list[e.Event] = [
            e.TerritoryConquered(seat, action.source, action.target, taken_from, force, force),
            e.ArmiesMoved(seat, action.source, action.target, force, False),
        ]
        if defender >= 0 and self.territory_count[defender] == 0:
            events += self._eliminate(defender, seat)
        return events + self._after_battle(seat, target)
