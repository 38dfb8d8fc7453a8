"""Derived randomness: deterministic, in range, uniform, and committed to by a hash."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import math
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.rng import (
    MAX_CONTRIBUTION,
    DerivedRandom,
    commitment,
    contribution_problem,
    derive_seed,
    hmac_sha256,
)
from tests.support import new_game

ROOT = Path(__file__).resolve().parents[2]


def chi_square(observed: Mapping[Any, int], expected: Mapping[Any, float]) -> float:
    assert set(observed) <= set(expected)
    return sum((observed.get(key, 0) - count) ** 2 / count for key, count in expected.items())


def limit(degrees: int) -> float:
    """The chi-square value exceeded with probability about 1 in 2000 (Wilson-Hilferty)."""
    z = 3.29
    k = 2 / (9 * degrees)
    return degrees * (1 - k + z * math.sqrt(k)) ** 3


def uniform(values: Sequence[int], n: int) -> float:
    expected = {value: len(values) / n for value in range(n)}
    return chi_square(Counter(values), expected)


# --------------------------------------------------------------------------- determinism


@given(st.binary(max_size=200), st.binary(max_size=100))
def test_the_keyed_hmac_is_the_standard_one(seed: bytes, message: bytes) -> None:
    """The dice's HMAC from cached keyed states gives hmac.digest's bytes, for keys shorter
    and longer than SHA-256's block; the same seed twice (from the cache) gives them again."""
    expected = hmac.digest(seed, message, "sha256")
    assert hmac_sha256(seed, message) == expected
    assert hmac_sha256(seed, message) == expected


def test_the_same_seed_and_sequence_give_the_same_stream() -> None:
    def draw(rng: DerivedRandom) -> list[object]:
        items = list(range(20))
        rng.shuffle(items)
        return [rng.die(), rng.dice(3), rng.below(1000), items, rng.die(), rng.below(7)]

    assert draw(DerivedRandom(b"seed", 5)) == draw(DerivedRandom(b"seed", 5))


@pytest.mark.parametrize(("other_seed", "other_seq"), [(b"seed", 6), (b"seed", 0), (b"seeD", 5)])
def test_another_seed_or_sequence_gives_another_stream(other_seed: bytes, other_seq: int) -> None:
    first = DerivedRandom(b"seed", 5)
    second = DerivedRandom(other_seed, other_seq)
    assert [first.die() for _ in range(40)] != [second.die() for _ in range(40)]
    assert [first.below(1 << 32) for _ in range(4)] != [second.below(1 << 32) for _ in range(4)]


def test_the_stream_does_not_depend_on_the_process() -> None:
    """The rolls must be reproducible by anyone: no hash randomisation, no global state."""
    script = (
        "from domain.rng import DerivedRandom\n"
        "r = DerivedRandom(b'process', 3)\n"
        "items = list(range(10)); r.shuffle(items)\n"
        "print([r.die() for _ in range(12)], r.below(10**9), items)\n"
    )
    here = DerivedRandom(b"process", 3)
    items = list(range(10))
    here.shuffle(items)
    expected = f"{[here.die() for _ in range(12)]} {here.below(10**9)} {items}"
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
        )
        assert done.stdout.strip() == expected


# --------------------------------------------------------------------------- dice


def test_dice_are_one_to_six_and_uniform() -> None:
    rng = DerivedRandom(b"chi-square dice", 1)
    values = [rng.die() for _ in range(60_000)]
    assert set(values) == {1, 2, 3, 4, 5, 6}
    assert uniform([value - 1 for value in values], 6) < limit(5)


def test_the_dice_of_one_roll_are_independent() -> None:
    """The highest of three dice is k with probability (k^3 - (k-1)^3) / 216."""
    rng = DerivedRandom(b"chi-square rolls", 2)
    rolls = [rng.dice(3) for _ in range(30_000)]
    assert all(len(roll) == 3 and all(1 <= die <= 6 for die in roll) for roll in rolls)
    highest = Counter(max(roll) for roll in rolls)
    expected = {k: len(rolls) * (k**3 - (k - 1) ** 3) / 216 for k in range(1, 7)}
    assert chi_square(highest, expected) < limit(5)
    faces = [die - 1 for roll in rolls for die in roll]
    assert uniform(faces, 6) < limit(5)


def test_many_streams_are_uniform_too() -> None:
    """The first die of each action's stream: actions with consecutive numbers."""
    values = [DerivedRandom(b"streams", seq).die() - 1 for seq in range(12_000)]
    assert uniform(values, 6) < limit(5)


# --------------------------------------------------------------------------- below


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 42, 1000, 2**31 + 1, 2**32])
def test_below_stays_in_range(n: int) -> None:
    rng = DerivedRandom(b"below", n)
    values = [rng.below(n) for _ in range(2000)]
    assert all(0 <= value < n for value in values)
    if n == 1:
        assert set(values) == {0}


@pytest.mark.parametrize("n", [2, 3, 7, 42])
def test_below_is_uniform(n: int) -> None:
    rng = DerivedRandom(b"below uniform", n)
    values = [rng.below(n) for _ in range(1000 * n)]
    assert set(values) == set(range(n))
    assert uniform(values, n) < limit(n - 1)


def test_below_is_uniform_where_modulo_would_be_biased() -> None:
    """n = 3 * 2**30: taking 32 random bits modulo n would make the lowest third twice as
    likely as the rest."""
    n = 3 << 30
    rng = DerivedRandom(b"bias", 0)
    thirds = [rng.below(n) // (1 << 30) for _ in range(30_000)]
    assert uniform(thirds, 3) < limit(2)


@pytest.mark.parametrize("n", [0, -1, 2**32 + 1])
def test_below_refuses_an_empty_or_too_large_range(n: int) -> None:
    with pytest.raises(ValueError, match="below"):
        DerivedRandom(b"below", 0).below(n)


# --------------------------------------------------------------------------- shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 5, 44])
def test_shuffle_is_a_deterministic_permutation(size: int) -> None:
    items = [f"card-{i}" for i in range(size)]
    first, second = list(items), list(items)
    DerivedRandom(b"shuffle", 9).shuffle(first)
    DerivedRandom(b"shuffle", 9).shuffle(second)
    assert first == second
    assert sorted(first) == sorted(items)
    if size == 44:
        other = list(items)
        DerivedRandom(b"shuffle", 10).shuffle(other)
        assert other != first
        assert first != items


def test_shuffle_gives_every_order_equally_often() -> None:
    rng = DerivedRandom(b"shuffle uniform", 0)
    orders: Counter[tuple[int, ...]] = Counter()
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        orders[tuple(items)] += 1
    expected = dict.fromkeys(itertools.permutations(range(4)), 1000.0)
    assert len(orders) == 24
    assert chi_square(orders, expected) < limit(23)


def test_shuffle_moves_the_top_card_anywhere() -> None:
    positions = []
    for seq in range(8800):
        deck = list(range(44))
        DerivedRandom(b"deck", seq).shuffle(deck)
        positions.append(deck.index(0))
    assert uniform(positions, 44) < limit(43)


# --------------------------------------------------------------------------- commitment


@pytest.mark.parametrize("seed", [b"x", b"\x00" * 32, bytes(range(256)), "semi di mela è".encode()])
def test_the_commitment_is_the_sha256_of_the_seed(seed: bytes) -> None:
    digest = commitment(seed)
    assert digest == hashlib.sha256(seed).hexdigest()
    assert len(digest) == 64
    assert set(digest) <= set("0123456789abcdef")


def test_a_game_publishes_the_commitment_of_its_seed() -> None:
    game = new_game(4, seed=b"published")
    assert game.commitment == hashlib.sha256(b"published").hexdigest()
    assert commitment(b"published ") != game.commitment


# --------------------------------------------------------------------------- a game's seed from
# the server's secret and the seats' contributions


def test_the_derived_seed_of_the_published_test_vector() -> None:
    """The vector of domain/rng.py and docs/architecture.md, which any other implementation
    (the web client's, the Python client's, `openssl dgst -sha256 -hmac secret`) must give."""
    message = b"risiko/seats/v1" + b"\x01\x00\x00\x00\x05alpha" + b"\x00" + b"\x01\x00\x00\x00\x01b"
    expected = "1457406758a6d32d13e625e9089cd978aba7424f24a16801dd5762f10d3eefe2"
    assert hmac.new(b"secret", message, "sha256").hexdigest() == expected
    assert derive_seed(b"secret", ["alpha", None, "b"]).hex() == expected


def test_no_contribution_is_not_the_plain_secret() -> None:
    """Seats that gave nothing still get a derived seed, and not the secret itself: a game
    that takes contributions never shares its dice with a replay of the bare secret."""
    assert derive_seed(b"secret", []) != b"secret"
    assert derive_seed(b"secret", [None, None]) not in {derive_seed(b"secret", []), b"secret"}


CONTRIBUTION = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=64
)
SEATS = st.lists(st.one_of(st.none(), CONTRIBUTION), min_size=1, max_size=6)


@given(SEATS, st.integers(min_value=0, max_value=5), st.one_of(st.none(), CONTRIBUTION))
def test_any_change_of_any_contribution_changes_the_seed(
    seats: list[str | None], index: int, other: str | None
) -> None:
    index %= len(seats)
    changed = [*seats[:index], other, *seats[index + 1 :]]
    if changed != seats:
        assert derive_seed(b"k" * 32, changed) != derive_seed(b"k" * 32, seats)


@given(SEATS, SEATS)
def test_different_lists_give_different_seeds(
    first: list[str | None], second: list[str | None]
) -> None:
    """Each contribution says where it ends: no two lists (of other lengths, or joined
    differently: ["ab", "c"] and ["a", "bc"]) make the same message."""
    if first != second:
        assert derive_seed(b"secret", first) != derive_seed(b"secret", second)


@given(SEATS.filter(lambda seats: len(set(seats)) > 1))
def test_seat_order_matters(seats: list[str | None]) -> None:
    turned = seats[1:] + seats[:1]
    assert derive_seed(b"secret", turned) != derive_seed(b"secret", seats)


def test_another_secret_gives_another_seed() -> None:
    assert derive_seed(b"one", ["a", "b"]) != derive_seed(b"two", ["a", "b"])


@pytest.mark.parametrize("value", ["x", "~" * MAX_CONTRIBUTION, " spaces are fine ", "0f" * 16])
def test_a_contribution_is_1_to_64_printable_ascii_characters(value: str) -> None:
    assert contribution_problem(value) is None


@pytest.mark.parametrize(
    "value", ["", "x" * (MAX_CONTRIBUTION + 1), "tab\there", "è", "\x00", "nl\n"]
)
def test_other_contributions_are_refused(value: str) -> None:
    assert contribution_problem(value) is not None
