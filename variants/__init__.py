"""The games this server plays, registered by name.

A variant is one folder: its data files, its game (a `Kernel`, most often composed of the
RisiKo! mechanics of domain/risiko), and its own options, error codes, actions, legal families,
phases, events and bots, each registered as it is declared. Add one by creating a subpackage
that calls `register` and importing it below; the steps are in docs/architecture.md.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module, resources
from typing import Any

from domain.kernel import Kernel
from domain.options import GameOptions
from domain.ruleset import Ruleset


@dataclass(frozen=True)
class TournamentPlay:
    """How a game is played at a tournament's tables (docs/tournaments.md, "Which games a
    tournament plays"); a game without one is no tournament's game. Its points are the ones
    its engine ranks by (`Kernel.points` at the end), added up from game to game."""

    points: str  # what those points are, for people
    aim: str  # the end reason of a game won by its aim: that player "achieved its objective"
    options: Mapping[str, Any] = field(default_factory=dict)  # every table's, as plain values
    settable: tuple[str, ...] = ()  # the options an organiser may choose for the tables


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    package: str  # where the data files live
    game_class: type[Kernel]
    description: str = ""
    tournament: TournamentPlay | None = None  # None: no tournament plays this game

    def __post_init__(self) -> None:
        # Every option is shown to clients as declared: an undescribed one fails here, when
        # the game is declared (its module imported), not when a client asks for it.
        self.options_class.check_declared()

    @property
    def ruleset_class(self) -> type[Ruleset]:
        return self.game_class.RULESET_CLASS

    @property
    def options_class(self) -> type[GameOptions]:
        return self.game_class.OPTIONS_CLASS

    @property
    def rules_revision(self) -> int:
        """The revision of the rules a game created now plays by (its game's newest)."""
        return self.game_class.current_rules_revision()

    @property
    def rules_revisions(self) -> Mapping[int, str]:
        """Each revision of the rules, from 1, with one line on what it changed."""
        return self.game_class.RULES_REVISIONS

    def _load(self, filename: str) -> Any:
        text = resources.files(self.package).joinpath(filename).read_text(encoding="utf-8")
        return json.loads(text)

    @cached_property
    def map(self) -> dict[str, Any] | None:
        """The board's drawn map (map.json, drawn by web/scripts/draw-maps.mjs from the
        anchors in anchors.json), or None for a board that has none."""
        file = resources.files(self.package).joinpath("map.json")
        return json.loads(file.read_text(encoding="utf-8")) if file.is_file() else None

    @cached_property
    def ruleset(self) -> Ruleset:
        return self.ruleset_class.from_data(self._load("board.json"), self._load("rules.json"))

    def options(self, overrides: Mapping[str, Any] | None = None) -> GameOptions:
        """The variant's options: its defaults, with `overrides` (plain values) applied.
        Raises InvalidOptions for an unknown option or a bad value."""
        values = self.options_class().to_dict()
        values.update(overrides or {})
        return self.options_class.from_dict(values)

    def new_game(
        self,
        players: Sequence[str],
        options: GameOptions | None = None,
        *,
        seed: bytes,
        colours: Sequence[str] | None = None,
        rules_revision: int | None = None,
    ) -> Kernel:
        """A game dealt and started. `rules_revision`: the rules it plays by; None, the
        newest (a new game). A saved game is rebuilt with the one it recorded, and one that
        recorded none was played by revision 1."""
        return self.game_class(
            self.ruleset,
            players,
            options,
            seed=seed,
            colours=colours,
            rules_revision=rules_revision,
        )


VARIANTS: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    if variant.name in VARIANTS:
        raise ValueError(f"variant {variant.name!r} is registered twice")
    VARIANTS[variant.name] = variant
    return variant


def served(cls: type) -> bool:
    """Whether a registered kind (of action, of legal family) belongs to the games this process
    serves: the domain's own, or a registered variant's. A game's module imported without being
    registered (the test game, in a test) registers its kinds, which stay out of the schema."""
    module = cls.__module__
    return module.startswith("domain.") or any(
        module == v.package or module.startswith(f"{v.package}.") for v in VARIANTS.values()
    )


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise KeyError(f"unknown variant {name!r}; known: {known}") from None


from variants import classic as _classic  # noqa: E402  (registers itself)
from variants import futurisiko as _futurisiko  # noqa: E402
from variants import piu as _piu  # noqa: E402
from variants import spqr as _spqr  # noqa: E402

# Games beyond the default ones, by module, comma-separated (variants.skirmish, or a game of
# one's own outside this repository): each module names its game `VARIANT`, registered here
# before anything reads the registry, so the schema, the catalogue and the bots of every
# process see the same games. Importing such a module registers nothing by itself: a test
# that plays one in-process leaves the server's games as they are.
EXTRA_VARIANTS_ENV = "RISIKO_EXTRA_VARIANTS"
for _module in filter(None, (m.strip() for m in os.environ.get(EXTRA_VARIANTS_ENV, "").split(","))):
    register(import_module(_module).VARIANT)

__all__ = [
    "EXTRA_VARIANTS_ENV",
    "VARIANTS",
    "Variant",
    "_classic",
    "_futurisiko",
    "_piu",
    "_spqr",
    "get_variant",
    "register",
    "served",
]
