"""The GraphQL-over-HTTP audit suite of graphql-http (npm), run against the real server:
every audit passes, none warns."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator

import pytest

from tests.e2e.support import Server
from tests.integration.api_support import running_server
from tests.node_tools import NODE_TOOLS, node


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory.mktemp("audit") / "data")


def test_the_graphql_http_audits_pass_without_a_warning(server: Server) -> None:
    done = subprocess.run(
        [node(), "audit.mjs", f"{server.url}/graphql"],
        cwd=NODE_TOOLS,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    audits = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(audits) >= 60  # the suite ran, all of it
    failing = [audit for audit in audits if audit["status"] != "ok"]
    assert failing == [], json.dumps(failing, indent=1)
