"""A challenge as the store keeps it, written whole under a version (compare-and-set), and
its rules: who may answer, when, and what an answer makes of it. Pure: the time is given.

A challenge is open until every challenged account has accepted (it is then `accepted`, its
seat order drawn and its game id fixed, and the game is opened from it), one declines
(`declined`), the challenger cancels (`cancelled`), or its lifetime passes (expired: an open
record whose `expires_at` is past; nothing needs to write it)."""

from __future__ import annotations

import enum
import hashlib
import random
from dataclasses import dataclass, field, replace
from typing import Any

from api.challenges.errors import ChallengeError
from domain.errors import ErrorCode

LIFETIME_SECONDS = 24 * 3600.0  # an unanswered challenge expires a day after it was made


class ChallengeStatus(enum.StrEnum):
    OPEN = "open"  # waiting for answers
    ACCEPTED = "accepted"  # everyone accepted: its game is created and started
    DECLINED = "declined"  # a challenged account declined
    CANCELLED = "cancelled"  # the challenger withdrew it
    EXPIRED = "expired"  # open when its lifetime passed (never stored: read from the time)


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    id: str
    challenger: str  # account ids
    challenged: tuple[str, ...]
    variant: str
    options: dict[str, Any]  # plain values, as createGame takes them
    clock: dict[str, Any] | None  # api/clock.py's plain form
    rated: bool
    admits: str  # an Admits value: who may be challenged (and seated)
    created_at: float
    expires_at: float
    status: ChallengeStatus = ChallengeStatus.OPEN
    accepted: tuple[str, ...] = ()  # the challenged who accepted, in the order they did
    declined_by: str | None = None
    seats: tuple[str, ...] = ()  # the accounts in seat order, drawn when the last accepts
    version: int = 1
    answered_at: float | None = field(default=None)

    @property
    def parties(self) -> tuple[str, ...]:
        return (self.challenger, *self.challenged)

    @property
    def game_id(self) -> str:
        """Its game's id, the same on every instance (so the game is created once)."""
        return hashlib.sha256(f"challenge/{self.id}".encode()).hexdigest()[:32]

    def status_at(self, now: float) -> ChallengeStatus:
        if self.status is ChallengeStatus.OPEN and now >= self.expires_at:
            return ChallengeStatus.EXPIRED
        return self.status

    def is_open(self, now: float) -> bool:
        return self.status_at(now) is ChallengeStatus.OPEN

    def accept(self, account: str, now: float, draw: random.Random) -> ChallengeRecord:
        """`account`'s acceptance; the last one's draws the seat order (`draw`)."""
        self._check_answerable(account, now)
        accepted = (*self.accepted, account)
        if len(accepted) < len(self.challenged):
            return replace(self, accepted=accepted, version=self.version + 1)
        seats = list(self.parties)
        draw.shuffle(seats)
        return replace(
            self,
            accepted=accepted,
            status=ChallengeStatus.ACCEPTED,
            seats=tuple(seats),
            answered_at=now,
            version=self.version + 1,
        )

    def decline(self, account: str, now: float) -> ChallengeRecord:
        self._check_answerable(account, now)
        return replace(
            self,
            status=ChallengeStatus.DECLINED,
            declined_by=account,
            answered_at=now,
            version=self.version + 1,
        )

    def cancel(self, account: str, now: float) -> ChallengeRecord:
        if account != self.challenger:
            raise ChallengeError(ErrorCode.NOT_CHALLENGER, "only the challenger may cancel it")
        self._check_open(now)
        return replace(
            self, status=ChallengeStatus.CANCELLED, answered_at=now, version=self.version + 1
        )

    def _check_answerable(self, account: str, now: float) -> None:
        if account not in self.challenged:
            raise ChallengeError(ErrorCode.NOT_CHALLENGED, "this account is not challenged")
        if account in self.accepted:
            raise ChallengeError(ErrorCode.ALREADY_ANSWERED, "this account accepted already")
        self._check_open(now)

    def _check_open(self, now: float) -> None:
        status = self.status_at(now)
        if status is ChallengeStatus.EXPIRED:
            raise ChallengeError(ErrorCode.CHALLENGE_EXPIRED, "the challenge has expired")
        if status is not ChallengeStatus.OPEN:
            raise ChallengeError(ErrorCode.CHALLENGE_CLOSED, f"the challenge is {status.value}")

    def to_plain(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "challenger": self.challenger,
            "challenged": list(self.challenged),
            "variant": self.variant,
            "options": self.options,
            "clock": self.clock,
            "rated": self.rated,
            "admits": self.admits,
            "created_at": self.created_at,
            "expires_at": self.expires_at,
            "status": self.status.value,
            "accepted": list(self.accepted),
            "declined_by": self.declined_by,
            "seats": list(self.seats),
            "version": self.version,
            "answered_at": self.answered_at,
        }

    @classmethod
    def from_plain(cls, data: dict[str, Any]) -> ChallengeRecord:
        return cls(
            id=data["id"],
            challenger=data["challenger"],
            challenged=tuple(data["challenged"]),
            variant=data["variant"],
            options=dict(data["options"]),
            clock=data["clock"],
            rated=bool(data["rated"]),
            admits=data["admits"],
            created_at=data["created_at"],
            expires_at=data["expires_at"],
            status=ChallengeStatus(data["status"]),
            accepted=tuple(data["accepted"]),
            declined_by=data["declined_by"],
            seats=tuple(data["seats"]),
            version=data["version"],
            answered_at=data["answered_at"],
        )
