"""Secrets kept out of the server's log: a filter on its log handlers (`risiko serve`).

No line the server writes on purpose holds a password or a token; this catches the lines
that could carry what a client sent:

- an account token anywhere (its prefix and checksum make it recognisable): redacted;
- the access log's request line: the query string of a GET to /graphql carries the whole
  document and its variables, which may hold a password; it is cut;
- graphql-core's refusals of a variable's value ("has invalid value: {…}", "cannot
  represent a non string value: …") repeat the value, which may hold a password: it is cut;
- the WebSocket frames and handshake headers uvicorn logs at the debug level (a login sent
  over the socket, a token in connection_init or in the Authorization header): cut.
"""

from __future__ import annotations

import logging
import re

from api.accounts.tokens import SCANNER_PATTERN

# graphql-core's words before it repeats a value: "Variable '$input' has invalid value: {…}",
# "… got invalid value …", "String cannot represent a non string value: […]".
VALUE_ECHOES = re.compile(r"((?:has|got) invalid value|cannot represent [^:]*value)\b.*", re.S)
FRAME = re.compile(r"^([<>] [A-Z]+) .*?(\[\d+ bytes?\])?$", re.S)
SECRET_HEADER = re.compile(r"^([<>] (?:authorization|proxy-authorization|cookie):).*", re.I | re.S)
HIDDEN = "(not logged)"


def redacted(text: str) -> str:
    text = SCANNER_PATTERN.sub(lambda found: found.group()[:4] + HIDDEN, text)
    return VALUE_ECHOES.sub(lambda found: f"{found.group(1)}: {HIDDEN}", text)


class SecretsFilter(logging.Filter):
    """Rewrites each record without the secrets it might carry; drops none."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "uvicorn.access" and isinstance(record.args, tuple):
            record.args = tuple(_without_query(arg) for arg in record.args)
            return True
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a malformed record: logging reports it itself
            return True
        clean = redacted(_without_frame(message) if record.name == "uvicorn.error" else message)
        if clean != message or record.args:
            record.msg, record.args = clean, ()
        return True


def _without_frame(message: str) -> str:
    """A WebSocket's frame or handshake header as uvicorn logs it at the debug level, without
    its contents (a token, a password) or its credentials."""
    header = SECRET_HEADER.match(message)
    if header is not None:
        return f"{header.group(1)} {HIDDEN}"
    found = FRAME.match(message)
    if found is None:
        return message
    return f"{found.group(1)} {HIDDEN} {found.group(2) or ''}".rstrip()


def _without_query(value: object) -> object:
    if isinstance(value, str) and value.startswith("/") and "?" in value:
        return value.split("?", 1)[0] + "?" + HIDDEN
    return value
