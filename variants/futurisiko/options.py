"""The options of a FutuRisiKo! game: how the board is set up, who loses which unit to a hit,
each card's placeholder effect (the rules name the cards but give no effect: docs/futurisiko.md),
and an optional round limit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.errors import InvalidOptions
from domain.options import DefenderDice, GameOptions, ObjectiveDeck

TANKS_FIRST = "tanks_first"
AIRCRAFT_FIRST = "aircraft_first"


@dataclass(frozen=True, slots=True)
class FutuOptions(GameOptions):
    """The defaults play seed 004 as written, with every card's placeholder on."""

    fixed: ClassVar[frozenset[str]] = frozenset(
        {
            "defender_dice",
            "protected_rounds",
            "attacker_dice_at_least_defender",
            "minimum_garrison",
            "objectives",
            "time_limit_minutes",
        }
    )
    protected_rounds: int = 0
    # The rules: one flag each, from the first player. True: the reference's placeholder,
    # flags placed in turn until every territory has one.
    fill_board: bool = False
    # Which unit a hit destroys first (the rules do not say who chooses): tanks_first, the
    # cheaper unit, or aircraft_first (the hobby simulator's reading).
    losses: str = TANKS_FIRST
    # Each card's placeholder effect; a card whose option is off is held and discarded only.
    super_produzione: bool = True
    missili_balistici: bool = True
    scudo_spaziale: bool = True
    arma_segreta: bool = True
    siluro_killer: bool = True
    tregua: bool = True  # Tregua, and Tradimento that breaks it

    def __post_init__(self) -> None:
        GameOptions.__post_init__(self)
        if (
            self.defender_dice is not DefenderDice.MAXIMUM
            or self.protected_rounds
            or self.attacker_dice_at_least_defender
            or self.minimum_garrison
            or self.objectives is not ObjectiveDeck.STANDARD
            or self.time_limit_minutes is not None
        ):
            raise InvalidOptions("FutuRisiKo! has none of classic RisiKo!'s options")
        if self.losses not in (TANKS_FIRST, AIRCRAFT_FIRST):
            raise InvalidOptions(f"losses is {TANKS_FIRST} or {AIRCRAFT_FIRST}")
