"""What the seek store keeps: one record per seek, and the states a seek goes through.

A seek is `open` until a pass claims it for a table (`matched:<table id>`, the table's id
being its game's), its account cancels it (`cancelled`) or it outlives its lifetime
(`expired`). Only an open seek changes state, by one conditional write: two instances never
both claim it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OPEN = "open"
CANCELLED = "cancelled"
EXPIRED = "expired"
MATCHED = "matched:"  # followed by the table's id, which is its game's id


def matched(table: str) -> str:
    return MATCHED + table


@dataclass(frozen=True, slots=True)
class SeekRecord:
    id: str
    account: str
    name: str  # the account's name, its seat's
    bot: bool
    variant: str
    players: int
    clock: dict[str, Any]  # api/clock.TimeControl's plain form
    speed: str  # the rating's speed of that clock (api/ratings/records.Speed)
    rated: bool
    opponents: str  # competition/matchmaking.Opponents
    rating: float  # the account's displayed rating in that variant and speed when it joined
    created: float
    expires: float
    state: str = OPEN
    matched_at: float | None = None
    started: bool = False  # its table's game created, seated and started

    @property
    def table(self) -> str | None:
        """Its table's id (its game's), once matched."""
        return self.state.removeprefix(MATCHED) if self.state.startswith(MATCHED) else None

    def to_plain(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "account": self.account,
            "name": self.name,
            "bot": self.bot,
            "variant": self.variant,
            "players": self.players,
            "clock": self.clock,
            "speed": self.speed,
            "rated": self.rated,
            "opponents": self.opponents,
            "rating": self.rating,
            "created": self.created,
            "expires": self.expires,
            "state": self.state,
            "matched_at": self.matched_at,
            "started": self.started,
        }

    @classmethod
    def from_plain(cls, data: dict[str, Any]) -> SeekRecord:
        return cls(
            id=str(data["id"]),
            account=str(data["account"]),
            name=str(data["name"]),
            bot=bool(data["bot"]),
            variant=str(data["variant"]),
            players=int(data["players"]),
            clock=dict(data["clock"]),
            speed=str(data["speed"]),
            rated=bool(data["rated"]),
            opponents=str(data["opponents"]),
            rating=float(data["rating"]),
            created=float(data["created"]),
            expires=float(data["expires"]),
            state=str(data["state"]),
            matched_at=None if data.get("matched_at") is None else float(data["matched_at"]),
            started=bool(data.get("started", False)),
        )
