"""S.P.Q.RisiKo!'s own steps of a turn, between the reinforcements and the land attacks, in
their order (the shared phases are domain.flow.Phase's)."""

from __future__ import annotations

from domain.flow import Phase


class SpqrPhase:
    NAVAL_REINFORCE = Phase.declare("naval_reinforce")  # legionaries become triremes
    NAVAL_MOVE = Phase.declare("naval_move")  # the one naval move was made
    NAVAL_COMBAT = Phase.declare("naval_combat")
    SEA_ATTACK = Phase.declare("sea_attack")
