"""Error codes: the domain declares the codes every game shares, each game its own in its
folder (a `RuleViolation` subclass with a code and a docstring), and the registry refuses a
code declared twice, written otherwise than in capitals, or left unexplained."""

from __future__ import annotations

import pytest

from domain import errors
from domain.errors import RULE_CODES, ErrorCode, RuleViolation, code_description, known_codes


def test_a_games_own_codes_are_declared_in_its_folder() -> None:
    import variants  # noqa: F401  (imports every game)

    own = {
        "NO_NAVAL_SUPERIORITY": "variants.spqr.errors",
        "POWER_CENTRE_NOT_ALLOWED": "variants.spqr.errors",
        "ONCE_PER_GAME": "variants.piu.errors",
        "BATTLES_PENDING": "variants.futurisiko.errors",
    }
    for code, module in own.items():
        assert code not in ErrorCode.__members__
        assert RULE_CODES[code].__module__ == module
        assert code in known_codes()


def test_every_rule_code_says_what_it_means() -> None:
    for code, cls in RULE_CODES.items():
        assert cls.code == code
        assert code_description(code), code
    assert code_description("GAME_NOT_FOUND") is None  # the lobby's: no rule declares it


def test_every_rule_violation_of_the_domain_has_a_shared_code() -> None:
    for cls in vars(errors).values():
        if isinstance(cls, type) and issubclass(cls, RuleViolation):
            assert cls.code in ErrorCode.__members__, cls


def test_a_code_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):

        class Again(RuleViolation):
            """Another truce."""

            code = "TRUCE"


@pytest.mark.parametrize("code", ["lower_case", "WITH SPACE", "", "_LEADING"])
def test_a_code_is_capitals_and_underscores(code: str) -> None:
    with pytest.raises(ValueError, match="capitals"):
        type("Odd", (RuleViolation,), {"__doc__": "Odd.", "code": code})


def test_an_undescribed_code_is_refused() -> None:
    with pytest.raises(ValueError, match="docstring"):

        class Silent(RuleViolation):
            code = "SILENT_REFUSAL"

    assert "SILENT_REFUSAL" not in RULE_CODES


def test_a_kind_of_an_existing_violation_keeps_its_parents_code() -> None:
    class LateTruce(errors.Truce):
        pass

    assert LateTruce.code == "TRUCE"
    assert RULE_CODES["TRUCE"] is errors.Truce
