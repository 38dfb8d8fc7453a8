"""RisiKo! Più's own actions, registered by kind (the log and the API find them by it). A card
is named by its id (`spia_03`), a player by seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.actions import Action, doc, register_action

# Standing orders: when a seat's Maresciallo defends, and whether its Spia blocks a Spia.
MARSHAL_ALWAYS = "always"
MARSHAL_FORTRESS = "fortress"
MARSHAL_NEVER = "never"
MARSHAL_ORDERS = (MARSHAL_ALWAYS, MARSHAL_FORTRESS, MARSHAL_NEVER)
SPY_BLOCK = "block"
SPY_LET_THROUGH = "let_through"
SPY_ORDERS = (SPY_BLOCK, SPY_LET_THROUGH)


@register_action
@dataclass(frozen=True, slots=True)
class ChooseFortress(Action):
    """Setup: put the fortress (and the banner) on a territory of the empire drawn."""

    kind: ClassVar[str] = "choose_fortress"
    summary: ClassVar[str] = "RisiKo! Più setup: place the fortress."
    about: ClassVar[str] = "RisiKo! Più setup: the fortress on a territory of the empire drawn."
    territory: str = doc("A territory of the own empire.")


@register_action
@dataclass(frozen=True, slots=True)
class ClaimTerritory(Action):
    """Setup: one army on a free territory."""

    kind: ClassVar[str] = "claim_territory"
    summary: ClassVar[str] = "RisiKo! Più setup: claim a free territory."
    about: ClassVar[str] = "RisiKo! Più setup: one army on a free territory."
    territory: str = doc("A free territory's id.")


@register_action
@dataclass(frozen=True, slots=True)
class WriteHiddenTerritory(Action):
    """Setup: write, secretly, the territory the hidden armies may come out on."""

    kind: ClassVar[str] = "write_hidden_territory"
    summary: ClassVar[str] = "RisiKo! Più setup: write the hidden armies' territory."
    about: ClassVar[str] = (
        "RisiKo! Più setup: the territory, kept secret, where the hidden armies may come out "
        "once in the game, while the player holds it (never a fortress's territory)."
    )
    territory: str = doc("Any territory without a fortress.")


@register_action
@dataclass(frozen=True, slots=True)
class RevealHiddenArmies(Action):
    """Bring the hidden armies out on the territory written, once a game, while holding it."""

    kind: ClassVar[str] = "reveal_hidden_armies"
    summary: ClassVar[str] = "RisiKo! Più: bring the hidden armies out."
    about: ClassVar[str] = (
        "RisiKo! Più: the hidden armies come out on the territory written (once a game, in "
        "the own turn, while holding it)."
    )


@register_action
@dataclass(frozen=True, slots=True)
class PlayRinforzi(Action):
    """Play a Rinforzi card: the next step of the table's track, in armies to place."""

    kind: ClassVar[str] = "play_rinforzi"
    summary: ClassVar[str] = "RisiKo! Più: play a Rinforzi card."
    about: ClassVar[str] = (
        "RisiKo! Più: a Rinforzi card gives the armies of the next step of the shared track "
        "(3 to 14), placed at once."
    )
    card: str = doc("A Rinforzi card of the hand.")


@register_action
@dataclass(frozen=True, slots=True)
class PlaySpy(Action):
    """Play a Spia on an opponent: see its hand and discard one card of it, unless its own
    Spia blocks it (the opponent's standing order)."""

    kind: ClassVar[str] = "play_spy"
    summary: ClassVar[str] = "RisiKo! Più: play a Spia on an opponent."
    about: ClassVar[str] = (
        "RisiKo! Più: a Spia shows every card of one opponent, then one of them is discarded "
        "(discardSpiedCard); the opponent's Spia may block it."
    )
    card: str = doc("A Spia card of the hand.")
    player: int = doc("The opponent's seat.")


@register_action
@dataclass(frozen=True, slots=True)
class DiscardSpiedCard(Action):
    """After a Spia: the card of the spied hand to discard."""

    kind: ClassVar[str] = "discard_spied_card"
    summary: ClassVar[str] = "RisiKo! Più: discard a card the Spia saw."
    about: ClassVar[str] = "RisiKo! Più: one card of the spied hand, discarded."
    card: str = doc("A card of the spied hand.")


@register_action
@dataclass(frozen=True, slots=True)
class PlayDiplomat(Action):
    """Play a Diplomatico: a truce with one opponent until the own next turn."""

    kind: ClassVar[str] = "play_diplomat"
    summary: ClassVar[str] = "RisiKo! Più: impose a truce."
    about: ClassVar[str] = (
        "RisiKo! Più: a Diplomatico, before the first attack of the turn, imposes a truce on "
        "one opponent: neither attacks the other until the player's next turn."
    )
    card: str = doc("A Diplomatico card of the hand.")
    player: int = doc("The opponent's seat.")


@register_action
@dataclass(frozen=True, slots=True)
class PlayGeneral(Action):
    """Play a Generale on the attack about to start: +1 on the attacker's highest die for
    every roll of that attack."""

    kind: ClassVar[str] = "play_general"
    summary: ClassVar[str] = "RisiKo! Più: play a Generale on an attack."
    about: ClassVar[str] = (
        "RisiKo! Più: before an attack's first roll, a Generale adds 1 to the attacker's "
        "highest die until the attack ends (a conquest, another attack, the move)."
    )
    card: str = doc("A Generale card of the hand.")
    source: str = doc("The attacking territory.")
    target: str = doc("The attacked territory (by land, or by sea with the flagship).")


@register_action
@dataclass(frozen=True, slots=True)
class AdmiralAttack(Action):
    """Play an Ammiraglio: the flagship carries armies from an own coastal territory against
    an enemy one on the same body of water, rolling until a conquest or `stop_at`."""

    kind: ClassVar[str] = "admiral_attack"
    summary: ClassVar[str] = "RisiKo! Più: attack by sea with the flagship."
    about: ClassVar[str] = (
        "RisiKo! Più: an Ammiraglio (once a turn) loads armies on the flagship and attacks "
        "an enemy coastal territory on the same water; the survivors land on a conquest, or "
        "come back."
    )
    card: str = doc("An Ammiraglio card of the hand.")
    source: str = doc("An own coastal territory.")
    target: str = doc("An enemy coastal territory on the same body of water.")
    armies: int = doc("Armies loaded (one stays on the source).")
    stop_at: int = doc("Stop when this many loaded armies or fewer are left (0: to the end).", 0)


@register_action
@dataclass(frozen=True, slots=True)
class SetStandingOrders(Action):
    """A seat's private orders for its cards played out of turn, so that nobody is ever
    asked, and nobody learns who holds which card: when a Maresciallo defends, and whether a
    Spia blocks a Spia. Allowed at any time, even out of turn."""

    kind: ClassVar[str] = "set_standing_orders"
    summary: ClassVar[str] = "RisiKo! Più: set the orders for cards played out of turn."
    about: ClassVar[str] = (
        "RisiKo! Più, at any time: marshal always, fortress (only when the fortress is "
        "attacked) or never; spy block or let_through. Private to the seat."
    )
    marshal: str = doc("always, fortress or never.")
    spy: str = doc("block or let_through.")
