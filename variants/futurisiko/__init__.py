"""FutuRisiKo! (Editrice Giochi 1992, seed 004): tanks, aircraft and submarines on a board of
36 territories and 8 sea areas (reconstructed-1), production, movement then combat, explosion
dice. The choices where the rules are silent, and every card's placeholder: docs/futurisiko.md.

"""

from __future__ import annotations

from variants import Variant, register
from variants.futurisiko import bot as _bot  # noqa: F401  (registers the aggressive policy)
from variants.futurisiko.game import FutuGame

FUTURISIKO = register(
    Variant(
        name="futurisiko",
        title="FutuRisiKo!",
        package="variants.futurisiko",
        game_class=FutuGame,
        description="The world of the future: tanks, aircraft and submarines, production points, "
        "movement then combat, explosion dice. Board reconstructed-1.",
    )
)
