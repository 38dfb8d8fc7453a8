"""Classic RisiKo! (Editrice Giochi): 42 territories, secret objectives, tournament rules.

The engine's base `Game` is this game; the variant is its data. Choices where the rule texts
are silent or ambiguous are written in docs/classic.md.
"""

from __future__ import annotations

from variants import Variant, register

CLASSIC = register(
    Variant(
        name="classic",
        title="RisiKo!",
        package="variants.classic",
        description="Classic RisiKo! with secret objectives and the tournament rules as options.",
    )
)
