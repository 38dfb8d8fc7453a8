"""What a board shows, in words every game shares: on each space, stacks of units counted by
owner and kind, markers beside them, and who holds the space. A client that draws these draws
any game, including the ones still to come; the games fill them from their own state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain.actions import Action, doc
from domain.legal import LegalAction

ARMY = "army"  # the land armies of every game (S.P.Q.RisiKo!'s legionaries)
# The state views' fields that mean the same in every game that declares them (StateView).
SCORES = "victory_points"
NEUTRAL_COLOURS = "neutral_colours"


# Not frozen: a game state's views are built again on every read, and a frozen dataclass
# takes twice as long to build; nothing keeps a view after the read that asked for it.
@dataclass(slots=True)
class UnitStack:
    """`count` units of one `kind` on one space, of a seat or of a neutral colour."""

    kind: str
    count: int
    seat: int | None = None  # None: neutral units
    neutral: str | None = None  # the neutral colour id of neutral units


@dataclass(frozen=True, slots=True)
class Prompt:
    """A decision owed by a seat other than the one in turn (the defender's dice, when
    defenders declare them): what it may answer, and the answer given for it if it never
    comes (a clock's default)."""

    seat: int
    answers: LegalAction
    default: Action


@dataclass(slots=True)
class SpaceView:
    id: str
    owner: int | None  # the seat holding the space; None if free, neutral, or a sea area
    units: tuple[UnitStack, ...] = ()
    markers: tuple[str, ...] = ()  # a variant's marker kinds (a power centre, a fortress)
    controlled_by: int | None = None  # a sea area's controller, in the games that have one

    def count(self, kind: str, seat: int | None = None) -> int:
        """Units of `kind` here, of `seat` (or of everyone, seats and neutrals, if None)."""
        return sum(
            stack.count
            for stack in self.units
            if stack.kind == kind and (seat is None or stack.seat == seat)
        )


@dataclass(frozen=True, slots=True)
class StateView:
    """What a game shows beyond what every game shows, public to all: each game declares its
    own subclass (`Kernel.STATE_VIEW`), its fields described with `doc`, and the API makes a
    GraphQL type of it, named `name`, that implements the interface GameState. A field named
    as one of these means the same in every game that declares it, and the API shows it for
    every game (empty in the others): `victory_points` (SCORES), by seat, the points each
    has won (Player.victoryPoints); `neutral_colours` (NEUTRAL_COLOURS), the colours of the
    neutral armies (Game.neutralColours)."""

    name: ClassVar[str] = "BasicState"
    turn_order: tuple[int, ...] = doc(
        "The seats in the order they play (this round's, in games that draw it every round)."
    )


def declared(game: Any, name: str) -> tuple[Any, ...]:
    """A field every game may declare in its state view (SCORES, NEUTRAL_COLOURS), or ()
    where the game's view has none."""
    value = getattr(game.state_view(), name, ())
    return tuple(value)
