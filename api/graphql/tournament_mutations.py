"""The tournament mutations: create, register, withdraw, close the registration, remove a
player, add a late entry, start a round. Each answers the tournament as it is after, or the
user error that refused it (nothing changed)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any

import strawberry

from api.accounts.names import LONGEST_SENT, name_key
from api.accounts.scopes import Principal
from api.graphql.account_commands import run_as_account
from api.graphql.account_types import accounts_of
from api.graphql.arguments import bounded
from api.graphql.clock import TimeControlInput
from api.graphql.context import Info
from api.graphql.inputs import ECHOED_KEY, UserError
from api.graphql.tournaments import (
    TOURNAMENT_ID,
    Tournament,
    tournament_id_of,
    tournament_type,
    tournaments_of,
)
from api.stores.base import Admits
from api.text_inputs import DATA_NAME, TextBound
from api.tournaments.commands import MAX_ROUND_LIMIT, CreateTournament
from api.tournaments.errors import TournamentError
from api.tournaments.games import offered
from api.tournaments.records import TournamentRecord
from domain.errors import ErrorCode

# An ISO 8601 time with its offset and fractions of a second is 32 characters.
MOMENT = TextBound("a time", 40, least=1)

Command = Callable[[Principal], Awaitable[TournamentRecord]]


@strawberry.input(description="A new tournament (the scope TOURNAMENTS_ORGANISE).")
class CreateTournamentInput:
    name: str = strawberry.field(description="1 to 80 characters.")
    rounds: int = strawberry.field(description="How many rounds: 1 to 20.")
    registration_closes_at: str = strawberry.field(
        description=f"Until when accounts may register (ISO 8601 with its offset; {MOMENT.rule})."
    )
    variant: str = strawberry.field(
        default="classic",
        description=f"The game: one of {', '.join(sorted(offered()))}, each with its tournament "
        f"rules; another is INVALID_TOURNAMENT ({DATA_NAME.rule}).",
    )
    victory_points: int | None = strawberry.field(
        default=None,
        description="The victory-point target of each game, for a game that scores by victory "
        "points (its option `victory_points`; omitted: the game's default); "
        "INVALID_TOURNAMENT for another game.",
    )
    table_size: int = strawberry.field(default=4, description="Tables of 3 to 6 (4: the best).")
    time_limit_minutes: int = strawberry.field(default=60, description="Each game's: 1 to 1440.")
    clock: TimeControlInput | None = strawberry.field(
        default=None,
        description="Each game's clock, as `createGame` takes it (its absence policy plays and "
        "then resigns a player who does not show); omitted, the games wait for every seat.",
    )
    round_limit: int | None = strawberry.field(
        default=None,
        description=f"Each game ends after this round, ranked (1 to {MAX_ROUND_LIMIT}); "
        "omitted, only the time limit (or the game's own end) stops it.",
    )
    admits: Admits = strawberry.field(default=Admits.ANYONE, description="People, bots or both.")
    start_rounds_automatically: bool = strawberry.field(
        default=False,
        description="Each next round starts by itself as soon as the last game of the round "
        "before is counted (the organiser starts the first); otherwise the organiser starts "
        "each round.",
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.input(description="A tournament to act on.")
class TournamentInput:
    tournament_id: strawberry.ID = strawberry.field(description=TOURNAMENT_ID)
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.input(description="A tournament and an account of it (the organiser's commands).")
class TournamentPlayerInput:
    tournament_id: strawberry.ID = strawberry.field(description=TOURNAMENT_ID)
    name: str = strawberry.field(
        description=f"The account's name (at most {LONGEST_SENT} characters)."
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.input(description="The round to start: the next one, once the one before has ended.")
class StartTournamentRoundInput:
    tournament_id: strawberry.ID = strawberry.field(description=TOURNAMENT_ID)
    round: int = strawberry.field(
        description="Its number; a round seated already is left as it is."
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.type(description="The tournament after the command, or why it was refused.")
class TournamentPayload:
    tournament: Tournament | None = strawberry.field(description="Null when refused.")
    user_errors: list[UserError] = strawberry.field(description="Why it was refused.")
    client_mutation_id: str | None = strawberry.field(description="As given.")


async def _run(info: Info, key: str | None, command: Command) -> TournamentPayload:
    answered = await run_as_account(info, key, command)
    shown = None if answered.record is None else tournament_type(answered.record)
    return TournamentPayload(
        tournament=shown, user_errors=answered.user_errors, client_mutation_id=key
    )


def _moment(text: str) -> float:
    bounded(MOMENT, text)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise TournamentError(ErrorCode.INVALID_TOURNAMENT, "a time in ISO 8601 with its offset")
    return moment.timestamp()


def _chosen_options(input: CreateTournamentInput) -> dict[str, Any] | None:
    """The game's tournament options the input chooses, by their option names."""
    if input.victory_points is None:
        return None
    return {"victory_points": input.victory_points}


async def _account_id(info: Info, name: str) -> str:
    key = name_key(name)
    record = await accounts_of(info).store.account_by_key(key) if key else None
    if record is None or record.deleted:
        raise TournamentError(ErrorCode.ACCOUNT_NOT_FOUND, "no account of that name")
    return record.id


@strawberry.type
class TournamentMutation:
    @strawberry.mutation(description="Create a tournament (TOURNAMENTS_ORGANISE): you organise it.")
    async def create_tournament(
        self,
        info: Info,
        input: Annotated[CreateTournamentInput, strawberry.argument(description="It.")],
    ) -> TournamentPayload:
        async def create(principal: Principal) -> TournamentRecord:
            bounded(DATA_NAME, input.variant)
            command = CreateTournament(
                input.name,
                input.rounds,
                _moment(input.registration_closes_at),
                input.variant,
                input.table_size,
                input.time_limit_minutes,
                clock=None if input.clock is None else input.clock.to_plain(),
                round_limit=input.round_limit,
                options=_chosen_options(input),
                start_automatically=input.start_rounds_automatically,
                admits=input.admits,
            )
            return await tournaments_of(info).create(principal, command)

        return await _run(info, input.client_mutation_id, create)

    @strawberry.mutation(
        description="Register your account (GAMES_PLAY), while registration is open."
    )
    async def register_for_tournament(
        self, info: Info, input: Annotated[TournamentInput, strawberry.argument(description="It.")]
    ) -> TournamentPayload:
        return await _run(
            info,
            input.client_mutation_id,
            lambda p: tournaments_of(info).register(p, tournament_id_of(input.tournament_id)),
        )

    @strawberry.mutation(description="Withdraw your account, before the first round.")
    async def withdraw_from_tournament(
        self, info: Info, input: Annotated[TournamentInput, strawberry.argument(description="It.")]
    ) -> TournamentPayload:
        return await _run(
            info,
            input.client_mutation_id,
            lambda p: tournaments_of(info).withdraw(p, tournament_id_of(input.tournament_id)),
        )

    @strawberry.mutation(description="Close the registration early (the organiser).")
    async def close_tournament_registration(
        self, info: Info, input: Annotated[TournamentInput, strawberry.argument(description="It.")]
    ) -> TournamentPayload:
        return await _run(
            info,
            input.client_mutation_id,
            lambda p: tournaments_of(info).close_registration(
                p, tournament_id_of(input.tournament_id)
            ),
        )

    @strawberry.mutation(description="Remove a player from later rounds (the organiser).")
    async def remove_tournament_player(
        self,
        info: Info,
        input: Annotated[TournamentPlayerInput, strawberry.argument(description="It.")],
    ) -> TournamentPayload:
        async def remove(principal: Principal) -> TournamentRecord:
            account = await _account_id(info, input.name)
            return await tournaments_of(info).remove_player(
                principal, tournament_id_of(input.tournament_id), account
            )

        return await _run(info, input.client_mutation_id, remove)

    @strawberry.mutation(description="Enter an account late, between rounds (the organiser).")
    async def add_tournament_entry(
        self,
        info: Info,
        input: Annotated[TournamentPlayerInput, strawberry.argument(description="It.")],
    ) -> TournamentPayload:
        async def add(principal: Principal) -> TournamentRecord:
            account = await _account_id(info, input.name)
            return await tournaments_of(info).add_late_entry(
                principal, tournament_id_of(input.tournament_id), account
            )

        return await _run(info, input.client_mutation_id, add)

    @strawberry.mutation(
        description="Seat the round (once, from the committed seed and the standings) and start "
        "its tables' games (the organiser)."
    )
    async def start_tournament_round(
        self,
        info: Info,
        input: Annotated[StartTournamentRoundInput, strawberry.argument(description="It.")],
    ) -> TournamentPayload:
        return await _run(
            info,
            input.client_mutation_id,
            lambda p: tournaments_of(info).start_round(
                p, tournament_id_of(input.tournament_id), input.round
            ),
        )
