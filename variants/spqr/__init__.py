"""S.P.Q.RisiKo! (Editrice Giochi 2005): 45 provinces and 12 sea areas, triremes, neutral armies,
power centres and victory points. The choices where the rules are silent: docs/spqr.md."""

from __future__ import annotations

from variants import TournamentPlay, Variant, register
from variants.spqr import bot as _bot  # noqa: F401  (registers the example bot's play)
from variants.spqr.game import SpqrGame

SPQR = register(
    Variant(
        name="spqr",
        title="S.P.Q.RisiKo!",
        package="variants.spqr",
        game_class=SpqrGame,
        description="The Roman Empire: provinces and sea areas, triremes, neutral armies, "
        "power centres and victory points.",
        tournament=TournamentPlay(
            points="its victory points, won turn by turn and kept (docs/spqr.md)",
            aim="victory_points",  # reached the target
            settable=("victory_points",),
        ),
    )
)
