"""The commands: what may be asked of the games, each handled by one small function over a
unit of work (api/unit_of_work.py): the lobby's (api/lobby.py), a seat's move and the time
limit (api/play.py), the clock's and the seated bots' (api/scheduler.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from api.stores.base import ANYONE, Admission
from bots.seated import BotPolicy
from domain.actions import Action


@dataclass(frozen=True, slots=True)
class LobbyLimits:
    """What keeps the lobby from filling up with games nobody starts (0: no limit)."""

    max_unstarted_per_creator: int = 50
    unstarted_ttl_seconds: float = 24 * 3600.0


@dataclass(frozen=True, slots=True)
class CreateGame:
    """A game in the lobby. `options` override the variant's defaults (plain values);
    `time_control` sets its clock (api/clock.TimeControl; none by default); `creator` (whoever
    asks: an account, a seat, else an address) has a bounded number of games not started;
    `admission` says who may sit (anyone by default); `game_id` is given by a tournament,
    whose table's game has the same id on every instance (a random one otherwise)."""

    variant: str
    options: dict[str, Any]
    seed: str | None = None
    creator: str | None = None
    time_control: dict[str, Any] | None = None
    admission: Admission = ANYONE
    game_id: str | None = None


@dataclass(frozen=True, slots=True)
class SeatAccount:
    """The account a seat is taken for (its credential already judged): the seat is bound to
    it, and named by it."""

    id: str
    name: str
    bot: bool


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """A seat for a player (`bot` None, with its contribution to the dice, `client_seed`),
    bound to `account` when one asks (a guest's otherwise), or for a bot the server plays."""

    game_id: str
    name: str
    colour: str | None = None
    bot: BotPolicy | None = None
    client_seed: str | None = None
    account: SeatAccount | None = None


# Who acts in a game's lobby and play: a seat token, or an account (its id; the credential
# already judged and its scope checked), whose seat in the game is found in the game's row.


@dataclass(frozen=True, slots=True)
class AddBot:
    """A bot at a free seat, asked for by any seated player (`token` or `account`), in the
    lobby."""

    game_id: str
    token: str | None
    policy: BotPolicy = BotPolicy.ODDS
    name: str | None = None
    colour: str | None = None
    account: str | None = None


@dataclass(frozen=True, slots=True)
class LeaveGame:
    """Before the start, free the seat (of `token`, or of `account`); after it, resign."""

    game_id: str
    token: str | None
    account: str | None = None


@dataclass(frozen=True, slots=True)
class StartGame:
    """Start the game; `client_seed`, the starting seat's contribution, given last."""

    game_id: str
    token: str | None
    client_seed: str | None = None
    account: str | None = None


@dataclass(frozen=True, slots=True)
class SubmitAction:
    """One action for the seat of `token` (or of `account`). `token_seat`: the token's
    (game, seat), when the caller has just looked it up (the API does, to charge the
    request)."""

    game_id: str
    token: str | None
    action: Action
    expected_version: int | None = None
    idempotency_key: str | None = None
    token_seat: tuple[str, int] | None = None
    account: str | None = None
