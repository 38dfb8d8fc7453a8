"""Budgets: token buckets of cost points per client."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.budget import Budgets


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_charge_takes_points_until_none_are_left() -> None:
    budgets = Budgets(100, 10, clock=Clock())
    assert budgets.charge("a", 60).remaining == 40
    refused = budgets.charge("a", 60)
    assert not refused.granted
    assert refused.remaining == 40  # a refused charge takes nothing
    assert refused.retry_after == 2  # 20 points missing at 10 a second


def test_points_come_back_over_time_up_to_the_capacity() -> None:
    clock = Clock()
    budgets = Budgets(100, 10, clock=clock)
    budgets.charge("a", 100)
    clock.now = 3.0
    assert budgets.charge("a", 0).remaining == 30
    clock.now = 1000.0
    assert budgets.charge("a", 0).remaining == 100


def test_clients_have_budgets_of_their_own() -> None:
    budgets = Budgets(100, 10, clock=Clock())
    budgets.charge("a", 100)
    assert budgets.charge("b", 100).granted


def test_a_cost_above_the_capacity_empties_the_bucket() -> None:
    budgets = Budgets(100, 10, clock=Clock())
    refused = budgets.charge("a", 500)
    assert (refused.granted, refused.remaining, refused.retry_after) == (False, 0, 10)
    assert not budgets.charge("a", 1).granted


def test_the_least_recently_seen_client_is_forgotten_beyond_the_bound() -> None:
    budgets = Budgets(100, 10, max_clients=2, clock=Clock())
    budgets.charge("a", 100)
    budgets.charge("b", 100)
    budgets.charge("c", 100)  # forgets a
    assert budgets.charge("a", 100).granted  # back with a full bucket
    assert not budgets.charge("c", 1).granted


def test_a_budget_needs_points_and_a_refill() -> None:
    with pytest.raises(ValueError, match="capacity"):
        Budgets(0, 1)
    with pytest.raises(ValueError, match="refill"):
        Budgets(10, 0)


@given(
    st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 300), st.floats(0, 20)), max_size=40)
)
def test_the_level_stays_between_zero_and_the_capacity(
    steps: list[tuple[str, int, float]],
) -> None:
    clock = Clock()
    budgets = Budgets(200, 7.5, clock=clock)
    for client, cost, wait in steps:
        clock.now += wait
        charge = budgets.charge(client, cost)
        assert 0 <= charge.remaining <= 200
        assert charge.granted == (charge.retry_after == 0)
        assert 0 <= charge.seconds_to_full <= 200 / 7.5 + 1


def test_asking_again_before_the_retry_after_is_refused_unread() -> None:
    clock = Clock()
    budgets = Budgets(100, 10, clock=clock)
    assert budgets.refusal("a") is None
    budgets.charge("a", 80)
    refused = budgets.charge("a", 50)  # 30 missing: 3 s
    assert refused.retry_after == 3
    clock.now = 1.0
    early = budgets.refusal("a")
    assert early is not None
    assert (early.granted, early.retry_after, early.remaining) == (False, 2, 30)
    assert early.headers()["Retry-After"] == "2"
    assert budgets.refusal("b") is None  # another client
    clock.now = 3.0
    assert budgets.refusal("a") is None
    assert budgets.charge("a", 50).granted


def test_the_headers_tell_the_policy_and_the_standing() -> None:
    charge = Budgets(500_000, 25_000, clock=Clock()).charge("a", 100_000)
    assert charge.headers() == {
        "RateLimit-Policy": '"cost";q=500000;w=20',
        "RateLimit": '"cost";r=400000;t=4',
    }
