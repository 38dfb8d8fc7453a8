"""A rated game's settings: its speed from its clock, fixed at creation and kept in its row
with who it admits; rows written before rated games read as unrated."""

from __future__ import annotations

import pytest

from api.clock import TimeControl
from api.ratings.records import Speed, speed_of
from api.stores.base import Admission, Admits


@pytest.mark.parametrize(
    ("control", "speed"),
    [
        (None, Speed.CORRESPONDENCE),  # no clock: nobody is hurried
        (TimeControl(), Speed.CORRESPONDENCE),
        (TimeControl(turn_seconds=60), Speed.REAL_TIME),
        (TimeControl(turn_seconds=15 * 60), Speed.REAL_TIME),
        (TimeControl(turn_seconds=15 * 60 + 1), Speed.CORRESPONDENCE),
        (TimeControl(turn_seconds=86_400), Speed.CORRESPONDENCE),
        (TimeControl(bank_seconds=3 * 3600, increment_seconds=10), Speed.REAL_TIME),
        (TimeControl(bank_seconds=3 * 3600 + 1), Speed.CORRESPONDENCE),
    ],
)
def test_a_rated_game_s_speed_follows_its_clock(control: TimeControl | None, speed: Speed) -> None:
    assert speed_of(None if control is None else control.to_dict()) == speed


def test_a_rated_admission_is_kept_and_old_rows_read_as_unrated() -> None:
    rated = Admission(accounts_required=True, rated=True, speed=Speed.REAL_TIME)
    assert Admission.from_plain(rated.to_plain()) == rated
    assert rated.to_plain() == {
        "accounts_required": True,
        "admits": "anyone",
        "rated": True,
        "speed": "real-time",
    }
    old = {"accounts_required": True, "admits": "bots"}  # a row written before rated games
    assert Admission.from_plain(old) == Admission(True, Admits.BOTS)
    assert Admission(True, Admits.BOTS).to_plain() == old  # unrated rows are written as before
    assert Admission.from_plain(None) == Admission()
    assert Admission().to_plain() is None
