"""FutuRisiKo!'s own refusals: the codes no other game has."""

from __future__ import annotations

from domain.errors import RuleViolation


class BattlesPending(RuleViolation):
    """A turn that ends with its units still facing the enemy's: every battle is fought
    first."""

    code = "BATTLES_PENDING"
