"""A Python client of the RisiKo! game server's GraphQL API (`risiko_client.api`), example bots that
play through it (`risiko_client.bots`), and the arena that plays them against each other
(`risiko_client.arena`, behind `risiko arena`)."""

from risiko_client.api import (
    ApiError,
    GameEvent,
    GameState,
    PublicRecord,
    RisikoClient,
    Seat,
    Submitted,
)

__all__ = [
    "ApiError",
    "GameEvent",
    "GameState",
    "PublicRecord",
    "RisikoClient",
    "Seat",
    "Submitted",
]
