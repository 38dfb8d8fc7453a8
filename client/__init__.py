"""A Python client of the RisiKo! game server's GraphQL API (`client.api`), example bots that
play through it (`client.bots`), and the arena that plays them against each other
(`client.arena`, behind `risiko arena`)."""

from client.api import ApiError, GameEvent, GameState, RisikoClient, Seat, Submitted

__all__ = ["ApiError", "GameEvent", "GameState", "RisikoClient", "Seat", "Submitted"]
