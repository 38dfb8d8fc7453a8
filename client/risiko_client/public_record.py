"""A finished game's public record, which proves its dice: the chain from the commitment
published at creation to the seed the dice came from, checked without the server's engine."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from risiko_client.state import GameEvent
from risiko_client.transport import Json

# The domain separation of derive_seed (the server's domain.rng.SEATS_TAG).
SEATS_TAG = b"risiko/seats/v1"


def derive_seed(secret: bytes, contributions: list[str | None]) -> bytes:
    """The seed a game's dice come from, as the server derives it (docs/architecture.md, A
    game's randomness): HMAC-SHA256 keyed by the secret over SEATS_TAG, then per seat in
    order 0x00 for none, or 0x01, the length in 4 bytes big-endian and the ASCII bytes."""
    message = bytearray(SEATS_TAG)
    for value in contributions:
        if value is None:
            message += b"\x00"
            continue
        encoded = value.encode("utf-8")
        message += b"\x01" + len(encoded).to_bytes(4, "big") + encoded
    return hmac.digest(secret, bytes(message), "sha256")


@dataclass(frozen=True)
class PublicRecord:
    """What a game publishes to prove its dice (once over): its randomness (`Game.randomness`:
    commitment, contributions, secret, derived seed), its action log (each entry's seq, kind,
    seat and payload) and the events the viewer may see (every public one; a seat's token
    adds its own private ones). `risiko verify` replays the log on the server's engine and
    compares every event; `chain_problems` checks what needs no engine."""

    game_id: str
    variant: str
    status: str
    viewer_seat: int | None
    randomness: Json
    log: list[Json]
    events: list[GameEvent]

    @property
    def finished(self) -> bool:
        return self.status == "FINISHED"

    def start_entry(self) -> Json | None:
        return next((entry for entry in self.log if entry["kind"] == "start"), None)

    def contributions(self) -> list[str | None] | None:
        """The contributions the start fixed, in seat order; None for a game without (its
        seed chosen, or played before contributions)."""
        start = self.start_entry()
        if start is None or "contributions" not in start["payload"]:
            return None
        values: list[str | None] = start["payload"]["contributions"]
        return values

    def chain_problems(self, mine: tuple[int, str] | None = None) -> list[str]:
        """What is wrong with the chain from the commitment to the dice's seed (empty: all
        holds): the secret against the commitment published at creation, the derived seed
        against the secret and the contributions the start fixed, the start's commitment
        against that seed. `mine`: (a seat, the contribution it sent last: Seat.client_seed,
        or what start_game returned), which must be the one the start fixed."""
        if not self.finished:
            return ["the game is not over: its secret is revealed at the end"]
        found = self.randomness
        secret = bytes.fromhex(found["secret"])
        problems = []
        created = next((entry for entry in self.log if entry["kind"] == "create"), None)
        published = created["payload"]["commitment"] if created else found["commitment"]
        if hashlib.sha256(secret).hexdigest() != published or published != found["commitment"]:
            problems.append("the secret does not match the commitment published at creation")
        values = self.contributions()
        shown = [c["value"] for c in found["contributions"]]
        if values is not None and shown != values:
            problems.append("the contributions shown are not those the start recorded")
        seed = secret if values is None else derive_seed(secret, values)
        if found["derivedSeed"] != seed.hex():
            problems.append("the derived seed is not HMAC(secret, contributions)")
        start = found["startCommitment"]
        if start is not None and start != hashlib.sha256(seed).hexdigest():
            problems.append("the start's commitment is not the hash of the derived seed")
        if mine is not None:
            seat, sent = mine
            if values is None or seat >= len(values) or values[seat] != sent:
                problems.append(f"seat {seat}'s contribution is not the one it sent")
        return problems
