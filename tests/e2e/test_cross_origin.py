"""A web page on another origin uses the API in a real browser (headless Chromium): admitted
by RISIKO_CORS_ORIGINS (by default any localhost port), it queries over HTTP, with a
preflight, and subscribes over a WebSocket; not admitted, the browser refuses both."""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import Server, free_port
from tests.node_tools import NODE_TOOLS, chromium, node


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def page_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An empty page served from http://localhost on a port of its own: another origin than
    the API's http://127.0.0.1."""
    folder = tmp_path_factory.mktemp("page")
    (folder / "index.html").write_text("<!doctype html><title>front end</title>")
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}/index.html"
    finally:
        server.shutdown()
        server.server_close()


def from_the_page(page_url: str, server: Server) -> dict[str, Any]:
    done = subprocess.run(
        [node(), "cors.mjs", str(chromium()), page_url, server.url],
        cwd=NODE_TOOLS,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def serve(folder: Path, env: dict[str, str]) -> Server:
    return Server(folder / "data", env=env).start()


def test_a_page_on_a_localhost_origin_may_use_the_api(page_url: str, tmp_path: Path) -> None:
    server = serve(tmp_path, {})  # the development default
    try:
        result = from_the_page(page_url, server)
    finally:
        server.stop()
    assert result["fetch"]["status"] == 200, result
    assert result["fetch"]["body"]["data"]["variants"][0]["name"] == "classic"
    assert result["fetch"]["rateLimit"].startswith('"cost";')  # exposed to the page
    assert result["socket"] == "connection_ack", result


def test_a_page_on_an_origin_not_admitted_may_not(page_url: str, tmp_path: Path) -> None:
    server = serve(tmp_path, {"RISIKO_CORS_ORIGINS": "https://risiko.example"})
    try:
        result = from_the_page(page_url, server)
    finally:
        server.stop()
    assert "error" in result["fetch"], result  # the browser refused the answer
    assert result["socket"] == "error", result  # the server refused the handshake
