"""Where a game's dice and cards come from, and what proves it: the server's commitment,
the seats' contributions, and what is revealed once the game is over."""

from __future__ import annotations

import strawberry

from api.service import Session, engine_seed


@strawberry.type(description="A seat's contribution to the game's randomness (its client seed).")
class SeedContribution:
    seat: int = strawberry.field(description="The seat, from 0.")
    given: bool = strawberry.field(description="The seat gave one (a seat may give none).")
    value: str | None = strawberry.field(
        description="The client seed, shown from the start, when it is fixed (harmless "
        "before too, the secret being hidden, but nobody needs it then); null before, and "
        "for a seat that gave none."
    )
    by_server: bool = strawberry.field(
        description="The server gave it, from its own randomness, for a bot it plays (addBot): "
        "no more a guarantee than the server's secret itself."
    )
    at_start: bool = strawberry.field(
        description="Given by the seat that started the game, with startGame: the last one "
        "fixed, when every other was known (see docs/architecture.md, A game's randomness)."
    )


@strawberry.type(
    description="Where a game's dice and cards come from, and what proves it. The server "
    "commits to a secret when the game is created (commitment: its SHA-256), before any seat "
    "joins; each seat may add a contribution (joinGame's clientSeed); at the start the seed "
    "of every die is derived from the secret and the contributions in seat order "
    "(HMAC-SHA256, see derivedSeed), and its hash published (startCommitment). At the end "
    "the secret and the derived seed are revealed: anyone checks the chain, and every die "
    "with the action log (`risiko verify SERVER GAME`). A game whose seed was chosen takes "
    "no contributions: its creator knows every roll and card to come."
)
class Randomness:
    commitment: str = strawberry.field(
        description="SHA-256 (hex) of the server's secret (or of the chosen seed), published "
        "at creation."
    )
    seed_chosen: bool = strawberry.field(
        description="Whoever created the game chose its seed, and so knows every roll and "
        "card to come; such a game takes no contributions, to stay reproducible from its seed."
    )
    derived: bool = strawberry.field(
        description="The dice come from a seed derived from the secret and the seats' "
        "contributions (every game whose seed nobody chose); false: from the secret itself "
        "(a chosen seed, or a game started before contributions)."
    )
    contributions: list[SeedContribution] = strawberry.field(
        description="One per seat, in seat order, when the game takes contributions; empty "
        "otherwise."
    )
    start_commitment: str | None = strawberry.field(
        description="SHA-256 (hex) of the seed the dice come from, fixed and published at the "
        "start (GameStarted's commitment); null before the start."
    )
    secret: str | None = strawberry.field(
        description="The server's secret (or the chosen seed), hex, revealed once the game is "
        "over: its SHA-256 is the commitment. Null before: with it the derived seed, and so "
        "every die, card and objective to come, would be known."
    )
    derived_seed: str | None = strawberry.field(
        description="The seed every die and card came from, hex, revealed once the game is "
        "over: HMAC-SHA256 keyed by the secret over the bytes of 'risiko/seats/v1', then for "
        "each seat in order 0x00 (none given) or 0x01, the contribution's length in 4 bytes "
        "big-endian and its ASCII bytes; the secret itself when `derived` is false."
    )


def randomness_type(session: Session) -> Randomness:
    record = session.record
    started = record.status != "lobby"
    derived = not record.seed_chosen and (not started or record.contributions is not None)
    contributions = []
    if derived:
        fixed = record.contributions
        for seat in record.seats:
            value = fixed[seat.seat] if fixed is not None else seat.client_seed
            contributions.append(
                SeedContribution(
                    seat=seat.seat,
                    given=value is not None,
                    value=value if started else None,
                    by_server=seat.client_seed_source == "server",
                    at_start=seat.client_seed_source == "start",
                )
            )
    over = record.status == "finished"
    seed = engine_seed(record.seed, record.contributions)
    game = session.game
    return Randomness(
        commitment=record.commitment,
        seed_chosen=record.seed_chosen,
        derived=derived,
        contributions=contributions,
        start_commitment=None if game is None else game.commitment,
        secret=record.seed.hex() if over else None,
        derived_seed=seed.hex() if over else None,
    )
