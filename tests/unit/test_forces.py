"""domain/forces.py: units by space, seat and kind, moves once a turn, copies and snapshots."""

from __future__ import annotations

import pytest

from domain.forces import Forces


def forces() -> Forces:
    board = Forces(3, 2, ("army", "tank"))
    board.owner[:] = [0, 1, -1]
    board.add(0, 0, "army", 5)
    board.add(0, 0, "tank", 2)
    board.add(1, 1, "army", 3)
    board.add(1, 0, "tank", 1)  # two seats' units in one space, between movement and combat
    return board


def test_counts_by_space_seat_and_kind() -> None:
    board = forces()
    assert board.count(0, 0, "army") == 5
    assert board.total(0, 0) == 7
    assert board.seats_on(1) == [0, 1]
    assert board.held_by(0) == [0]
    assert board.units_of(0, "tank") == 3


def test_a_unit_moves_once_a_turn() -> None:
    board = forces()
    board.move(0, 2, 0, "tank", 2)
    assert board.unmoved(2, 0, "tank") == 0
    with pytest.raises(ValueError, match="may move"):
        board.move(2, 0, 0, "tank", 1)
    board.new_turn()
    board.move(2, 0, 0, "tank", 1)
    assert (board.count(0, 0, "tank"), board.count(2, 0, "tank")) == (1, 1)


def test_units_that_leave_first_are_those_that_have_not_moved() -> None:
    board = forces()
    board.move(0, 2, 0, "army", 3)
    board.add(2, 0, "army", 2)  # recruited there: free to move
    assert board.unmoved(2, 0, "army") == 2
    board.remove(2, 0, "army", 2)
    assert board.count(2, 0, "army") == 3
    assert board.unmoved(2, 0, "army") == 0


def test_counts_never_go_below_zero() -> None:
    with pytest.raises(ValueError, match="below zero"):
        forces().remove(1, 1, "army", 4)


def test_copies_and_snapshots_share_nothing() -> None:
    board = forces()
    copy = board.copy()
    plain = board.to_plain()
    copy.add(0, 0, "army", 1)
    copy.owner[2] = 0
    copy.markers[0].append("flag")
    plain["units"][0][0] = 99
    assert board.count(0, 0, "army") == 5
    assert board.owner[2] == -1
    assert board.markers[0] == []
    restored = Forces(3, 2, ("army", "tank"))
    restored.load(board.to_plain())
    assert restored.to_plain() == board.to_plain()


def test_views_show_every_seats_stacks() -> None:
    view = forces().views(["a", "b", "c"])[1]
    assert view.owner == 1
    assert [(u.kind, u.seat, u.count) for u in view.units] == [("tank", 0, 1), ("army", 1, 3)]
