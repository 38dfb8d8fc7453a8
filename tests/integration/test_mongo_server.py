"""The MongoDB the tests run on can do what MongoStore and the change feed need: it is a
replica set, with multi-document transactions (commit, abort, isolation, write conflicts)
and change streams (in order, resumable); and MongoStore's indexes are there after `open`,
and opening again changes nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from pymongo import MongoClient
from pymongo.database import Database
from pymongo.errors import OperationFailure

from api.stores.base import GameRecord, LogEntry, StoredEvent
from api.stores.mongo import MongoStore

Json = dict[str, Any]


@pytest.fixture
def client(mongo_uri: str) -> Iterator[MongoClient[Json]]:
    connection: MongoClient[Json] = MongoClient(mongo_uri, serverSelectionTimeoutMS=5000)
    try:
        yield connection
    finally:
        connection.close()


@pytest.fixture
def db(client: MongoClient[Json]) -> Database[Json]:
    return client.get_default_database()


def test_the_server_is_a_replica_set(client: MongoClient[Json]) -> None:
    hello = client.admin.command("hello")
    assert hello.get("setName"), (
        f"the test MongoDB is not a replica set (no setName in hello: {hello}); transactions "
        "and change streams need one: start mongod with --replSet and rs.initiate()"
    )
    assert hello.get("isWritablePrimary") is True, hello
    assert int(hello.get("maxWireVersion", 0)) >= 7, "transactions need wire version 7 (4.0)"


def test_transactions_commit_abort_and_isolate(
    client: MongoClient[Json], db: Database[Json]
) -> None:
    db.docs.insert_one({"_id": "base", "v": 0})
    with client.start_session() as session:
        with session.start_transaction():
            db.docs.insert_one({"_id": "committed"}, session=session)
            db.docs.update_one({"_id": "base"}, {"$set": {"v": 1}}, session=session)
            # Not visible outside the transaction before the commit.
            assert db.docs.find_one({"_id": "committed"}) is None
            assert db.docs.find_one({"_id": "base"}) == {"_id": "base", "v": 0}
        assert db.docs.find_one({"_id": "committed"}) == {"_id": "committed"}
        assert db.docs.find_one({"_id": "base"}) == {"_id": "base", "v": 1}

        session.start_transaction()
        db.docs.insert_one({"_id": "aborted"}, session=session)
        db.docs.update_one({"_id": "base"}, {"$set": {"v": 2}}, session=session)
        session.abort_transaction()
    assert db.docs.find_one({"_id": "aborted"}) is None
    assert db.docs.find_one({"_id": "base"}) == {"_id": "base", "v": 1}


def test_concurrent_transactions_on_one_document_conflict(
    client: MongoClient[Json], db: Database[Json]
) -> None:
    """What makes racing appends safe: the second writer of a document in a transaction gets
    a write conflict labelled TransientTransactionError, and the first one's write stands."""
    db.docs.insert_one({"_id": "game", "version": 1})
    with client.start_session() as first, client.start_session() as second:
        first.start_transaction()
        second.start_transaction()
        db.docs.update_one({"_id": "game"}, {"$set": {"version": 2}}, session=first)
        with pytest.raises(OperationFailure) as conflict:
            db.docs.update_one({"_id": "game"}, {"$set": {"version": 3}}, session=second)
        assert conflict.value.has_error_label("TransientTransactionError"), conflict.value
        first.commit_transaction()
        if second.in_transaction:
            second.abort_transaction()
    assert db.docs.find_one({"_id": "game"}) == {"_id": "game", "version": 2}


def next_change(stream: Any, timeout: float = 10.0) -> Json:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        change = stream.try_next()
        if change is not None:
            assert isinstance(change, dict)
            return change
    raise AssertionError("no change arrived")


def test_change_streams_deliver_inserts_in_order_and_resume(
    client: MongoClient[Json], db: Database[Json]
) -> None:
    db.create_collection("events")
    pipeline = [{"$match": {"operationType": "insert"}}]
    with db.events.watch(pipeline, max_await_time_ms=100) as stream:
        db.events.insert_one({"seq": 1})
        with client.start_session() as session, session.start_transaction():
            db.events.insert_many([{"seq": 2}, {"seq": 3}], session=session)
        db.events.update_one({"seq": 1}, {"$set": {"x": 1}})  # filtered out
        db.events.insert_one({"seq": 4})
        changes = [next_change(stream) for _ in range(4)]
    assert [c["fullDocument"]["seq"] for c in changes] == [1, 2, 3, 4]
    assert all(c["operationType"] == "insert" for c in changes)
    # Resuming after the second change delivers the third and the fourth, then new ones.
    with db.events.watch(pipeline, resume_after=changes[1]["_id"], max_await_time_ms=100) as again:
        db.events.insert_one({"seq": 5})
        resumed = [next_change(again)["fullDocument"]["seq"] for _ in range(3)]
    assert resumed == [3, 4, 5]


def indexes(db: Database[Json], collection: str) -> dict[str, tuple[list[tuple[str, int]], bool]]:
    info = db[collection].index_information()
    return {
        name: ([(field, int(order)) for field, order in spec["key"]], bool(spec.get("unique")))
        for name, spec in info.items()
    }


def game(version: int) -> GameRecord:
    return GameRecord("g1", "classic", {}, b"seed", "c", "lobby", version, 1.0, 1.0)


@pytest.mark.anyio
async def test_the_store_creates_its_indexes_and_opening_again_is_harmless(
    mongo_uri: str, db: Database[Json]
) -> None:
    first = MongoStore(mongo_uri)
    await first.open()
    try:
        unique_game_seq = ([("game_id", 1), ("seq", 1)], True)
        for collection in ("log", "events"):
            assert indexes(db, collection)["game_seq"] == unique_game_seq, collection
        keys = [("game_id", 1), ("seat", 1), ("key", 1)]
        assert indexes(db, "idempotency")["game_seat_key"] == (keys, True)
        assert indexes(db, "games")["newest"] == ([("created_at", -1), ("_id", -1)], False)
        before = {name: indexes(db, name) for name in ("games", "log", "events", "idempotency")}
        await first.create(
            game(1), LogEntry(1, "create", None, {}, 1.0), [StoredEvent(1, 1, None, {})]
        )
    finally:
        await first.close()
    second = MongoStore(mongo_uri)
    await second.open()  # the same indexes again, on collections that hold data: no error
    try:
        after = {name: indexes(db, name) for name in ("games", "log", "events", "idempotency")}
        assert after == before
        assert await second.get("g1") == game(1)
        await second.append(
            game(2), LogEntry(2, "join", None, {}, 2.0), [StoredEvent(2, 2, None, {})]
        )
        assert await second.last_event_seq("g1") == 2
        # The unique index holds: a second entry 2 is refused by the database itself.
        duplicate = {"game_id": "g1", "seq": 2, "kind": "x", "seat": None, "payload": {}}
        with pytest.raises(OperationFailure):
            db.log.insert_one(duplicate)
    finally:
        await second.close()
