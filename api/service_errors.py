"""What the service answers when it refuses: a user error (`ServiceError`, with the code the
client is told, like the rules' own violations), or a seat token that is missing or worth
nothing here (`AuthError`: an error of the whole request)."""

from __future__ import annotations

from domain.errors import CodedError, ErrorCode, RisikoError


class ServiceError(CodedError):
    """A request the lobby or the store refuses (no such game, a stale version, a full game):
    a user error, like the rules' own violations, which reach the API as they are."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


class AuthError(RisikoError):
    """A missing or wrong seat token: a top-level error of the request, not a user error."""


class Unauthenticated(AuthError):
    code = "UNAUTHENTICATED"


class Forbidden(AuthError):
    """A valid token of another game."""

    code = "FORBIDDEN"
