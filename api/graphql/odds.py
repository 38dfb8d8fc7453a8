"""Exact battle odds, as the schema shows them."""

from __future__ import annotations

import strawberry

from domain.odds import BattleOdds as DomainOdds
from domain.odds import VolleyOdds as DomainVolleyOdds


@strawberry.type(description="Exact odds of attacking until conquest or exhaustion.")
class BattleOdds:
    attackers: int = strawberry.field(description="Armies that attack (the territory holds +1).")
    defenders: int = strawberry.field(description="Defending armies.")
    conquest_probability: float = strawberry.field(
        description="Probability that the attack conquers the territory."
    )
    attacker_survivors: list[float] = strawberry.field(description="P(k attackers left), k=0…")
    defender_survivors: list[float] = strawberry.field(description="P(k defenders left), k=0…")
    expected_attacker_losses: float = strawberry.field(
        description="Expected armies the attacker loses."
    )
    expected_defender_losses: float = strawberry.field(
        description="Expected armies the defender loses."
    )


def odds_type(odds: DomainOdds) -> BattleOdds:
    return BattleOdds(
        attackers=odds.attackers,
        defenders=odds.defenders,
        conquest_probability=odds.conquest_probability,
        attacker_survivors=list(odds.attacker_survivors),
        defender_survivors=list(odds.defender_survivors),
        expected_attacker_losses=odds.expected_attacker_losses,
        expected_defender_losses=odds.expected_defender_losses,
    )


@strawberry.type(
    description="Exact odds of a FutuRisiKo! battle: volleys of explosion dice to the end."
)
class VolleyOdds:
    attackers: int = strawberry.field(description="Attacking units (every one rolls a die).")
    defenders: int = strawberry.field(description="Defending units.")
    conquest_probability: float = strawberry.field(
        description="Probability that every defending unit, then the flag, falls."
    )
    conquest_fraction: str | None = strawberry.field(
        description="The same, as an exact fraction (numerator/denominator), when asked."
    )
    attacker_survivors: list[float] = strawberry.field(description="P(k attackers left), k=0…")
    defender_survivors: list[float] = strawberry.field(description="P(k defenders left), k=0…")


def volley_odds_type(odds: DomainVolleyOdds, fraction: str | None) -> VolleyOdds:
    return VolleyOdds(
        attackers=odds.attackers,
        defenders=odds.defenders,
        conquest_probability=float(odds.conquest_probability),
        conquest_fraction=fraction,
        attacker_survivors=[float(p) for p in odds.attacker_survivors],
        defender_survivors=[float(p) for p in odds.defender_survivors],
    )
