"""Connections against a real server: caps per address, deadlines for headers, bodies and
connection_init, and a socket upgraded to a WebSocket keeps its place."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
import websockets
from websockets.typing import Subprotocol

from tests.e2e.support import Server
from tests.integration.api_support import running_server

PER_ADDRESS = 4
TIMEOUT = 1.0
PROTOCOL = Subprotocol("graphql-transport-ws")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {
        "RISIKO_MAX_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS),
        "RISIKO_HEADER_TIMEOUT_SECONDS": str(TIMEOUT),
        "RISIKO_BODY_TIMEOUT_SECONDS": str(TIMEOUT),
        "RISIKO_CONNECTION_INIT_TIMEOUT_SECONDS": str(TIMEOUT),
        "RISIKO_BUDGET_POINTS": "0",
    }
    yield from running_server(tmp_path_factory.mktemp("connections") / "data", env)


def connect(server: Server) -> socket.socket:
    opened = socket.create_connection(("127.0.0.1", server.port))
    opened.settimeout(TIMEOUT * 10)
    return opened


def answer(opened: socket.socket) -> bytes:
    """Everything the server sends until it closes the socket."""
    received = b""
    while chunk := opened.recv(65536):
        received += chunk
    return received


def response(opened: socket.socket) -> bytes:
    """One whole response on a kept-alive socket (its body has a content-length)."""
    received = b""
    while b"\r\n\r\n" not in received:
        received += opened.recv(65536)
    head, _, body = received.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += opened.recv(65536)
    return head + b"\r\n\r\n" + body


def status_and_code(raw: bytes) -> tuple[int, str]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    return status, json.loads(body)["errors"][0]["extensions"]["code"]


def healthz(server: Server) -> int:
    with connect(server) as opened:
        opened.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        return int(answer(opened).split(b" ")[1])


def wait_until_released(server: Server) -> None:
    """Closed sockets leave the count once the server has seen them go."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with ExitStack() as stack:
            held = [stack.enter_context(connect(server)) for _ in range(PER_ADDRESS - 1)]
            if healthz(server) == 200:
                del held
                return
        time.sleep(0.05)
    raise AssertionError("the server still counts closed sockets")


def test_a_socket_over_the_cap_of_its_address_is_refused_with_503(server: Server) -> None:
    with ExitStack() as stack:
        for _ in range(PER_ADDRESS):
            stack.enter_context(connect(server))
        with connect(server) as refused:
            raw = answer(refused)  # refused before it sends anything
        assert status_and_code(raw) == (503, "TOO_MANY_CONNECTIONS")
        assert b"retry-after: 1" in raw.lower()
    wait_until_released(server)  # closing them gives the places back
    assert "your address has 4 connections open" in server.log()


def test_headers_that_do_not_arrive_in_time_are_answered_408(server: Server) -> None:
    for first_bytes in (b"", b"GET /healthz HTT"):  # nothing at all, or a slow trickle
        with connect(server) as slow:
            slow.sendall(first_bytes)
            started = time.monotonic()
            raw = answer(slow)
            waited = time.monotonic() - started
        assert status_and_code(raw) == (408, "REQUEST_TIMEOUT")
        assert TIMEOUT * 0.8 <= waited <= TIMEOUT * 5
    assert "the request's headers did not arrive within 1 s" in server.log()


def test_a_body_that_does_not_arrive_in_time_closes_the_socket(server: Server) -> None:
    with connect(server) as slow:
        slow.sendall(
            b"POST /graphql HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b'content-length: 100\r\n\r\n{"query": '
        )
        started = time.monotonic()
        answer(slow)
        assert TIMEOUT * 0.8 <= time.monotonic() - started <= TIMEOUT * 5
    assert "the request's body did not arrive within 1 s" in server.log()


def test_a_keep_alive_socket_serves_request_after_request(server: Server) -> None:
    with connect(server) as kept:
        for _ in range(3):
            kept.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
            assert response(kept).startswith(b"HTTP/1.1 200")
            time.sleep(TIMEOUT * 0.6)  # idle between requests, under the keep-alive timeout


@pytest.mark.anyio
async def test_websockets_count_and_free_their_place(server: Server) -> None:
    wait_until_released(server)
    sockets = [
        await websockets.connect(server.ws_url, subprotocols=[PROTOCOL]) for _ in range(PER_ADDRESS)
    ]
    try:
        for opened in sockets:
            await opened.send(json.dumps({"type": "connection_init", "payload": {}}))
            assert json.loads(await opened.recv())["type"] == "connection_ack"
        assert healthz(server) == 503
    finally:
        for opened in sockets:
            await opened.close()
    wait_until_released(server)


@pytest.mark.anyio
async def test_a_websocket_without_connection_init_is_closed_in_time(server: Server) -> None:
    wait_until_released(server)
    started = time.monotonic()
    async with websockets.connect(server.ws_url, subprotocols=[PROTOCOL]) as silent:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await silent.recv()
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4408  # graphql-transport-ws: connection_init timeout
    assert time.monotonic() - started <= TIMEOUT * 5
