"""The checks the root resolvers (query.py, mutation.py, subscription.py) make on their
arguments before anything runs: a refused argument fails the request with a code."""

from __future__ import annotations

from graphql import GraphQLError

from api.graphql.ids import from_global_id
from api.service import ServiceError
from api.text_inputs import TextBound, TextRefused, shown
from domain.errors import ErrorCode
from domain.rng import contribution_problem


def checked_client_seed(value: str | None) -> str | None:
    """A seat's contribution as given, or BAD_USER_INPUT (nothing is done) for one that is
    not 1 to 64 printable ASCII characters."""
    problem = None if value is None else contribution_problem(value)
    if problem is not None:
        raise GraphQLError(f"clientSeed: {problem}", extensions={"code": "BAD_USER_INPUT"})
    return value


def bounded(bound: TextBound, value: str | None) -> None:
    """A text the service does not check itself (a clientMutationId, a filter, a token),
    refused before anything runs. Names, seeds, colours and variants are the service's to
    check (each with its code: INVALID_NAME…), ids are from_global_id's."""
    if value is not None:
        try:
            bound.check(value)
        except TextRefused as refused:
            raise GraphQLError(refused.message, extensions={"code": "BAD_USER_INPUT"}) from None


def game_id_of(global_id: str) -> str:
    """The game's own id in a Game global id; INVALID_ID, a user error, for any other."""
    decoded = from_global_id(global_id, "Game")
    if decoded is None:
        raise ServiceError(ErrorCode.INVALID_ID, f"{shown(global_id)} is not a game id")
    return decoded[1]
