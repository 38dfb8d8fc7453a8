"""The options of a FutuRisiKo! game: how the board is set up, who loses which unit to a hit,
each card's placeholder effect (the rules name the cards but give no effect: docs/futurisiko.md),
and, as every game, an optional round or time limit."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.errors import InvalidOptions
from domain.options import GameOptions, option
from domain.risiko.options import played_off

TANKS_FIRST = "tanks_first"
AIRCRAFT_FIRST = "aircraft_first"


@dataclass(frozen=True)
class FutuOptions(GameOptions):
    """The defaults play seed 004 as written, with every card's placeholder on."""

    # Stored with every game before they were the rules': none of classic RisiKo!'s options.
    RETIRED: ClassVar[Mapping[str, Any]] = played_off()
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
        super().__post_init__()
        if self.losses not in (TANKS_FIRST, AIRCRAFT_FIRST):
            raise InvalidOptions(f"losses is {TANKS_FIRST} or {AIRCRAFT_FIRST}")
