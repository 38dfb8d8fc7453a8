"""The challenge commands over the challenge store: challenge accounts, accept, decline,
cancel; and each account's challenges.

Each command reads the record, checks, and writes the next version over the one it read
(api/challenges/store.py); a write that loses a race is retried on the fresh record, whose
checks then say what the other instance did. The acceptance that completes a challenge draws
the seat order and is written once; its game is opened after (api/challenges/games.py), under
an id derived from the challenge's, so a repeat opens nothing twice."""

from __future__ import annotations

import random
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from api.accounts.names import name_key
from api.accounts.scopes import Principal, Scope
from api.challenges.errors import ChallengeError
from api.challenges.records import LIFETIME_SECONDS, ChallengeRecord, ChallengeStatus
from api.challenges.store import ChallengeStore
from api.clock import TimeControl
from api.stores.accounts import AccountRecord, AccountStore
from api.stores.base import Admits
from api.text_inputs import DATA_NAME
from domain.errors import ErrorCode, InvalidOptions
from variants import VARIANTS

CHALLENGED = (2, 5)  # how many accounts one challenge invites: tables of 3 to 6
MAX_OPEN = 10  # open challenges an account takes part in at once, made or received
RETRIES = 20  # rereads after another instance's write came first
MAX_OPTIONS = 20
LISTED = 50  # an account's challenges read at most, newest first (its open ones are the newest)

Change = Callable[[ChallengeRecord], ChallengeRecord]


class GameOpener(Protocol):
    async def open_game(self, challenge: ChallengeRecord) -> None:
        """Create, seat and start the accepted challenge's game (safe to repeat)."""
        ...


@dataclass(frozen=True, slots=True)
class ChallengeAccounts:
    """What a challenger asks for: whom (by name), and the game."""

    names: tuple[str, ...]
    variant: str = "classic"
    options: dict[str, Any] = field(default_factory=dict)
    clock: dict[str, Any] | None = None
    rated: bool = False
    admits: Admits = Admits.ANYONE


def refuse(code: ErrorCode, message: str) -> ChallengeError:
    return ChallengeError(code, message)


@dataclass
class Challenges:
    store: ChallengeStore
    accounts: AccountStore
    games: GameOpener
    now: Callable[[], float] = field(default=time.time)
    draw: random.Random = field(default_factory=secrets.SystemRandom)

    async def challenge(self, principal: Principal, command: ChallengeAccounts) -> ChallengeRecord:
        """A new open challenge from the principal's account (the scope GAMES_CREATE)."""
        principal.require(Scope.GAMES_CREATE)
        _check_game(command)
        challenger = await self._party(principal.account_id, command.admits)
        challenged = [await self._named(name, command.admits) for name in command.names]
        ids = [account.id for account in challenged]
        if challenger.id in ids:
            raise refuse(ErrorCode.CANNOT_CHALLENGE_SELF, "an account cannot challenge itself")
        if len(set(ids)) != len(ids):
            raise refuse(ErrorCode.INVALID_CHALLENGE, "an account is named twice")
        for account in (challenger, *challenged):
            await self._check_room(account)
        now = self.now()
        record = ChallengeRecord(
            id=f"{int(now * 1000):013x}{uuid.uuid4().hex[:19]}",
            challenger=challenger.id,
            challenged=tuple(ids),
            variant=command.variant,
            options=dict(command.options),
            clock=command.clock,
            rated=command.rated,
            admits=command.admits.value,
            created_at=now,
            expires_at=now + LIFETIME_SECONDS,
        )
        await self.store.create_challenge(record)
        return record

    async def get(self, challenge_id: str) -> ChallengeRecord:
        record = await self.store.challenge(challenge_id)
        if record is None:
            raise refuse(ErrorCode.CHALLENGE_NOT_FOUND, f"no challenge {challenge_id!r}")
        return record

    async def accept(self, principal: Principal, challenge_id: str) -> ChallengeRecord:
        """The principal's acceptance (GAMES_PLAY); the last one's starts the game."""
        principal.require(Scope.GAMES_PLAY)
        account = principal.account_id
        record = await self._change(
            challenge_id, lambda record: record.accept(account, self.now(), self.draw)
        )
        if record.status is ChallengeStatus.ACCEPTED:
            await self.games.open_game(record)
        return record

    async def decline(self, principal: Principal, challenge_id: str) -> ChallengeRecord:
        principal.require(Scope.GAMES_PLAY)
        account = principal.account_id
        return await self._change(challenge_id, lambda record: record.decline(account, self.now()))

    async def cancel(self, principal: Principal, challenge_id: str) -> ChallengeRecord:
        principal.require(Scope.GAMES_CREATE)
        account = principal.account_id
        return await self._change(challenge_id, lambda record: record.cancel(account, self.now()))

    async def settle(self, record: ChallengeRecord) -> ChallengeRecord:
        """An accepted challenge's game opened (again: safe), for the instance that wrote the
        last acceptance and died before its game was started."""
        if record.status is ChallengeStatus.ACCEPTED:
            await self.games.open_game(record)
        return record

    async def of_account(self, account: str, open_only: bool) -> list[ChallengeRecord]:
        """The account's challenges, made and received, newest first (open ones only: not
        expired either)."""
        records = await self.store.challenges_of(account, open_only, LISTED)
        now = self.now()
        return [record for record in records if not open_only or record.is_open(now)]

    async def _named(self, name: str, admits: Admits) -> AccountRecord:
        key = name_key(name)
        record = await self.accounts.account_by_key(key) if key else None
        if record is None or record.deleted:
            raise refuse(ErrorCode.ACCOUNT_NOT_FOUND, "no account of that name")
        return _check_party(record, admits)

    async def _party(self, account_id: str, admits: Admits) -> AccountRecord:
        record = await self.accounts.account(account_id)
        if record is None or record.deleted:
            raise refuse(ErrorCode.ACCOUNT_NOT_FOUND, "this account is gone")
        return _check_party(record, admits)

    async def _check_room(self, account: AccountRecord) -> None:
        if len(await self.of_account(account.id, open_only=True)) >= MAX_OPEN:
            raise refuse(
                ErrorCode.TOO_MANY_CHALLENGES,
                f"{account.name} takes part in {MAX_OPEN} open challenges already",
            )

    async def _change(self, challenge_id: str, change: Change) -> ChallengeRecord:
        for _ in range(RETRIES):
            record = await self.get(challenge_id)
            changed = change(record)
            if await self.store.replace_challenge(changed):
                return changed
        raise refuse(ErrorCode.STALE_VERSION, "the challenge kept changing: try again")


def _check_party(record: AccountRecord, admits: Admits) -> AccountRecord:
    if record.disabled:
        raise refuse(ErrorCode.ACCOUNT_DISABLED, f"{record.name} is disabled")
    if admits == Admits.PEOPLE and record.bot:
        raise refuse(ErrorCode.PEOPLE_ONLY, f"{record.name} is a bot: this challenge is for people")
    if admits == Admits.BOTS and not record.bot:
        raise refuse(ErrorCode.BOTS_ONLY, f"{record.name} is no bot: this challenge is for bots")
    return record


def _check_game(command: ChallengeAccounts) -> None:
    """The game the challenge asks for is one the server can start: a known variant, as
    many players as it takes, options and a clock its rules accept."""
    least, most = CHALLENGED
    if not least <= len(command.names) <= most:
        raise refuse(ErrorCode.INVALID_CHALLENGE, f"challenge {least} to {most} accounts")
    if command.variant not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise refuse(ErrorCode.INVALID_CHALLENGE, f"a challenge plays one of {known}")
    ruleset = VARIANTS[command.variant].ruleset
    players = len(command.names) + 1
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise refuse(
            ErrorCode.INVALID_CHALLENGE,
            f"{command.variant} takes {ruleset.min_players} to {ruleset.max_players} players",
        )
    if len(command.options) > MAX_OPTIONS or not all(map(_plain, command.options.values())):
        raise refuse(
            ErrorCode.INVALID_CHALLENGE,
            f"at most {MAX_OPTIONS} options, each a number of 32 bits, a truth value, null or "
            f"a name ({DATA_NAME.rule})",
        )
    try:
        VARIANTS[command.variant].options(command.options)
        if command.clock is not None:
            TimeControl.from_dict(command.clock)
    except (InvalidOptions, TypeError, ValueError) as error:
        raise refuse(ErrorCode.INVALID_CHALLENGE, f"options the game accepts ({error})") from None


def _plain(value: object) -> bool:
    """An option's value as a game's options take it, and as both stores keep it: a GraphQL
    Int (JSON numbers may be any size), a Boolean, null, or a name of the game's data."""
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, int):
        return -(2**31) <= value < 2**31
    return isinstance(value, str) and len(value) <= DATA_NAME.most
