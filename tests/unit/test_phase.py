"""Phases are declared by name, one object each: compared with `is`, kept through copies,
pickles and snapshots, and looked up by value."""

from __future__ import annotations

import copy
import pickle

import pytest

from domain.flow import Phase
from variants.spqr.phases import SpqrPhase


def test_a_phase_is_one_object_through_copies_and_pickles() -> None:
    for phase in (Phase.SETUP, Phase.OVER, SpqrPhase.NAVAL_MOVE):
        assert copy.copy(phase) is phase
        assert copy.deepcopy({"phase": [phase]})["phase"][0] is phase
        assert pickle.loads(pickle.dumps(phase)) is phase
        assert Phase.of(phase.value) is phase


def test_declaring_again_gives_the_same_phase() -> None:
    assert Phase.declare("attack") is Phase.ATTACK
    assert Phase.ATTACK.name == "ATTACK"
    assert SpqrPhase.SEA_ATTACK.name == "SEA_ATTACK"


def test_an_unknown_phase_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown phase 'siege'"):
        Phase.of("siege")
