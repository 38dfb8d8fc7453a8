"""An accepted challenge's game: created with the challenge's settings under the id derived
from the challenge's, its accounts seated in the drawn order (bound seats), and started.

Every step is safe to repeat, as a tournament table's are (api/tournaments/games.py): a game
that exists is not created again, a seated account is not seated again, a started game is not
started again; so two instances (or a retry after a crash) leave one game."""

from __future__ import annotations

from api import lobby
from api.challenges.records import ChallengeRecord
from api.commands import CreateGame, SeatAccount, StartGame, TakeSeat
from api.read_models import Session
from api.service_errors import ServiceError
from api.stores.accounts import AccountStore
from api.stores.base import Admission, GameStatus
from api.tournaments.games import ATTEMPTS, DONE_ALREADY
from api.unit_of_work import Work
from domain.errors import ErrorCode


class ChallengeGames:
    def __init__(self, work: Work, accounts: AccountStore) -> None:
        self.work = work
        self.accounts = accounts

    async def open_game(self, challenge: ChallengeRecord) -> None:
        for attempt in range(ATTEMPTS):
            try:
                await self._open(challenge)
                return
            except ServiceError as error:  # another instance changed the game first
                if error.code != ErrorCode.STALE_VERSION or attempt == ATTEMPTS - 1:
                    raise

    async def _open(self, challenge: ChallengeRecord) -> None:
        session = await self._created(challenge)
        if session.record.status != GameStatus.LOBBY:
            return
        seated = {seat.account_id for seat in session.record.seats}
        for account_id in challenge.seats:
            if account_id not in seated:
                await self._seat(challenge.game_id, account_id)
        start = StartGame(challenge.game_id, None, account=challenge.seats[0])
        try:
            await lobby.start_game(self.work, start)
        except ServiceError as error:
            if error.code not in DONE_ALREADY:
                raise

    async def _created(self, challenge: ChallengeRecord) -> Session:
        game_id = challenge.game_id
        try:
            return await self.work.sessions.get(game_id)
        except ServiceError as error:
            if error.code != ErrorCode.GAME_NOT_FOUND:
                raise
        admission = Admission(
            accounts_required=True, admits=challenge.admits, rated=challenge.rated
        )
        command = CreateGame(
            challenge.variant,
            dict(challenge.options),
            time_control=challenge.clock,
            admission=admission,
            game_id=game_id,
        )
        try:
            await lobby.create_game(self.work, command)
        except Exception:  # another instance created it first: the store refused the id
            self.work.sessions.forget(game_id)
        return await self.work.sessions.get(game_id)

    async def _seat(self, game_id: str, account_id: str) -> None:
        account = await self.accounts.account(account_id)
        if account is None or account.deleted:
            return  # gone since it accepted: its seat stays empty
        seat = SeatAccount(account.id, account.name, account.bot)
        try:
            await lobby.take_seat(self.work, TakeSeat(game_id, account.name, account=seat))
        except ServiceError as error:
            if error.code not in DONE_ALREADY:
                raise
