"""A MongoDB server for the tests: `secantusdb` (a MongoDB wire-protocol server on WiredTiger,
a one-node replica set) started as a separate process on a free loopback port, stopped by its
PID. With RISIKO_TEST_MONGODB_URI set, that server (a real mongod) is used instead.

    python -m tests.mongo_server      # start one by hand; prints its URI, stops on Ctrl-C
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pymongo import MongoClient
from pymongo.errors import PyMongoError

ENVIRONMENT = "RISIKO_TEST_MONGODB_URI"
TRANSACTION_LIFETIME_SECONDS = 10.0
LAUNCHER = f"""
import signal, sys, threading
from secantus import SecantusDBServer
server = SecantusDBServer("127.0.0.1", int(sys.argv[1]), sys.argv[2], enable_test_commands=False,
                          transaction_lifetime_seconds={TRANSACTION_LIFETIME_SECONDS})
server.start()
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
stop.wait()
server.stop()
"""


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class MongoServer:
    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.storage: Path | None = None
        self.external = os.environ.get(ENVIRONMENT)
        self.uri = self.external or ""

    def start(self, timeout: float = 60.0) -> MongoServer:
        if self.external:
            self._wait(timeout)
            return self
        try:
            import secantus  # noqa: F401
        except ImportError:
            raise RuntimeError(
                "secantusdb is missing: install the dev dependencies (python3 dev.py test), "
                f"or set {ENVIRONMENT} to a MongoDB server"
            ) from None
        port = free_port()
        self.storage = Path(tempfile.mkdtemp(prefix="risiko-mongo-"))
        # A separate process, like a mongod. Its transaction lifetime limit is 10 s, the
        # value deploy/README.md recommends for mongod's transactionLifetimeLimitSeconds.
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(port), str(self.storage)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.uri = f"mongodb://127.0.0.1:{port}/?replicaSet=secantus"
        self._wait(timeout)
        return self

    def _wait(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError("the MongoDB test server exited at start")
            try:
                client: MongoClient[dict[str, Any]]
                with MongoClient(self.uri, serverSelectionTimeoutMS=300) as client:
                    client.admin.command("ping")
                    return
            except PyMongoError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"no MongoDB server answered at {self.uri}") from None
                time.sleep(0.1)

    def pause(self) -> None:
        """Stop the server process but keep its port and data, to `resume` it later."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)

    def resume(self, timeout: float = 60.0) -> None:
        assert self.storage is not None, "resume() needs a server this object started"
        port = self.uri.split(":")[2].split("/")[0]
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, port, str(self.storage)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._wait(timeout)

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                os.kill(self.process.pid, signal.SIGTERM)
                try:
                    self.process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            self.process = None
        if self.storage is not None:
            shutil.rmtree(self.storage, ignore_errors=True)
            self.storage = None

    def uri_for(self, database: str) -> str:
        """The server's URI naming `database` (each test gets its own)."""
        base, _, query = self.uri.partition("?")
        base = base.rstrip("/")
        if base.count("/") > 2:  # the URI already names a database: replace it
            base = base.rsplit("/", 1)[0]
        return f"{base}/{database}" + (f"?{query}" if query else "")


if __name__ == "__main__":
    server = MongoServer().start()
    print(server.uri, flush=True)
    try:
        signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
