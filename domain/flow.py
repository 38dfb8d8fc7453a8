"""How a game moves on, in words every game shares: phases by name, who plays in which order
each round, the phases of a round, and the decisions owed out of turn.

None of this knows a rule of any game. A game picks what it needs:
- `Phase`: a part of a round or of a turn, declared by name;
- a turn-order policy: `fixed_order` (clockwise from a first player the dice chose, for the whole
  game) or `drawn_order` (drawn again at the start of every round, as FutuRisiKo!'s cards do);
- `RoundPlan`: the phases of a round, each played by every seat in the round's order before the
  next begins (FutuRisiKo!'s order, cards, production, operations);
- a prompt stack (in `domain.kernel.Kernel`): decisions owed by a seat other than the one in
  turn, each with its answers and its default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.rng import DerivedRandom


class Phase:
    """A part of the turn, or of the setup, or of a round, by name. The games share SETUP,
    REINFORCE, ATTACK, DEFEND, OCCUPY and OVER; a game declares its own in its folder
    (`Phase.declare`: S.P.Q.RisiKo!'s naval steps). Each phase is one object, compared with `is`
    like an enum's member, and the API's enum Phase lists every declared one."""

    __slots__ = ("name", "value")

    _DECLARED: ClassVar[dict[str, Phase]] = {}
    SETUP: ClassVar[Phase]  # initial placement, three armies a turn (S.P.Q.RisiKo!: occupation)
    REINFORCE: ClassVar[Phase]  # trade cards, place reinforcements
    ATTACK: ClassVar[Phase]  # (land) attacks
    DEFEND: ClassVar[Phase]  # an attack waits for the defender to declare its dice
    OCCUPY: ClassVar[Phase]  # a territory was conquered: armies must move in
    OVER: ClassVar[Phase]

    def __init__(self, value: str) -> None:
        self.value = value
        self.name = value.upper()

    @classmethod
    def declare(cls, value: str) -> Phase:
        """The phase called `value` (ascii, lower case), declared once."""
        if value not in cls._DECLARED:
            cls._DECLARED[value] = cls(value)
        return cls._DECLARED[value]

    @classmethod
    def of(cls, value: str) -> Phase:
        """A declared phase by its value (a snapshot's); ValueError for an unknown one."""
        try:
            return cls._DECLARED[value]
        except KeyError:
            raise ValueError(f"unknown phase {value!r}") from None

    @classmethod
    def declared(cls) -> tuple[Phase, ...]:
        return tuple(cls._DECLARED.values())

    def __repr__(self) -> str:
        return f"<Phase.{self.name}>"

    def __copy__(self) -> Phase:
        return self

    def __deepcopy__(self, memo: object) -> Phase:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Phase.of, (self.value,))


Phase.SETUP = Phase.declare("setup")
Phase.REINFORCE = Phase.declare("reinforce")
Phase.ATTACK = Phase.declare("attack")
Phase.DEFEND = Phase.declare("defend")
Phase.OCCUPY = Phase.declare("occupy")
Phase.OVER = Phase.declare("over")


# ---------------------------------------------------------------------- turn order


def fixed_order(first: int, seats: int) -> tuple[int, ...]:
    """Clockwise (the seat order) from `first`: classic RisiKo!'s order, kept all game."""
    return tuple((first + step) % seats for step in range(seats))


def drawn_order(rng: DerivedRandom, seats: Sequence[int]) -> tuple[int, ...]:
    """`seats` in an order drawn by lot: the first is drawn, the others follow clockwise, as
    when a card decides who starts a round (FutuRisiKo!)."""
    ordered = sorted(seats)
    first = rng.below(len(ordered))
    return tuple(ordered[first:] + ordered[:first])


def next_in_order(
    order: Sequence[int], seat: int, playing: Sequence[bool]
) -> tuple[int | None, bool]:
    """The seat after `seat` in `order` that is still `playing` (by seat), and whether the
    round wrapped round to get there: `seat` itself after a whole round when it is the only
    one playing, (None, True) when nobody is."""
    position = order.index(seat)
    count = len(order)
    for step in range(1, count + 1):
        candidate = order[(position + step) % count]
        if playing[candidate]:
            return candidate, (position + step) >= count
    return None, True


def rank(
    seats: Sequence[int], points: Mapping[int, int], winner: int | None, resigned: Sequence[bool]
) -> tuple[tuple[int, int, int], ...]:
    """The ranking at the end, (rank, seat, points) each: the winner first, players who
    resigned last, the others by points; ties share a rank (`seats` in the order that breaks
    none: the round's order of play)."""
    ordered = sorted(
        ((points[seat], seat) for seat in seats),
        key=lambda item: (item[1] != winner, resigned[item[1]], -item[0]),
    )
    ranking: list[tuple[int, int, int]] = []
    for position, (scored, seat) in enumerate(ordered):
        previous = ranking[-1] if ranking else None
        tied = (
            previous is not None
            and previous[2] == scored
            and previous[1] != winner
            and resigned[previous[1]] == resigned[seat]
        )
        place = previous[0] if tied and previous is not None else position + 1
        ranking.append((place, seat, scored))
    return tuple(ranking)


# ---------------------------------------------------------------------- rounds and turns


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """The phases of a round, in order, each played by every seat in the round's order. Where
    the round is, is two numbers a snapshot keeps: the phase's position and the seat playing
    it."""

    phases: tuple[Phase, ...]

    def following(self, position: int) -> int | None:
        """The phase after `position`, or None when the round is over."""
        return position + 1 if position + 1 < len(self.phases) else None


# ---------------------------------------------------------------------- prompts


@dataclass(frozen=True, slots=True)
class OpenPrompt:
    """A decision owed by `seat`, out of turn: what it is about (`topic`, a name the game
    gives), and the plain values the game needs to answer it (the spaces of a battle, its dice).
    Kept as plain data in the game's state, so that it copies, snapshots and replays."""

    seat: int
    topic: str
    values: tuple[int, ...] = ()

    def to_plain(self) -> list[Any]:
        return [self.seat, self.topic, *self.values]

    @classmethod
    def from_plain(cls, data: Sequence[Any]) -> OpenPrompt:
        return cls(int(data[0]), str(data[1]), tuple(int(v) for v in data[2:]))
