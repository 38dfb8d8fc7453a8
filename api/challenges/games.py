"""An accepted challenge's game: created with the challenge's settings under the id derived
from the challenge's, its accounts seated in the drawn order (bound seats), and started.

Every step is safe to repeat (api/bound_games.py), as a tournament table's are: two instances
(or a retry after a crash) leave one game."""

from __future__ import annotations

from api.bound_games import BoundGame, open_bound_game
from api.challenges.records import ChallengeRecord
from api.stores.accounts import AccountStore
from api.stores.base import Admission
from api.unit_of_work import Work


class ChallengeGames:
    def __init__(self, work: Work, accounts: AccountStore) -> None:
        self.work = work
        self.accounts = accounts

    async def open_game(self, challenge: ChallengeRecord) -> None:
        admission = Admission(
            accounts_required=True, admits=challenge.admits, rated=challenge.rated
        )
        game = BoundGame(
            challenge.game_id,
            challenge.variant,
            dict(challenge.options),
            challenge.seats,
            admission,
            challenge.clock,
        )
        await open_bound_game(self.work, self.accounts, game)
