"""The aggressive bot's FutuRisiKo! play (registered for FutuGame with `register_aggressive`)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from bots.policies import random_policy, register_aggressive
from domain import actions as a
from domain.kernel import Kernel


def aggressive(game: Kernel, seat: int, rnd: random.Random) -> Iterable[a.Action]:
    return random_policy(game, seat, rnd)


def _register() -> None:
    from variants.futurisiko.game import FutuGame

    register_aggressive(FutuGame, aggressive)


_register()
