"""A person playing a short game in the web client, in headless Chromium against a real server
(tests/node/webclient.mjs): the scenarios of the four games, and the GraphQL documents the
pages sent, as the browser recorded them, against those the client's build listed."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from graphql import get_operation_ast, parse

from api.trusted import WEB_DOCUMENTS, manifest_documents
from api.web_client import BUILT
from tests.e2e.support import Server
from tests.node_tools import NODE_TOOLS, _missing, chromium, node

Json = dict[str, Any]

# Each game once, the dimensions spread over them: every game is played by clicks and then by
# keyboard, in both languages (the page switches halfway), two on a desktop and two on a phone.
SCENARIOS: list[Json] = [
    {
        "variant": "classic",
        "locale": "it",
        "phone": False,
        "seed": "web-classic",
        "extras": ["secrets", "spectator"],
    },
    {"variant": "spqr", "locale": "en", "phone": True, "seed": "web-spqr"},
    {"variant": "piu", "locale": "en", "phone": False, "seed": "web-piu"},
    # FutuRisiKo!'s round is short for a seat (a flag, a production, a move): two of them.
    {
        "variant": "futurisiko",
        "locale": "it",
        "phone": True,
        "seed": "web-futurisiko",
        "rounds": 2,
        "switchAt": 3,
    },
]


def play_in_browser(url: str, shots: Path, scenario: Json) -> Json:
    """What the browser saw of the scenario's game (webclient.mjs's one line of JSON)."""
    if not (BUILT / "index.html").is_file():
        _missing("the web client is not built (python3 dev.py test builds it)")
    done = subprocess.run(
        [node(), "webclient.mjs", str(chromium()), url, str(shots), json.dumps(scenario)],
        cwd=NODE_TOOLS,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    seen: Json = json.loads(done.stdout.splitlines()[-1])
    return seen


def run_page_script(script: str, server: Server, *arguments: str) -> Json:
    """What a browser script of tests/node saw (its last line of JSON), run against `server`
    (stopped after): with no error in the pages, nothing loaded from another host."""
    try:
        if not (BUILT / "index.html").is_file():
            _missing("the web client is not built (python3 dev.py test builds it)")
        done = subprocess.run(
            [node(), script, str(chromium()), server.url, *arguments],
            cwd=NODE_TOOLS,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
    finally:
        server.stop()
    found: Json = json.loads(done.stdout.splitlines()[-1])
    assert found["errors"] == [], found["errors"]
    assert found["elsewhere"] == []
    return found


def listed_documents() -> set[str]:
    """The documents the web client sends, as its build listed them (documents.json)."""
    return set(manifest_documents(BUILT / WEB_DOCUMENTS))


def operations(documents: Iterable[str]) -> set[str]:
    """The names of the documents' operations."""
    names = set()
    for text in documents:
        operation = get_operation_ast(parse(text))
        if operation is not None and operation.name is not None:
            names.add(operation.name.value)
    return names
