"""The challenges' enums, in a module of their own: the account type (`me { challenges }`)
takes one as an argument, and api/graphql/challenges.py imports the account types."""

from __future__ import annotations

import enum

import strawberry


@strawberry.enum(description="Which of an account's challenges.")
class ChallengeDirection(enum.Enum):
    INCOMING = "incoming"  # made to it
    OUTGOING = "outgoing"  # made by it
    BOTH = "both"
