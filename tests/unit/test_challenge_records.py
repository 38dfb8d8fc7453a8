"""A challenge's rules, on the record alone: who may answer, when, and what answers make."""

from __future__ import annotations

import random

import pytest

from api.challenges.errors import ChallengeError
from api.challenges.records import ChallengeRecord, ChallengeStatus

NOW = 1_000.0


def _challenge(expires_at: float = NOW + 100) -> ChallengeRecord:
    return ChallengeRecord(
        id="c1",
        challenger="ann",
        challenged=("bob", "cat"),
        variant="classic",
        options={},
        clock=None,
        rated=True,
        admits="anyone",
        created_at=NOW,
        expires_at=expires_at,
    )


def _code(call: object) -> str:
    assert callable(call)
    with pytest.raises(ChallengeError) as refused:
        call()
    return str(refused.value.code)


def test_accepted_by_all_draws_the_seats_once() -> None:
    once = _challenge().accept("bob", NOW, random.Random(1))
    assert once.status is ChallengeStatus.OPEN
    assert once.accepted == ("bob",)
    assert once.version == 2
    assert once.seats == ()
    done = once.accept("cat", NOW, random.Random(1))
    assert done.status is ChallengeStatus.ACCEPTED
    assert done.version == 3
    assert sorted(done.seats) == ["ann", "bob", "cat"]
    orders = {
        _challenge()
        .accept("bob", NOW, random.Random(seed))
        .accept("cat", NOW, random.Random(seed))
        .seats
        for seed in range(40)
    }
    assert len(orders) > 1  # drawn, not the order of the challenge


def test_refusals() -> None:
    open_ = _challenge()
    once = open_.accept("bob", NOW, random.Random(1))
    assert _code(lambda: once.accept("bob", NOW, random.Random(1))) == "ALREADY_ANSWERED"
    assert _code(lambda: open_.accept("dan", NOW, random.Random(1))) == "NOT_CHALLENGED"
    assert _code(lambda: open_.accept("ann", NOW, random.Random(1))) == "NOT_CHALLENGED"
    assert _code(lambda: open_.cancel("bob", NOW)) == "NOT_CHALLENGER"
    declined = once.decline("cat", NOW)
    assert declined.status is ChallengeStatus.DECLINED
    assert declined.declined_by == "cat"
    assert _code(lambda: declined.accept("cat", NOW, random.Random(1))) == "CHALLENGE_CLOSED"
    cancelled = open_.cancel("ann", NOW)
    assert _code(lambda: cancelled.accept("bob", NOW, random.Random(1))) == "CHALLENGE_CLOSED"
    assert _code(lambda: cancelled.cancel("ann", NOW)) == "CHALLENGE_CLOSED"


def test_expired_after_its_lifetime() -> None:
    record = _challenge(expires_at=NOW + 10)
    assert record.status_at(NOW + 9.9) is ChallengeStatus.OPEN
    assert record.status_at(NOW + 10) is ChallengeStatus.EXPIRED
    late = NOW + 10
    assert _code(lambda: record.accept("bob", late, random.Random(1))) == "CHALLENGE_EXPIRED"
    assert _code(lambda: record.decline("bob", late)) == "CHALLENGE_EXPIRED"
    assert _code(lambda: record.cancel("ann", late)) == "CHALLENGE_EXPIRED"


def test_plain_round_trip() -> None:
    record = _challenge().accept("bob", NOW, random.Random(1)).accept("cat", NOW, random.Random(2))
    assert ChallengeRecord.from_plain(record.to_plain()) == record
    assert len(record.game_id) == 32
    assert record.game_id == _challenge().game_id
