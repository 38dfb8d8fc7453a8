"""Derived randomness: every die and every shuffle comes from the game's secret seed.

Randomness for the action with sequence number `seq` is the stream of HMAC-SHA256 blocks
keyed by the seed over (seq, block). Nothing random is ever stored: replaying the action log
with the seed reproduces every roll and every shuffle. The game publishes `commitment(seed)`
when it is created and reveals the seed when it ends, so anyone can check the whole game.

The seed the dice come from is, in a game whose seed nobody chose, `derive_seed` of that
secret and the seats' contributions (client seeds), fixed at the start: the server commits to
its secret before any seat joins, and no seat knows the secret, so no one alone can choose it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import MutableSequence, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from hashlib import _Hash

T = TypeVar("T")

SEED_BYTES = 32
# What a seat's contribution may be: 1 to 64 printable ASCII characters (a client seed).
MAX_CONTRIBUTION = 64
# Domain separation: an HMAC of this secret for another purpose never equals a derived seed.
SEATS_TAG = b"risiko/seats/v1"


def commitment(seed: bytes) -> str:
    """The public hash of a secret seed, published when the game is created."""
    return hashlib.sha256(seed).hexdigest()


def contribution_problem(value: str) -> str | None:
    """Why `value` cannot be a seat's contribution, or None if it can."""
    if not 1 <= len(value) <= MAX_CONTRIBUTION:
        return f"a client seed has 1 to {MAX_CONTRIBUTION} characters, not {len(value)}"
    if not all(" " <= char <= "~" for char in value):
        return "a client seed has printable ASCII characters only (space to ~)"
    return None


def derive_seed(secret: bytes, contributions: Sequence[str | None]) -> bytes:
    """The seed a game's dice come from: HMAC-SHA256 keyed by the server's secret over
    SEATS_TAG, then each seat's contribution in seat order, each as one byte 0 for a seat
    that gave none, or one byte 1, its length in 4 bytes (big-endian) and its ASCII bytes.

    Each part says where it ends, so two different lists never make the same message: any
    change of any contribution, of their order or of their number gives another seed (unless
    HMAC-SHA256 itself is broken). A test vector (tests/unit/test_rng.py, and the same with
    `openssl dgst -sha256 -hmac secret`): derive_seed(b"secret", ["alpha", None, "b"]) is
    1457406758a6d32d13e625e9089cd978aba7424f24a16801dd5762f10d3eefe2."""
    message = bytearray(SEATS_TAG)
    for value in contributions:
        if value is None:
            message += b"\x00"
            continue
        encoded = value.encode("utf-8")
        message += b"\x01" + len(encoded).to_bytes(4, "big") + encoded
    return hmac.digest(secret, bytes(message), "sha256")


# HMAC's key pads (RFC 2104), as tables for bytes.translate.
_INNER_PAD = bytes(byte ^ 0x36 for byte in range(256))
_OUTER_PAD = bytes(byte ^ 0x5C for byte in range(256))
_SHA256_BLOCK = 64


@lru_cache(maxsize=1024)
def _keyed(seed: bytes) -> tuple[_Hash, _Hash]:
    """HMAC-SHA256's inner and outer hashes keyed by `seed`, before any message (RFC 2104).
    A game's every action draws from HMACs keyed by the same seed: copying these two states
    skips keying them again for each digest (a third of the time `hmac.digest` takes), and
    gives the same bytes as `hmac.digest(seed, message, "sha256")`."""
    key = seed if len(seed) <= _SHA256_BLOCK else hashlib.sha256(seed).digest()
    key = key.ljust(_SHA256_BLOCK, b"\0")
    return hashlib.sha256(key.translate(_INNER_PAD)), hashlib.sha256(key.translate(_OUTER_PAD))


def hmac_sha256(seed: bytes, message: bytes) -> bytes:
    """`hmac.digest(seed, message, "sha256")`, from the keyed states of `_keyed(seed)`."""
    inner, outer = _keyed(seed)
    inner = inner.copy()
    inner.update(message)
    outer = outer.copy()
    outer.update(inner.digest())
    return outer.digest()


# A byte below 252 (= 42 * 6) gives an unbiased die; the others are skipped (zero here).
_DIE_OF_BYTE = bytes((byte % 6 + 1) if byte < 252 else 0 for byte in range(256))


class DerivedRandom:
    """Deterministic streams of unbiased random choices for one action of one game.

    Dice and the other choices (shuffles, draws) come from two separate streams, so that
    each can be read in large, fast blocks: HMAC-SHA256(seed, seq | stream | block)."""

    __slots__ = (
        "_block",
        "_buffer",
        "_dice",
        "_dice_block",
        "_dice_position",
        "_position",
        "_prefix",
        "_seed",
    )

    def __init__(self, seed: bytes, seq: int) -> None:
        self._seed = seed
        self._prefix = seq.to_bytes(8, "big")
        self._block = 0
        self._buffer = b""
        self._position = 0
        self._dice_block = 0
        self._dice = b""
        self._dice_position = 0

    def _digest(self, stream: bytes, block: int) -> bytes:
        return hmac_sha256(self._seed, self._prefix + stream + block.to_bytes(4, "big"))

    def _byte(self) -> int:
        if self._position >= len(self._buffer):
            self._buffer = self._digest(b"c", self._block)
            self._block += 1
            self._position = 0
        value = self._buffer[self._position]
        self._position += 1
        return value

    def _take_dice(self, count: int) -> bytes:
        position = self._dice_position
        while position + count > len(self._dice):
            fresh = self._digest(b"d", self._dice_block).translate(_DIE_OF_BYTE)
            self._dice = self._dice[position:] + fresh.replace(b"\x00", b"")
            self._dice_block += 1
            position = 0
        self._dice_position = position + count
        return self._dice[position : position + count]

    def dice(self, count: int) -> list[int]:
        """`count` six-sided dice, sorted from highest to lowest (the order they compare in)."""
        return sorted(self._take_dice(count), reverse=True)

    def roll(self, attacker: int, defender: int) -> tuple[list[int], list[int]]:
        """One battle roll: the attacker's dice, then the defender's, each sorted high to low
        (taken together: the same dice as taking the attacker's, then the defender's)."""
        position = self._dice_position
        end = position + attacker + defender
        if end <= len(self._dice):  # most rolls: the dice are at hand (`_take_dice`, inlined)
            self._dice_position = end
            dice = self._dice[position:end]
        else:
            dice = self._take_dice(attacker + defender)
        return sorted(dice[:attacker], reverse=True), sorted(dice[attacker:], reverse=True)

    def die(self) -> int:
        return self.dice(1)[0]

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), for n up to 2**32, by rejection sampling."""
        if not 0 < n <= 1 << 32:
            raise ValueError(f"below() needs 0 < n <= 2**32, not {n}")
        limit = (1 << 32) - (1 << 32) % n
        while True:
            position = self._position
            if position + 4 <= len(self._buffer):  # the four bytes `_byte` would give, at once
                value = int.from_bytes(self._buffer[position : position + 4], "big")
                self._position = position + 4
            else:
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
