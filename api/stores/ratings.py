"""The rating store's interface, beside the games' (a table in the same SQLite file, or
collections in the same MongoDB database).

Rated once: a finished rated game is claimed by one write keyed by its id (`claim`: the first
claim's table and ratings before it stand, whoever wrote it); each account's new rating is a
history entry numbered one after its latest (`add_entry`), unique both by that number (a
compare-and-set on the account's rating: a writer that read an older rating loses and
retries) and by the game (an account is rated once per game). The current ratings, which
leaderboards sort, are a projection of each account's latest entry (`project`: a row only
ever moves forward), so a retry that finds its entry written only projects it again.
"""

from __future__ import annotations

from typing import Protocol

from api.ratings.records import HistoryEntry, RatedGame, RatingRow, Standing


class RatingStore(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def note(self, game_id: str, at: float) -> None:
        """A rated game is finishing (its commit follows): to be rated, also if this instance
        dies before it is (`undone`). A game noted already stays as it is."""
        ...

    async def claim(self, game: RatedGame) -> RatedGame:
        """The game's table and ratings before it, written if nobody claimed the game yet;
        the claim that stands (this one, or the first's)."""
        ...

    async def rated_game(self, game_id: str) -> RatedGame | None:
        """The game's claim, if it has one."""
        ...

    async def mark_done(self, game_id: str) -> None:
        """Every account of the game is rated."""
        ...

    async def undone(self, limit: int) -> list[str]:
        """Ids of games noted or claimed and not yet done, oldest first."""
        ...

    async def standing(self, account: str, variant: str, speed: str) -> Standing:
        """The account's rating now (its latest entry's; a newcomer's if none)."""
        ...

    async def entry_of(
        self, account: str, variant: str, speed: str, game_id: str
    ) -> HistoryEntry | None:
        """The account's entry for the game, if it is rated in it."""
        ...

    async def add_entry(self, entry: HistoryEntry) -> bool:
        """Write `entry`; False, nothing written, if the account has an entry of that number
        or of that game already (in that variant and speed)."""
        ...

    async def project(self, entry: HistoryEntry) -> None:
        """The account's current rating is `entry`'s, unless a later entry's is there."""
        ...

    async def ratings(self, account: str) -> list[RatingRow]:
        """The account's current ratings, by variant and speed."""
        ...

    async def history(
        self, account: str, variant: str, speed: str, below: int | None, limit: int
    ) -> list[HistoryEntry]:
        """The account's entries numbered below `below` (None: all), newest first."""
        ...

    async def leaderboard(
        self, variant: str, speed: str, bot: bool, provisional: bool, offset: int, limit: int
    ) -> list[RatingRow]:
        """Bots' or people's current ratings, best first (the conservative ordinal, then the
        account id); `provisional`: those still provisional too."""
        ...


def rating_store_for(store: object) -> RatingStore:
    """The rating store beside a game store, with the same file or database and concerns."""
    from api.stores.mongo import MongoStore
    from api.stores.mongo_ratings import MongoRatingStore
    from api.stores.sqlite import SqliteStore
    from api.stores.sqlite_ratings import SqliteRatingStore

    if isinstance(store, MongoStore):
        return MongoRatingStore(store.uri, store.write_concern.document.get("w", "majority"))
    if isinstance(store, SqliteStore):
        return SqliteRatingStore(store.path)
    raise TypeError(f"no rating store goes with {type(store).__name__}")
