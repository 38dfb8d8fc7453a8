"""A request id on every HTTP answer: the client's own `X-Request-Id` echoed when it sent a
sensible one, else a new one; the server's log lines about the request carry it, so that a
client's report and the server's log meet."""

from __future__ import annotations

import contextvars
import re
import uuid

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = "X-Request-Id"
_SENSIBLE = re.compile(r"[A-Za-z0-9._:-]{1,128}")
current: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")


class RequestId:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent = next(
            (
                value.decode("latin-1")
                for name, value in scope["headers"]
                if name == b"x-request-id"
            ),
            "",
        )
        request_id = sent if _SENSIBLE.fullmatch(sent) else uuid.uuid4().hex
        token = current.set(request_id)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[HEADER] = request_id
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            current.reset(token)
