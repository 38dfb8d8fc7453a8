"""The tournament's side of the games: each table's game created with the tournament rules
and the time limit, its accounts seated (bound seats) and started (`GameTables`); and a
finished game's result as the tournament counts it (`result_of`).

Every step is safe to repeat (api/bound_games.py): an instance that dies while it opens a
round's tables, or two instances opening them at once, leave each game once."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from api.bound_games import BoundGame, open_bound_game
from api.read_models import Session
from api.service_errors import ServiceError
from api.stores.accounts import AccountStore
from api.stores.base import Admission, GameStatus, Store
from api.tournaments.records import RoundRecord, TableRecord, TournamentRecord
from api.unit_of_work import Work
from competition.results import GameResult, from_ranking
from domain.errors import ErrorCode
from variants import VARIANTS, TournamentPlay


class GameTables:
    """Opens a round's tables as games of the server (the `TableMaker` of the service)."""

    def __init__(self, work: Work, accounts: AccountStore) -> None:
        self.work = work
        self.accounts = accounts

    async def open_tables(self, tournament: TournamentRecord, round_: RoundRecord) -> None:
        for table in round_.tables:
            await open_bound_game(self.work, self.accounts, _bound(tournament, table))

    async def result(self, game_id: str) -> GameResult | None:
        try:
            session = await self.work.sessions.get(game_id)
        except ServiceError as error:
            if error.code == ErrorCode.GAME_NOT_FOUND:
                return None
            raise
        if session.record.status != GameStatus.FINISHED:
            return None  # the usual answer, read at every settle: no log read for it
        return result_of(session, await absent_seats(self.work.store, game_id))


def _bound(tournament: TournamentRecord, table: TableRecord) -> BoundGame:
    """A table's game: the tournament's rules and clock, its players seated in order."""
    options = table_options(
        tournament.variant,
        tournament.options,
        tournament.time_limit_minutes,
        tournament.round_limit,
    )
    return BoundGame(
        table.game,
        tournament.variant,
        options,
        table.players,
        Admission(accounts_required=True, admits=tournament.admits),
        tournament.clock,
    )


def offered() -> dict[str, TournamentPlay]:
    """The games a tournament may play, as their variants declare (`Variant.tournament`)."""
    return {
        name: variant.tournament
        for name, variant in VARIANTS.items()
        if variant.tournament is not None
    }


def table_options(
    variant: str, chosen: Mapping[str, Any], time_limit_minutes: int, round_limit: int | None
) -> dict[str, Any]:
    """Every table's game options, as plain values: the game's tournament rules, the options
    the organiser chose among its tournament options, the time limit and the round limit."""
    play = offered()[variant]
    options = {**play.options, **chosen, "time_limit_minutes": time_limit_minutes}
    if round_limit is not None:
        options["round_limit"] = round_limit
    return options


async def absent_seats(store: Store, game_id: str) -> set[int]:
    """The seats that never played a move of their own while the clock played for them (its
    absence policy's moves, or its resignation after their absences), from the game's log.
    A seat's own action or its own resignation shows it present; a seat the clock never had
    to play for (a winner whose turn never came) is present too."""
    entries = await store.log(game_id)
    own = {entry.seat for entry in entries if entry.kind == "action"}
    played_for = {entry.seat for entry in entries if entry.kind == "proxy"}
    resigned = {entry.seat for entry in entries if entry.kind == "resign"} - own
    if resigned:  # whose resignation: its own, or the clock's (PlayedByProxy tells)
        events = await store.events(game_id, None, 0, await store.count_events(game_id, None))
        by_clock = {
            event.data["seat"]
            for event in events
            if event.data.get("type") == "PlayedByProxy"
            and event.data.get("reason") == "absent_resigns"
        }
        own |= resigned - by_clock
        played_for |= resigned & by_clock
    return {seat for seat in played_for - own if seat is not None}


def result_of(session: Session, absent: Collection[int] = ()) -> GameResult | None:
    """A finished game's result by the seed's scoring: the engine's ranking and points, the
    objective achieved by the winner of an objective, the `absent` seats marked (they score
    nothing); None while it is not finished."""
    game, record = session.game, session.record
    if record.status != GameStatus.FINISHED or game is None or not game.ranking:
        return None
    players = [seat.account_id or "" for seat in record.seats]
    play = VARIANTS[record.variant].tournament
    aim = "objective" if play is None else play.aim
    objective = game.winner if game.end_reason == aim else None
    if objective in absent:  # the clock's proxy won for it: an absent player achieves nothing
        objective = None
    resigned = [seat for seat, gone in enumerate(game.resigned) if gone]
    return from_ranking(
        record.id,
        players,
        game.ranking,
        objective_seat=objective,
        resigned=resigned,
        absent=absent,
    )
