"""RisiKo! Più (Editrice Giochi 1986, the Italian Castle Risk): empires and fortresses,
banners, six kinds of card, the flagship and hidden armies, on a reconstructed board. The
choices where seed 003 is silent: docs/piu.md."""

from __future__ import annotations

from variants import Variant, register
from variants.piu import bot as _bot  # noqa: F401  (registers the example bot's play)
from variants.piu.game import PiuGame

PIU = register(
    Variant(
        name="piu",
        title="RisiKo! Più",
        package="variants.piu",
        game_class=PiuGame,
        description="Europe in 1914: empires and fortresses, banners, six kinds of card, the "
        "flagship and hidden armies (board reconstructed-1).",
    )
)
