"""The lock the processes sharing one embedded store take around each write transaction.

SQLite lets one connection write at a time; another that finds the database locked sleeps in
its busy handler, 1, 2, 5, 10, 15… ms between tries, so two server processes writing at once
(`risiko serve --workers 2`) spent most of their time asleep. A file lock (flock) wakes the
waiting process the moment the holder lets go. Readers never take it (WAL)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # not on POSIX: SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]


class WriteLock:
    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + ".write-lock")
        self._fd: int | None = None

    def open(self) -> None:
        if fcntl is not None and self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """The lock, for one write transaction (on the store's thread: it may wait)."""
        if self._fd is None:
            yield
            return
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
