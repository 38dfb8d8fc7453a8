"""What one viewer may see of a game: the one owner of that decision.

A viewer is a seat, or None for a spectator. Everything that shows a game to someone (the API's
resolvers, the bots the server seats, the caches keyed by viewer, the streams) renders an
`Observation` and never asks the game for a seat's secrets itself; `tests/unit/test_layers.py`
holds `api/` and `bots/seated.py` to it. Which events a viewer reads is decided beside it, by
the readers each kind of event declares (`domain.events.may_see`, `readable_by`).

Its parts are computed when first read (a page asking for the players only does not compute
the legal actions), from the game as it is when the observation is made: observe again after
an action.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from domain.cards import Card
from domain.legal import LegalAction
from domain.objectives import Objective
from domain.views import SpaceView

if TYPE_CHECKING:
    from domain.reads import Reads


class Observation:
    """The game as `viewer` sees it: the public board, every seat's public counts,
    and, for a seat, its own hand, objective, secrets and legal actions."""

    def __init__(self, game: Reads, viewer: int | None) -> None:
        self._game = game
        self.viewer = viewer

    @property
    def is_spectator(self) -> bool:
        return self.viewer is None

    @cached_property
    def spaces(self) -> Sequence[SpaceView]:
        """Every space as any client may draw it (public)."""
        return self._game.space_views()

    @cached_property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds, by seat (public; which cards is not)."""
        return tuple(len(self._game.hand(seat)) for seat in range(len(self._game.players)))

    @cached_property
    def hand(self) -> tuple[Card, ...] | None:
        """The viewer's own cards as they show to their holder; None for a spectator."""
        if self.viewer is None:
            return None
        game = self._game
        return tuple(game.card_face(card) for card in game.hand(self.viewer))

    @cached_property
    def objective(self) -> tuple[str, Objective] | None:
        """The viewer's own objective card and the objective it counts as; None for a
        spectator and in games without secret objectives."""
        if self.viewer is None:
            return None
        return self._game.secret_objective(self.viewer)

    @cached_property
    def secrets(self) -> tuple[tuple[str, str], ...] | None:
        """What the viewer alone knows of its own beyond hand and objective; None for a
        spectator."""
        if self.viewer is None:
            return None
        return self._game.private_state(self.viewer)

    @cached_property
    def legal(self) -> Sequence[LegalAction]:
        """What the viewer may do now (nothing for a spectator)."""
        return self._game.legal_actions(self.viewer)
