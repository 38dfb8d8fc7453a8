"""Every error in an answer has an `extensions.code`, and none shows an exception's text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from graphql import GraphQLError
from strawberry.http import GraphQLHTTPResponse, process_result
from strawberry.subscriptions.protocols.graphql_transport_ws.types import Message

UNEXPECTED = "Unexpected error."


def error_code(shown: Mapping[str, Any], has_data: bool) -> str:
    """The code of an error, as formatted for the client, that was raised without one."""
    message = str(shown.get("message", ""))
    if message.startswith("Syntax Error"):
        return "TOO_MANY_TOKENS" if "tokens. Parsing aborted" in message else "GRAPHQL_PARSE_FAILED"
    if message.startswith("Variable '$"):  # graphql-core's coercion of the variables
        return "BAD_USER_INPUT"
    if message == UNEXPECTED:
        return "INTERNAL_SERVER_ERROR"
    if shown.get("path") is None and not has_data:
        return "GRAPHQL_VALIDATION_FAILED"
    return "INTERNAL_SERVER_ERROR"


def code_errors(shown_errors: list[dict[str, Any]], has_data: bool) -> None:
    """Give each formatted error that has none a code."""
    for shown in shown_errors:
        extensions = shown.setdefault("extensions", {})
        if "code" not in extensions:
            extensions["code"] = error_code(shown, has_data)


def is_unexpected(error: GraphQLError) -> bool:
    """An error nobody meant to show: raised by a crash, not by GraphQL's own syntax and
    validation, nor by a resolver on purpose."""
    original = error.original_error
    return original is not None and not isinstance(original, GraphQLError)


def coded_result(result: Any) -> GraphQLHTTPResponse:
    """strawberry's HTTP answer, each error with a code and unexpected ones masked (a crash
    outside the operation, such as in a validation rule, escapes strawberry's MaskErrors)."""
    response = process_result(result)
    errors: list[GraphQLError] = list(getattr(result, "errors", None) or [])
    formatted: list[dict[str, Any]] = response.get("errors") or []  # type: ignore[assignment]
    has_data = response.get("data") is not None
    for error, shown in zip(errors, formatted, strict=False):
        if is_unexpected(error):
            shown["message"] = UNEXPECTED
            shown["extensions"] = {"code": "INTERNAL_SERVER_ERROR"}
    code_errors(formatted, has_data)
    return response


def coded_socket_message(sent: Message) -> Message:
    """A graphql-transport-ws message with a code on each of its errors, as over HTTP
    (the errors of the socket are already masked: MaskUnexpectedErrors ran on them)."""
    message = cast(dict[str, Any], sent)
    if message.get("type") == "error":
        code_errors(message["payload"], has_data=False)
    elif message.get("type") == "next":
        payload = message["payload"]
        if payload.get("errors"):
            code_errors(payload["errors"], payload.get("data") is not None)
    return sent
