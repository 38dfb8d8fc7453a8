"""A matched table's game: created with the table's id, its accounts seated (bound seats),
started. Every step is safe to repeat (api/bound_games.py), so a table whose instance died
while opening it is opened by the next pass's repair, once."""

from __future__ import annotations

from collections.abc import Sequence

from api.bound_games import BoundGame, open_bound_game
from api.pool.records import SeekRecord
from api.stores.accounts import AccountStore
from api.stores.base import Admission
from api.unit_of_work import Work


class PoolTables:
    def __init__(self, work: Work, accounts: AccountStore) -> None:
        self.work = work
        self.accounts = accounts

    async def open_table(self, table: str, seeks: Sequence[SeekRecord]) -> None:
        seek = seeks[0]  # the table's seeks agree on the game; the first one starts it
        game = BoundGame(
            table,
            seek.variant,
            {},
            [each.account for each in seeks],
            Admission(accounts_required=True, rated=seek.rated),
            seek.clock,
        )
        await open_bound_game(self.work, self.accounts, game)
