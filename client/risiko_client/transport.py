"""What the client's requests share: the documents parsed once, what a failure is worth
retrying (TRANSIENT), and the server's refusals as `ApiError`."""

from __future__ import annotations

import functools
from typing import Any

from gql import GraphQLRequest
from gql.transport.exceptions import TransportError
from graphql import DocumentNode, parse, print_ast
from websockets.exceptions import ConnectionClosed, WebSocketException

Json = dict[str, Any]

# Worth another try: the connection failed or was lost, the answer timed out, or a proxy or
# the server answered 5xx. GraphQL errors (TransportQueryError) are answers, never retried.
TRANSIENT = (TransportError, OSError, TimeoutError, WebSocketException)


class ParsedRequest(GraphQLRequest):
    """A request of a document parsed once: gql would parse the text and print it again for
    every request, which costs more than the request itself for the game's big query."""

    def __init__(self, query: str, variables: Json | None = None) -> None:
        document, self.text = parsed_document(query)
        super().__init__(document, variable_values=variables)

    @property
    def payload(self) -> Json:
        if self.variable_values:
            return {"query": self.text, "variables": self.variable_values}
        return {"query": self.text}


@functools.cache
def parsed_document(query: str) -> tuple[DocumentNode, str]:
    document = parse(query)
    return document, print_ast(document)


class ApiError(Exception):
    """A request the server refused: a top-level GraphQL error (`code` from its extensions:
    UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, BAD_USER_INPUT, …) or a user error of a lobby
    mutation (GAME_FULL, COLOUR_TAKEN, …)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def closed_for_good(error: BaseException) -> ApiError | None:
    """The server closed the WebSocket for good (4401, 4403: a wrong token; 4400: a protocol
    error), not to be retried; None for a connection merely lost."""
    cause: BaseException | None = error
    for _ in range(8):  # along the chain of causes
        if isinstance(cause, ConnectionClosed) and cause.rcvd is not None:
            if cause.rcvd.code in (4401, 4403):
                return ApiError("UNAUTHENTICATED", cause.rcvd.reason or "token refused")
            if cause.rcvd.code == 4400:
                return ApiError("BAD_REQUEST", cause.rcvd.reason or "protocol error")
        if cause is None:
            break
        cause = cause.__cause__ or cause.__context__
    return None


def checked(payload: Json) -> Json:
    """A lobby mutation's payload, or ApiError for its first user error."""
    for error in payload["userErrors"]:
        raise ApiError(error["code"], error["message"])
    return payload
