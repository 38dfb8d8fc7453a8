"""The ladder's record: one per ladder (its game), written whole under a version
(compare-and-set), like a tournament's: its members, the games it plays now, and how many
games it has created (the next game's number, from which its id is derived)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any


def ladder_game_id(ladder: str, number: int) -> str:
    """The id of the ladder's game `number`: the same on every instance, so a game is created
    once whichever instance opens it."""
    return hashlib.sha256(f"ladder/{ladder}/{number}".encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class LadderGame:
    number: int
    game: str
    players: tuple[str, ...]  # account ids, in seat order
    created_at: float

    def to_plain(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "game": self.game,
            "players": list(self.players),
            "created_at": self.created_at,
        }

    @classmethod
    def from_plain(cls, plain: dict[str, Any]) -> LadderGame:
        return cls(
            int(plain["number"]),
            str(plain["game"]),
            tuple(str(player) for player in plain["players"]),
            float(plain["created_at"]),
        )


@dataclass(frozen=True, slots=True)
class LadderRecord:
    id: str  # the ladder's game: its variant
    version: int = 0
    members: tuple[str, ...] = ()  # account ids, in the order they joined
    playing: tuple[LadderGame, ...] = field(default=())  # created, not seen finished
    created: int = 0  # games created so far

    def games_of(self, account: str) -> list[LadderGame]:
        return [game for game in self.playing if account in game.players]

    def to_plain(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "version": self.version,
            "members": list(self.members),
            "playing": [game.to_plain() for game in self.playing],
            "created": self.created,
        }

    @classmethod
    def from_plain(cls, plain: dict[str, Any]) -> LadderRecord:
        return cls(
            str(plain["id"]),
            int(plain["version"]),
            tuple(str(member) for member in plain["members"]),
            tuple(LadderGame.from_plain(game) for game in plain["playing"]),
            int(plain["created"]),
        )
