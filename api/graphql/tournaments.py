"""The tournament queries and its news (a subscription): thin resolvers over the tournament
commands (api/tournaments/service.py), merged into the schema's Query and Subscription
(api/graphql/schema.py); the mutations are in tournament_mutations.py. A refused command is a
user error and changes nothing; a credential missing, not valid, or without the scope fails
the request (UNAUTHENTICATED, FORBIDDEN)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Annotated

import strawberry
from graphql import GraphQLError
from strawberry.scalars import JSON

from api.graphql.account_types import Account, account_type, accounts_of
from api.graphql.clock import TimeControl, iso, time_control_of
from api.graphql.context import Info
from api.graphql.ids import from_global_id, page_size, to_global_id
from api.graphql.pages import AFTER, FIRST, PageInfo
from api.stores.base import Admits
from api.text_inputs import GLOBAL_ID
from api.tournaments.errors import TournamentError
from api.tournaments.export import ExportFormat, export
from api.tournaments.games import table_options
from api.tournaments.news import NewsKind, news_between
from api.tournaments.records import (
    RoundRecord,
    TableRecord,
    TournamentRecord,
    TournamentStatus,
)
from api.tournaments.service import Tournaments
from competition.record import canonical
from competition.record import digest as digest_of
from domain.errors import ErrorCode

strawberry.enum(TournamentStatus, description="Where a tournament is.")
strawberry.enum(NewsKind, description="What happened in a tournament.")
strawberry.enum(
    ExportFormat, description="An export's shape: JSON (all), or CSV of the standings or games."
)
TYPE = "Tournament"
TOURNAMENT_ID = f"The tournament's id ({GLOBAL_ID.rule})."
# How often a news stream reads its tournament (and counts the games that ended meanwhile).
NEWS_EVERY_SECONDS = 1.0


def tournaments_of(info: Info) -> Tournaments:
    """The app's tournaments (kept in its state, as the request reaches the app)."""
    request = info.context.request
    tournaments = getattr(
        getattr(getattr(request, "app", None), "state", None), "tournaments", None
    )
    if not isinstance(tournaments, Tournaments):
        raise GraphQLError("tournaments are not served here", extensions={"code": "NOT_FOUND"})
    return tournaments


async def _accounts(info: Info, ids: tuple[str, ...]) -> list[Account]:
    store = accounts_of(info).store
    found = [await store.account(account_id) for account_id in ids]
    return [account_type(record) for record in found if record is not None]


@strawberry.type(description="One player's line of a finished table's game.")
class TableResult:
    account: Account | None = strawberry.field(description="The player.")
    points: int = strawberry.field(description="The game's points (seed 000's scoring).")
    rank: int = strawberry.field(description="Its place at the table, 1 the best.")
    objective: bool = strawberry.field(description="It achieved its objective.")
    presence: str = strawberry.field(description="played, resigned or absent.")
    score: int = strawberry.field(description="What the game adds to its tournament points.")


@strawberry.type(description="A table of a round: its game, its players in seat order.")
class TournamentTable:
    game_id: strawberry.ID = strawberry.field(description="The table's game (`game(id:)`).")
    record: strawberry.Private[TableRecord]

    @strawberry.field(description="The players, in seat order.")
    async def players(self, info: Info) -> list[Account]:
        return await _accounts(info, self.record.players)

    @strawberry.field(description="The game's result once it has ended and counted; null before.")
    async def result(self, info: Info) -> list[TableResult] | None:
        if self.record.result is None:
            return None
        lines = self.record.result.players
        accounts = {a.account_id: a for a in await _accounts(info, tuple(x.player for x in lines))}
        return [
            TableResult(
                account=accounts.get(line.player),
                points=line.points,
                rank=line.rank,
                objective=line.objective,
                presence=line.presence.value,
                score=line.score,
            )
            for line in lines
        ]


@strawberry.type(description="A round: its tables, seated once from the committed seed.")
class TournamentRound:
    number: int = strawberry.field(description="From 1.")
    started_at: str = strawberry.field(description="When it was seated (ISO 8601, UTC).")
    ended: bool = strawberry.field(description="Every table's game has ended and counted.")
    tables: list[TournamentTable] = strawberry.field(description="The best placed first.")
    tournament: strawberry.Private[TournamentRecord]
    record: strawberry.Private[RoundRecord]

    @strawberry.field(
        description="What its tables were computed from and are, as published when it was "
        'seated: canonical JSON (docs/tournaments.md, "Reproducibility"); once the seed is '
        "revealed, anyone recomputes the tables from it. Null for a round seated before "
        "descriptions were kept."
    )
    def description(self) -> str | None:
        described = self.tournament.description(self.record)
        return None if described is None else canonical(described)

    @strawberry.field(description="The SHA-256 (hex) of the description's text, published with it.")
    def digest(self) -> str | None:
        described = self.tournament.description(self.record)
        return None if described is None else digest_of(described)


@strawberry.type(description="A line of the standings (docs/tournaments.md: the tie-breaks).")
class TournamentStanding:
    place: int = strawberry.field(description="From 1; unique (the lot decides last).")
    account: Account | None = strawberry.field(description="The player.")
    games: int = strawberry.field(description="Games counted.")
    points: int = strawberry.field(description="Points: the sum of its games' scores.")
    objectives: int = strawberry.field(description="Objectives achieved (the 1st tie-break).")
    opponents_points: int = strawberry.field(description="Opponents' points (the 2nd).")
    best_game: int = strawberry.field(description="Its best game's score (the 3rd).")
    lot: str = strawberry.field(description="Its lot, drawn from the seed (the last).")


@strawberry.type(description="A tournament: rounds of tables of tournament games, and standings.")
class Tournament:
    id: strawberry.ID = strawberry.field(description="Its global id.")
    name: str = strawberry.field(description="Its name.")
    variant: str = strawberry.field(description="The game it plays (with the tournament rules).")
    rounds: int = strawberry.field(description="How many rounds it plays.")
    table_size: int = strawberry.field(description="The size tables are cut to.")
    time_limit_minutes: int = strawberry.field(description="Each game's time limit.")
    round_limit: int | None = strawberry.field(
        description="Each game's round limit; null: none (the time limit stops it)."
    )
    clock: TimeControl | None = strawberry.field(
        description="Each game's clock; null: the games wait for every seat."
    )
    start_rounds_automatically: bool = strawberry.field(
        description="Each next round starts by itself once the round before has ended."
    )
    table_options: JSON = strawberry.field(
        description="The options each table's game is created with, as plain values (as "
        "`Game.options` names them, snake_case): the game's tournament rules, the options chosen "
        "(a victory-point target), the time limit and the round limit."
    )
    registration_closes_at: str = strawberry.field(description="ISO 8601, UTC.")
    admits: Admits = strawberry.field(description="People, bots or both.")
    status: TournamentStatus = strawberry.field(description="Where it is.")
    commitment: str = strawberry.field(
        description="The SHA-256 of its secret seed, which draws the first round and the lots."
    )
    seed: str | None = strawberry.field(
        description="Its seed (hex), revealed once it is finished, to check every round's "
        "description against the commitment; null before, for everyone."
    )
    rounds_played: list[TournamentRound] = strawberry.field(description="Seated so far.")
    record: strawberry.Private[TournamentRecord]

    @strawberry.field(description="Its organiser.")
    async def organiser(self, info: Info) -> Account | None:
        found = await _accounts(info, (self.record.organiser,))
        return found[0] if found else None

    @strawberry.field(description="The accounts registered now.")
    async def entrants(self, info: Info) -> list[Account]:
        return await _accounts(info, self.record.entrants)

    @strawberry.field(
        description="The standings and every counted game's result, for a sheet or a ranking "
        "site (each game's history: `game(id) { actionLog }`). Players by account name."
    )
    async def export(
        self,
        info: Info,
        format: Annotated[ExportFormat, strawberry.argument(description="Its shape.")],
    ) -> str:
        players = {line.player for result in self.record.results() for line in result.players}
        found = await _accounts(info, (*self.record.entrants, *sorted(players)))
        names = {account.account_id: account.name for account in found}
        return export(self.record, names, format)

    @strawberry.field(description="The standings now, first place first.")
    async def standings(self, info: Info) -> list[TournamentStanding]:
        rows = self.record.standings().rows()
        found = await _accounts(info, tuple(row.player for row in rows))
        accounts = {account.account_id: account for account in found}
        return [
            TournamentStanding(
                place=row.place,
                account=accounts.get(row.player),
                games=row.games,
                points=row.points,
                objectives=row.objectives,
                opponents_points=row.opponents_points,
                best_game=row.best_game,
                lot=row.lot,
            )
            for row in rows
        ]


def _round_type(record: TournamentRecord, round_: RoundRecord) -> TournamentRound:
    return TournamentRound(
        number=round_.number,
        started_at=iso(round_.started_at) or "",
        ended=round_.ended,
        tables=[
            TournamentTable(game_id=to_global_id("Game", table.game), record=table)
            for table in round_.tables
        ],
        tournament=record,
        record=round_,
    )


def tournament_type(record: TournamentRecord) -> Tournament:
    played = [_round_type(record, round_) for round_ in record.played]
    return Tournament(
        id=to_global_id(TYPE, record.id),
        name=record.name,
        variant=record.variant,
        rounds=record.rounds,
        table_size=record.table_rule.preferred,
        time_limit_minutes=record.time_limit_minutes,
        round_limit=record.round_limit,
        clock=time_control_of(record.clock),
        start_rounds_automatically=record.start_automatically,
        table_options=JSON(
            table_options(
                record.variant, record.options, record.time_limit_minutes, record.round_limit
            )
        ),
        registration_closes_at=iso(record.registration_closes_at) or "",
        admits=Admits(record.admits),
        status=record.status,
        commitment=record.commitment,
        seed=record.revealed_seed,
        rounds_played=played,
        record=record,
    )


@strawberry.type(description="An edge of the tournaments' connection.")
class TournamentEdge:
    cursor: str = strawberry.field(description="Its cursor.")
    node: Tournament = strawberry.field(description="The tournament.")


@strawberry.type(description="Tournaments, oldest first.")
class TournamentConnection:
    edges: list[TournamentEdge] = strawberry.field(description="This page's.")
    page_info: PageInfo = strawberry.field(description="Where the page lies.")


def tournament_id_of(global_id: str) -> str:
    found = from_global_id(global_id, TYPE)
    if found is None:
        raise TournamentError(ErrorCode.TOURNAMENT_NOT_FOUND, "no such tournament")
    return found[1]


@strawberry.type
class TournamentQuery:
    @strawberry.field(
        description="A tournament by its id, its finished games counted; null if none."
    )
    async def tournament(
        self,
        info: Info,
        id: Annotated[strawberry.ID, strawberry.argument(description=TOURNAMENT_ID)],
    ) -> Tournament | None:
        try:
            return tournament_type(await tournaments_of(info).settle(tournament_id_of(id)))
        except TournamentError:
            return None

    @strawberry.field(description="The tournaments, oldest first.")
    async def tournaments(
        self, info: Info, first: FIRST = None, after: AFTER = None
    ) -> TournamentConnection:
        size = page_size(first)
        after_id = None if after is None else _cursor(after)
        found = await tournaments_of(info).store.tournaments(after_id, size + 1)
        edges = [
            TournamentEdge(cursor=to_global_id(TYPE, record.id), node=tournament_type(record))
            for record in found[:size]
        ]
        end = edges[-1].cursor if edges else None
        info_ = PageInfo(has_next_page=len(found) > size, start_cursor=None, end_cursor=end)
        return TournamentConnection(edges=edges, page_info=info_)


def _cursor(after: str) -> str:
    found = from_global_id(after, TYPE)
    if found is None:
        raise GraphQLError("not a cursor of this list", extensions={"code": "BAD_USER_INPUT"})
    return found[1]


@strawberry.type(description="A piece of a tournament's news, with the tournament after it.")
class TournamentNews:
    kind: NewsKind = strawberry.field(description="What happened.")
    round: int | None = strawberry.field(description="The round it concerns, if one.")
    game_id: strawberry.ID | None = strawberry.field(description="The game that ended, if one.")
    tournament: Tournament = strawberry.field(description="The tournament as it is now.")


@strawberry.type
class TournamentSubscription:
    @strawberry.subscription(
        description="A tournament's news as it happens: a round started, a game ended (counted), "
        "the standings changed, the tournament finished (the stream ends then). It reads the "
        f"tournament every {NEWS_EVERY_SECONDS:g} s, counting the games that ended meanwhile."
    )
    async def tournament_news(
        self,
        info: Info,
        id: Annotated[strawberry.ID, strawberry.argument(description=TOURNAMENT_ID)],
    ) -> AsyncGenerator[TournamentNews, None]:
        tournaments = tournaments_of(info)
        try:
            tournament_id = tournament_id_of(id)
            seen = await tournaments.settle(tournament_id)
        except TournamentError as error:
            raise GraphQLError(error.message, extensions={"code": "NOT_FOUND"}) from None
        while seen.status is not TournamentStatus.FINISHED:
            await asyncio.sleep(NEWS_EVERY_SECONDS)
            now = await tournaments.settle(tournament_id)
            shown = tournament_type(now)
            for news in news_between(seen, now):
                game = None if news.game is None else to_global_id("Game", news.game)
                yield TournamentNews(
                    kind=news.kind, round=news.round, game_id=game, tournament=shown
                )
            seen = now
