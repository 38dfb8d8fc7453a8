"""The ladder's side of the games: a ladder game created rated, with its clock and the
ladder's rules, its bots seated (bound seats) and started. Every step is safe to repeat, as a
tournament table's (api/tournaments/games.py): a game that exists is not created again, a
seated account is not seated again, a started game is not started again."""

from __future__ import annotations

from api import lobby
from api.commands import CreateGame, SeatAccount, StartGame, TakeSeat
from api.ladder.records import LadderGame
from api.ladder.settings import LadderSettings
from api.read_models import Session
from api.service_errors import ServiceError
from api.stores.accounts import AccountStore
from api.stores.base import Admission, Admits, GameStatus
from api.tournaments.games import DONE_ALREADY, table_options
from api.unit_of_work import Work
from domain.errors import ErrorCode


async def status(work: Work, game_id: str) -> GameStatus | None:
    """The game's status; None if it does not exist (yet)."""
    try:
        return GameStatus((await work.sessions.get(game_id)).record.status)
    except ServiceError as error:
        if error.code != ErrorCode.GAME_NOT_FOUND:
            raise
    return None


async def open_game(
    work: Work, accounts: AccountStore, settings: LadderSettings, game: LadderGame
) -> None:
    """Create `game` if it is not there, seat its bots and start it (each step once)."""
    session = await _created(work, settings, game)
    if session.record.status != GameStatus.LOBBY:
        return
    seated = {seat.account_id for seat in session.record.seats}
    for player in game.players:
        if player not in seated:
            await _seat(work, accounts, game.game, player)
    try:
        await lobby.start_game(work, StartGame(game.game, None, account=game.players[0]))
    except ServiceError as error:
        if error.code not in DONE_ALREADY:
            raise


async def _created(work: Work, settings: LadderSettings, game: LadderGame) -> Session:
    try:
        return await work.sessions.get(game.game)
    except ServiceError as error:
        if error.code != ErrorCode.GAME_NOT_FOUND:
            raise
    options = table_options(settings.variant, {}, settings.time_limit_minutes, settings.round_limit)
    command = CreateGame(
        settings.variant,
        options,
        time_control=settings.time_control(),
        admission=Admission(accounts_required=True, admits=Admits.BOTS, rated=True),
        game_id=game.game,
    )
    try:
        await lobby.create_game(work, command)
    except Exception:  # another instance created it first: the store refused the id
        work.sessions.forget(game.game)
    return await work.sessions.get(game.game)


async def _seat(work: Work, accounts: AccountStore, game_id: str, player: str) -> None:
    account = await accounts.account(player)
    if account is None or account.deleted:
        return  # gone since it was paired: its seat stays empty
    seat = SeatAccount(account.id, account.name, account.bot)
    try:
        await lobby.take_seat(work, TakeSeat(game_id, account.name, account=seat))
    except ServiceError as error:
        if error.code not in DONE_ALREADY:
            raise
