"""The tournament store's interface: one record per tournament, written whole under a version
(compare-and-set), beside the games' and the accounts' tables.

Seated once: a round is seated by writing the tournament with the round's tables over the
version it was read at. Two instances starting one round at once both compute the same tables
(from the committed seed), one write wins, the other finds the version moved, rereads and sees
the round seated; the games of a seated round have ids derived from the tournament, the round
and the table, so an instance that dies after the write and before the games exist leaves
nothing that a retry would create twice (api/tournaments/service.py).
"""

from __future__ import annotations

from typing import Protocol

from api.tournaments.records import TournamentRecord


class TournamentExists(Exception):
    """A tournament with this id is already stored."""


class TournamentStore(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_tournament(self, record: TournamentRecord) -> None:
        """TournamentExists if its id is taken."""
        ...

    async def tournament(self, tournament_id: str) -> TournamentRecord | None: ...

    async def tournaments(self, after_id: str | None, limit: int) -> list[TournamentRecord]:
        """In the order of their ids (creation order: ids start with the time), after
        `after_id`."""
        ...

    async def tournament_of_game(self, game_id: str) -> str | None:
        """The id of the tournament one of whose tables plays `game_id`; None if none."""
        ...

    async def replace_tournament(self, record: TournamentRecord) -> bool:
        """Write `record` if the stored one's version is `record.version - 1`; False, and
        nothing written, if another write came first."""
        ...


def tournament_store_for(store: object) -> TournamentStore:
    """The tournament store beside a game store: a table in the same SQLite file, or a
    collection in the same MongoDB database, with the same write concern."""
    from api.stores.mongo import MongoStore
    from api.stores.mongo_tournaments import MongoTournamentStore
    from api.stores.sqlite import SqliteStore
    from api.stores.sqlite_tournaments import SqliteTournamentStore

    if isinstance(store, MongoStore):
        return MongoTournamentStore(store.uri, store.write_concern.document.get("w", "majority"))
    if isinstance(store, SqliteStore):
        return SqliteTournamentStore(store.path)
    raise TypeError(f"no tournament store goes with {type(store).__name__}")
