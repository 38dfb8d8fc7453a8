"""The turn of RisiKo!: the dice choose the first player, play goes clockwise (the seat order)
all game, a seat's turn ends (EndTurn, or a move that ends it) and the next seat still playing
begins, a new round when the order comes round, until a round or time limit ends the game."""

from __future__ import annotations

from typing import ClassVar, final

from domain import actions as a
from domain import events as e
from domain.errors import NotYourTurn, ReinforcementsPending, WrongPhase
from domain.flow import Phase, next_in_order
from domain.kernel import handles
from domain.risiko.territories import Territories
from domain.rng import DerivedRandom


class ClockwiseTurns(Territories):
    """A fixed order, clockwise from `first_player`, and the reinforcements a turn starts with.

    Hooks: `_start_turn(seat)` (a new turn: its reinforcements, what the game does first),
    `_closing_turn(seat)` (what ends with the turn, before TurnEnded), `reinforcements_for`,
    `_check_can_act_in_turn` (what must be done before the turn may end),
    `_after_armies_changed(seat)`."""

    _STATE: ClassVar[tuple[str, ...]] = (
        "first_player",
        "pending_reinforcements",
        "conquered_this_turn",
    )
    first_player: int
    pending_reinforcements: int
    conquered_this_turn: bool

    def _start_state(self) -> None:
        self.first_player = 0
        self.pending_reinforcements = 0
        self.conquered_this_turn = False
        super()._start_state()

    @property
    def turn_order(self) -> tuple[int, ...]:
        n = len(self.players)
        return tuple((self.first_player + i) % n for i in range(n))

    @final
    def _draw_first_player(self, rng: DerivedRandom) -> list[e.Event]:
        """The dice decide who plays first; play goes clockwise (the seat order)."""
        self.first_player = rng.below(len(self.players))
        order = self.turn_order
        return [
            e.GameStarted(self.players, self.colours, self.first_player, order, self.commitment)
        ]

    def reinforcements_for(self, seat: int) -> tuple[int, int, tuple[tuple[str, int], ...]]:
        """(total, from territories, bonuses by region) at the start of `seat`'s turn: a
        third of its territories, and each whole region's bonus."""
        from_territories = self.territory_count[seat] // 3
        regions: list[tuple[str, int]] = []
        owner = self.owner
        for position, members in enumerate(self.board.region_members):
            for territory in members:  # a plain loop: every turn asks, most regions fail fast
                if owner[territory] != seat:
                    break
            else:
                region = self.board.regions[position]
                regions.append((region.id, region.bonus))
        return from_territories + sum(b for _, b in regions), from_territories, tuple(regions)

    def _start_turn(self, seat: int) -> list[e.Event]:
        """`seat`'s turn begins (it is the seat in turn once this returns)."""
        raise NotImplementedError

    def _closing_turn(self, seat: int) -> list[e.Event]:
        """What ends with `seat`'s turn (a card for a conquest), before TurnEnded."""
        raise NotImplementedError

    def _after_armies_changed(self, seat: int) -> list[e.Event]:
        """Armies placed or moved without a conquest (an objective that counts armies)."""
        return []

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

    @final
    def _check_turn(self, seat: int | None) -> int:
        if seat is None or seat != self.current:
            raise NotYourTurn("it is not your turn")
        return seat

    @final
    def _end_turn(self, seat: int) -> list[e.Event]:
        """`seat`'s turn is over: the next seat still playing begins, after a new round
        starts if the order came round (or the game ends, at its round or time limit)."""
        events = self._closing_turn(seat)
        events.append(e.TurnEnded(seat))
        playing = [
            not (gone or left) for gone, left in zip(self.eliminated, self.resigned, strict=True)
        ]
        following, wrapped = next_in_order(self.turn_order, seat, playing)
        if following is None:
            following = seat  # nobody plays on: only a finished game gets here, and ends
        if wrapped:
            reason = self._limit_reached()
            if reason is not None:
                return events + self._finish(None, reason)
            self.round += 1
        return events + self._start_turn(following)

    @final
    @handles(a.EndTurn)
    def _end_turn_action(self, seat: int | None, action: a.EndTurn) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_can_act_in_turn()
        return self._end_turn(seat)
