"""The write lock of the processes sharing one embedded store (api/stores/sqlite_lock.py)."""

from __future__ import annotations

import threading
from pathlib import Path

from api.stores.sqlite_lock import WriteLock


def test_one_holder_at_a_time_and_the_next_goes_in_as_soon_as_it_is_free(tmp_path: Path) -> None:
    database = tmp_path / "risiko.sqlite3"
    first, second = WriteLock(database), WriteLock(database)  # as two processes open it
    first.open()
    second.open()
    inside = threading.Event()

    def write() -> None:
        with second.held():
            inside.set()

    try:
        with first.held():
            waiting = threading.Thread(target=write)
            waiting.start()
            assert not inside.wait(0.2), "two writers held the lock at once"
        assert inside.wait(2), "the waiting writer was not let in"
        waiting.join()
    finally:
        first.close()
        second.close()
    assert (tmp_path / "risiko.sqlite3.write-lock").exists()


def test_a_lock_never_opened_lets_its_holder_through(tmp_path: Path) -> None:
    with WriteLock(tmp_path / "risiko.sqlite3").held():
        pass
