"""Resident memory of the server over bursts of connections: `python benchmarks/connections.py
[--cycles N] [--connections C]`.

One `risiko serve` process on the embedded store, connection caps off. Each cycle opens C
WebSockets at once, each acknowledged (connection_init) and subscribed to the lobby, then
C more that never send connection_init, closes them all, and reads the server's resident
memory (VmRSS). A leak grows cycle after cycle; an allocator that keeps what it once needed
rises in the first cycles and stays flat after them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import websockets
from websockets.typing import Subprotocol

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.support import Server  # noqa: E402

PROTOCOL = Subprotocol("graphql-transport-ws")
UNCAPPED = {
    "RISIKO_MAX_CONNECTIONS": "0",
    "RISIKO_MAX_CONNECTIONS_PER_ADDRESS": "0",
    "RISIKO_BUDGET_POINTS": "0",
}


def resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def subscriber(url: str) -> websockets.ClientConnection:
    opened = await websockets.connect(url, subprotocols=[PROTOCOL], open_timeout=60)
    await opened.send(json.dumps({"type": "connection_init", "payload": {}}))
    await opened.recv()
    subscribe = {"query": "subscription { lobby { type } }"}
    await opened.send(json.dumps({"id": "1", "type": "subscribe", "payload": subscribe}))
    return opened


async def silent(url: str) -> websockets.ClientConnection:
    return await websockets.connect(url, subprotocols=[PROTOCOL], open_timeout=60)


async def burst(url: str, connections: int) -> None:
    opened = list(await asyncio.gather(*(subscriber(url) for _ in range(connections))))
    opened += await asyncio.gather(*(silent(url) for _ in range(connections)))
    await asyncio.gather(*(socket.close() for socket in opened))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=10)
    parser.add_argument("--connections", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "data", env=UNCAPPED).start()
        try:
            assert server.process is not None
            pid = server.process.pid
            readings = [resident_mib(pid)]
            print(f"started: {readings[0]:.0f} MiB", flush=True)
            for cycle in range(1, args.cycles + 1):
                started = time.monotonic()
                asyncio.run(burst(server.ws_url, args.connections))
                time.sleep(4)  # the server sees every close, and gives memory back
                readings.append(resident_mib(pid))
                print(
                    f"cycle {cycle}: {2 * args.connections} sockets in "
                    f"{time.monotonic() - started:.1f} s, then {readings[-1]:.0f} MiB",
                    flush=True,
                )
            half = len(readings) // 2
            print(
                f"growth over the first half: {readings[half] - readings[0]:+.0f} MiB, "
                f"over the second half: {readings[-1] - readings[half]:+.0f} MiB",
                flush=True,
            )
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
