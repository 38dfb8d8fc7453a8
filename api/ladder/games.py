"""The ladder's side of the games: a ladder game created rated, with its clock and the
ladder's rules, its bots seated (bound seats) and started. Every step is safe to repeat
(api/bound_games.py), as a tournament table's."""

from __future__ import annotations

from api.bound_games import BoundGame, open_bound_game
from api.ladder.records import LadderGame
from api.ladder.settings import LadderSettings
from api.service_errors import ServiceError
from api.stores.accounts import AccountStore
from api.stores.base import Admission, Admits, GameStatus
from api.tournaments.games import table_options
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
    """Create `game` if it is not there, seat its bots and start it (each step once). Tried
    once: a game another instance changed first is opened again by the ladder's next pass."""
    options = table_options(settings.variant, {}, settings.time_limit_minutes, settings.round_limit)
    bound = BoundGame(
        game.game,
        settings.variant,
        options,
        game.players,
        Admission(accounts_required=True, admits=Admits.BOTS, rated=True),
        settings.time_control(),
    )
    await open_bound_game(work, accounts, bound, attempts=1)
