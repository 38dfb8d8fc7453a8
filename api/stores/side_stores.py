"""What a store beside the games' (accounts, tournaments) needs to reach its data: on SQLite,
a connection of its own to the games' file, on one thread of its own; on MongoDB, a client of
its own to the games' database, read and written with majority concerns. Each store says what
it is (in the error of a store used before it is open) and creates its tables or indexes."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from pymongo import AsyncMongoClient, WriteConcern
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.read_concern import ReadConcern
from pymongo.uri_parser import parse_uri

from api.stores.mongo import DEFAULT_DATABASE
from api.stores.sqlite import enter_wal_mode

T = TypeVar("T")
Document = dict[str, Any]


class SqliteSideStore:
    """A connection to the games' SQLite file and the one thread that uses it."""

    WHAT: ClassVar[str]  # "account", "tournament": what the store holds

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor: ThreadPoolExecutor | None = None
        self._connection: sqlite3.Connection | None = None

    def _create(self, connection: sqlite3.Connection) -> None:
        """Create the store's tables (if they are not there)."""
        raise NotImplementedError

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        if self._executor is None or self._connection is None:
            raise RuntimeError(f"the {self.WHAT} store is not open")
        connection = self._connection
        return await asyncio.get_running_loop().run_in_executor(self._executor, work, connection)

    async def open(self) -> None:
        def connect() -> sqlite3.Connection:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA busy_timeout=5000")
            enter_wal_mode(connection)
            connection.execute("PRAGMA synchronous=FULL")
            self._create(connection)
            return connection

        self._executor = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix=f"sqlite-{self.WHAT}s"
        )
        loop = asyncio.get_running_loop()
        self._connection = await loop.run_in_executor(self._executor, connect)

    async def close(self) -> None:
        if self._executor is None:
            return
        if self._connection is not None:
            await self._run(lambda c: c.close())
            self._connection = None
        self._executor.shutdown(wait=True)
        self._executor = None


class MongoSideStore:
    """A client of the games' MongoDB database, with majority write and read concerns."""

    WHAT: ClassVar[str]

    def __init__(self, uri: str, write_concern: str | int = "majority") -> None:
        self.uri = uri
        self.database_name = parse_uri(uri).get("database") or DEFAULT_DATABASE
        self.write_concern = WriteConcern(w=write_concern)
        self._client: AsyncMongoClient[Document] | None = None

    @property
    def db(self) -> AsyncDatabase[Document]:
        if self._client is None:
            raise RuntimeError(f"the {self.WHAT} store is not open")
        return self._client.get_database(
            self.database_name,
            write_concern=self.write_concern,
            read_concern=ReadConcern("majority"),
        )

    async def _create(self, db: AsyncDatabase[Document]) -> None:
        """Create the store's indexes (if they are not there)."""
        raise NotImplementedError

    async def open(self) -> None:
        self._client = AsyncMongoClient(self.uri, tz_aware=False, serverSelectionTimeoutMS=5000)
        await self._create(self.db)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None
