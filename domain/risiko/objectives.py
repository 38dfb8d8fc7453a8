"""Secret objectives: one dealt to each seat (the standard deck or the tournament's), a
"destroy colour X" that falls back to its alternative when it cannot be met, and the win of
the seat in turn that meets its own."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, final

from domain import events as e
from domain.errors import InvalidOptions
from domain.objectives import DestroyColour, HoldListedTerritories, Objective
from domain.options import GameOptions, option
from domain.risiko.territories import Territories
from domain.rng import DerivedRandom
from domain.ruleset import Ruleset


class ObjectiveDeck(enum.Enum):
    """Which deck of secret objectives is dealt."""

    STANDARD = "standard"
    TOURNAMENT = "tournament"


@dataclass(frozen=True)
class ObjectiveOptions(GameOptions):
    """Which objectives are dealt."""

    objectives: ObjectiveDeck = option(
        ObjectiveDeck.STANDARD,
        "STANDARD secret objectives or the 16 TOURNAMENT objectives with points.",
        off=ObjectiveDeck.STANDARD,
    )


def _tournament(options: GameOptions) -> bool:
    return isinstance(options, ObjectiveOptions) and options.objectives is ObjectiveDeck.TOURNAMENT


class SecretObjectives(Territories):
    """The objective card each seat was dealt, and the objective it counts as now.

    Its options, where the game offers them: `ObjectiveOptions` (which deck is dealt)."""

    _STATE: ClassVar[tuple[str, ...]] = ("objective_cards", "objectives")
    objective_cards: list[str]
    objectives: list[str]

    def _start_state(self) -> None:
        self.objective_cards = [""] * len(self.players)
        self.objectives = [""] * len(self.players)
        super()._start_state()

    def _check_options(self, ruleset: Ruleset, options: GameOptions) -> None:
        if _tournament(options) and not ruleset.tournament_objectives:
            raise InvalidOptions("this variant has no tournament objectives")
        super()._check_options(ruleset, options)

    @final
    def _tournament_objectives(self) -> bool:
        """Whether the tournament's objectives are dealt, instead of the standard ones."""
        return _tournament(self.options)

    def secret_objective(self, seat: int) -> tuple[str, Objective] | None:
        if not self.objectives[seat]:
            return None
        return self.objective_cards[seat], self.objective_of(seat)

    @final
    def objective_of(self, seat: int) -> Objective:
        return self._objective(self.objectives[seat])

    @final
    def _objective(self, objective_id: str) -> Objective:
        if objective_id in self.ruleset.tournament_objectives:
            return self.ruleset.tournament_objectives[objective_id]
        return self.ruleset.objectives[objective_id]

    @final
    def _deal_objectives(self, rng: DerivedRandom) -> list[e.Event]:
        """One card each, in the order of play, from the shuffled deck."""
        tournament = self._tournament_objectives()
        deck = list(self.ruleset.tournament_objectives if tournament else self.ruleset.objectives)
        rng.shuffle(deck)
        events: list[e.Event] = []
        for seat in self.turn_order:
            card = deck.pop()
            self.objective_cards[seat] = card
            self.objectives[seat] = self._effective_objective(seat, card)
            events.append(e.ObjectiveAssigned(seat, card, self.objectives[seat]))
        return events

    @final
    def _effective_objective(self, seat: int, card: str) -> str:
        """A "destroy colour X" of the seat's own colour, or of a colour nobody plays, counts
        as its fallback."""
        objective = self._objective(card)
        if isinstance(objective, DestroyColour) and (
            objective.colour == self.colours[seat] or objective.colour not in self.colours
        ):
            return objective.fallback
        return card

    @final
    def _objectives_fall_back(self, loser: int, winner: int) -> list[e.Event]:
        """A "destroy colour X" objective of another player becomes its fallback when X is
        destroyed by someone else."""
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

    @final
    def _check_victory(self) -> list[e.Event]:
        """A player wins only during their own turn, as soon as the objective is met; or as
        the last one playing."""
        active = self.active_seats()
        if len(active) <= 1:
            return self._finish(active[0] if active else None, "last_player")
        seat = self.current
        objective = self._objective(self.objectives[seat])
        if isinstance(objective, DestroyColour):
            met = self.eliminated[self.colours.index(objective.colour)]
        else:
            met = objective.is_met(self.board, self.owner, self.armies, seat)
        return self._finish(seat, "objective") if met else []

    @final
    def _objective_points(self, seat: int) -> int:
        """Tournament scoring: the full award for the winner, else the points of the
        objective's territories held."""
        if self.winner == seat:
            return self.ruleset.tournament_objective_points
        objective = self.objective_of(seat)
        assert isinstance(objective, HoldListedTerritories)
        return objective.points_held(self.board, self.owner, seat)

    def _revealed_at_end(self) -> tuple[str, ...]:
        return tuple(self.objective_cards) if self.ruleset.objectives else ()
