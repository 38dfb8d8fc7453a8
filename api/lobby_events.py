"""The lobby's events: a game's history before and beside the engine's (created, a seat taken
or freed, abandoned). They are no rule of any game, so they are not the domain's; they are
registered, stored and served as the engine's are, and all of them are public."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bots.seated import BotPolicy
from domain.actions import doc
from domain.events import Event, added, named, register_event


@register_event
@dataclass(frozen=True, slots=True)
class GameCreated(Event):
    """A game was created in the lobby: its variant, options and rules, and the commitment to
    the secret its dice will come from."""

    variant: str = doc("The game's variant.")
    # doc() and added() make dataclass fields, whatever ruff makes of a dict's default.
    options: dict[str, Any] = doc(  # noqa: RUF009
        "Its options, as plain values (Game.options shows them typed)."
    )
    commitment: str = doc("SHA-256 of the server's secret (or of the seed chosen), hex.")
    rules_revision: int | None = added(
        "The revision of its variant's rules it plays by; null in games created before "
        "revisions were recorded (they play by revision 1)."
    )
    seed_chosen: bool | None = added(
        "Its creator chose its seed, and so knows every roll and card to come; null in games "
        "created before the flag."
    )
    time_control: dict[str, Any] | None = added(  # noqa: RUF009
        "Its time control, as plain values (Game.timeControl shows it typed); null: none."
    )


@register_event
@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    """A player took a seat (joinGame)."""

    seat: int = doc("The seat taken.")
    name: str = doc("The player's name.")
    colour: str = doc("The seat's colour id.")


@register_event
@dataclass(frozen=True, slots=True)
class BotJoined(Event):
    """A bot the server plays took a seat (addBot)."""

    seat: int = doc("The seat taken.")
    name: str = doc("The bot's name.")
    colour: str = doc("The seat's colour id.")
    policy: str = named("How the bot plays.", BotPolicy)


@register_event
@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    """A player left the lobby: the seats after it move up one place."""

    seat: int = doc("The seat freed.")


@register_event
@dataclass(frozen=True, slots=True)
class GameAbandoned(Event):
    """Nobody started the game before its lobby time ran out."""

    reason: str = doc("not_started.")


# The lobby's events that change who sits where: a stream judges its viewer again after each.
SEAT_CHANGES = (PlayerJoined, BotJoined, PlayerLeft)
