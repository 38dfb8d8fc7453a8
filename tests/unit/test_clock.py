"""api/clock.py: how a game's clock gives each turn, each answer and each bank its time."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from api.clock import ANSWER, TURN, Absence, ClockState, TimeControl
from domain.errors import InvalidOptions
from domain.kernel import Kernel


@dataclass
class FakeGame:
    """What the clock reads of a game: who is in turn, which turn, the prompts."""

    current: int = 0
    round: int = 1
    prompt_stack: list[list[Any]] = field(default_factory=list)
    is_over: bool = False

    @property
    def turn_key(self) -> tuple[int, ...]:
        return (self.round,)


def follow(
    state: ClockState, control: TimeControl | None, game: FakeGame, now: float
) -> ClockState:
    return state.follow(control, cast(Kernel, game), now)


PER_TURN = TimeControl(turn_seconds=60, answer_seconds=10)
BANK = TimeControl(bank_seconds=300, increment_seconds=5, answer_seconds=10)


def test_each_turn_gets_its_own_time() -> None:
    game = FakeGame()
    state = follow(ClockState.start(PER_TURN, 3, None), PER_TURN, game, 1000)
    assert (state.holder, state.kind, state.deadline) == (0, TURN, 1060)
    # Moves within the turn keep its deadline.
    assert follow(state, PER_TURN, game, 1030).deadline == 1060
    game.current = 1
    state = follow(state, PER_TURN, game, 1040)
    assert (state.holder, state.deadline) == (1, 1100)


def test_the_same_seat_in_a_new_round_gets_a_new_turn_time() -> None:
    game = FakeGame()
    state = follow(ClockState.start(PER_TURN, 2, None), PER_TURN, game, 0)
    game.round = 2
    assert follow(state, PER_TURN, game, 50).deadline == 110


def test_a_prompt_has_its_own_time_and_the_turn_stands_still() -> None:
    game = FakeGame()
    state = follow(ClockState.start(PER_TURN, 3, None), PER_TURN, game, 1000)
    game.prompt_stack = [[2, "defence", []]]
    state = follow(state, PER_TURN, game, 1020)  # 40 s left of the turn
    assert (state.holder, state.kind, state.deadline, state.paused) == (2, ANSWER, 1030, 40)
    # The same prompt, still open (a third seat resigned meanwhile): the same deadline.
    assert follow(state, PER_TURN, game, 1025).deadline == 1030
    game.prompt_stack = []
    state = follow(state, PER_TURN, game, 1028)  # answered after 8 s
    assert (state.holder, state.kind, state.deadline) == (0, TURN, 1068)
    # A second prompt in a row (another attack) is a new one: a new answer time.
    game.prompt_stack = [[2, "defence", [1]]]
    state = follow(state, PER_TURN, game, 1030)
    game.prompt_stack = [[2, "defence", [2]]]
    assert follow(state, PER_TURN, game, 1035).deadline == 1045


def test_a_bank_keeps_what_a_turn_left_plus_the_increment() -> None:
    game = FakeGame()
    state = follow(ClockState.start(BANK, 2, None), BANK, game, 0)
    assert state.deadline == 300
    game.current = 1
    state = follow(state, BANK, game, 100)
    assert state.banks == (205, 300)
    assert state.deadline == 400
    game.current, game.round = 0, 2
    state = follow(state, BANK, game, 400)  # seat 1 used all of it
    assert state.banks == (205, 5)
    assert state.deadline == 605


def test_answer_time_is_not_taken_from_the_bank() -> None:
    game = FakeGame()
    state = follow(ClockState.start(BANK, 2, None), BANK, game, 0)
    game.prompt_stack = [[1, "defence", []]]
    state = follow(state, BANK, game, 50)
    game.prompt_stack = []
    state = follow(state, BANK, game, 59)
    assert state.deadline == 309  # 250 left when the prompt opened
    game.current = 1
    state = follow(state, BANK, game, 109)
    assert state.banks[0] == 200 + 5


def test_without_time_control_there_is_no_deadline() -> None:
    game = FakeGame()
    state = follow(ClockState.start(None, 3, 5000), None, game, 0)
    assert (state.holder, state.deadline) == (0, None)
    assert state.due_at((False, False, False), 10) == 5000
    assert state.due_at((True, False, False), 10) == 10  # a bot is to act: at once
    assert follow(state, None, FakeGame(is_over=True), 20).holder is None


def test_absences_and_presence() -> None:
    state = ClockState.start(PER_TURN, 3, None)
    state = state.absent(1, proxy_turn=True).absent(1, proxy_turn=False)
    assert (state.absences, state.proxy) == ((0, 2, 0), (False, True, False))
    state = state.acted(1)
    assert (state.absences, state.proxy) == ((0, 0, 0), (False, False, False))


def test_the_proxy_plays_until_the_turn_ends() -> None:
    game = FakeGame()
    state = follow(ClockState.start(PER_TURN, 2, None), PER_TURN, game, 0)
    state = state.absent(0, proxy_turn=True)
    assert state.due_at((False, False), 61) == 61
    game.current = 1
    state = follow(state, PER_TURN, game, 62)
    assert state.proxy == (False, False)
    assert state.due_at((False, False), 62) == 122


@example(turns=[(1, 1.4639840941348439, False), (1, 324.0, False), (1, 500.0, False)])
@given(
    turns=st.lists(
        st.tuples(st.integers(0, 2), st.floats(0, 500), st.booleans()), min_size=1, max_size=30
    )
)
def test_banks_never_go_below_the_increment_and_deadlines_follow_now(
    turns: list[tuple[int, float, bool]],
) -> None:
    """Whatever the order of turns and prompts: banks are never negative, a new turn or a
    prompt opened or answered sets a deadline from now on, a move within the turn keeps it,
    and the plain form round-trips."""
    game = FakeGame()
    now = 0.0
    state = follow(ClockState.start(BANK, 3, None), BANK, game, now)
    for seat, elapsed, prompt in turns:
        now += elapsed
        before = state
        game.current, game.round = seat, game.round + (seat == 0)
        game.prompt_stack = [[(seat + 1) % 3, "defence", [now]]] if prompt else []
        state = follow(state, BANK, game, now)
        assert all(bank >= 0 for bank in state.banks)
        assert state.deadline is not None
        if (state.turn, state.turn_seat, state.kind) == (before.turn, before.turn_seat, TURN) and (
            before.kind == TURN
        ):
            assert state.deadline == before.deadline
        else:
            assert state.deadline >= now
        assert ClockState.from_plain(state.to_plain()) == state


@pytest.mark.parametrize(
    "fields",
    [
        {"turn_seconds": 60, "bank_seconds": 60},
        {"turn_seconds": 0.5},
        {"bank_seconds": 10**9},
        {"turn_seconds": 60, "increment_seconds": 5},
        {"turn_seconds": 60, "resign_after": 0},
        {"turn_seconds": 60, "absence": "asleep"},
        {"turn_seconds": 60, "hurry": True},
    ],
)
def test_time_controls_refuse_what_makes_no_sense(fields: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        TimeControl.from_dict(fields)


def test_a_time_control_round_trips() -> None:
    control = TimeControl(bank_seconds=600, increment_seconds=10, absence=Absence.MINIMAL)
    assert TimeControl.from_dict(control.to_dict()) == control
    assert control.timed
    assert not TimeControl().timed
