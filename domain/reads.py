"""What every game answers about its players and its board, with the answers of a game that
says nothing more (the kernel's reads: `Kernel` inherits them, and a game redefines those it
has more to say about; they are among `Kernel.HOOKS`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, final

from domain.cards import Card
from domain.legal import LegalAction
from domain.objectives import Objective
from domain.observation import Observation
from domain.views import ARMY, SpaceView, StateView

if TYPE_CHECKING:
    from domain.ruleset import Ruleset


class Reads:
    """The questions the API asks every game (a player's row, the board, the game's own
    state), answered from what every game has: its spaces' views."""

    ruleset: Ruleset
    players: tuple[str, ...]

    @final
    def observe(self, viewer: int | None) -> Observation:
        """What `viewer` (a seat, or None for a spectator) may see of the game now: the one
        answer every view of a game renders (domain/observation.py)."""
        return Observation(self, viewer)

    @property
    def turn_order(self) -> tuple[int, ...]:
        """The seats in the order they play (this round's, in games that draw it each round)."""
        raise NotImplementedError

    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        """Every family of actions `seat` may submit now (the kernel answers)."""
        raise NotImplementedError

    def space_views(self) -> list[SpaceView]:
        """Every space as any client may draw it (domain/views.py)."""
        raise NotImplementedError

    def territories_held(self, seat: int) -> int:
        return sum(1 for view in self.space_views() if view.owner == seat)

    def armies_of(self, seat: int) -> int:
        return sum(view.count(ARMY, seat) for view in self.space_views())

    def hand(self, seat: int) -> Sequence[str]:
        """The card ids `seat` holds (private to that seat)."""
        return ()

    def card_face(self, card_id: str) -> Card:
        """What a card of this game shows its holder: by default the ruleset's territory and
        set cards; a game whose cards are of another kind says what its own show."""
        return self.ruleset.cards.cards[card_id]

    def deck_size(self) -> int:
        return 0

    def private_state(self, seat: int) -> tuple[tuple[str, str], ...]:
        """What `seat` alone knows of its own beyond its hand and objective, by name (RisiKo!
        Più: the hidden armies' territory, its standing orders)."""
        return ()

    def armies_to_place(self) -> int:
        """Armies the seat in turn still has to place."""
        return 0

    def secret_objective(self, seat: int) -> tuple[str, Objective] | None:
        """The objective card `seat` was dealt and the objective it counts as, in the games
        that have secret objectives (private to that seat)."""
        return None

    def state_view(self) -> StateView:
        """The game's own public state (`STATE_VIEW`)."""
        return StateView(self.turn_order)

    def pieces_to_place(self) -> dict[str, int]:
        """Pieces other than armies that the seat in turn has won and must still place, by
        unit or marker kind (armies to place: `armies_to_place`)."""
        return {}
