"""A real server in a child process, and small HTTP and WebSocket GraphQL clients."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.typing import Subprotocol

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """`risiko serve` on a free loopback port with its own data folder."""

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        env: dict[str, str] | None = None,
        root: Path = ROOT,
        python: str = sys.executable,
        log_stdout: bool = False,
    ) -> None:
        self.data_dir = data_dir
        self.root = root  # the checkout whose server runs (benchmarks compare revisions)
        self.python = python  # another environment's, to run the server installed there
        self.port = port or free_port()
        self.env = dict(env or {})  # extra environment, e.g. RISIKO_STORE
        self.log_stdout = log_stdout  # uvicorn's access log (stdout) in the log file too
        self.process: subprocess.Popen[bytes] | None = None
        # The server's log, in a file: a pipe nobody reads would block it once full.
        self.log_path = data_dir.parent / f"server-{self.port}.log"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/graphql"

    def start(self, timeout: float = 30.0) -> Server:
        env = {
            **os.environ,
            "RISIKO_DATA_DIR": str(self.data_dir),
            "RISIKO_LOG_LEVEL": "warning",
            **self.env,
        }
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [self.python, "-m", "api.cli", "serve", "--port", str(self.port)],
                cwd=self.root,
                env=env,
                stdout=log if self.log_stdout else subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log()}")
            try:
                if httpx.get(f"{self.url}/readyz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not become ready")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


class GraphQLClient:
    """POSTs GraphQL to a server, optionally as a seat (its bearer token)."""

    def __init__(self, client: httpx.AsyncClient, token: str | None = None) -> None:
        self.client = client
        self.token = token

    async def post(self, query: str, variables: dict[str, Any] | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return await self.client.post(
            "/graphql", json={"query": query, "variables": variables or {}}, headers=headers
        )

    async def __call__(self, query: str, variables: dict[str, Any] | None = None) -> Any:
        """The `data` of a successful response; fails the test on top-level errors."""
        response = await self.post(query, variables)
        body = response.json()
        assert response.status_code == 200, body
        assert "errors" not in body, body
        return body["data"]


@asynccontextmanager
async def subscription(
    ws_url: str, query: str, variables: dict[str, Any] | None = None, token: str | None = None
) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
    """A graphql-transport-ws subscription; yields an iterator of `next` payloads' data."""
    protocol = Subprotocol("graphql-transport-ws")
    async with websockets.connect(ws_url, subprotocols=[protocol]) as socket_:
        payload = {"token": token} if token else {}
        await socket_.send(json.dumps({"type": "connection_init", "payload": payload}))
        ack = json.loads(await socket_.recv())
        assert ack["type"] == "connection_ack", ack
        await socket_.send(
            json.dumps(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {"query": query, "variables": variables or {}},
                }
            )
        )

        async def messages() -> AsyncIterator[dict[str, Any]]:
            while True:
                message = json.loads(await socket_.recv())
                if message["type"] == "next":
                    assert "errors" not in message["payload"], message
                    yield message["payload"]["data"]
                elif message["type"] == "ping":
                    await socket_.send(json.dumps({"type": "pong"}))
                elif message["type"] in {"complete", "error"}:
                    if message["type"] == "error":
                        raise AssertionError(message)
                    return

        yield messages()


class Socket:
    """One graphql-transport-ws connection carrying several operations at once, read message
    by message: what a client that multiplexes (graphql-ws, Apollo) does."""

    def __init__(self, connection: websockets.ClientConnection) -> None:
        self.connection = connection

    async def subscribe(
        self, operation_id: str, query: str, variables: dict[str, Any] | None = None
    ) -> None:
        payload = {"query": query, "variables": variables or {}}
        message = {"id": operation_id, "type": "subscribe", "payload": payload}
        await self.connection.send(json.dumps(message))

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message other than a ping (answered); ConnectionClosed once closed."""
        while True:
            async with asyncio.timeout(timeout):
                message: dict[str, Any] = json.loads(await self.connection.recv())
            if message["type"] != "ping":
                return message
            await self.connection.send(json.dumps({"type": "pong"}))

    async def until(self, operation_id: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next message of one operation, skipping the others'."""
        while True:
            message = await self.receive(timeout)
            if message.get("id") == operation_id:
                return message

    async def request(
        self, operation_id: str, query: str, variables: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """A query or mutation over the socket: its one result (`next`'s payload, or the
        `error` message's)."""
        await self.subscribe(operation_id, query, variables)
        message = await self.until(operation_id)
        if message["type"] == "next":
            await self.until(operation_id)  # its `complete`
            payload: dict[str, Any] = message["payload"]
            return payload
        assert message["type"] == "error", message
        return {"errors": message["payload"]}

    async def close_code(self, timeout: float = 10.0) -> int | None:
        """Read until the server closes the socket; its close code."""
        try:
            while True:
                await self.receive(timeout)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


@asynccontextmanager
async def open_socket(ws_url: str, token: str | None = None) -> AsyncIterator[Socket]:
    """A graphql-transport-ws connection, acknowledged, as `token`'s seat (or a spectator)."""
    protocol = Subprotocol("graphql-transport-ws")
    async with websockets.connect(ws_url, subprotocols=[protocol]) as connection:
        payload = {"token": token} if token else {}
        await connection.send(json.dumps({"type": "connection_init", "payload": payload}))
        ack = json.loads(await connection.recv())
        assert ack["type"] == "connection_ack", ack
        yield Socket(connection)
