"""GraphiQL works on a machine that reaches no CDN: a real browser, refused every host but the
server, loads it, runs a query from its editor and shows the answer."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import httpx

from api.graphiql import ASSETS_PATH, page_assets
from tests.e2e.support import Server
from tests.node_tools import NODE_TOOLS, chromium, node


def serve(tmp_path: Path, assets: Path) -> Server:
    env = {"RISIKO_GRAPHIQL_ASSETS_DIR": str(assets)}
    return Server(tmp_path / "data", env=env).start()


def test_graphiql_runs_a_query_with_nothing_from_elsewhere(
    tmp_path: Path, graphiql_assets: Path
) -> None:
    server = serve(tmp_path, graphiql_assets)
    try:
        done = subprocess.run(
            [node(), "graphiql.mjs", str(chromium()), server.url],
            cwd=NODE_TOOLS,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
    finally:
        server.stop()
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["elsewhere"] == []
    assert result["errors"] == []
    assert '"name": "classic"' in result["result"]


def test_the_files_are_served_for_a_year_and_compressed(
    tmp_path: Path, graphiql_assets: Path
) -> None:
    server = serve(tmp_path, graphiql_assets)
    try:
        page = httpx.get(f"{server.url}/graphql", headers={"Accept": "text/html"})
        assets = page_assets(page.text.replace(ASSETS_PATH, "https://unpkg.com/"))
        script = next(asset for asset in assets if asset.path.endswith("graphiql.min.js"))
        answer = httpx.get(f"{server.url}{ASSETS_PATH}{script.relative}")
        missing = httpx.get(f"{server.url}{ASSETS_PATH}graphiql@0.0.0/nothing.js")
    finally:
        server.stop()
    assert page.status_code == 200
    assert script.matches(answer.content)
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert answer.headers["content-encoding"] == "gzip"
    assert missing.status_code == 404


def test_without_its_files_the_page_says_how_to_get_them(tmp_path: Path) -> None:
    server = serve(tmp_path, tmp_path / "no-assets")
    try:
        page = httpx.get(f"{server.url}/graphql", headers={"Accept": "text/html"})
        query = httpx.post(f"{server.url}/graphql", json={"query": "{ variants { name } }"})
    finally:
        server.stop()
    assert page.status_code == 503
    assert "risiko graphiql-assets" in page.text
    assert "unpkg" not in page.text
    assert query.status_code == 200  # the API itself works
