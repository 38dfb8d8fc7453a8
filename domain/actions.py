"""The typed actions a seat (or the game clock) can submit. Territories are named by ascii id."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from domain.errors import InvalidAction

_CHECKS: dict[type, tuple[tuple[str, str], ...]] = {}


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = "action"

    def __post_init__(self) -> None:
        # Actions arrive from clients as JSON: a count must be a whole number and a territory
        # a string before any rule looks at them, so that a bad value is a clean rejection.
        checks = _CHECKS.get(type(self))
        if checks is None:
            checks = _CHECKS[type(self)] = tuple((f.name, str(f.type)) for f in fields(self))
        for name, expected in checks:
            value = getattr(self, name)
            if expected == "int":
                if type(value) is int:
                    continue
                wanted = "a whole number"
            elif expected == "str":
                if type(value) is str:
                    continue
                wanted = "a text id"
            else:  # the cards of a set; how many make a set is a rule (INVALID_CARD_SET)
                if isinstance(value, tuple) and all(type(item) is str for item in value):
                    continue
                wanted = "a list of card ids"
            raise InvalidAction(f"{self.kind}: {name} must be {wanted}, not {value!r}")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for field in fields(self):
            value = getattr(self, field.name)
            data[field.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True, slots=True)
class PlaceArmies(Action):
    """Put armies on an own territory: the initial placement, then the reinforcements."""

    kind: ClassVar[str] = "place_armies"
    territory: str
    armies: int


@dataclass(frozen=True, slots=True)
class TradeCards(Action):
    """Trade a set of three cards for armies (reinforcement phase only)."""

    kind: ClassVar[str] = "trade_cards"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """One roll: attack `target` from `source` with `dice` dice (1 to 3, at most armies - 1)."""

    kind: ClassVar[str] = "attack"
    source: str
    target: str
    dice: int


@dataclass(frozen=True, slots=True)
class AttackUntil(Action):
    """Attack repeatedly with up to `dice` dice until conquest, or until `source` holds no
    more than `stop_at` armies, or until no further roll is allowed. Every roll is recorded."""

    kind: ClassVar[str] = "attack_until"
    source: str
    target: str
    dice: int = 3
    stop_at: int = 1


@dataclass(frozen=True, slots=True)
class Defend(Action):
    """The defender's choice of dice, when the game lets defenders declare them."""

    kind: ClassVar[str] = "defend"
    dice: int


@dataclass(frozen=True, slots=True)
class Occupy(Action):
    """Move armies into the territory just conquered (at least the dice of the last roll)."""

    kind: ClassVar[str] = "occupy"
    armies: int


@dataclass(frozen=True, slots=True)
class StrategicMove(Action):
    """The one move of the turn between adjacent own territories. It ends the turn."""

    kind: ClassVar[str] = "strategic_move"
    source: str
    target: str
    armies: int


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end_turn"


# --------------------------------------------------------------------------- S.P.Q.RisiKo!
# Provinces and sea areas are spaces of the board and are named by ascii id like territories.


@dataclass(frozen=True, slots=True)
class ClaimProvince(Action):
    """Initial occupation: put 2 own legionaries on a free province."""

    kind: ClassVar[str] = "claim_province"
    province: str


@dataclass(frozen=True, slots=True)
class PlaceNeutral(Action):
    """Initial occupation: put a group of 3 neutral legionaries of `colour` on a free province."""

    kind: ClassVar[str] = "place_neutral"
    province: str
    colour: str


@dataclass(frozen=True, slots=True)
class PlacePowerCentre(Action):
    """Build a power centre won with an arena card in an own province."""

    kind: ClassVar[str] = "place_power_centre"
    province: str


@dataclass(frozen=True, slots=True)
class PlaceTrireme(Action):
    """Put a trireme won with a trireme card on a sea area next to an own province."""

    kind: ClassVar[str] = "place_trireme"
    sea: str


@dataclass(frozen=True, slots=True)
class BuildTrireme(Action):
    """Naval reinforcement: 3 legionaries of a coastal province become a trireme, each, on an
    adjacent sea area."""

    kind: ClassVar[str] = "build_trireme"
    province: str
    sea: str
    triremes: int = 1


@dataclass(frozen=True, slots=True)
class DisbandTrireme(Action):
    """Land reinforcement: a trireme becomes 2 legionaries in an own province on its sea."""

    kind: ClassVar[str] = "disband_trireme"
    sea: str
    province: str


@dataclass(frozen=True, slots=True)
class MoveFleet(Action):
    """The naval move: triremes from one sea area to an adjacent one, before any combat."""

    kind: ClassVar[str] = "move_fleet"
    source: str
    target: str
    triremes: int


@dataclass(frozen=True, slots=True)
class NavalBattle(Action):
    """One roll of a naval combat against `opponent` (a seat) in `sea`. Repeat it to go on,
    which is allowed while every roll removes at least one trireme."""

    kind: ClassVar[str] = "naval_battle"
    sea: str
    opponent: int
    dice: int = 3


@dataclass(frozen=True, slots=True)
class SeaAttack(Action):
    """Attack `target` from `source` across `sea` with `legionaries` declared in advance,
    fought to the end: conquest or the whole force lost."""

    kind: ClassVar[str] = "sea_attack"
    source: str
    target: str
    sea: str
    legionaries: int


@dataclass(frozen=True, slots=True)
class Resign(Action):
    """Leave the game (the API's leaveGame). Not among the legal actions of play."""

    kind: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class ExpireTime(Action):
    """Submitted by the game's clock, not by a seat: the tournament time limit has passed."""

    kind: ClassVar[str] = "expire_time"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        PlaceArmies,
        TradeCards,
        Attack,
        AttackUntil,
        Defend,
        Occupy,
        StrategicMove,
        EndTurn,
        ExpireTime,
        Resign,
        ClaimProvince,
        PlaceNeutral,
        PlacePowerCentre,
        PlaceTrireme,
        BuildTrireme,
        DisbandTrireme,
        MoveFleet,
        NavalBattle,
        SeaAttack,
    )
}


def action_from_dict(data: dict[str, Any]) -> Action:
    """The inverse of `Action.to_dict`, for action logs."""
    values = dict(data)
    kind = values.pop("kind", None)
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidAction(f"unknown kind of action {kind!r}")
    if cls is TradeCards and isinstance(values.get("cards"), list):
        values["cards"] = tuple(values["cards"])
    try:
        return cls(**values)
    except TypeError as error:
        raise InvalidAction(f"{kind}: {error}") from None
