"""The errors of competitive play: a stable machine code and a human message each.

The codes are this package's own until the tournament and rated-play services show them
through the API (they will join the API's ErrorCode then); a rejected input changes nothing.
"""

from __future__ import annotations

import enum

from domain.errors import RisikoError


class CompetitionCode(enum.StrEnum):
    # Seating a round
    TOO_FEW_PLAYERS = "TOO_FEW_PLAYERS"
    TABLES_IMPOSSIBLE = "TABLES_IMPOSSIBLE"
    INVALID_TABLE_RULE = "INVALID_TABLE_RULE"
    DUPLICATE_PLAYER = "DUPLICATE_PLAYER"
    INVALID_ROUND = "INVALID_ROUND"
    # Results and standings
    INVALID_RESULT = "INVALID_RESULT"
    RESULT_ALREADY_COUNTED = "RESULT_ALREADY_COUNTED"
    # Ratings
    INVALID_RANKING = "INVALID_RANKING"
    # The matchmaking pool
    INVALID_SEEK = "INVALID_SEEK"
    DUPLICATE_SEEK = "DUPLICATE_SEEK"


class CompetitionError(RisikoError):
    """Bad input to one of this package's functions; nothing was changed."""

    code: CompetitionCode

    def __init__(self, code: CompetitionCode, message: str) -> None:
        super().__init__(message)
        self.code = code
