"""The games' side of the accounts (`api.accounts.service.AccountGames`): whether an account
has played, and what deleting one does to its games.

Deleting an account frees its seats in the games not started, resigns it from those under
way (so that nobody waits for a player who is gone), and shows its name as the placeholder
in every game of it that is finished (api/anonymous.py): at once in those finished already,
and as each game under way finishes (`anonymise`, which the unit of work calls on the row of
a game that finishes). The game's log and its events stay as they were written.

Why the row, and not a look at the accounts at every read: a game is read far more often
than an account is deleted, and the row is what every read of a game has in hand; the log
and the events are never rewritten (they replay, and `risiko verify` checks them), so the
names they hold are mapped as they are read, from the row.
"""

from __future__ import annotations

import logging

from api import lobby
from api.commands import LeaveGame
from api.service_errors import ServiceError
from api.stores.accounts import AccountStore
from api.stores.base import GameRecord, GameStatus
from api.unit_of_work import Work
from domain.errors import RuleViolation

logger = logging.getLogger("risiko.accounts")
PAGE = 100
ATTEMPTS = 5  # a game another instance changes meanwhile is read again


class SeatedAccounts:
    """Accounts as they sit in games: `has_played` and `account_deleted` for the accounts'
    commands, and `anonymise` for the games that finish."""

    def __init__(self, work: Work, accounts: AccountStore) -> None:
        self.work = work
        self.accounts = accounts

    async def has_played(self, account_id: str) -> bool:
        """Whether the account holds a seat in any game, started or not: from its first
        seat on, a person cannot become a bot account (as Lichess's rule)."""
        return await self.work.store.count_games(None, None, account_id) > 0

    async def account_deleted(self, account_id: str) -> None:
        """The account is gone (its record a tombstone already): each of its games, page by
        page (a game whose seat it frees leaves the listing; the cursor holds its place)."""
        after: str | None = None
        while True:
            page = await self.work.store.games(None, None, after, PAGE, account_id)
            for record in page:
                await self._withdraw(record.id, account_id)
            if len(page) < PAGE:
                return
            after = page[-1].id

    async def _withdraw(self, game_id: str, account_id: str) -> None:
        """Free the account's seat in the lobby, resign it in a game under way, or mark it
        anonymous in a finished game; again if the game changed meanwhile."""
        for _ in range(ATTEMPTS):
            record = (await self.work.sessions.get(game_id)).record
            seat = record.seat_of_account(account_id)
            if seat is None or record.seats[seat].anonymous:
                return
            if record.status == GameStatus.FINISHED:
                if await self.work.store.mark_anonymous(game_id, record.version, [seat]):
                    return
                continue
            try:
                await lobby.leave_game(self.work, LeaveGame(game_id, None, account_id))
                return  # resigned: anonymised when the game ends (`anonymise`)
            except RuleViolation:
                return  # eliminated, or resigned already: likewise
            except ServiceError as refused:  # moved meanwhile, or over now: read it again
                logger.info(
                    "game %s changed as account %s left: %s", game_id, account_id, refused.code
                )
        logger.warning("could not withdraw account %s from game %s", account_id, game_id)

    async def anonymise(self, record: GameRecord) -> GameRecord:
        """The row of a game that finishes, its deleted accounts' seats marked: one read of
        each account seated there, once in the game's life."""
        gone = []
        for seat in record.seats:
            if seat.account_id is None or seat.anonymous:
                continue
            account = await self.accounts.account(seat.account_id)
            if account is None or account.deleted:
                gone.append(seat.seat)
        return record.with_anonymous(gone) if gone else record
