"""Skirmish: a small game made for the engine's tests, and the smallest example of a game of
its own. Seven spaces, armies and artillery, a turn order drawn every round, a muster phase and
a battle phase per round, and the defender's answer to an assault owed out of turn.

It is not among the games a server plays by default, and importing it registers nothing: set
RISIKO_EXTRA_VARIANTS=variants.skirmish and the server registers VARIANT (the end-to-end tests
do). Its rules: variants/skirmish/README.md.
"""

from __future__ import annotations

from variants import Variant
from variants.skirmish.game import SkirmishGame

VARIANT = Variant(
    name="skirmish",
    title="Skirmish",
    package="variants.skirmish",
    game_class=SkirmishGame,
    description="A seven-space test game: armies and artillery, a turn order drawn every "
    "round, assaults answered by the defender.",
)
