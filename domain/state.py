"""A game's state as plain data: the parts kept in objects of their own copy themselves and
turn into plain data and back, so that clones and snapshots share nothing; a game's copies and
snapshots (`Copies`, which `domain.kernel.Kernel` inherits) are made of it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self, final

from domain.errors import SnapshotFormatError
from domain.flow import Phase


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


class Copies:
    """A game's copies and snapshots: of the state its classes declare (`_STATE_NAMES`), the
    phase and the ranking; `_snapshot_more` and `_restore_more` for the rest (hooks)."""

    _STATE_NAMES: ClassVar[tuple[str, ...]]
    SNAPSHOT_FORMAT: ClassVar[int]
    RULES_REVISIONS: ClassVar[Mapping[int, str]]
    rules_revision: int
    phase: Phase
    ranking: tuple[tuple[int, int, int], ...]

    def _forget_streams(self) -> None:
        raise NotImplementedError

    @final
    def clone(self) -> Self:
        """An independent copy, cheap enough to take before every action: the server applies
        an action to a clone and keeps it only once the store has accepted it."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        for name in self._STATE_NAMES:
            setattr(other, name, copy_plain(getattr(self, name)))
        other._forget_streams()
        return other

    @final
    def snapshot(self) -> dict[str, Any]:
        """The whole mutable state as plain data (JSON-ready), without the seed. A cache:
        the log stays the truth, and `restore` of a snapshot continues the same game."""
        state = {name: to_plain(getattr(self, name)) for name in self._STATE_NAMES}
        state["phase"] = self.phase.value
        state["ranking"] = [list(entry) for entry in self.ranking]
        self._snapshot_more(state)
        state["format"] = self.SNAPSHOT_FORMAT
        state["rules_revision"] = self.rules_revision
        return state

    @final
    def restore(self, state: dict[str, Any]) -> None:
        """Continue from a snapshot taken of a game with the same players, options, seed and
        rules revision; SnapshotFormatError for one written in another format (older ones have
        none) or of a game played by other rules (one without a revision was played by 1)."""
        if state.get("format") != self.SNAPSHOT_FORMAT:
            raise SnapshotFormatError(
                f"snapshot format {state.get('format')}, this engine's is {self.SNAPSHOT_FORMAT}"
            )
        if state.get("rules_revision", 1) != self.rules_revision:
            raise SnapshotFormatError(
                f"a snapshot of rules revision {state.get('rules_revision', 1)}, "
                f"this game plays by {self.rules_revision}"
            )
        for name in self._STATE_NAMES:
            part = getattr(self, name)
            if isinstance(part, StatePart):
                part.load(copy_plain(state[name]))
            else:
                setattr(self, name, copy_plain(state[name]))
        self.phase = Phase.of(state["phase"])
        self.ranking = tuple((r[0], r[1], r[2]) for r in state["ranking"])
        self._restore_more(state)

    def _snapshot_more(self, state: dict[str, Any]) -> None:
        """Add the state that is not plain data, as plain data."""

    def _restore_more(self, state: dict[str, Any]) -> None:
        """Read back what `_snapshot_more` wrote."""
