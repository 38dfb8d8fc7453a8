"""RISIKO_CORS_ORIGINS: which pages on other origins may use the API."""

from __future__ import annotations

import pytest

from api.origins import DEVELOPMENT_ORIGINS, admits, origin_pattern


@pytest.mark.parametrize(
    ("setting", "origin", "admitted"),
    [
        (DEVELOPMENT_ORIGINS, "http://localhost:5173", True),
        (DEVELOPMENT_ORIGINS, "http://localhost", True),
        (DEVELOPMENT_ORIGINS, "http://127.0.0.1:3000", True),
        (DEVELOPMENT_ORIGINS, "http://[::1]:8080", True),
        (DEVELOPMENT_ORIGINS, "http://localhost.evil.example", False),
        (DEVELOPMENT_ORIGINS, "http://localhost:5173.evil.example", False),
        (DEVELOPMENT_ORIGINS, "https://risiko.example", False),
        ("https://risiko.example", "https://risiko.example", True),
        ("https://risiko.example/", "https://RISIKO.example", True),
        ("https://risiko.example", "http://risiko.example", False),
        ("https://risiko.example", "https://risiko.example:8443", False),
        ("https://a.example, https://b.example", "https://b.example", True),
        ("*", "https://anything.example", True),
        ("", "http://localhost:5173", False),
    ],
)
def test_which_origins_are_admitted(setting: str, origin: str, admitted: bool) -> None:
    assert admits(origin_pattern(setting), origin) is admitted


def test_a_setting_that_is_not_an_origin_is_refused() -> None:
    with pytest.raises(ValueError, match="not an origin"):
        origin_pattern("risiko.example")
