"""Derived randomness: every die and every shuffle comes from the game's secret seed.

Randomness for the action with sequence number `seq` is the stream of HMAC-SHA256 blocks
keyed by the seed over (seq, block). Nothing random is ever stored: replaying the action log
with the seed reproduces every roll and every shuffle. The game publishes `commitment(seed)`
when it is created and reveals the seed when it ends, so anyone can check the whole game.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

SEED_BYTES = 32


def commitment(seed: bytes) -> str:
    """The public hash of a secret seed, published when the game is created."""
    return hashlib.sha256(seed).hexdigest()


class DerivedRandom:
    """A deterministic stream of unbiased random choices for one action of one game."""

    __slots__ = ("_block", "_buffer", "_position", "_prefix", "_seed")

    def __init__(self, seed: bytes, seq: int) -> None:
        self._seed = seed
        self._prefix = seq.to_bytes(8, "big")
        self._block = 0
        self._buffer = b""
        self._position = 0

    def _next_block(self) -> None:
        message = self._prefix + self._block.to_bytes(4, "big")
        self._buffer = hmac.digest(self._seed, message, "sha256")
        self._block += 1
        self._position = 0

    def _byte(self) -> int:
        if self._position >= len(self._buffer):
            self._next_block()
        value = self._buffer[self._position]
        self._position += 1
        return value

    def die(self) -> int:
        """One six-sided die, 1 to 6, by rejection sampling on bytes (252 = 42 * 6)."""
        while True:
            value = self._byte()
            if value < 252:
                return value % 6 + 1

    def dice(self, count: int) -> list[int]:
        """`count` dice, sorted from highest to lowest (the order in which they are compared)."""
        rolled: list[int] = []
        buffer, position = self._buffer, self._position
        while len(rolled) < count:
            if position >= len(buffer):
                self._next_block()
                buffer, position = self._buffer, 0
            value = buffer[position]
            position += 1
            if value < 252:
                rolled.append(value % 6 + 1)
        self._position = position
        rolled.sort(reverse=True)
        return rolled

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), for n up to 2**32, by rejection sampling."""
        if not 0 < n <= 1 << 32:
            raise ValueError(f"below() needs 0 < n <= 2**32, not {n}")
        limit = (1 << 32) - (1 << 32) % n
        while True:
            value = 0
            for _ in range(4):
                value = value << 8 | self._byte()
            if value < limit:
                return value % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
