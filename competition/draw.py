"""A tournament's chance: every random choice comes from its secret seed, like a game's dice.

The tournament publishes `commitment(seed)` when it is created and reveals the seed when it
ends; then anyone can recompute every round's seating (competition/record.py) and every
drawn lot. Each use has its own HMAC-SHA256 key derived from the seed under a tag of its own,
so no stream of the tournament ever equals a game's dice, even if a game's seed were the
tournament's.
"""

from __future__ import annotations

import hmac

from domain.rng import DerivedRandom, commitment

__all__ = ["commitment", "lot", "round_random"]

ROUND_TAG = b"risiko/tournament/round/v1"
LOT_TAG = b"risiko/tournament/lot/v1"


def round_random(seed: bytes, round_number: int) -> DerivedRandom:
    """The stream of one round's seating: shuffles and tie-breaks, in the order the seating
    draws them (domain/rng.py's DerivedRandom keyed by HMAC(seed, ROUND_TAG | round))."""
    key = hmac.digest(seed, ROUND_TAG + round_number.to_bytes(4, "big"), "sha256")
    return DerivedRandom(key, 0)


def lot(seed: bytes, player: str) -> str:
    """A player's drawn lot, the last tie-break of the standings: the hex HMAC of its id
    (lower draws first). Fixed for the whole tournament, and unguessable until the seed is
    revealed: knowing it tells nothing of the seed or of any seating."""
    return hmac.digest(seed, LOT_TAG + player.encode("utf-8"), "sha256").hex()
