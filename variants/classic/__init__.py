"""Classic RisiKo! (Editrice Giochi): 42 territories, secret objectives, tournament rules.

The game (game.py) composes the RisiKo! mechanics of domain/risiko. Choices where the rule
texts are silent or ambiguous are written in docs/classic.md.
"""

from __future__ import annotations

from variants import TournamentPlay, Variant, register
from variants.classic.game import ClassicGame

CLASSIC = register(
    Variant(
        name="classic",
        title="RisiKo!",
        package="variants.classic",
        game_class=ClassicGame,
        description="Classic RisiKo! with secret objectives and the tournament rules as options.",
        tournament=TournamentPlay(
            points="the values of the territories of its objective held at the end, and 100 "
            "for achieving it (seed 000, Regole da torneo)",
            aim="objective",
            options=ClassicGame.OPTIONS_CLASS.tournament_overrides(),
        ),
    )
)
