"""S.P.Q.RisiKo!'s own refusals: the codes no other game has."""

from __future__ import annotations

from domain.errors import RuleViolation


class NoNavalSuperiority(RuleViolation):
    """Crossing a sea needs more triremes there than the defender (or than everyone)."""

    code = "NO_NAVAL_SUPERIORITY"


class PowerCentreNotAllowed(RuleViolation):
    """Never two power centres in one province or in land-adjacent provinces, and never more
    than the box holds."""

    code = "POWER_CENTRE_NOT_ALLOWED"
