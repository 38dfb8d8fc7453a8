"""The log filter: no token nor password a client sends reaches the server's log."""

from __future__ import annotations

import logging

import pytest

from api.accounts.redact import SecretsFilter
from api.accounts.tokens import TokenKind, new_token

TOKEN = new_token(TokenKind.API)
SEAT_TOKEN = "Zq8bW4ZkL3sYqVv9pN2mR7tX1cD5fG6hJ0kL2mN4pQ8"
PASSWORD = "correct horse battery staple"


def shown(name: str, message: str, *args: object, level: int = logging.INFO) -> str:
    record = logging.LogRecord(name, level, __file__, 1, message, args or None, None)
    assert SecretsFilter().filter(record)
    return logging.Formatter("%(message)s").format(record)


@pytest.mark.parametrize(
    ("name", "message", "args"),
    [
        ("risiko", "token %s used", (TOKEN,)),
        ("risiko.refusals", "400: Variable '$i' has invalid value: {'password': %r}", (PASSWORD,)),
        ("risiko", "Variable '$p' got invalid value [%r]; String cannot", (PASSWORD,)),
        ("risiko", "String cannot represent a non string value: [%r]", (PASSWORD,)),
        ("uvicorn.error", "< TEXT %s [%d bytes]", (f'{{"password": "{PASSWORD}"}}', 30)),
        ("uvicorn.error", "> TEXT '%s' [%d bytes]", (f'{{"token": "{SEAT_TOKEN}"}}', 30)),
        ("uvicorn.error", "< authorization: Bearer %s", (SEAT_TOKEN,)),
        ("uvicorn.error", "< Cookie: session=%s", (SEAT_TOKEN,)),
        ("uvicorn.error", "< GET /graphql?token=%s HTTP/1.1", (SEAT_TOKEN,)),
    ],
)
def test_a_secret_a_client_sent_is_cut(name: str, message: str, args: tuple[object, ...]) -> None:
    line = shown(name, message, *args)
    for secret in (TOKEN, SEAT_TOKEN, PASSWORD):
        assert secret not in line
    assert "(not logged)" in line


def test_the_access_log_keeps_the_request_but_not_its_query_string() -> None:
    path = f"/graphql?query=mutation&variables=%7B%22password%22%3A%22{PASSWORD}%22%7D"
    line = shown(
        "uvicorn.access", '%s - "%s %s HTTP/%s" %d', "127.0.0.1:5", "GET", path, "1.1", 405
    )
    assert line == '127.0.0.1:5 - "GET /graphql?(not logged) HTTP/1.1" 405'


def test_other_lines_are_left_as_they_are() -> None:
    assert shown("risiko", "game %s: the clock stops (%s)", "g1", "over") == (
        "game g1: the clock stops (over)"
    )
    assert shown("uvicorn.error", "< host: 127.0.0.1:8000") == "< host: 127.0.0.1:8000"
