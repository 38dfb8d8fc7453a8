"""domain/flow.py: turn orders, the round's phases, ordered steps, prompts as plain data."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from domain.flow import (
    OpenPrompt,
    Phase,
    RoundPlan,
    drawn_order,
    fixed_order,
    next_in_order,
)
from domain.rng import DerivedRandom


def test_a_fixed_order_goes_clockwise_from_the_first() -> None:
    assert fixed_order(2, 4) == (2, 3, 0, 1)


@given(
    st.binary(min_size=1, max_size=8), st.integers(0, 50), st.sets(st.integers(0, 5), min_size=1)
)
def test_a_drawn_order_is_the_seats_clockwise_from_a_drawn_first(
    seed: bytes, seq: int, seats: set[int]
) -> None:
    order = drawn_order(DerivedRandom(seed, seq), sorted(seats))
    assert sorted(order) == sorted(seats)
    start = sorted(seats).index(order[0])
    assert list(order) == sorted(seats)[start:] + sorted(seats)[:start]
    assert order == drawn_order(DerivedRandom(seed, seq), sorted(seats))  # deterministic


def test_every_seat_is_drawn_first_sometimes() -> None:
    firsts = {drawn_order(DerivedRandom(b"x", seq), range(4))[0] for seq in range(64)}
    assert firsts == {0, 1, 2, 3}


def test_the_next_seat_skips_those_out_and_says_when_the_round_wraps() -> None:
    order = (2, 0, 3, 1)
    playing = [True, True, True, True]
    assert next_in_order(order, 2, playing) == (0, False)
    assert next_in_order(order, 1, playing) == (2, True)
    playing[3] = False
    assert next_in_order(order, 0, playing) == (1, False)
    assert next_in_order(order, 1, [False, True, False, False]) == (1, True)  # alone: itself
    assert next_in_order(order, 1, [False, False, False, False]) == (None, True)


def test_a_round_plan_goes_through_its_phases_then_ends() -> None:
    plan = RoundPlan((Phase.REINFORCE, Phase.ATTACK))
    assert plan.following(0) == 1
    assert plan.following(1) is None


def test_a_prompt_survives_plain_data() -> None:
    prompt = OpenPrompt(2, "assault", (4, 5, 3))
    assert prompt.to_plain() == [2, "assault", 4, 5, 3]
    assert OpenPrompt.from_plain(prompt.to_plain()) == prompt
