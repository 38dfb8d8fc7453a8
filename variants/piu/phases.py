"""RisiKo! Più's own steps (the shared phases are domain.flow.Phase's). A turn: reinforcements
(Phase.REINFORCE), the hand drawn up to three and cards played (CARDS), attacks (Phase.ATTACK
and Phase.OCCUPY), the move that ends it."""

from __future__ import annotations

from domain.flow import Phase


class PiuPhase:
    CARDS = Phase.declare("cards")  # the hand is drawn up to three; cards are played
