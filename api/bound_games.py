"""A game opened with bound seats, safely repeated: created under an id every instance derives
alike, its accounts seated in a given order (bound seats), and started by the first of them.
A tournament's tables, an accepted challenge, a matched pool table and a ladder game are
opened so (`open_bound_game`).

Every step is safe to repeat: a game that exists is not created again (the store refuses its
id: `GameExists`), a seated account is not seated again, a started game is not started again;
so an instance that dies while it opens a game, or two instances opening it at once, leave
the game once. Any other failure (a refused option, a store error, a bug) is raised as it is."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from api import lobby
from api.commands import CreateGame, SeatAccount, StartGame, TakeSeat
from api.read_models import Session
from api.service_errors import ServiceError
from api.stores.accounts import AccountStore
from api.stores.base import Admission, GameExists, GameStatus
from api.unit_of_work import Work
from domain.errors import ErrorCode

# What a repeated step answers: the seat or the start is there already.
DONE_ALREADY = frozenset({ErrorCode.ALREADY_SEATED, ErrorCode.GAME_ALREADY_STARTED})
# How often a game is opened again after another instance's change to it came first.
ATTEMPTS = 20


@dataclass(frozen=True, slots=True)
class BoundGame:
    """What to open: the game's id (the same on every instance), how to create it, and the
    accounts to seat, in their seats' order (the first starts the game)."""

    game_id: str
    variant: str
    options: dict[str, Any]
    players: Sequence[str]
    admission: Admission
    time_control: dict[str, Any] | None = None

    def command(self) -> CreateGame:
        return CreateGame(
            self.variant,
            self.options,
            time_control=self.time_control,
            admission=self.admission,
            game_id=self.game_id,
        )


async def open_bound_game(
    work: Work, accounts: AccountStore, game: BoundGame, attempts: int = ATTEMPTS
) -> None:
    """Create `game` if it is not there, seat its accounts not seated yet and start it; again
    while another instance's change to it comes first (STALE_VERSION), `attempts` times in
    all, the last one's failure raised."""
    for attempt in range(attempts):
        try:
            await _open(work, accounts, game)
            return
        except ServiceError as error:
            if error.code != ErrorCode.STALE_VERSION or attempt == attempts - 1:
                raise


async def _open(work: Work, accounts: AccountStore, game: BoundGame) -> None:
    session = await _created(work, game)
    if session.record.status != GameStatus.LOBBY:
        return
    seated = {seat.account_id for seat in session.record.seats}
    for player in game.players:
        if player not in seated:
            await _seat(work, accounts, game.game_id, player)
    try:
        await lobby.start_game(work, StartGame(game.game_id, None, account=game.players[0]))
    except ServiceError as error:
        if error.code not in DONE_ALREADY:
            raise


async def _created(work: Work, game: BoundGame) -> Session:
    try:
        return await work.sessions.get(game.game_id)
    except ServiceError as error:
        if error.code != ErrorCode.GAME_NOT_FOUND:
            raise
    try:
        await lobby.create_game(work, game.command())
    except GameExists:  # another instance created it first: read the one it created
        work.sessions.forget(game.game_id)
    return await work.sessions.get(game.game_id)


async def _seat(work: Work, accounts: AccountStore, game_id: str, player: str) -> None:
    account = await accounts.account(player)
    if account is None or account.deleted:
        return  # gone since it was bound to the game: its seat stays empty
    seat = SeatAccount(account.id, account.name, account.bot)
    try:
        await lobby.take_seat(work, TakeSeat(game_id, account.name, account=seat))
    except ServiceError as error:
        if error.code not in DONE_ALREADY:
            raise
