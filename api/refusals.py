"""Requests refused before any GraphQL runs, answered as GraphQL errors in JSON.

Every refusal has an HTTP status, a stable `extensions.code` and a message written for the
client; none carries an exception's text, and each is logged as one line, without a
traceback: a client's mistake is not the server's.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from api import request_id
from api.metrics import count_error

logger = logging.getLogger("risiko.refusals")

GRAPHQL_RESPONSE = "application/graphql-response+json"
# Deeper JSON than any GraphQL request needs; graphql-core's coercion recurses per level.
MAX_JSON_DEPTH = 64
CODES_BY_STATUS: Mapping[int, str] = {
    400: "BAD_REQUEST",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    429: "RATE_LIMITED",
}


class RequestRefused(Exception):
    """A request the server will not run, with the status and the code to answer."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        headers: Mapping[str, str] | None = None,
        extensions: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = dict(headers or {})
        self.extensions = dict(extensions or {})


def log_refusal(request: Request, status: int, code: str, message: str) -> None:
    """One line, no traceback, for a request the server would not run."""
    method, path = request.method, request.url.path
    logger.info(
        "refused %s %s from %s (request %s): %d %s: %s",
        method,
        path,
        request.client.host if request.client else "unknown",
        request_id.current.get(),
        status,
        code,
        message[:200],
        extra={"method": method, "path": path, "status": status, "code": code},
    )


def error_body(code: str, message: str, **extensions: Any) -> dict[str, Any]:
    return {"errors": [{"message": message, "extensions": {"code": code, **extensions}}]}


def refusal_response(request: Request, refused: RequestRefused) -> JSONResponse:
    """The JSON answer to a refused request, in the media type the client accepts."""
    log_refusal(request, refused.status, refused.code, refused.message)
    count_error(refused.code)
    accepts_graphql = GRAPHQL_RESPONSE in request.headers.get("accept", "")
    return JSONResponse(
        error_body(refused.code, refused.message, **refused.extensions),
        status_code=refused.status,
        headers=refused.headers,
        media_type=GRAPHQL_RESPONSE if accepts_graphql else "application/json",
    )


def decode_json_object(data: str | bytes) -> dict[str, Any]:
    """A request's JSON, which must be one object, UTF-8, and at most MAX_JSON_DEPTH deep."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise RequestRefused(400, "BAD_REQUEST", "the body is not valid UTF-8") from None
    try:
        value = json.loads(text)
    except RecursionError:
        raise RequestRefused(400, "BAD_REQUEST", _too_deep()) from None
    except ValueError:
        raise RequestRefused(400, "BAD_REQUEST", "the body is not valid JSON") from None
    if isinstance(value, list):
        raise RequestRefused(
            400,
            "BAD_REQUEST",
            "expected a JSON object: batched operations are not supported, send one per request",
        )
    if not isinstance(value, dict):
        raise RequestRefused(400, "BAD_REQUEST", "expected a JSON object with a `query`")
    if json_depth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise RequestRefused(400, "BAD_REQUEST", _too_deep())
    return value


def _too_deep() -> str:
    return f"the JSON is nested deeper than {MAX_JSON_DEPTH} levels"


def json_depth(value: object, stop_after: int) -> int:
    """How deeply `value` nests objects and arrays (1 for a flat one), counted without
    recursion, and no further than one past `stop_after`."""
    deepest = 0
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children: Any
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > stop_after:
            return deepest
        pending.extend((child, depth + 1) for child in children)
    return deepest
