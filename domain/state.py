"""A game's state as plain data: the parts kept in objects of their own copy themselves and
turn into plain data and back, so that clones and snapshots share nothing."""

from __future__ import annotations

from typing import Any


class StatePart:
    """A part of a game's state kept in an object of its own (the forces on the board): it
    copies itself, and turns into plain data and back, so clones and snapshots share nothing."""

    def copy(self) -> StatePart:
        raise NotImplementedError

    def to_plain(self) -> Any:
        raise NotImplementedError

    def load(self, plain: Any) -> None:
        """Take the state of `to_plain`'s data, in place."""
        raise NotImplementedError


def copy_plain(value: Any) -> Any:
    """A copy of plain data (lists of lists of scalars), so snapshots share nothing."""
    if isinstance(value, list):
        return [copy_plain(item) for item in value]
    if isinstance(value, StatePart):
        return value.copy()
    return value


def to_plain(value: Any) -> Any:
    """A part of the state as plain data (JSON-ready), sharing nothing with the game."""
    return value.to_plain() if isinstance(value, StatePart) else copy_plain(value)
