"""Request bodies over a limit are refused (413) before the application reads them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.metrics import count_error
from api.refusals import error_body, log_refusal


class BodySizeLimit:
    """Refuses request bodies over `limit` bytes with 413. The body is read (at most `limit`
    bytes of it) before the application runs, then handed to it unchanged."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(scope, send)
                return
        messages: list[Message] = []
        received = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            received += len(message.get("body", b""))
            if received > self.limit:
                await self._refuse(scope, send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        message = f"request body larger than {self.limit} bytes"
        log_refusal(Request(scope), 413, "PAYLOAD_TOO_LARGE", message)
        count_error("PAYLOAD_TOO_LARGE")
        response = JSONResponse(error_body("PAYLOAD_TOO_LARGE", message), status_code=413)
        await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}
