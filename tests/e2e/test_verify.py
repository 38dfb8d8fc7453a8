"""Fair dice, end to end on both stores: the Python client contributes to a game's randomness
by default and will not sit down at a game whose seed was chosen unless told; once the game
is over, `risiko verify` checks the whole chain against the live server, and says so, with
exit code 1, when a recorded event was changed behind the server's back."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import sys
from typing import Any

import pytest
from pymongo import MongoClient
from pymongo.collection import Collection
from risiko_client import ApiError, RisikoClient

from api.graphql.ids import from_global_id
from tests.e2e.support import ROOT, Server

pytestmark = pytest.mark.anyio


def verify(server: Server, game_id: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "api.cli", "verify", server.url, game_id, *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def tamper_with_the_deal(server: Server, store_env: dict[str, str], game_id: str) -> None:
    """Swap two territories of the recorded deal (a public event), in the store itself."""
    decoded = from_global_id(game_id, "Game")
    assert decoded is not None
    raw = decoded[1]

    def changed(event: dict[str, Any]) -> dict[str, Any]:
        owners = event["owners"]
        swap = next(i for i in range(1, len(owners)) if owners[i] != owners[0])
        owners[0], owners[swap] = owners[swap], owners[0]
        return event

    uri = store_env.get("RISIKO_STORE")
    if uri is None:
        database = server.data_dir / "risiko.sqlite3"
        with contextlib.closing(sqlite3.connect(database)) as connection, connection:
            rows = connection.execute(
                "SELECT seq, data FROM events WHERE game_id = ?", (raw,)
            ).fetchall()
            [(seq, found)] = [row for row in rows if '"TerritoriesDealt"' in row[1]]
            connection.execute(
                "UPDATE events SET data = ? WHERE game_id = ? AND seq = ?",
                (json.dumps(changed(json.loads(found))), raw, seq),
            )
        return
    client: MongoClient[dict[str, Any]]
    with MongoClient(uri) as client:
        events: Collection[dict[str, Any]] = client.get_default_database().events
        found = events.find_one({"game_id": raw, "data.type": "TerritoriesDealt"})
        assert found is not None
        events.update_one({"_id": found["_id"]}, {"$set": {"data": changed(found["data"])}})


async def test_a_finished_game_verifies_and_a_changed_event_does_not(
    server: Server, store_env: dict[str, str]
) -> None:
    async with RisikoClient(server.url) as lobby:
        game_id = await lobby.create_game("classic", {"roundLimit": 1})
        me = await lobby.join_game(game_id, "Anna")
        assert me.client_seed is not None  # a fresh random contribution, by default
        assert len(me.client_seed) == 32
        async with lobby.with_token(me.token) as anna:
            await anna.add_bot(game_id, "ODDS")
            await anna.add_bot(game_id, "RANDOM")
            at_start = await anna.start_game(game_id)  # given again, once the table is set
            assert at_start is not None
            assert at_start != me.client_seed
            await anna.leave_game(game_id)  # the bots play it to its end
        async with contextlib.aclosing(lobby.events(game_id)) as events:
            async for _ in events:
                pass
        record = await lobby.public_record(game_id)
        assert record.finished
        values = record.contributions()
        assert values is not None
        assert values[0] == at_start
        assert [c["byServer"] for c in record.randomness["contributions"]] == [False, True, True]
        assert record.chain_problems(mine=(me.seat, at_start)) == []
        assert record.chain_problems(mine=(me.seat, me.client_seed)) != []  # replaced at start

    done = verify(server, game_id)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "VERIFIED" in done.stdout
    assert "a spectator sees" in done.stdout

    tamper_with_the_deal(server, store_env, game_id)
    # As Anna's seat (its own private events too): a read the server has not kept.
    # `--token=VALUE`: a token may begin with "-", which argparse would read as an option.
    done = verify(server, game_id, f"--token={me.token}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "✗ entry 0: replayed events differ from the recorded ones" in done.stdout
    assert "NOT VERIFIED" in done.stdout


async def test_the_client_sits_down_at_a_chosen_seed_only_when_told(server: Server) -> None:
    async with RisikoClient(server.url) as creator, RisikoClient(server.url) as newcomer:
        game_id = await creator.create_game("classic", seed="I know every roll")
        with pytest.raises(ApiError) as refused:
            await newcomer.join_game(game_id, "Bruno")
        assert refused.value.code == "SEED_CHOSEN"
        assert (await newcomer.game(game_id)).players == []  # nothing was taken
        bruno = await newcomer.join_game(game_id, "Bruno", accept_chosen_seed=True)
        assert bruno.client_seed is None  # a chosen seed's game takes no contribution
        # Its creator knows, having chosen it: told nothing, its client sits down.
        anna = await creator.join_game(game_id, "Anna")
        assert anna.seat == 1


async def test_verify_says_why_it_cannot_verify(server: Server) -> None:
    async with RisikoClient(server.url) as lobby:
        game_id = await lobby.create_game("classic")
    done = verify(server, game_id)
    assert done.returncode == 1
    assert "not over" in done.stdout
    done = verify(server, "R2FtZTpub3RoaW5n")  # Game:nothing
    assert done.returncode == 2
    assert "NOT_FOUND" in done.stderr
