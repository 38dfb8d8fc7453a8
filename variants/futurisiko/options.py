"""The options of a FutuRisiKo! game: how the board is set up, who loses which unit to a hit,
each card's placeholder effect (the rules name the cards but give no effect: docs/futurisiko.md),
and an optional round limit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.errors import InvalidOptions
from domain.options import DefenderDice, GameOptions, ObjectiveDeck, option

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
    protected_rounds: int = option(0, "None in FutuRisiKo!.")
    # The rules: one flag each, from the first player. True: the reference's placeholder,
    # flags placed in turn until every territory has one.
    fill_board: bool = option(
        False, "Flags are placed in turn until every territory has one (default: one each)."
    )
    # Which unit a hit destroys first (the rules do not say who chooses): tanks_first, the
    # cheaper unit, or aircraft_first (the hobby simulator's reading).
    losses: str = option(TANKS_FIRST, "A hit takes tanks_first (default) or aircraft_first.")
    # Each card's placeholder effect; a card whose option is off is held and discarded only.
    super_produzione: bool = option(True, "Super Produzione doubles a production.")
    missili_balistici: bool = option(True, "Missili Balistici: 3 dice at a territory 2 steps away.")
    scudo_spaziale: bool = option(True, "Scudo Spaziale stops the next missile of the round.")
    arma_segreta: bool = option(True, "Arma Segreta: 2 more dice in every volley of a battle.")
    siluro_killer: bool = option(True, "Siluro Killer sinks an enemy submarine.")
    tregua: bool = option(True, "Tregua binds two players a round; Tradimento breaks it.")

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
