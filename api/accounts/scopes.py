"""Scopes, and the principal a credential stands for.

A personal API token carries the scopes chosen when it was made; an operation outside them is
FORBIDDEN, with the scope it needs, and does nothing. A session (logIn) carries every scope:
it is the account's owner at a client the owner logged into. What could do lasting harm if a
session were stolen (changing the password, deleting the account) asks for the password again
whatever the credential, so no scope is held back from sessions.

A token never makes a token that can do more than itself: createApiToken from a token gives
at most that token's scopes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from api.accounts.errors import CredentialRefused
from api.accounts.tokens import TokenKind


class Scope(enum.StrEnum):
    """What a credential may do; the value is what the store keeps."""

    GAMES_READ = "games:read"  # the account's games and their private state (hands, objectives)
    GAMES_PLAY = "games:play"  # join a game, act in it, leave it
    GAMES_CREATE = "games:create"  # create games
    TOURNAMENTS_ORGANISE = "tournaments:organise"  # create and run tournaments
    ACCOUNT_MANAGE = "account:manage"  # tokens, bot status, password, deletion


SESSION_SCOPES = frozenset(Scope)


def scopes_of(values: object) -> frozenset[Scope]:
    """Scopes as stored; a value this server does not know is dropped (never granted)."""
    known = {scope.value: scope for scope in Scope}
    if not isinstance(values, list | tuple):
        return frozenset()
    return frozenset(known[value] for value in values if value in known)


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a valid account credential stands for, and what it may do."""

    account_id: str
    name: str
    bot: bool
    kind: TokenKind
    credential_id: str
    scopes: frozenset[Scope]

    def require(self, scope: Scope) -> None:
        """FORBIDDEN, naming `scope`, unless the credential carries it."""
        if scope not in self.scopes:
            raise CredentialRefused(
                "FORBIDDEN", f"this token lacks the scope {scope.name}", scope=scope.name
            )
