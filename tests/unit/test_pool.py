"""The pool service's own pure logic: a seek's settings checked (each refusal's code), its
clock as the pool's key, and a stored seek as the matchmaking sees it."""

from __future__ import annotations

import pytest

from api.pool.records import OPEN, SeekRecord, matched
from api.pool.service import JoinSeek, PoolError, as_seek, checked_clock, pace
from competition.matchmaking import Kind, Opponents


def join(**changes: object) -> JoinSeek:
    values: dict[str, object] = {"variant": "classic", "players": 4, "clock": {"turn_seconds": 60}}
    values.update(changes)
    return JoinSeek(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"variant": "go"}, "UNKNOWN_VARIANT"),
        ({"players": 2}, "INVALID_SEEK"),
        ({"players": 7}, "INVALID_SEEK"),
        ({"clock": None}, "INVALID_SEEK"),
        ({"clock": {"answer_seconds": 30}}, "INVALID_SEEK"),  # no time per turn nor bank
        ({"clock": {"turn_seconds": 60, "bank_seconds": 600}}, "INVALID_SEEK"),
        ({"clock": {"turn_seconds": 31 * 24 * 3600}}, "INVALID_SEEK"),
        ({"seed": "s"}, "RATED_GAME_SEEDED"),
        ({"seed": "s", "rated": False}, "INVALID_SEEK"),
    ],
)
def test_impossible_settings_are_refused_with_their_code(
    changes: dict[str, object], code: str
) -> None:
    with pytest.raises(PoolError) as caught:
        checked_clock(join(**changes))
    assert caught.value.code == code


def test_a_clock_is_completed_and_keyed_whatever_its_fields_order() -> None:
    clock = checked_clock(join(clock={"turn_seconds": 86400}))
    assert clock["turn_seconds"] == 86400
    assert clock["resign_after"] == 3
    reordered = dict(reversed(list(clock.items())))
    assert pace(reordered) == pace(clock)
    assert pace(checked_clock(join(clock={"turn_seconds": 3600}))) != pace(clock)


def test_a_stored_seek_as_the_matchmaking_sees_it() -> None:
    record = SeekRecord(
        "s1",
        "a1",
        "Ada",
        True,
        "spqr",
        5,
        {"turn_seconds": 60.0},
        "real-time",
        False,
        "people",
        1612.5,
        10.0,
        1810.0,
    )
    seek = as_seek(record)
    assert (seek.kind, seek.opponents, seek.rating, seek.pool) == (
        Kind.BOT,
        Opponents.PEOPLE,
        1612.5,
        ("spqr", 5, pace(record.clock), False),
    )
    assert record.state == OPEN
    assert record.table is None
    assert SeekRecord.from_plain({**record.to_plain(), "state": matched("t9")}).table == "t9"
