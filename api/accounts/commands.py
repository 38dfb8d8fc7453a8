"""The account commands, as plain data, and what their handlers answer.

A command names everything its handler needs: the principal a credential stood for (already
authenticated), or the address a login comes from. Handlers live in `handlers.py` (what a
player does through the API) and `operator.py` (what the server's operator does from the
command line).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from api.accounts.scopes import Principal, Scope
from api.stores.accounts import AccountRecord, CredentialRecord


@dataclass(frozen=True, slots=True)
class Register:
    name: str
    password: str
    address: str | None


@dataclass(frozen=True, slots=True)
class LogIn:
    name: str
    password: str
    address: str | None


@dataclass(frozen=True, slots=True)
class LogOut:
    principal: Principal
    everywhere: bool = False  # every session of the account, not only this credential


@dataclass(frozen=True, slots=True)
class ChangePassword:
    principal: Principal
    current: str
    new: str
    address: str | None
    end_api_tokens: bool = False


@dataclass(frozen=True, slots=True)
class DeleteAccount:
    principal: Principal
    password: str
    address: str | None


@dataclass(frozen=True, slots=True)
class BecomeBot:
    principal: Principal


@dataclass(frozen=True, slots=True)
class CreateApiToken:
    principal: Principal
    name: str
    scopes: Sequence[Scope]
    expires_in_days: int | None = None  # None: it never expires


@dataclass(frozen=True, slots=True)
class RevokeApiToken:
    principal: Principal
    token_id: str


@dataclass(frozen=True, slots=True)
class LoggedIn:
    """A new session: its token, shown this once, and its record."""

    account: AccountRecord
    token: str
    credential: CredentialRecord


@dataclass(frozen=True, slots=True)
class TokenMade:
    """A new API token: the token, shown this once, and its record."""

    token: str
    credential: CredentialRecord
