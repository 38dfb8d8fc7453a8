"""The server's logs, through uvicorn's logging: uvicorn's lines and ours (refusals, the clock)
in one handler, the access log in its own, as text (uvicorn's form) or, with
RISIKO_LOG_FORMAT=json, one JSON object a line (python-json-logger): `time`, `level`,
`logger`, `message` and the request's id (`request_id`: the X-Request-Id the answer carried;
`-` outside a request), and for an access line or a refusal its `method`, `path` and
`status` (the same status in both), for an access line its `client` too.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from api import request_id
from api.settings import LogFormat

# LogRecord attributes a JSON line leaves out: uvicorn's coloured copy of its message.
LEFT_OUT = ("color_message",)


class RequestIdFilter(logging.Filter):
    """Every line gets the id of the request it was logged for."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.current.get()
        return True


class AccessFields(logging.Filter):
    """uvicorn's access line as fields: (client, method, path, HTTP version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5:
            record.client, record.method, record.path, _, record.status = args
        return True


def _json_formatter() -> dict[str, Any]:
    from pythonjsonlogger.core import RESERVED_ATTRS

    return {
        "()": "pythonjsonlogger.json.JsonFormatter",
        "fmt": "%(levelname)s %(name)s %(message)s",
        "timestamp": "time",  # ISO 8601, UTC
        "rename_fields": {"levelname": "level", "name": "logger"},
        "reserved_attrs": [*RESERVED_ATTRS, *LEFT_OUT],
        "json_ensure_ascii": False,
    }


def log_config(level: str, form: LogFormat = LogFormat.TEXT) -> dict[str, Any]:
    """uvicorn's logging configuration with ours (the `risiko` loggers) in it."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["loggers"]["risiko"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    # No password nor token in the log, whatever a client sends (api/accounts/redact.py): the
    # first filter of every handler, before any other reads the record.
    config["filters"] = {"secrets": {"()": "api.accounts.redact.SecretsFilter"}}
    for handler in config["handlers"].values():
        handler["filters"] = ["secrets"]
    if form is LogFormat.JSON:
        config["filters"]["request_id"] = {"()": RequestIdFilter}
        config["filters"]["access_fields"] = {"()": AccessFields}
        config["formatters"] = {"json": _json_formatter()}
        for name, filters in (
            ("default", ["secrets", "request_id"]),
            ("access", ["secrets", "request_id", "access_fields"]),
        ):
            config["handlers"][name]["formatter"] = "json"
            config["handlers"][name]["filters"] = filters
    return config
