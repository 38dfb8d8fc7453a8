"""Inputs, and the payloads of mutations with their user errors."""

from __future__ import annotations

import strawberry

from api.graphql.context import Info
from api.graphql.types import DefenderDice, Game, GameEvent, ObjectiveDeck, game_type
from domain import actions as a
from domain import errors as domain_errors

ErrorCode = domain_errors.ErrorCode
strawberry.enum(
    ErrorCode, description="Stable machine codes of user errors: the rules' and the lobby's."
)


@strawberry.type(description="Why a mutation changed nothing.")
class UserError:
    code: domain_errors.ErrorCode = strawberry.field(description="A stable machine code.")
    message: str = strawberry.field(description="For people; never hides anything secret.")
    field: list[str] | None = strawberry.field(
        default=None, description="The input field at fault, as a path."
    )


def user_error(error: domain_errors.CodedError, field: list[str] | None = None) -> UserError:
    return UserError(code=error.code, message=error.message, field=field)


@strawberry.input(
    description="Options of a new game; every field omitted (or null) takes the variant's "
    "default. An option the variant does not have, or a value its rules refuse (DECLARE, "
    "minimumGarrison false or TOURNAMENT objectives in S.P.Q.RisiKo!, victoryPoints in a "
    "classic game), is INVALID_OPTIONS. See Variant.options."
)
class GameOptionsInput:
    defender_dice: DefenderDice | None = strawberry.field(
        default=None, description="MAXIMUM (default) or DECLARE."
    )
    protected_rounds: int | None = strawberry.field(
        default=None, description="No elimination before the end of this round (default 4, 0: off)."
    )
    attacker_dice_at_least_defender: bool | None = strawberry.field(
        default=None, description="Tournament: no attack with fewer dice than the defender."
    )
    minimum_garrison: bool | None = strawberry.field(
        default=None, description="Tournament: voluntary moves keep 2 armies on border territories."
    )
    objectives: ObjectiveDeck | None = strawberry.field(
        default=None, description="STANDARD (default) or TOURNAMENT objectives."
    )
    time_limit_minutes: int | None = strawberry.field(
        default=None,
        description="A time limit in minutes; the round in which it expires is completed.",
    )
    round_limit: int | None = strawberry.field(
        default=None, description="End the game after this round; the ranking decides."
    )
    victory_points: int | None = strawberry.field(
        default=None,
        description="S.P.Q.RisiKo! only: the victory points that win (at least 1; default 20).",
    )
    tournament: bool | None = strawberry.field(
        default=None, description="Start from the tournament preset; other fields override it."
    )


@strawberry.input(description="A new game.")
class CreateGameInput:
    variant: str = strawberry.field(
        default="classic", description="The variant's name (see `variants`)."
    )
    options: GameOptionsInput | None = strawberry.field(
        default=None, description="Options; omitted ones take their defaults."
    )
    seed: str | None = strawberry.field(
        default=None,
        description="A seed for a reproducible game (then known to whoever chose it); "
        "by default a secret random one.",
    )
    client_mutation_id: str | None = strawberry.field(
        default=None, description="Echoed back in the payload."
    )


@strawberry.type(description="The result of createGame.")
class CreateGamePayload:
    game: Game | None = strawberry.field(description="The new game, in the lobby.")
    user_errors: list[UserError] = strawberry.field(description="Why nothing was created, if so.")
    client_mutation_id: str | None = strawberry.field(description="As given in the input.")


@strawberry.input(description="Take a seat in a game that has not started.")
class JoinGameInput:
    game_id: strawberry.ID = strawberry.field(description="The game's id.")
    name: str = strawberry.field(description="The player's name, 1 to 40 characters.")
    colour: str | None = strawberry.field(
        default=None, description="A free colour id; by default the first free one."
    )
    client_mutation_id: str | None = strawberry.field(
        default=None, description="Echoed back in the payload."
    )


@strawberry.type(description="The result of joinGame.")
class JoinGamePayload:
    game: Game | None = strawberry.field(description="The game, as the new seat sees it.")
    seat: int | None = strawberry.field(description="The new seat's number.")
    token: str | None = strawberry.field(
        description="The seat's secret token, shown once: send it as 'Authorization: Bearer …' "
        "(or as 'token' in the WebSocket connection_init payload)."
    )
    user_errors: list[UserError] = strawberry.field(description="Why no seat was taken, if so.")
    client_mutation_id: str | None = strawberry.field(description="As given in the input.")


@strawberry.input(
    description="A game, by id, for startGame and leaveGame (the seat token says who)."
)
class GameInput:
    game_id: strawberry.ID = strawberry.field(description="The game's id.")
    client_mutation_id: str | None = strawberry.field(
        default=None, description="Echoed back in the payload."
    )


@strawberry.type(description="The result of startGame or leaveGame.")
class GamePayload:
    game: Game | None = strawberry.field(description="The game after the change.")
    user_errors: list[UserError] = strawberry.field(description="Why nothing changed, if so.")
    client_mutation_id: str | None = strawberry.field(description="As given in the input.")


@strawberry.input(description="Put armies on an own territory.")
class PlaceArmiesInput:
    territory: str = strawberry.field(description="An own territory's id.")
    armies: int = strawberry.field(description="How many armies.")


@strawberry.input(description="Trade three cards for armies.")
class TradeCardsInput:
    cards: list[str] = strawberry.field(description="Three card ids from the hand.")


@strawberry.input(description="One roll: attack target from source with 1 to 3 dice.")
class AttackInput:
    source: str = strawberry.field(description="The attacking territory (own, at least 2 armies).")
    target: str = strawberry.field(description="The attacked territory (adjacent, enemy).")
    dice: int = strawberry.field(description="1 to 3, at most the source's armies - 1.")


@strawberry.input(description="Attack until conquest or until source holds stopAt armies.")
class AttackUntilInput:
    source: str = strawberry.field(description="The attacking territory.")
    target: str = strawberry.field(description="The attacked territory.")
    dice: int = strawberry.field(
        default=3, description="Most dice per roll (each roll uses what the armies allow)."
    )
    stop_at: int = strawberry.field(
        default=1, description="Stop when the source holds this many armies or fewer."
    )


@strawberry.input(description="The defender's dice.")
class DefendInput:
    dice: int = strawberry.field(description="1 to min(3, armies).")


@strawberry.input(description="Armies moved into the territory just conquered.")
class OccupyInput:
    armies: int = strawberry.field(
        description="At least the dice of the last roll, at most all but one."
    )


@strawberry.input(description="The strategic move; it ends the turn.")
class StrategicMoveInput:
    source: str = strawberry.field(description="Where the armies leave (at least one stays).")
    target: str = strawberry.field(description="An adjacent own territory.")
    armies: int = strawberry.field(description="How many armies.")


@strawberry.input(description="S.P.Q.RisiKo! occupation: claim a free province (2 legionaries).")
class ClaimProvinceInput:
    province: str = strawberry.field(description="A free province's id.")


@strawberry.input(
    description="S.P.Q.RisiKo! occupation: a group of 3 neutral legionaries on a free province."
)
class PlaceNeutralInput:
    province: str = strawberry.field(description="A free province's id.")
    colour: str = strawberry.field(description="A neutral colour id (see Game.neutralColours).")


@strawberry.input(description="S.P.Q.RisiKo!: build a power centre won with an arena card.")
class PlacePowerCentreInput:
    province: str = strawberry.field(
        description="An own province with no power centre in it or next to it by land."
    )


@strawberry.input(description="S.P.Q.RisiKo!: put a trireme won with a trireme card.")
class PlaceTriremeInput:
    sea: str = strawberry.field(description="A sea area next to an own province.")


@strawberry.input(
    description="S.P.Q.RisiKo! naval reinforcement: 3 legionaries of a coastal province "
    "become a trireme, each, on a sea area of its coast."
)
class BuildTriremeInput:
    province: str = strawberry.field(description="The own coastal province (one legionary stays).")
    sea: str = strawberry.field(description="A sea area on its coast.")
    triremes: int = strawberry.field(default=1, description="How many triremes to build.")


@strawberry.input(
    description="S.P.Q.RisiKo! (land reinforcements, once a turn): a trireme becomes 2 "
    "legionaries in an own province on its sea area."
)
class DisbandTriremeInput:
    sea: str = strawberry.field(description="The sea area of the trireme.")
    province: str = strawberry.field(description="An own province on that sea area.")


@strawberry.input(
    description="S.P.Q.RisiKo!'s naval move, once a turn before any combat: triremes to an "
    "adjacent sea area."
)
class MoveFleetInput:
    source: str = strawberry.field(description="The sea area they leave.")
    target: str = strawberry.field(description="An adjacent sea area.")
    triremes: int = strawberry.field(description="How many own triremes move.")


@strawberry.input(
    description="S.P.Q.RisiKo!: one roll of a naval combat; send it again to go on, which is "
    "allowed while every roll removes a trireme."
)
class NavalBattleInput:
    sea: str = strawberry.field(description="The sea area.")
    opponent: int = strawberry.field(description="The seat whose triremes are attacked.")
    dice: int = strawberry.field(default=3, description="1 to 3, at most the own triremes there.")


@strawberry.input(
    description="S.P.Q.RisiKo!: attack a province across a sea area where the attacker has "
    "more triremes than the defender, with a force declared in advance and fought to the end."
)
class SeaAttackInput:
    source: str = strawberry.field(description="The own province the force leaves.")
    target: str = strawberry.field(description="The province attacked, on the same sea area.")
    sea: str = strawberry.field(description="The sea area crossed.")
    legionaries: int = strawberry.field(description="The force; it moves in if it conquers.")


@strawberry.input(one_of=True, description="Exactly one action.")
class ActionInput:
    place_armies: PlaceArmiesInput | None = strawberry.field(
        default=strawberry.UNSET, description="Place armies (setup and reinforcements)."
    )
    trade_cards: TradeCardsInput | None = strawberry.field(
        default=strawberry.UNSET, description="Trade a set of cards (reinforcement phase)."
    )
    attack: AttackInput | None = strawberry.field(
        default=strawberry.UNSET, description="One roll of an attack."
    )
    attack_until: AttackUntilInput | None = strawberry.field(
        default=strawberry.UNSET, description="Attack until conquest or a threshold."
    )
    defend: DefendInput | None = strawberry.field(
        default=strawberry.UNSET,
        description="The defender's dice, when the game lets defenders declare.",
    )
    occupy: OccupyInput | None = strawberry.field(
        default=strawberry.UNSET, description="Move armies into a conquered territory."
    )
    strategic_move: StrategicMoveInput | None = strawberry.field(
        default=strawberry.UNSET, description="The strategic move; it ends the turn."
    )
    end_turn: bool | None = strawberry.field(
        default=strawberry.UNSET, description="true: end the turn."
    )
    claim_province: ClaimProvinceInput | None = strawberry.field(
        default=strawberry.UNSET, description="S.P.Q.RisiKo! occupation: claim a province."
    )
    place_neutral: PlaceNeutralInput | None = strawberry.field(
        default=strawberry.UNSET, description="S.P.Q.RisiKo! occupation: place a neutral group."
    )
    place_power_centre: PlacePowerCentreInput | None = strawberry.field(
        default=strawberry.UNSET, description="S.P.Q.RisiKo!: build a power centre won."
    )
    place_trireme: PlaceTriremeInput | None = strawberry.field(
        default=strawberry.UNSET, description="S.P.Q.RisiKo!: place a trireme won."
    )
    build_trireme: BuildTriremeInput | None = strawberry.field(
        default=strawberry.UNSET, description="S.P.Q.RisiKo!: legionaries become triremes."
    )
    disband_trireme: DisbandTriremeInput | None = strawberry.field(
        default=strawberry.UNSET, description="S.P.Q.RisiKo!: a trireme becomes legionaries."
    )
    move_fleet: MoveFleetInput | None = strawberry.field(
        default=strawberry.UNSET, description="S.P.Q.RisiKo!: the naval move."
    )
    naval_battle: NavalBattleInput | None = strawberry.field(
        default=strawberry.UNSET, description="S.P.Q.RisiKo!: one roll of a naval combat."
    )
    sea_attack: SeaAttackInput | None = strawberry.field(
        default=strawberry.UNSET, description="S.P.Q.RisiKo!: an attack across a sea area."
    )


def to_action(action: ActionInput) -> a.Action:
    """The domain action an ActionInput names (raises InvalidAction for a bad value)."""
    if action.place_armies:
        return a.PlaceArmies(action.place_armies.territory, action.place_armies.armies)
    if action.trade_cards:
        return a.TradeCards(tuple(action.trade_cards.cards))
    if action.attack:
        x = action.attack
        return a.Attack(x.source, x.target, x.dice)
    if action.attack_until:
        y = action.attack_until
        return a.AttackUntil(y.source, y.target, y.dice, y.stop_at)
    if action.defend:
        return a.Defend(action.defend.dice)
    if action.occupy:
        return a.Occupy(action.occupy.armies)
    if action.strategic_move:
        z = action.strategic_move
        return a.StrategicMove(z.source, z.target, z.armies)
    if action.end_turn:
        return a.EndTurn()
    if action.end_turn is False:
        raise domain_errors.InvalidAction("endTurn must be true to end the turn")
    return _spqr_action(action)


def _spqr_action(action: ActionInput) -> a.Action:
    if action.claim_province:
        return a.ClaimProvince(action.claim_province.province)
    if action.place_neutral:
        return a.PlaceNeutral(action.place_neutral.province, action.place_neutral.colour)
    if action.place_power_centre:
        return a.PlacePowerCentre(action.place_power_centre.province)
    if action.place_trireme:
        return a.PlaceTrireme(action.place_trireme.sea)
    if action.build_trireme:
        b = action.build_trireme
        return a.BuildTrireme(b.province, b.sea, b.triremes)
    if action.disband_trireme:
        return a.DisbandTrireme(action.disband_trireme.sea, action.disband_trireme.province)
    if action.move_fleet:
        f = action.move_fleet
        return a.MoveFleet(f.source, f.target, f.triremes)
    if action.naval_battle:
        n = action.naval_battle
        return a.NavalBattle(n.sea, n.opponent, n.dice)
    if action.sea_attack:
        s = action.sea_attack
        return a.SeaAttack(s.source, s.target, s.sea, s.legionaries)
    raise domain_errors.InvalidAction("name exactly one action")


@strawberry.input(description="One action of the game, for the seat of the token.")
class SubmitActionInput:
    game_id: strawberry.ID = strawberry.field(description="The game's id.")
    action: ActionInput = strawberry.field(description="The action.")
    expected_version: int | None = strawberry.field(
        default=None,
        description="The version the action was decided on; STALE_VERSION if the game moved.",
    )
    client_mutation_id: str | None = strawberry.field(
        default=None,
        description="Sending the same id again returns the first answer and applies nothing.",
    )


@strawberry.type(description="The result of submitAction.")
class SubmitActionPayload:
    version: int | None = strawberry.field(description="The game's version after the action.")
    events: list[GameEvent] = strawberry.field(description="The events the caller may see.")
    user_errors: list[UserError] = strawberry.field(
        description="Why the action was refused (nothing changed), if so."
    )
    client_mutation_id: str | None = strawberry.field(description="As given in the input.")
    game_id: strawberry.Private[str | None] = None

    @strawberry.field(description="The game after the action, as the caller sees it.")
    async def game(self, info: Info) -> Game | None:
        # Loaded only when asked for: a bot that needs just the version pays nothing for it.
        if self.game_id is None:
            return None
        session = await info.context.service.session(self.game_id)
        return game_type(session, await info.context.viewer_seat(self.game_id))
