"""The pool beside the games' store: its seek store opened and its passes run for the
server's life (one line of api/app.py's create_app)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette

from api.accounts.service import Accounts
from api.pool.service import Pool
from api.pool.store import seek_store_for
from api.pool.tables import PoolTables
from api.ratings.service import Ratings
from api.unit_of_work import Work


def pool_beside(
    app: Starlette, store: object, work: Work, accounts: Accounts, ratings: Ratings
) -> Pool:
    """The pool, kept in `app.state.pool`, its store opened after the app's own start (the
    games', accounts' and ratings' stores open) and closed before its stop."""
    pool = Pool(seek_store_for(store), ratings.store, PoolTables(work, accounts.store), work.now)
    started = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with started(app):
            await pool.store.open()
            passes = asyncio.create_task(pool.run())
            try:
                yield
            finally:
                passes.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await passes
                await pool.store.close()

    app.router.lifespan_context = lifespan
    app.state.pool = pool
    return pool
