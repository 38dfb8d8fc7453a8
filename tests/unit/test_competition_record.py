"""A round's description: canonical JSON of its inputs and tables, which anyone checks once
the seed is revealed, and which holds no secret before."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from competition.draw import commitment
from competition.pairing import Entrant, seat_round
from competition.record import canonical, check, describe, digest
from competition.tables import CLASSIC_TOURNAMENT

SEED = bytes(range(32))


def a_round() -> dict[str, Any]:
    """Round 3 of 18 players, with a withdrawal and a late entry, described."""
    names = [f"player-{number}" for number in range(18)]
    history = [seat_round(SEED, 1, [Entrant(n) for n in names], [], CLASSIC_TOURNAMENT).tables]
    points = {name: random.Random(name).randrange(0, 120) for name in names}
    order = sorted(names, key=lambda name: -points[name])
    entrants = [Entrant(n, points[n]) for n in order]
    history.append(seat_round(SEED, 2, entrants, history, CLASSIC_TOURNAMENT).tables)
    entrants = [*entrants[1:], Entrant("late entry è", 0)]
    seating = seat_round(SEED, 3, entrants, history, CLASSIC_TOURNAMENT)
    return describe(commitment(SEED), CLASSIC_TOURNAMENT, entrants, history, seating)


def test_a_description_checks_with_the_revealed_seed() -> None:
    description = a_round()
    assert check(description, SEED) is None
    assert check(json.loads(canonical(description)), SEED) is None  # as published


def test_the_description_holds_no_secret() -> None:
    text = canonical(a_round())
    assert SEED.hex() not in text
    assert commitment(SEED) in text


def test_the_canonical_text_and_its_digest_do_not_depend_on_the_order_of_keys() -> None:
    description = a_round()
    shuffled = dict(reversed(list(description.items())))
    assert canonical(shuffled) == canonical(description)
    assert digest(shuffled) == digest(description)
    assert canonical(description).startswith('{"commitment":')
    assert "late entry è" in canonical(description)  # UTF-8 as it is


def swap_two_players(description: dict[str, Any]) -> None:
    tables = description["tables"]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]


def change_points(description: dict[str, Any]) -> None:
    description["entrants"][0][1] += 1000


def reorder_seats(description: dict[str, Any]) -> None:
    description["tables"][0].reverse()


def drop_history(description: dict[str, Any]) -> None:
    description["history"] = description["history"][:1]


@pytest.mark.parametrize(
    "tamper",
    [swap_two_players, change_points, reorder_seats, drop_history],
    ids=lambda f: f.__name__,
)
def test_a_tampered_description_does_not_check(tamper: Any) -> None:
    description = a_round()
    tamper(description)
    assert check(description, SEED) is not None


def test_another_seed_does_not_check() -> None:
    assert check(a_round(), b"another") == "the seed is not the one committed to"


def test_a_malformed_description_is_told() -> None:
    description = a_round()
    del description["rule"]
    reason = check(description, SEED)
    assert reason is not None
    assert reason.startswith("malformed")
    assert check({"format": "other"}, SEED) is not None


def test_refused_inputs_are_told() -> None:
    description = a_round()
    description["entrants"].append(description["entrants"][0])
    assert check(description, SEED) == (
        f"the inputs are refused: player {description['entrants'][0][0]!r} is listed twice"
    )
