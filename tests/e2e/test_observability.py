"""What operators read, from the real server on both stores: /metrics scraped during a game
(seated bots playing, a subscriber watching) and parsed with prometheus-client's own text
parser, behind its token; the same with prometheus-client's multiprocess mode; and the JSON
logs, where a refused document's line and its access line carry the same request id and
the same status."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.support import GraphQLClient, Server, subscription
from tests.e2e.test_online_play import LEAVE, finished, open_table

pytestmark = pytest.mark.anyio

TOKEN = "scraper-secret-0123456789"
Samples = dict[str, list[tuple[dict[str, str], float]]]


@pytest.fixture
def observed(tmp_path: Path, store_env: dict[str, str]) -> Iterator[Server]:
    env = {
        **store_env,
        "RISIKO_METRICS": "token",
        "RISIKO_METRICS_TOKEN": TOKEN,
        "RISIKO_CLOCK_INTERVAL_SECONDS": "0.2",
        "RISIKO_LOG_FORMAT": "json",
        "RISIKO_LOG_LEVEL": "info",
    }
    running = Server(tmp_path / "data", env=env, log_stdout=True).start()
    try:
        yield running
    finally:
        running.stop()


async def scrape(http: httpx.AsyncClient) -> Samples:
    """Every sample of /metrics, by name, parsed by prometheus-client's parser."""
    answer = await http.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.text
    samples: Samples = {}
    for family in text_string_to_metric_families(answer.text):
        samples.setdefault(family.name, [])
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((sample.labels, sample.value))
    return samples


def total(samples: Samples, name: str, **labels: str) -> float:
    found = samples.get(name, [])
    return sum(value for got, value in found if labels.items() <= got.items())


EVENTS = "subscription($g: ID!) { gameEvents(gameId: $g, after: 0) { seq type } }"


async def test_metrics_are_scraped_during_a_game(observed: Server) -> None:
    async with httpx.AsyncClient(base_url=observed.url, timeout=60) as http:
        for headers in ({}, {"Authorization": "Bearer not-the-token"}):
            refused = await http.get("/metrics", headers=headers)
            assert refused.status_code == 401
            assert refused.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
        game_id, tokens = await open_table(http, 1, 2, seed="metrics")
        async with subscription(observed.ws_url, EVENTS, {"g": game_id}) as events:
            await anext(events)
            during = await scrape(http)
            assert total(during, "risiko_subscriptions_open") == 1
            left = await GraphQLClient(http, tokens[0])(LEAVE, {"input": {"gameId": game_id}})
            assert left["leaveGame"]["userErrors"] == []
            async with asyncio.timeout(60):
                async for data in events:  # the bots play to the end; the stream then ends
                    if data["gameEvents"]["type"] == "GameEnded":
                        break
        await finished(http, game_id)
        await http.post("/graphql", json={"query": "{ nope }"})
        await http.post("/graphql", content=b"{bad", headers={"content-type": "application/json"})
        await asyncio.sleep(0.5)  # a clock tick or two
        after = await scrape(http)
    assert total(during, "risiko_graphql_operations_total", type="mutation") >= 4
    assert total(after, "risiko_subscriptions_open") == 0
    assert total(after, "risiko_socket_results_total") > 10  # the game's events, delivered
    assert total(after, "risiko_commits_total", outcome="ok") > 100  # every move, durable
    assert total(after, "risiko_commit_seconds_count") == total(
        after, "risiko_commits_total", outcome="ok"
    )
    assert total(after, "risiko_store_call_seconds_count", call="append") > 100
    assert "risiko_store_errors" in after  # a family, with no failure to count
    assert total(after, "risiko_games_in_memory") >= 1
    assert total(after, "risiko_clock_lag_seconds_count") >= 1
    assert total(after, "risiko_clock_tick_seconds_count") >= 1
    assert total(after, "risiko_http_requests_total", route="/graphql", status="200") > 5
    assert total(after, "risiko_http_request_seconds_count", route="/metrics") >= 2
    assert total(after, "risiko_errors_total", code="GRAPHQL_VALIDATION_FAILED") == 1
    assert total(after, "risiko_errors_total", code="BAD_REQUEST") == 1
    assert total(after, "risiko_errors_total", code="UNAUTHENTICATED") == 2
    operations = {labels["operation"] for labels, _ in after["risiko_graphql_operations_total"]}
    assert {"anonymous:createGame", "anonymous:gameEvents", "anonymous:nope"} <= operations


async def test_a_refusal_and_its_access_line_agree(observed: Server) -> None:
    async with httpx.AsyncClient(base_url=observed.url) as http:
        refused = await http.post(
            "/graphql", json={"query": "{ nope }"}, headers={"X-Request-Id": "agree-1"}
        )
    assert refused.status_code == 200
    await asyncio.sleep(0.2)
    lines = [json.loads(line) for line in observed.log().splitlines() if line.startswith("{")]
    mine = [line for line in lines if line.get("request_id") == "agree-1"]
    assert {line["logger"] for line in mine} == {"risiko.refusals", "uvicorn.access"}
    assert {line["status"] for line in mine} == {200}
    assert {(line["method"], line["path"]) for line in mine} == {("POST", "/graphql")}
    assert all(line["time"].endswith("+00:00") for line in lines)  # ISO 8601, UTC


def test_metrics_in_multiprocess_mode(tmp_path: Path) -> None:
    folder = tmp_path / "prometheus"
    folder.mkdir()
    env = {"RISIKO_METRICS": "on", "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    server = Server(tmp_path / "data", env=env).start()
    try:
        with httpx.Client(base_url=server.url) as http:
            http.post("/graphql", json={"query": "query Names { variants { name } }"})
            text = http.get("/metrics").text
    finally:
        server.stop()
    families = {family.name: family for family in text_string_to_metric_families(text)}
    samples = families["risiko_graphql_operations"].samples
    assert [(s.labels["operation"], s.value) for s in samples if s.name.endswith("_total")] == [
        ("Names", 1.0)
    ]
    assert any(folder.iterdir())  # the figures went through the folder
