"""The challenge store's interface: one record per challenge, written whole under a version
(compare-and-set), beside the games' tables; and each account's challenges, either side.

Started once: the last acceptance is a write over the version it read, so of two racing
accepts (on one instance or two) one wins and the other rereads, finds the challenge accepted
and answers so; the game's id is derived from the challenge's, so whoever opens it after
(the winner, or a retry after a crash) opens one game."""

from __future__ import annotations

from typing import Protocol

from api.challenges.records import ChallengeRecord


class ChallengeExists(Exception):
    """A challenge with this id is already stored."""


class ChallengeStore(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_challenge(self, record: ChallengeRecord) -> None:
        """ChallengeExists if its id is taken."""
        ...

    async def challenge(self, challenge_id: str) -> ChallengeRecord | None: ...

    async def replace_challenge(self, record: ChallengeRecord) -> bool:
        """Write `record` if the stored one's version is `record.version - 1`; False, and
        nothing written, if another write came first."""
        ...

    async def challenges_of(
        self, account: str, stored_open: bool, limit: int
    ) -> list[ChallengeRecord]:
        """The account's challenges, made or received, newest first; only those stored as
        open (expired ones among them) when `stored_open`."""
        ...


def challenge_store_for(store: object) -> ChallengeStore:
    """The challenge store beside a game store: a table in the same SQLite file, or a
    collection in the same MongoDB database, with the same write concern."""
    from api.stores.mongo import MongoStore
    from api.stores.mongo_challenges import MongoChallengeStore
    from api.stores.sqlite import SqliteStore
    from api.stores.sqlite_challenges import SqliteChallengeStore

    if isinstance(store, MongoStore):
        return MongoChallengeStore(store.uri, store.write_concern.document.get("w", "majority"))
    if isinstance(store, SqliteStore):
        return SqliteChallengeStore(store.path)
    raise TypeError(f"no challenge store goes with {type(store).__name__}")
