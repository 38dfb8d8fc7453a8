"""The schema's assembly: Query, Mutation and Subscription (query.py, mutation.py,
subscription.py, merged with the accounts' in accounts.py), its limits, extensions and error
handling."""

from __future__ import annotations

import strawberry
from graphql import GraphQLError
from strawberry.extensions import (
    MaskErrors,
    MaxTokensLimiter,
    ParserCache,
    SchemaExtension,
)
from strawberry.extensions.runner import SchemaExtensionsRunner
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext

# The games' event kinds join the GameEventDetail union in the order their modules are first
# imported: the lobby's (GameCreated…) before the clock's (ClockChanged…), the order
# schema.graphql lists them in (api.anonymous imported them first here, by chance, before
# Query, Mutation and Subscription had modules of their own).
import api.lobby_events  # noqa: F401
from api.budget import Budgets
from api.graphql.accounts import AccountMutation, AccountQuery
from api.graphql.challenge_mutations import ChallengeMutation
from api.graphql.challenges import ChallengeQuery, ChallengeSubscription
from api.graphql.errors import is_unexpected
from api.graphql.game import Game
from api.graphql.generated import STATE_TYPES
from api.graphql.ladder import LadderMutation
from api.graphql.limits import DocumentLimits, Limits
from api.graphql.mutation import Mutation
from api.graphql.options import OWN_OPTION_TYPES
from api.graphql.pool import PoolMutation
from api.graphql.query import Query
from api.graphql.ratings import RatingQuery
from api.graphql.shared_events import SharedEventExecutor, StreamResultsRunner
from api.graphql.static_reads import StaticAnswers, StaticReads
from api.graphql.subscription import Subscription
from api.graphql.tournament_mutations import TournamentMutation
from api.graphql.tournaments import TournamentQuery, TournamentSubscription


class MaskUnexpectedErrors(MaskErrors):
    """MaskErrors, minus its `isinstance` against a runtime-checkable Protocol: it runs once
    per result, so once per event and per subscriber, where it cost about 4 % of the server's
    time (benchmarks/suite.py --only subscriptions, profiled)."""

    def __init__(self) -> None:
        super().__init__(should_mask_error=is_unexpected)

    def _process_result(self, result: object) -> None:
        errors = getattr(result, "errors", None)
        if errors:
            result.errors = self._process_errors(errors)  # type: ignore[attr-defined]


class Schema(strawberry.Schema):
    """Logs only the errors nobody meant: a client's typo is its business, not the log's."""

    static_answers: StaticAnswers | None = None  # the answers kept by StaticReads

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        super().process_errors([e for e in errors if is_unexpected(e)], execution_context)

    def create_extensions_runner(
        self, execution_context: ExecutionContext, extensions: list[SchemaExtension]
    ) -> SchemaExtensionsRunner:
        return StreamResultsRunner(execution_context, extensions)


def build_schema(
    max_depth: int = 12,
    max_aliases: int = 30,
    max_tokens: int = 3000,
    max_cost: int = 50_000,
    budgets: Budgets | None = None,
) -> Schema:
    """The schema with its limits; `budgets`, when given, charges each document's cost to
    its client (None: no budgets, as for `risiko export-schema`)."""
    limits = Limits(max_depth=max_depth, max_aliases=max_aliases, max_cost=max_cost)
    answers = StaticAnswers()
    built = Schema(
        query=merge_types(
            "Query", (Query, AccountQuery, TournamentQuery, RatingQuery, ChallengeQuery)
        ),
        mutation=merge_types(
            "Mutation",
            (
                Mutation,
                AccountMutation,
                TournamentMutation,
                ChallengeMutation,
                PoolMutation,
                LadderMutation,
            ),
        ),
        subscription=merge_types(
            "Subscription", (Subscription, TournamentSubscription, ChallengeSubscription)
        ),
        types=[Game, *STATE_TYPES, *OWN_OPTION_TYPES],
        execution_context_class=SharedEventExecutor,
        extensions=[
            ParserCache,
            lambda: DocumentLimits(limits, budgets),
            lambda: MaxTokensLimiter(max_token_count=max_tokens),
            lambda: StaticReads(answers),
            MaskUnexpectedErrors,
        ],
    )
    built.static_answers = answers
    return built


schema = build_schema()
__all__ = ["build_schema", "schema"]
