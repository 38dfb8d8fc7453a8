"""The tournament commands over the tournament store: create, register, withdraw, close the
registration, remove a player, add a late entry, start a round, record a game's result.

Each command reads the record, checks, and writes the next version over the one it read
(api/stores/tournaments.py); a write that loses a race is retried on the fresh record, whose
checks then say what the other instance did. Starting a round names the round: the tables come
from the committed seed and the standings (competition.pairing.seat_round), so whichever
instance writes them, they are the same, and a second start of a round already seated only
makes sure its games exist (`TableMaker.open_tables` is idempotent)."""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from api.accounts.scopes import Principal, Scope
from api.clock import TimeControl
from api.stores.base import Admits
from api.stores.tournaments import TournamentStore
from api.tournaments.commands import (
    MAX_NAME,
    MAX_ROUND_LIMIT,
    MAX_ROUNDS,
    TABLE_SIZES,
    TIME_LIMITS,
    CreateTournament,
)
from api.tournaments.errors import TournamentError
from api.tournaments.games import offered, table_options
from api.tournaments.records import (
    RoundRecord,
    TableRecord,
    TournamentRecord,
    TournamentStatus,
)
from competition.errors import CompetitionError
from competition.pairing import seat_round
from competition.results import GameResult
from competition.tables import TableRule
from domain.errors import ErrorCode, InvalidOptions
from domain.rng import SEED_BYTES, commitment
from variants import VARIANTS, TournamentPlay

REGISTERING, CLOSED = TournamentStatus.REGISTERING, TournamentStatus.CLOSED
PLAYING, FINISHED = TournamentStatus.PLAYING, TournamentStatus.FINISHED
# How often a command rereads and retries after another instance's write came first.
RETRIES = 20

logger = logging.getLogger("risiko")

Change = Callable[[TournamentRecord], TournamentRecord]


class TableMaker(Protocol):
    async def open_tables(self, tournament: TournamentRecord, round_: RoundRecord) -> None:
        """Create each table's game with the tournament's rules, seat its accounts, start it;
        a game that already exists is left as it is (a retry after a crash, or a race)."""
        ...

    async def result(self, game_id: str) -> GameResult | None:
        """The table's game's result once it is finished; None before."""
        ...


def table_rule(size: int, variant: str = "classic") -> TableRule:
    """Tables of `size`, filled in with one less or one more: never under 3 nor over 6, and
    within the players the game takes."""
    least, most = _table_sizes(variant)
    return TableRule(max(least, size - 1), size, min(most, size + 1))


def game_id(tournament_id: str, round_number: int, table: int) -> str:
    """A table's game id, the same on every instance (seated once, games created once)."""
    return hashlib.sha256(f"{tournament_id}/{round_number}/{table}".encode()).hexdigest()[:32]


def refuse(code: ErrorCode, message: str) -> TournamentError:
    return TournamentError(code, message)


@dataclass
class Tournaments:
    store: TournamentStore
    tables: TableMaker
    now: Callable[[], float] = field(default=time.time)

    async def create(self, principal: Principal, command: CreateTournament) -> TournamentRecord:
        principal.require(Scope.TOURNAMENTS_ORGANISE)
        _check_settings(command)
        seed = secrets.token_bytes(SEED_BYTES)
        now = self.now()
        record = TournamentRecord(
            id=f"{int(now * 1000):013x}{uuid.uuid4().hex[:19]}",
            name=command.name.strip(),
            variant=command.variant,
            rounds=command.rounds,
            table_rule=table_rule(command.table_size, command.variant),
            time_limit_minutes=command.time_limit_minutes,
            clock=command.clock,
            round_limit=command.round_limit,
            options=dict(command.options or {}),
            start_automatically=command.start_automatically,
            registration_closes_at=command.registration_closes_at,
            admits=command.admits.value,
            organiser=principal.account_id,
            seed=seed,
            commitment=commitment(seed),
            created_at=now,
        )
        await self.store.create_tournament(record)
        return record

    async def get(self, tournament_id: str) -> TournamentRecord:
        record = await self.store.tournament(tournament_id)
        if record is None:
            raise refuse(ErrorCode.TOURNAMENT_NOT_FOUND, f"no tournament {tournament_id!r}")
        return record

    async def register(self, principal: Principal, tournament_id: str) -> TournamentRecord:
        """The principal's account enters, while the registration is open."""
        principal.require(Scope.GAMES_PLAY)

        def enter(record: TournamentRecord) -> TournamentRecord:
            if record.status is not REGISTERING or self.now() >= record.registration_closes_at:
                raise refuse(ErrorCode.REGISTRATION_CLOSED, "the registration is closed")
            _check_admitted(record, principal)
            return _entered(record, principal.account_id)

        return await self._change(tournament_id, enter)

    async def withdraw(self, principal: Principal, tournament_id: str) -> TournamentRecord:
        """The principal's account leaves, before the first round."""
        principal.require(Scope.GAMES_PLAY)

        def leave(record: TournamentRecord) -> TournamentRecord:
            if record.status not in (REGISTERING, CLOSED):
                raise refuse(ErrorCode.TOURNAMENT_STARTED, "the tournament has started")
            return _left(record, principal.account_id)

        return await self._change(tournament_id, leave)

    async def close_registration(
        self, principal: Principal, tournament_id: str
    ) -> TournamentRecord:
        def close(record: TournamentRecord) -> TournamentRecord:
            _check_organiser(record, principal)
            if record.status is not REGISTERING:
                raise refuse(ErrorCode.REGISTRATION_CLOSED, "the registration is closed")
            return record.next_version(status=CLOSED)

        return await self._change(tournament_id, close)

    async def remove_player(
        self, principal: Principal, tournament_id: str, account_id: str
    ) -> TournamentRecord:
        """The organiser removes an entrant: it plays no later round (its game in a round
        under way goes on, by the clock's absence policy if it leaves)."""

        def remove(record: TournamentRecord) -> TournamentRecord:
            _check_organiser(record, principal)
            _check_unfinished(record)
            left = _left(record, account_id)
            return replace(left, removed=(*record.removed, account_id))

        return await self._change(tournament_id, remove)

    async def add_late_entry(
        self, principal: Principal, tournament_id: str, account_id: str
    ) -> TournamentRecord:
        """The organiser enters an account between rounds (before the start: it registers)."""

        def add(record: TournamentRecord) -> TournamentRecord:
            _check_organiser(record, principal)
            _check_unfinished(record)
            _check_between_rounds(record)
            return _entered(record, account_id)

        return await self._change(tournament_id, add)

    async def start_round(
        self, principal: Principal, tournament_id: str, round_number: int
    ) -> TournamentRecord:
        """Seat round `round_number` (once), then open its tables' games."""
        await self.settle(tournament_id)
        return await self._seat(
            tournament_id, round_number, lambda record: _check_organiser(record, principal)
        )

    async def _seat(
        self, tournament_id: str, round_number: int, check: Callable[[TournamentRecord], None]
    ) -> TournamentRecord:
        """Seat round `round_number` once, whoever asks (the organiser, after `check`, or the
        schedule), then open its tables' games."""

        def seat(record: TournamentRecord) -> TournamentRecord:
            check(record)
            if len(record.played) >= round_number:
                return record  # seated already: by an earlier call or another instance
            return _seated(record, round_number, self.now())

        record = await self._change(tournament_id, seat)
        await self.tables.open_tables(record, record.played[round_number - 1])
        return record

    async def _on_schedule(self, record: TournamentRecord) -> TournamentRecord:
        """The next round, seated and started through the same seated-once command, if the
        tournament starts its rounds by itself and the current one has ended; `record` as it
        is otherwise. A round that cannot be seated (too few players left) waits for the
        organiser: logged, not raised, since a game's commit asks for it."""
        current = record.current
        due = record.start_automatically and current is not None and current.ended
        if not due or current is None or current.number >= record.rounds:
            return record
        try:
            return await self._seat(record.id, current.number + 1, lambda _: None)
        except TournamentError as error:
            logger.warning(
                "tournament %s: round %d waits: %s", record.id, current.number + 1, error
            )
            return record

    async def settle(self, tournament_id: str) -> TournamentRecord:
        """Count the games of the current round that have finished and are not counted yet
        (each once: `record_result`); the tournament as it is then."""
        record = await self.get(tournament_id)
        current = record.current
        if current is None:
            return record
        ended = False  # counted here, or meanwhile by the commit that ended it: read again
        for table in current.tables:
            if table.result is None:
                result = await self.tables.result(table.game)
                if result is not None:
                    await self.record_result(tournament_id, result)
                    ended = True
        # The schedule's next round, if the instance that counted the last game died first.
        return await self._on_schedule(await self.get(tournament_id) if ended else record)

    async def game_finished(self, game_id: str) -> None:
        """A game has just ended: if it is a tournament's table, count its result now (once,
        whichever instance or retry gets here; `settle` counts what a crash left)."""
        tournament_id = await self.store.tournament_of_game(game_id)
        if tournament_id is None:
            return
        result = await self.tables.result(game_id)
        if result is not None:
            await self.record_result(tournament_id, result)

    async def record_result(self, tournament_id: str, result: GameResult) -> bool:
        """Count a finished table's game; False if it was counted already (once only)."""
        counted = False

        def count(record: TournamentRecord) -> TournamentRecord:
            nonlocal counted
            record, counted = _with_result(record, result)
            return record

        record = await self._change(tournament_id, count)
        if counted:  # the round's last game, on a schedule: the next round starts now
            await self._on_schedule(record)
        return counted

    async def _change(self, tournament_id: str, change: Change) -> TournamentRecord:
        for _ in range(RETRIES):
            record = await self.get(tournament_id)
            changed = change(record)
            if changed is record or await self.store.replace_tournament(changed):
                return changed
        raise refuse(ErrorCode.STALE_VERSION, "the tournament kept changing: try again")


def _check_settings(command: CreateTournament) -> None:
    problems = []
    if not 0 < len(command.name.strip()) <= MAX_NAME:
        problems.append(f"a name of 1 to {MAX_NAME} characters")
    games = offered()
    if command.variant not in games:
        raise refuse(
            ErrorCode.INVALID_TOURNAMENT,
            f"a tournament plays one of these games: {', '.join(sorted(games))}; "
            f"not {command.variant!r}",
        )
    if not 1 <= command.rounds <= MAX_ROUNDS:
        problems.append(f"1 to {MAX_ROUNDS} rounds")
    least, most = _table_sizes(command.variant)
    if not least <= command.table_size <= most:
        problems.append(f"tables of {least} to {most}")
    if not TIME_LIMITS[0] <= command.time_limit_minutes <= TIME_LIMITS[1]:
        problems.append(f"a time limit of {TIME_LIMITS[0]} to {TIME_LIMITS[1]} minutes")
    if command.round_limit is not None and not 1 <= command.round_limit <= MAX_ROUND_LIMIT:
        problems.append(f"a round limit of 1 to {MAX_ROUND_LIMIT} rounds")
    if command.clock is not None:
        try:
            TimeControl.from_dict(command.clock)
        except (InvalidOptions, TypeError) as error:
            problems.append(f"a valid clock ({error})")
    problems.extend(_options_problems(command, games[command.variant]))
    if problems:
        raise refuse(ErrorCode.INVALID_TOURNAMENT, "a tournament needs " + ", ".join(problems))


def _table_sizes(variant: str) -> tuple[int, int]:
    ruleset = VARIANTS[variant].ruleset
    return max(TABLE_SIZES[0], ruleset.min_players), min(TABLE_SIZES[1], ruleset.max_players)


def _options_problems(command: CreateTournament, play: TournamentPlay) -> list[str]:
    """What is wrong with the tables' options: one the game does not let an organiser choose,
    or a value (or a combination) its rules refuse."""
    chosen = command.options or {}
    foreign = sorted(set(chosen) - set(play.settable))
    if foreign:
        allowed = ", ".join(play.settable) or "none"
        return [f"only the game's tournament options ({allowed}), not {', '.join(foreign)}"]
    options = table_options(
        command.variant, chosen, command.time_limit_minutes, command.round_limit
    )
    try:
        VARIANTS[command.variant].options(options)
    except (InvalidOptions, TypeError) as error:
        return [f"options the game accepts ({error})"]
    return []


def _check_organiser(record: TournamentRecord, principal: Principal) -> None:
    principal.require(Scope.TOURNAMENTS_ORGANISE)
    if principal.account_id != record.organiser:
        raise refuse(ErrorCode.NOT_ORGANISER, "only the tournament's organiser may do this")


def _check_admitted(record: TournamentRecord, principal: Principal) -> None:
    if record.admits == Admits.BOTS and not principal.bot:
        raise refuse(ErrorCode.BOTS_ONLY, "this tournament admits bot accounts only")
    if record.admits == Admits.PEOPLE and principal.bot:
        raise refuse(ErrorCode.PEOPLE_ONLY, "this tournament admits people only")


def _check_unfinished(record: TournamentRecord) -> None:
    if record.status is FINISHED:
        raise refuse(ErrorCode.TOURNAMENT_FINISHED, "the tournament is over")


def _check_between_rounds(record: TournamentRecord) -> None:
    current = record.current
    if current is not None and not current.ended:
        raise refuse(ErrorCode.ROUND_NOT_ENDED, f"round {current.number} is under way")


def _entered(record: TournamentRecord, account_id: str) -> TournamentRecord:
    if account_id in record.entrants:
        raise refuse(ErrorCode.ALREADY_REGISTERED, "this account is registered already")
    if account_id in record.removed:
        raise refuse(ErrorCode.REGISTRATION_CLOSED, "the organiser removed this account")
    return record.next_version(entrants=(*record.entrants, account_id))


def _left(record: TournamentRecord, account_id: str) -> TournamentRecord:
    if account_id not in record.entrants:
        raise refuse(ErrorCode.NOT_REGISTERED, "this account is not registered")
    entrants = tuple(entrant for entrant in record.entrants if entrant != account_id)
    return record.next_version(entrants=entrants)


def _seated(record: TournamentRecord, round_number: int, now: float) -> TournamentRecord:
    _check_unfinished(record)
    if round_number != len(record.played) + 1 or round_number > record.rounds:
        raise refuse(
            ErrorCode.WRONG_ROUND,
            f"the next round is {len(record.played) + 1} of {record.rounds}",
        )
    _check_between_rounds(record)
    history = [[table.players for table in round_.tables] for round_ in record.played]
    entrants = record.standings().entrants(record.entrants)
    try:
        seating = seat_round(record.seed, round_number, entrants, history, record.table_rule)
    except CompetitionError as error:
        raise refuse(ErrorCode.NOT_ENOUGH_PLAYERS, str(error)) from None
    tables = tuple(
        TableRecord(game_id(record.id, round_number, number), players)
        for number, players in enumerate(seating.tables, start=1)
    )
    round_ = RoundRecord(
        round_number, tables, now, tuple(entrants), seating.repeats, seating.spread
    )
    return record.next_version(status=PLAYING, played=(*record.played, round_))


def _with_result(record: TournamentRecord, result: GameResult) -> tuple[TournamentRecord, bool]:
    rounds = list(record.played)
    for index, round_ in enumerate(rounds):
        tables = list(round_.tables)
        for number, table in enumerate(tables):
            if table.game != result.game:
                continue
            if table.result is not None:
                return record, False
            if sorted(line.player for line in result.players) != sorted(table.players):
                raise refuse(
                    ErrorCode.INVALID_TOURNAMENT, "the result's players are not the table's"
                )
            tables[number] = TableRecord(table.game, table.players, result)
            rounds[index] = replace(round_, tables=tuple(tables))
            last = rounds[-1]
            over = len(rounds) == record.rounds and last.ended
            status = FINISHED if over else record.status
            return record.next_version(played=tuple(rounds), status=status), True
    raise refuse(
        ErrorCode.INVALID_TOURNAMENT, f"game {result.game!r} is no table of this tournament"
    )
