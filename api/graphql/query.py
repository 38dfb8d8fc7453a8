"""Query: the games, the variants, the odds and the token's seat, read through the
application service."""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated

import strawberry
from graphql import GraphQLError

from api.anonymous import shown_name
from api.graphql.account_games import game_connection, games_page
from api.graphql.arguments import bounded
from api.graphql.catalogue import Variant, variant_type
from api.graphql.context import Info, auth_error, not_found
from api.graphql.enums import GameStatus, TieRule
from api.graphql.game import Game, GameConnection, Viewer, game_type
from api.graphql.ids import Node, from_global_id
from api.graphql.odds import BattleOdds, VolleyOdds, odds_type, volley_odds_type
from api.graphql.pages import AFTER, BEFORE, FIRST, LAST
from api.listings import GameListing
from api.service import AuthError, ServiceError
from api.text_inputs import DATA_NAME, GLOBAL_ID, shown
from domain.odds import BattleOdds as DomainOdds
from domain.odds import TieRule as DomainTieRule
from domain.odds import VolleyOdds as DomainVolleyOdds
from domain.odds import battle_odds, volley_odds
from variants import VARIANTS

MAX_ODDS_ARMIES = 1000
MAX_VOLLEY_UNITS = 80  # a colour has 70 tanks and aircraft; 80 a side takes about 0.25 s
MAX_EXACT_VOLLEY_UNITS = 15  # fractions grow fast: 15 a side takes about 0.1 s, 20 0.25 s
ODDS_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="odds")


@functools.lru_cache(maxsize=1024)
def cached_odds(
    attackers: int,
    defenders: int,
    attacker_dice: int,
    defender_dice: int,
    tie_rule: str,
    attacker_bonus: int,
    defender_bonus: int,
    stop_at: int,
    stop_on_no_loss: bool,
) -> DomainOdds:
    return battle_odds(
        attackers,
        defenders,
        max_attacker_dice=attacker_dice,
        max_defender_dice=defender_dice,
        tie_rule=DomainTieRule(tie_rule),
        attacker_bonus=attacker_bonus,
        defender_bonus=defender_bonus,
        stop_at=stop_at,
        stop_on_no_loss=stop_on_no_loss,
    )


@functools.lru_cache(maxsize=256)
def cached_volley_odds(
    attackers: int, defenders: int, flag: bool, attacker_first: bool, exact: bool
) -> DomainVolleyOdds:
    return volley_odds(attackers, defenders, flag=flag, attacker_first=attacker_first, exact=exact)


async def _game(info: Info, game_id: str) -> Game:
    session = await info.context.session(game_id)
    return game_type(session, await info.context.viewer_seat(game_id))


@strawberry.type
class Query:
    @strawberry.field(description="The games this server plays, with their boards and options.")
    def variants(self) -> list[Variant]:
        return [variant_type(variant) for variant in VARIANTS.values()]

    @strawberry.field(description="One game by its global id; null if there is none.")
    async def game(
        self,
        info: Info,
        id: Annotated[
            strawberry.ID,
            strawberry.argument(description=f"A game's global id ({GLOBAL_ID.rule})."),
        ],
    ) -> Game | None:
        decoded = from_global_id(id, "Game")
        if decoded is None:
            raise not_found(f"{shown(id)} is not a game id")
        try:
            return await _game(info, decoded[1])
        except ServiceError:
            raise not_found(f"there is no game {shown(id)}") from None

    @strawberry.field(
        description="Games, newest first, as a Relay connection: pages forward (first, "
        "after) and backward (last, before), at most 100 games a page."
    )
    async def games(
        self,
        info: Info,
        status: Annotated[
            GameStatus | None, strawberry.argument(description="Only games in this status.")
        ] = None,
        variant: Annotated[
            str | None,
            strawberry.argument(description=f"Only games of this variant ({DATA_NAME.rule})."),
        ] = None,
        first: FIRST = None,
        after: AFTER = None,
        last: LAST = None,
        before: BEFORE = None,
    ) -> GameConnection:
        bounded(DATA_NAME, variant)
        store = info.context.service.store
        listing = GameListing(store, status.value if status else None, variant)
        found = await games_page(info, listing, (first, last), (after, before))
        return game_connection(found, listing.count)

    @strawberry.field(description="Any object by its global id.")
    async def node(
        self,
        info: Info,
        id: Annotated[
            strawberry.ID, strawberry.argument(description=f"A global id ({GLOBAL_ID.rule}).")
        ],
    ) -> Node | None:
        decoded = from_global_id(id)
        if decoded is None or decoded[0] != "Game":
            return None
        try:
            return await _game(info, decoded[1])
        except ServiceError:
            return None

    @strawberry.field(description="Exact odds of attacking until conquest or exhaustion.")
    async def battle_odds(
        self,
        attackers: Annotated[int, strawberry.argument(description="Attacking armies, ≤ 1000.")],
        defenders: Annotated[int, strawberry.argument(description="Defending armies, ≤ 1000.")],
        attacker_dice: Annotated[
            int, strawberry.argument(description="Most dice the attacker rolls, 1 to 3.")
        ] = 3,
        defender_dice: Annotated[
            int, strawberry.argument(description="Most dice the defender rolls, 1 to 3.")
        ] = 3,
        tie_rule: Annotated[
            TieRule, strawberry.argument(description="DEFENDER_WINS, or NO_LOSS (naval).")
        ] = TieRule.DEFENDER_WINS,
        attacker_bonus: Annotated[
            int, strawberry.argument(description="+1 on the attacker's highest die (0 or 1).")
        ] = 0,
        defender_bonus: Annotated[
            int, strawberry.argument(description="+1 on the defender's highest die (0 or 1).")
        ] = 0,
        stop_at: Annotated[
            int, strawberry.argument(description="Stop when this many attackers are left.")
        ] = 0,
        naval: Annotated[
            bool,
            strawberry.argument(
                description="S.P.Q.RisiKo! naval combat: ties remove nothing and the battle "
                "stops at the first roll that removes no trireme; attackers are all the triremes."
            ),
        ] = False,
    ) -> BattleOdds:
        if not (0 <= attackers <= MAX_ODDS_ARMIES and 0 <= defenders <= MAX_ODDS_ARMIES):
            raise GraphQLError(
                f"armies must be 0 to {MAX_ODDS_ARMIES}", extensions={"code": "BAD_USER_INPUT"}
            )
        try:
            # Large battles take a while (1,000 a side: about 0.3 s): off the event loop, one
            # at a time (threads share one interpreter lock: many at once would starve the
            # loop, and every other player with it), and remembered, since bots ask the same
            # questions again and again. Naval combat always has ties remove nothing,
            # whatever tieRule says.
            odds = await asyncio.get_running_loop().run_in_executor(
                ODDS_WORKER,
                cached_odds,
                attackers,
                defenders,
                attacker_dice,
                defender_dice,
                DomainTieRule.NO_LOSS.value if naval else tie_rule.value,
                attacker_bonus,
                defender_bonus,
                stop_at,
                naval,
            )
        except ValueError as error:
            raise GraphQLError(str(error), extensions={"code": "BAD_USER_INPUT"}) from None
        return odds_type(odds)

    @strawberry.field(
        description="Exact odds of a FutuRisiKo! battle: the sides fire volleys in turn, a die "
        "per unit hitting on 2 faces of 6, the defender's flag adding 2 dice while it stands and "
        "falling to one hit once no defending unit is left."
    )
    async def volley_odds(
        self,
        attackers: Annotated[
            int, strawberry.argument(description=f"Attacking units, 1 to {MAX_VOLLEY_UNITS}.")
        ],
        defenders: Annotated[
            int, strawberry.argument(description=f"Defending units, 0 to {MAX_VOLLEY_UNITS}.")
        ],
        flag: Annotated[
            bool, strawberry.argument(description="A defending flag stands there.")
        ] = True,
        attacker_first: Annotated[
            bool,
            strawberry.argument(
                description="The attacker fires first (it has more aircraft there); false: "
                "the defender does (more aircraft, or a tie)."
            ),
        ] = False,
        exact: Annotated[
            bool,
            strawberry.argument(
                description=f"Also the exact fraction (up to {MAX_EXACT_VOLLEY_UNITS} a side)."
            ),
        ] = False,
    ) -> VolleyOdds:
        limit = MAX_EXACT_VOLLEY_UNITS if exact else MAX_VOLLEY_UNITS
        if not (1 <= attackers <= limit and 0 <= defenders <= limit):
            raise GraphQLError(
                f"attackers must be 1 to {limit} and defenders 0 to {limit}"
                + (" for an exact fraction" if exact else ""),
                extensions={"code": "BAD_USER_INPUT"},
            )
        try:
            odds = await asyncio.get_running_loop().run_in_executor(
                ODDS_WORKER, cached_volley_odds, attackers, defenders, flag, attacker_first, exact
            )
        except ValueError as error:
            raise GraphQLError(str(error), extensions={"code": "BAD_USER_INPUT"}) from None
        fraction = str(odds.conquest_probability) if exact else None
        return volley_odds_type(odds, fraction)

    @strawberry.field(
        description="The seat the request's seat token belongs to; null without one, and with "
        "an account's token (an account may sit in many games: see me.games)."
    )
    async def viewer(self, info: Info) -> Viewer | None:
        token = info.context.token
        if not token or info.context.account_token:
            return None
        try:
            game_id, seat = await info.context.service.seat_for(token)
        except AuthError as error:
            raise auth_error(error) from None
        session = await info.context.service.session(game_id)
        record = session.record.seats[seat]
        return Viewer(
            seat=seat, name=shown_name(record), colour=record.colour, game=game_type(session, seat)
        )
