"""The MongoDB account store: collections of their own in the games' database.

`accounts` (unique on `key`), `credentials` (by token hash; unique on `id`) and `throttles`
(by key, each with a version for compare-and-set). Writes with the games' write concern
(majority in production), reads with majority read concern from the primary: once a
revocation is acknowledged, every instance's next read sees it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from pymongo import ASCENDING
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from api.stores.accounts import AccountRecord, CredentialRecord, NameTaken, ThrottleState
from api.stores.side_stores import MongoSideStore

Document = dict[str, Any]


def _account_document(record: AccountRecord) -> Document:
    return {
        "_id": record.id,
        "key": record.key,
        "name": record.name,
        "password_hash": record.password_hash,
        "created_at": record.created_at,
        "bot": record.bot,
        "disabled": record.disabled,
        "deleted_at": record.deleted_at,
    }


def _account(document: Document) -> AccountRecord:
    return AccountRecord(
        id=document["_id"],
        name=document["name"],
        key=document["key"],
        password_hash=document["password_hash"],
        created_at=document["created_at"],
        bot=document["bot"],
        disabled=document["disabled"],
        deleted_at=document["deleted_at"],
    )


def _credential(document: Document) -> CredentialRecord:
    return CredentialRecord(
        id=document["id"],
        token_hash=document["_id"],
        account_id=document["account_id"],
        kind=document["kind"],
        name=document["name"],
        scopes=tuple(document["scopes"]),
        created_at=document["created_at"],
        last_used_at=document["last_used_at"],
        expires_at=document["expires_at"],
    )


class MongoAccountStore(MongoSideStore):
    WHAT = "account"

    async def _create(self, db: AsyncDatabase[Document]) -> None:
        await db.accounts.create_index([("key", ASCENDING)], unique=True, name="key")
        await db.credentials.create_index([("id", ASCENDING)], unique=True, name="id")
        await db.credentials.create_index(
            [("account_id", ASCENDING), ("kind", ASCENDING), ("created_at", ASCENDING)],
            name="of_account",
        )
        await db.credentials.create_index([("expires_at", ASCENDING)], name="expiring")
        await db.credentials.create_index(
            [("kind", ASCENDING), ("last_used_at", ASCENDING)], name="used"
        )
        await db.throttles.create_index([("expires_at", ASCENDING)], name="expiring")

    async def create_account(self, record: AccountRecord) -> None:
        try:
            await self.db.accounts.insert_one(_account_document(record))
        except DuplicateKeyError:
            raise NameTaken(record.key) from None

    async def account(self, account_id: str) -> AccountRecord | None:
        document = await self.db.accounts.find_one({"_id": account_id})
        return None if document is None else _account(document)

    async def account_by_key(self, key: str) -> AccountRecord | None:
        document = await self.db.accounts.find_one({"key": key})
        return None if document is None else _account(document)

    async def accounts(self, after_key: str | None, limit: int) -> list[AccountRecord]:
        if limit <= 0:  # Mongo's limit(0) would mean "no limit"
            return []
        cursor = (
            self.db.accounts.find({"key": {"$gt": after_key or ""}})
            .sort("key", ASCENDING)
            .limit(limit)
        )
        return [_account(document) async for document in cursor]

    async def replace_account(self, record: AccountRecord, expected: AccountRecord) -> bool:
        if record.id != expected.id:
            return False
        result = await self.db.accounts.replace_one(
            _account_document(expected), _account_document(record)
        )
        return result.matched_count == 1

    async def add_credential(self, record: CredentialRecord) -> None:
        await self.db.credentials.insert_one(
            {
                "_id": record.token_hash,
                "id": record.id,
                "account_id": record.account_id,
                "kind": record.kind,
                "name": record.name,
                "scopes": list(record.scopes),
                "created_at": record.created_at,
                "last_used_at": record.last_used_at,
                "expires_at": record.expires_at,
            }
        )

    async def credential(self, token_hash: str) -> tuple[CredentialRecord, AccountRecord] | None:
        document = await self.db.credentials.find_one({"_id": token_hash})
        if document is None:
            return None
        account = await self.account(document["account_id"])
        return None if account is None else (_credential(document), account)

    async def credentials(self, account_id: str, kind: str) -> list[CredentialRecord]:
        cursor = self.db.credentials.find({"account_id": account_id, "kind": kind}).sort(
            [("created_at", ASCENDING), ("id", ASCENDING)]
        )
        return [_credential(document) async for document in cursor]

    async def delete_credentials(
        self,
        account_id: str,
        kind: str | None = None,
        ids: Sequence[str] | None = None,
        keep: str | None = None,
    ) -> int:
        query: Document = {"account_id": account_id}
        if kind is not None:
            query["kind"] = kind
        id_clause: Document = {}
        if ids is not None:
            id_clause["$in"] = list(ids)
        if keep is not None:
            id_clause["$ne"] = keep
        if id_clause:
            query["id"] = id_clause
        result = await self.db.credentials.delete_many(query)
        return result.deleted_count

    async def touch_credential(self, credential_id: str, at: float) -> None:
        await self.db.credentials.update_one(
            {"id": credential_id, "last_used_at": {"$lt": at}}, {"$set": {"last_used_at": at}}
        )

    async def throttle(self, key: str) -> tuple[ThrottleState, int] | None:
        document = await self.db.throttles.find_one({"_id": key})
        return None if document is None else (dict(document["state"]), int(document["version"]))

    async def put_throttle(
        self, key: str, state: ThrottleState | None, version: int, expires_at: float
    ) -> bool:
        throttles = self.db.throttles
        if state is None:
            deleted = await throttles.delete_one({"_id": key, "version": version})
            return version == 0 or deleted.deleted_count == 1
        if version == 0:
            try:
                await throttles.insert_one(
                    {"_id": key, "state": state, "version": 1, "expires_at": expires_at}
                )
            except DuplicateKeyError:
                return False
            return True
        updated = await throttles.update_one(
            {"_id": key, "version": version},
            {"$set": {"state": state, "version": version + 1, "expires_at": expires_at}},
        )
        return updated.matched_count == 1

    async def sweep(self, now: float, idle_sessions_before: float) -> int:
        expired = await self.db.credentials.delete_many(
            {
                "$or": [
                    {"expires_at": {"$lte": now}},
                    {"kind": "session", "last_used_at": {"$lt": idle_sessions_before}},
                ]
            }
        )
        forgotten = await self.db.throttles.delete_many({"expires_at": {"$lte": now}})
        return expired.deleted_count + forgotten.deleted_count

    async def watch_changes(
        self, on_open: Callable[[], object] | None = None
    ) -> AsyncIterator[tuple[str, str]]:
        """Every deletion of a credential and every change of an account, by any instance or
        operator, in commit order: ("credential", its token hash) or ("account", its id)."""
        pipeline = [
            {
                "$match": {
                    "$or": [
                        {"ns.coll": "credentials", "operationType": "delete"},
                        {"ns.coll": "accounts", "operationType": {"$in": ["update", "replace"]}},
                    ]
                }
            }
        ]
        async with await self.db.watch(pipeline) as stream:
            if on_open is not None:
                on_open()
            async for change in stream:
                kind = "credential" if change["ns"]["coll"] == "credentials" else "account"
                yield kind, str(change["documentKey"]["_id"])
