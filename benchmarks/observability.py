"""What metrics and traces cost on the request path: the CPU time of a request (a spectator's
game state, through the whole app: middleware, GraphQL, the store) in-process, with metrics
and traces off and on, configurations alternating round by round; median per configuration.

    .venv/bin/python benchmarks/observability.py [--requests 1000] [--rounds 3]

CPU time (`time.process_time`: every thread of the process, the span exporter's too) is far
steadier than wall time on a shared machine. Traces go over OTLP/HTTP to a sink in this
process (it answers every export at once), batched as a server's would be; `traces 10%`
samples a tenth of the traces (OTEL_TRACES_SAMPLER=parentbased_traceidratio, 0.1). The
client's own work (httpx) is in every figure alike: the differences are the cost.
"""

from __future__ import annotations

import argparse
import asyncio
import http.server
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.sdk.trace.sampling import ParentBased, TraceIdRatioBased

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.app import create_app
from api.settings import Settings

CONFIGS = ("off", "metrics", "traces", "both", "traces 10%")
CREATE = 'mutation { createGame(input: {variant: "classic", seed: "cost"}) { game { id } } }'
GAME = (
    "query($id: ID!) { game(id: $id) { territories { id owner armies } "
    "players { seat name colour territories armies cards eliminated resigned } } }"
)


class Sink(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def provider(config: str, sink: str) -> TracerProvider | None:
    if "traces" not in config and config != "both":
        return None
    sampled = ParentBased(TraceIdRatioBased(0.1)) if "10%" in config else None
    traced = TracerProvider(sampler=sampled) if sampled else TracerProvider()
    traced.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=sink)))
    return traced


async def cpu_ms(config: str, requests: int, sink: str) -> float:
    """A request's CPU milliseconds, after a warm-up."""
    metrics = "on" if config in ("metrics", "both") else "off"
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(data_dir=Path(data), metrics=metrics, budget_points=0)
        app = create_app(settings, tracer_provider=provider(config, sink))
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://bench") as client,
        ):
            created = await client.post("/graphql", json={"query": CREATE})
            read = {
                "query": GAME,
                "variables": {"id": created.json()["data"]["createGame"]["game"]["id"]},
            }
            for _ in range(50):
                await client.post("/graphql", json=read)
            started = time.process_time()
            for _ in range(requests):
                await client.post("/graphql", json=read)
            return (time.process_time() - started) / requests * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=1000, help="measured requests a run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each configuration")
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sink = f"http://127.0.0.1:{server.server_address[1]}/v1/traces"
    runs: dict[str, list[float]] = {config: [] for config in CONFIGS}
    for _ in range(args.rounds):
        for config in CONFIGS:
            runs[config].append(asyncio.run(cpu_ms(config, args.requests, sink)))
    server.shutdown()
    off = statistics.median(runs["off"])
    for config, values in runs.items():
        median = statistics.median(values)
        shown = ", ".join(f"{value:.3f}" for value in values)
        print(
            f"{config:11} {median:.3f} ms CPU a request ({shown}): "
            f"{(median - off) * 1000:+.0f} µs, {(median / off - 1) * 100:+.0f} %"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
