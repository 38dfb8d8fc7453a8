"""`volleyOdds`: FutuRisiKo!'s exact battle odds through the API, the same figures as
domain/odds/volleys.py (the engine's battles are held to those in test_futurisiko_odds.py)."""

from __future__ import annotations

from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient

from api.app import create_app
from domain.odds import volley_odds

pytestmark = pytest.mark.anyio

QUERY = """query($a: Int!, $d: Int!, $flag: Boolean!, $first: Boolean!, $exact: Boolean!) {
  volleyOdds(attackers: $a, defenders: $d, flag: $flag, attackerFirst: $first, exact: $exact) {
    attackers defenders conquestProbability conquestFraction attackerSurvivors defenderSurvivors
  }
}"""


async def ask(**variables: Any) -> dict[str, Any]:
    values = {"flag": True, "first": False, "exact": False, **variables}
    app = create_app()
    async with AsyncClient(transport=ASGITransport(app=app), base_url="http://test") as client:
        response = await client.post("/graphql", json={"query": QUERY, "variables": values})
    body: dict[str, Any] = response.json()
    return body


async def test_three_attackers_against_one_unit_and_a_flag_exactly() -> None:
    body = await ask(a=3, d=1, exact=True)
    odds = body["data"]["volleyOdds"]
    assert odds["conquestFraction"] == "76286692/173289025"  # the reference's figure
    assert odds["conquestProbability"] == pytest.approx(76286692 / 173289025)
    assert sum(odds["attackerSurvivors"]) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("attackers", "defenders", "flag", "first"),
    [(5, 3, True, True), (4, 0, True, False), (2, 2, False, False)],
)
async def test_the_api_gives_the_models_figures(
    attackers: int, defenders: int, flag: bool, first: bool
) -> None:
    body = await ask(a=attackers, d=defenders, flag=flag, first=first)
    odds = body["data"]["volleyOdds"]
    model = volley_odds(attackers, defenders, flag=flag, attacker_first=first)
    assert odds["conquestProbability"] == pytest.approx(model.conquest_probability)
    assert odds["defenderSurvivors"] == pytest.approx(list(model.defender_survivors))
    assert odds["conquestFraction"] is None


@pytest.mark.parametrize(
    ("variables", "fragment"),
    [
        ({"a": 0, "d": 3}, "attackers must be 1 to 80"),
        ({"a": 81, "d": 3}, "attackers must be 1 to 80"),
        ({"a": 16, "d": 3, "exact": True}, "for an exact fraction"),
        ({"a": 3, "d": 0, "flag": False}, "a battle needs a defending unit"),
    ],
)
async def test_bad_input_is_a_clear_error(variables: dict[str, Any], fragment: str) -> None:
    body = await ask(**variables)
    (error,) = body["errors"]
    assert fragment in error["message"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
