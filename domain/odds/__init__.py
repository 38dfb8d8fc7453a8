"""Exact battle odds, with two roll models:

* pairwise dice (classic RisiKo!, S.P.Q.RisiKo!, RisiKo! Più): each side's highest dice are
  compared in pairs, with a tie rule and +1 bonuses (`battle_odds`, `roll_outcomes`,
  domain/odds/pairwise.py);
* volleys of hit dice (FutuRisiKo!'s explosion dice): the sides fire in turn, every die a hit
  on some faces, a defending flag adding dice (`volley_odds`, domain/odds/volleys.py).

Both fold probability over the states of an absorbing chain in one topological pass, exactly.
"""

from domain.odds.pairwise import BattleOdds, RollOutcome, TieRule, battle_odds, roll_outcomes
from domain.odds.volleys import VolleyOdds, volley_odds

__all__ = [
    "BattleOdds",
    "RollOutcome",
    "TieRule",
    "VolleyOdds",
    "battle_odds",
    "roll_outcomes",
    "volley_odds",
]
