"""What an account command refuses, and what a credential is refused for.

A refusal of a command is a user error (`AccountError`, with an ErrorCode): it changed
nothing, and the payload says why. A credential that is missing, unknown, expired or revoked,
or that lacks the scope an operation needs, is an error of the request itself
(`CredentialRefused`: UNAUTHENTICATED or FORBIDDEN), as a wrong seat token is.
"""

from __future__ import annotations

from domain.errors import CodedError, ErrorCode, RisikoError


class AccountError(CodedError):
    """A command refused, nothing done; `retry_after` (seconds) when it was rate limited."""

    def __init__(self, code: ErrorCode, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after


class CredentialRefused(RisikoError):
    """A bearer credential that cannot do what was asked: UNAUTHENTICATED (none, unknown,
    expired, revoked, its account disabled or deleted) or FORBIDDEN (`scope` missing)."""

    def __init__(self, code: str, message: str, scope: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.scope = scope


def unauthenticated(message: str) -> CredentialRefused:
    return CredentialRefused("UNAUTHENTICATED", message)
