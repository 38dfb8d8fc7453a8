"""Every error in an answer has an `extensions.code`, and none shows an exception's text."""

from __future__ import annotations

from typing import Any

from graphql import GraphQLError, GraphQLSyntaxError
from strawberry.http import GraphQLHTTPResponse, process_result

UNEXPECTED = "Unexpected error."


def error_code(error: GraphQLError, has_data: bool) -> str:
    """The code of an error that was raised without one."""
    if isinstance(error, GraphQLSyntaxError):
        return (
            "TOO_MANY_TOKENS"
            if "tokens. Parsing aborted" in error.message
            else ("GRAPHQL_PARSE_FAILED")
        )
    if error.message.startswith("Variable '$"):  # graphql-core's coercion of the variables
        return "BAD_USER_INPUT"
    if error.path is None and not has_data:
        return "GRAPHQL_VALIDATION_FAILED"
    return "INTERNAL_SERVER_ERROR"


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
        extensions = shown.setdefault("extensions", {})
        if is_unexpected(error):
            shown["message"] = UNEXPECTED
            extensions.clear()
            extensions["code"] = "INTERNAL_SERVER_ERROR"
        elif "code" not in extensions:
            extensions["code"] = error_code(error, has_data)
    return response
