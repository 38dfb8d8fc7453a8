"""The connection caps, and a WebSocket whose reader stalls is cut."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from api.connections import ConnectionLimits, guarded_protocols


def test_caps_per_address_and_in_all() -> None:
    limits = ConnectionLimits(max_total=3, max_per_address=2)
    assert limits.admit("a") is None
    assert limits.admit("a") is None
    assert "your address has 2" in str(limits.admit("a"))
    assert limits.admit("b") is None
    assert "the server has 3" in str(limits.admit("c"))
    limits.release("a")
    assert limits.admit("c") is None
    assert limits.open_by_address == {"a": 1, "b": 1, "c": 1}
    for address in "abc":
        limits.release(address)
    assert limits.open_total == 0  # nothing left behind
    assert not limits.open_by_address


def test_caps_of_zero_are_off() -> None:
    limits = ConnectionLimits(max_total=0, max_per_address=0)
    assert all(limits.admit("a") is None for _ in range(10_000))


class Transport:
    def __init__(self) -> None:
        self.aborted = False

    def abort(self) -> None:
        self.aborted = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def is_closing(self) -> bool:
        return self.aborted


def websocket(limits: ConnectionLimits) -> Any:
    _, guarded = guarded_protocols(limits)
    config = Config(app=lambda *args: None)
    config.load()
    protocol: Any = guarded(config=config, server_state=ServerState(), app_state={})
    protocol.transport = Transport()
    protocol.client = ("10.0.0.9", 1)
    return protocol


@pytest.mark.anyio
async def test_a_websocket_whose_reader_stalls_is_cut() -> None:
    protocol = websocket(ConnectionLimits(stalled_reader_timeout=0.05))
    protocol.pause_writing()  # the buffer for it is full
    await asyncio.sleep(0.2)
    assert protocol.transport.aborted


@pytest.mark.anyio
async def test_a_reader_that_catches_up_stays() -> None:
    protocol = websocket(ConnectionLimits(stalled_reader_timeout=0.1))
    for _ in range(3):
        protocol.pause_writing()
        await asyncio.sleep(0.05)
        protocol.resume_writing()  # it read in time
    await asyncio.sleep(0.2)
    assert not protocol.transport.aborted


@pytest.mark.anyio
async def test_memory_is_given_back_once_a_burst_is_over(monkeypatch: pytest.MonkeyPatch) -> None:
    given_back: list[float] = []
    loop = asyncio.get_running_loop()
    monkeypatch.setattr("api.connections.give_back_memory", lambda: given_back.append(loop.time()))
    monkeypatch.setattr("api.connections.TRIM_DELAY_SECONDS", 0.01)
    limits = ConnectionLimits(max_total=0, max_per_address=0)
    for _ in range(400):
        limits.admit("a")
    for _ in range(199):
        limits.release("a")  # still more than half of the peak open
    await asyncio.sleep(0.05)
    assert given_back == []
    for _ in range(201):
        limits.release("a")
    await asyncio.sleep(0.05)
    assert len(given_back) == 1  # once per burst, not once per closed socket
    for _ in range(100):  # a small wave is no burst
        limits.admit("a")
    for _ in range(100):
        limits.release("a")
    await asyncio.sleep(0.05)
    assert len(given_back) == 1
