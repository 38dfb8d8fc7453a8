"""The options of a RisiKo! Più game: where seed 003 is silent, the choices players may change."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.errors import InvalidOptions
from domain.options import option
from domain.risiko.defence import DefenceOptions
from domain.risiko.options import played_off


@dataclass(frozen=True)
class PiuOptions(DefenceOptions):
    """`defender_dice`: MAXIMUM (the default, as in classic RisiKo!) or DECLARE, seed 003's
    "la stessa cosa fa il difensore": the defender declares its dice before each roll
    (docs/piu.md)."""

    # Stored with every game before they were the rules': no protected rounds (a fortress may
    # fall at once), no tournament's dice or garrison, no objectives (three empires win).
    RETIRED: ClassVar[Mapping[str, Any]] = played_off(DefenceOptions)
    starting_armies: int | None = option(
        None,
        "Each player's armies for the setup (15 to 60; null: 35, 30, 25 or 20 for 3 to 6 players).",
    )
    hidden_armies: int | None = option(
        None,
        "How many the hidden armies are (0: none, up to 30; null: the next step of the "
        "Rinforzi track when they come out).",
    )
    fortress_attack_dice: int = option(
        3, "The most dice an attack on a fortress rolls (1 to 3; 2 in one reading of Castle Risk)."
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.starting_armies is not None and not 15 <= self.starting_armies <= 60:
            raise InvalidOptions("starting_armies must be 15 to 60 when it is set")
        if self.hidden_armies is not None and not 0 <= self.hidden_armies <= 30:
            raise InvalidOptions("hidden_armies must be 0 (none) to 30 when it is set")
        if not 1 <= self.fortress_attack_dice <= 3:
            raise InvalidOptions("fortress_attack_dice must be 1 to 3")
