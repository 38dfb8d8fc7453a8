"""A skirmish's own refusal: the code no other game has."""

from __future__ import annotations

from domain.errors import RuleViolation


class ArtilleryLimit(RuleViolation):
    """Recruiting or marching artillery would put more of it on a space than the game's
    artillery limit allows."""

    code = "ARTILLERY_LIMIT"
