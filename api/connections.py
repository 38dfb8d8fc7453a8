"""Connections as uvicorn accepts them: a cap per address and in all, and deadlines for a
request's headers and body.

uvicorn bounds neither: a client that opens thousands of sockets, or sends one header byte
every few seconds on each (slowloris), holds them all for as long as it likes. These protocol
classes count every open socket, HTTP or WebSocket (a socket upgraded to a WebSocket hands its
place over), and refuse one over the caps with a 503 before reading anything from it; and they
close a socket whose request headers or body do not arrive in time, with a 408 when nothing of
the request has reached the application yet. One log line per refusal, no traceback.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import gc
import json
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from api.small_messages import small_messages_plain

logger = logging.getLogger("risiko.connections")
LINGER_SECONDS = 1.0  # how long a refused socket is read (and dropped) before it is closed


@dataclass
class ConnectionLimits:
    """The caps (0: none) and deadlines, and the sockets open now."""

    max_total: int = 2000
    max_per_address: int = 200
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    # A WebSocket whose reader leaves our buffer full this long is cut: subscriptions never
    # buffer without end for a client that does not read.
    stalled_reader_timeout: float = 10.0
    open_by_address: Counter[str] = field(default_factory=Counter)
    open_total: int = 0  # kept beside the counter: summing it on every socket costs
    # The most sockets open at once since memory was last given back (see `release`).
    peak: int = 0

    def admit(self, address: str) -> str | None:
        """Count a new socket from `address`; why not, when it is over a cap."""
        if self.max_total and self.open_total >= self.max_total:
            return f"the server has {self.max_total} connections open, its most"
        if self.max_per_address and self.open_by_address[address] >= self.max_per_address:
            return f"your address has {self.max_per_address} connections open, its most"
        self.open_by_address[address] += 1
        self.open_total += 1
        self.peak = max(self.peak, self.open_total)
        return None

    def release(self, address: str) -> None:
        self.open_by_address[address] -= 1
        if self.open_by_address[address] <= 0:
            del self.open_by_address[address]
        self.open_total -= 1
        now = self.open_total
        if self.peak >= BURST and now <= self.peak // 2:  # a burst is over: once its
            self.peak = 0  # sockets' tasks have ended too, give the memory back
            asyncio.get_running_loop().call_later(TRIM_DELAY_SECONDS, give_back_memory)


BURST = 200  # sockets at the peak; fewer are not worth a collection
TRIM_DELAY_SECONDS = 2.0


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc: the collection alone
        return None
    return trim


def give_back_memory() -> None:
    """After a burst of connections: collect the cycles its sockets left (a handler, its
    tasks and their exceptions refer to each other; with little allocation afterwards the
    collector would not run for a long while), then hand the free heap back to the system.
    Measured (benchmarks/connections.py): without this, resident memory stayed ~150 MiB
    above its start after 2,000 sockets came and went."""
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def _refusal(status: int, reason: str, code: str, message: str, retry: bool) -> bytes:
    body = json.dumps({"errors": [{"message": message, "extensions": {"code": code}}]}).encode()
    headers = [
        f"HTTP/1.1 {status} {reason}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
        *(["retry-after: 1"] if retry else []),
    ]
    return ("\r\n".join(headers) + "\r\n\r\n").encode() + body


def _address(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket (sans-I/O) protocol, holding its HTTP socket's place under the
    caps and cut when its reader stalls (`guarded_protocols` binds the limits)."""

    limits: ClassVar[ConnectionLimits]
    release: Callable[[], None] | None = None  # set by the HTTP socket it came from
    _stalled: asyncio.TimerHandle | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Small messages (game events) go uncompressed: api/small_messages.py.
        self.conn.available_extensions = small_messages_plain(self.conn.available_extensions or [])

    def connection_lost(self, exc: Exception | None) -> None:
        self._unstall()
        super().connection_lost(exc)
        if self.release is not None:
            self.release()
            self.release = None

    def pause_writing(self) -> None:
        """Our buffer for this client is full: it has that long to read some of it."""
        super().pause_writing()
        if self._stalled is None:
            loop = asyncio.get_running_loop()
            self._stalled = loop.call_later(self.limits.stalled_reader_timeout, self._cut)

    def resume_writing(self) -> None:
        self._unstall()
        super().resume_writing()

    def _unstall(self) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None

    def _cut(self) -> None:
        self._stalled = None
        client = self.client[0] if self.client else "unknown"
        logger.warning(
            "cut a WebSocket from %s: it read nothing for %g s with its buffer full",
            client,
            self.limits.stalled_reader_timeout,
        )
        self.transport.abort()  # close() would wait, forever, to flush to it


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP (httptools) protocol, refusing a socket over the caps and closing
    one whose request is too slow (`guarded_protocols` binds the limits)."""

    limits: ClassVar[ConnectionLimits]
    _release: Callable[[], None] | None = None
    _deadline: asyncio.TimerHandle | None = None
    _phase: str = ""
    _refused: bool = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        address = _address(transport)
        refused = self.limits.admit(address)
        if refused is not None:
            logger.warning("refused a connection from %s: %s", address, refused)
            self._refused = True
            transport.write(
                _refusal(503, "Service Unavailable", "TOO_MANY_CONNECTIONS", refused, True)
            )
            # Half-close, and read what the client sends a moment longer: closing on
            # unread bytes resets the socket, and the client would never see the 503.
            if transport.can_write_eof():
                transport.write_eof()
            asyncio.get_running_loop().call_later(LINGER_SECONDS, transport.close)
            return
        self._release = functools.partial(self.limits.release, address)
        super().connection_made(transport)
        self._arm("headers")  # a fresh socket owes its first request's headers

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return  # refused in connection_made: uvicorn never saw it
        self._disarm()
        if self._release is not None:
            self._release()
            self._release = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # whatever it sends is dropped
        super().data_received(data)

    # The parser's callbacks tell what the client owes: a request's headers from its
    # first byte, then its body; nothing while it waits for our answer or idles between
    # requests (uvicorn's keep-alive timeout covers that).
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm("headers")

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._arm("body")

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()
        socket = self.transport.get_protocol()
        if isinstance(socket, GuardedWebSocket):  # its place goes with it
            socket.release, self._release = self._release, None

    def _arm(self, phase: str) -> None:
        if self._phase != phase:
            self._disarm()
            self._phase = phase
            seconds = self._seconds_for(phase)
            self._deadline = self.loop.call_later(seconds, self._too_slow, phase)

    def _seconds_for(self, phase: str) -> float:
        """How long the client has to send the request's `phase` (headers or body)."""
        return self.limits.header_timeout if phase == "headers" else self.limits.body_timeout

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = ""

    def _too_slow(self, phase: str) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        seconds = self._seconds_for(phase)
        message = f"the request's {phase} did not arrive within {seconds:g} s"
        client = self.client[0] if self.client else "unknown"
        logger.warning("closed a connection from %s: %s", client, message)
        if phase == "headers":  # nothing reached the application: answer it
            self.transport.write(
                _refusal(408, "Request Timeout", "REQUEST_TIMEOUT", message, False)
            )
        self.transport.close()


def guarded_protocols(
    limits: ConnectionLimits,
) -> tuple[type[GuardedHttp], type[GuardedWebSocket]]:
    """uvicorn's HTTP (httptools) and WebSocket (sans-I/O) protocol classes, bound to
    `limits`."""
    bound = limits  # a class body reads `limits` as its own attribute's name

    class BoundHttp(GuardedHttp):
        limits = bound

    class BoundWebSocket(GuardedWebSocket):
        limits = bound

    return BoundHttp, BoundWebSocket


def uvicorn_options(limits: ConnectionLimits) -> dict[str, Any]:
    http, ws = guarded_protocols(limits)
    return {"http": http, "ws": ws}
