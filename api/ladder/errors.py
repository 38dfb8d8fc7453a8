"""What a ladder command refuses: a user error with its code; nothing was changed."""

from __future__ import annotations

from domain.errors import CodedError, ErrorCode


class LadderError(CodedError):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
