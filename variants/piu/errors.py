"""RisiKo! Più's own refusals: the codes no other game has."""

from __future__ import annotations

from domain.errors import RuleViolation


class OncePerGame(RuleViolation):
    """Something the rules allow once a game (the hidden armies) was already done."""

    code = "ONCE_PER_GAME"
