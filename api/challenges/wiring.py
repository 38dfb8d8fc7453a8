"""The challenges beside a server: their store beside the games' (opened and closed with the
app, around its own start and stop), their commands kept in the app's state for the API."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette

from api.challenges.games import ChallengeGames
from api.challenges.service import Challenges
from api.challenges.store import challenge_store_for
from api.stores.accounts import AccountStore
from api.unit_of_work import Work


def challenges_beside(app: Starlette, store: object, work: Work, accounts: AccountStore) -> None:
    """`app.state.challenges`, its store opened after the app's start and closed before its
    stop (the games' store is open all the while)."""
    challenges = Challenges(challenge_store_for(store), accounts, ChallengeGames(work, accounts))
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(running: Starlette) -> AsyncIterator[None]:
        async with inner(running):
            await challenges.store.open()
            try:
                yield
            finally:
                await challenges.store.close()

    app.router.lifespan_context = lifespan
    app.state.challenges = challenges
