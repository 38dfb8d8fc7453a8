"""dev.py, the bootstrap: the Python it accepts, the .venv it keeps, the signals it passes on."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

import dev
from tests.e2e.support import free_port


def test_an_old_python_is_refused_in_one_line() -> None:
    problem = dev.python_problem((3, 10, 14))
    assert problem == "dev.py: the project needs Python 3.11 or newer, this is 3.10.14"
    assert dev.python_problem((3, 11, 0)) is None
    assert dev.python_problem((3, 13, 1)) is None


def test_the_python_of_a_venv_is_read_from_its_config(tmp_path: Path) -> None:
    config = tmp_path / "pyvenv.cfg"
    assert dev.venv_python(config) is None
    config.write_text("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.10.12\n")
    assert dev.venv_python(config) == "3.10"


@pytest.mark.parametrize(
    ("given", "passed"),
    [
        ([], ["serve"]),
        (["--port", "8010"], ["serve", "--port", "8010"]),
        (["--", "--port", "8010"], ["serve", "--port", "8010"]),
        (["serve", "--port", "8010"], ["serve", "--port", "8010"]),
        (["--", "serve", "--host", "0.0.0.0"], ["serve", "--host", "0.0.0.0"]),
        (["arena", "--games", "4"], ["arena", "--games", "4"]),
        (["--help"], ["serve", "--help"]),
        (["--version"], ["--version"]),
    ],
)
def test_run_gives_options_to_serve_and_commands_to_risiko(
    given: list[str], passed: list[str]
) -> None:
    assert dev.risiko_arguments(given) == passed


def test_sigterm_to_dev_py_run_stops_the_server(tmp_path: Path) -> None:
    """`python3 dev.py run --port N`, as the README says to pick a port."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "dev.py",
            "run",
            "--port",
            str(port),
            "--data-dir",
            str(tmp_path),
        ],
        cwd=Path(dev.__file__).parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own group: the cleanup below reaches an orphaned server
    )
    try:
        deadline = time.monotonic() + 120  # a first run may install the project
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise AssertionError("the server did not start")
        process.send_signal(signal.SIGTERM)
        # uvicorn shuts down, then ends by the signal it was sent: 128 + SIGTERM.
        assert process.wait(timeout=20) in {0, 128 + signal.SIGTERM}
        with socket.socket() as probe:  # nothing holds the port any more
            assert probe.connect_ex(("127.0.0.1", port)) != 0
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def test_a_web_client_that_cannot_be_built_stops_the_tests_not_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline, npm fails: `dev.py run` says so and serves the API; `dev.py test` stops."""
    monkeypatch.setattr(dev, "WEB_BUILT", tmp_path / "web_client")
    monkeypatch.setattr(dev, "npm_ci", lambda folder: None)
    calls: list[list[str]] = []

    def failing(command: list[str], **options: object) -> None:
        calls.append(command)
        raise subprocess.CalledProcessError(1, command)

    monkeypatch.setattr(subprocess, "run", failing)
    dev.ensure_web_client(strict=False)  # reported; the server would start
    assert calls == [["npm", "run", "build", "--silent"]]
    with pytest.raises(subprocess.CalledProcessError):
        dev.ensure_web_client()
    assert not (tmp_path / "web_client" / ".built").exists()  # tried again next time


def test_the_web_clients_build_follows_its_sources_and_the_schema(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    web = tmp_path / "web"
    (web / "src" / "generated").mkdir(parents=True)
    for name in dev.WEB_SOURCES:  # every file the build reads (src: below)
        if name != "src":
            (web / name).parent.mkdir(parents=True, exist_ok=True)
            (web / name).write_text(name)
    (web / "src" / "main.ts").write_text("one")
    (tmp_path / "schema.graphql").write_text("type Query { a: Int }")
    monkeypatch.setattr(dev, "WEB", web)
    monkeypatch.setattr(dev, "ROOT", tmp_path)
    first = dev.web_digest()
    (web / "src" / "generated" / "graphql.ts").write_text("made by the build")
    assert dev.web_digest() == first  # what the build makes does not make it stale
    (web / "src" / "main.ts").write_text("two")
    second = dev.web_digest()
    assert second != first
    (tmp_path / "schema.graphql").write_text("type Query { b: Int }")
    assert dev.web_digest() != second
