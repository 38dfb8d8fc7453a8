"""News of the lobby."""

from __future__ import annotations

import strawberry


@strawberry.type(description="News of the lobby.")
class LobbyEvent:
    type: str = strawberry.field(description="GameCreated, GameStarted or GameFinished.")
    game_id: strawberry.ID = strawberry.field(description="The game's global id.")
    variant: str | None = strawberry.field(
        default=None, description="The game's variant (GameCreated)."
    )
    winner: int | None = strawberry.field(
        default=None, description="The winning seat (GameFinished), if any."
    )
    seed_chosen: bool | None = strawberry.field(
        default=None,
        description="GameCreated: its creator chose its seed, and so knows every roll and card "
        "to come (see Game.seedChosen); null for the other news.",
    )
