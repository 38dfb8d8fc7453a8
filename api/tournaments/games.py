"""The tournament's side of the games: each table's game created with the tournament rules
and the time limit, its accounts seated (bound seats) and started (`GameTables`); and a
finished game's result as the tournament counts it (`result_of`).

Every step is safe to repeat: a game that exists is not created again, a seated account is
not seated again, a started game is not started again; so an instance that dies while it
opens a round's tables, or two instances opening them at once, leave each game once."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from api import lobby
from api.commands import CreateGame, SeatAccount, StartGame, TakeSeat
from api.read_models import Session
from api.service_errors import ServiceError
from api.stores.accounts import AccountStore
from api.stores.base import Admission, GameStatus, Store
from api.tournaments.records import RoundRecord, TableRecord, TournamentRecord
from api.unit_of_work import Work
from competition.results import GameResult, from_ranking
from domain.errors import ErrorCode
from variants import VARIANTS, TournamentPlay

# What a repeated step answers: the game, the seat or the start is there already.
DONE_ALREADY = {ErrorCode.ALREADY_SEATED, ErrorCode.GAME_ALREADY_STARTED}
# How often a table is opened again after another instance's change to its game came first.
ATTEMPTS = 20


class GameTables:
    """Opens a round's tables as games of the server (the `TableMaker` of the service)."""

    def __init__(self, work: Work, accounts: AccountStore) -> None:
        self.work = work
        self.accounts = accounts

    async def open_tables(self, tournament: TournamentRecord, round_: RoundRecord) -> None:
        for table in round_.tables:
            for attempt in range(ATTEMPTS):
                try:
                    await self._open(tournament, table)
                    break
                except ServiceError as error:  # another instance changed the game first
                    if error.code != ErrorCode.STALE_VERSION or attempt == ATTEMPTS - 1:
                        raise

    async def _open(self, tournament: TournamentRecord, table: TableRecord) -> None:
        session = await self._created(tournament, table)
        if session.record.status != GameStatus.LOBBY:
            return
        seated = {seat.account_id for seat in session.record.seats}
        for player in table.players:
            if player not in seated:
                await self._seat(table.game, player)
        try:
            await lobby.start_game(self.work, StartGame(table.game, None, account=table.players[0]))
        except ServiceError as error:
            if error.code not in DONE_ALREADY:
                raise

    async def _created(self, tournament: TournamentRecord, table: TableRecord) -> Session:
        try:
            return await self.work.sessions.get(table.game)
        except ServiceError as error:
            if error.code != ErrorCode.GAME_NOT_FOUND:
                raise
        options = table_options(
            tournament.variant,
            tournament.options,
            tournament.time_limit_minutes,
            tournament.round_limit,
        )
        command = CreateGame(
            tournament.variant,
            options,
            time_control=tournament.clock,
            admission=Admission(accounts_required=True, admits=tournament.admits),
            game_id=table.game,
        )
        try:
            await lobby.create_game(self.work, command)
        except Exception:  # another instance created it first: the store refused the id
            self.work.sessions.forget(table.game)
        return await self.work.sessions.get(table.game)

    async def _seat(self, game_id: str, player: str) -> None:
        account = await self.accounts.account(player)
        if account is None or account.deleted:
            return  # gone since it registered: its seat stays empty, the game is shorter
        seat = SeatAccount(account.id, account.name, account.bot)
        try:
            await lobby.take_seat(self.work, TakeSeat(game_id, account.name, account=seat))
        except ServiceError as error:
            if error.code not in DONE_ALREADY:
                raise

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
