"""A matched table's game: created with the table's id, its accounts seated (bound seats),
started. Every step is safe to repeat (a game that exists is not created again, a seated
account is not seated again, a started game is not started again), so a table whose instance
died while opening it is opened by the next pass's repair, once."""

from __future__ import annotations

from collections.abc import Sequence

from api import lobby
from api.commands import CreateGame, SeatAccount, StartGame, TakeSeat
from api.pool.records import SeekRecord
from api.read_models import Session
from api.service_errors import ServiceError
from api.stores.accounts import AccountStore
from api.stores.base import Admission, GameStatus
from api.tournaments.games import DONE_ALREADY
from api.unit_of_work import Work
from domain.errors import ErrorCode

ATTEMPTS = 20  # openings again after another instance's change to the game came first


class PoolTables:
    def __init__(self, work: Work, accounts: AccountStore) -> None:
        self.work = work
        self.accounts = accounts

    async def open_table(self, table: str, seeks: Sequence[SeekRecord]) -> None:
        for attempt in range(ATTEMPTS):
            try:
                await self._open(table, seeks)
                return
            except ServiceError as error:
                if error.code != ErrorCode.STALE_VERSION or attempt == ATTEMPTS - 1:
                    raise

    async def _open(self, table: str, seeks: Sequence[SeekRecord]) -> None:
        session = await self._created(table, seeks[0])
        if session.record.status != GameStatus.LOBBY:
            return
        seated = {seat.account_id for seat in session.record.seats}
        for seek in seeks:
            if seek.account not in seated:
                await self._seat(table, seek.account)
        try:
            await lobby.start_game(self.work, StartGame(table, None, account=seeks[0].account))
        except ServiceError as error:
            if error.code not in DONE_ALREADY:
                raise

    async def _created(self, table: str, seek: SeekRecord) -> Session:
        try:
            return await self.work.sessions.get(table)
        except ServiceError as error:
            if error.code != ErrorCode.GAME_NOT_FOUND:
                raise
        admission = Admission(accounts_required=True, rated=seek.rated)
        command = CreateGame(
            seek.variant, {}, time_control=seek.clock, admission=admission, game_id=table
        )
        try:
            await lobby.create_game(self.work, command)
        except Exception:  # another instance created it first: the store refused the id
            self.work.sessions.forget(table)
        return await self.work.sessions.get(table)

    async def _seat(self, table: str, account_id: str) -> None:
        account = await self.accounts.account(account_id)
        if account is None or account.deleted:
            return  # gone since it sought: its seat stays empty
        seat = SeatAccount(account.id, account.name, account.bot)
        try:
            await lobby.take_seat(self.work, TakeSeat(table, account.name, account=seat))
        except ServiceError as error:
            if error.code not in DONE_ALREADY:
                raise
