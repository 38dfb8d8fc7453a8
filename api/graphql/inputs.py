"""Inputs, and the payloads of mutations with their user errors."""

from __future__ import annotations

import enum

import strawberry

from api.graphql.context import Info
from api.graphql.types import DefenderDice, Game, GameEvent, ObjectiveDeck, game_type
from domain import actions as a
from domain import errors as domain_errors


@strawberry.enum(description="Stable machine codes of user errors.")
class ErrorCode(enum.Enum):
    # Rule violations of the engine (domain/errors.py)
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    ELIMINATION_TOO_EARLY = "ELIMINATION_TOO_EARLY"
    GAME_OVER = "GAME_OVER"
    INVALID_ACTION = "INVALID_ACTION"
    INVALID_ARMY_COUNT = "INVALID_ARMY_COUNT"
    INVALID_CARD_SET = "INVALID_CARD_SET"
    INVALID_DICE = "INVALID_DICE"
    MINIMUM_GARRISON = "MINIMUM_GARRISON"
    NOT_ADJACENT = "NOT_ADJACENT"
    NOT_ENOUGH_ARMIES = "NOT_ENOUGH_ARMIES"
    NOT_YOUR_TERRITORY = "NOT_YOUR_TERRITORY"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    OPTION_DISABLED = "OPTION_DISABLED"
    OWN_TERRITORY = "OWN_TERRITORY"
    REINFORCEMENTS_PENDING = "REINFORCEMENTS_PENDING"
    RULE_VIOLATION = "RULE_VIOLATION"
    TIME_ALREADY_EXPIRED = "TIME_ALREADY_EXPIRED"
    UNKNOWN_TERRITORY = "UNKNOWN_TERRITORY"
    WRONG_PHASE = "WRONG_PHASE"
    # The lobby and the service
    COLOUR_TAKEN = "COLOUR_TAKEN"
    GAME_ALREADY_STARTED = "GAME_ALREADY_STARTED"
    GAME_FULL = "GAME_FULL"
    GAME_NOT_FOUND = "GAME_NOT_FOUND"
    GAME_NOT_STARTED = "GAME_NOT_STARTED"
    INVALID_COLOUR = "INVALID_COLOUR"
    INVALID_ID = "INVALID_ID"
    INVALID_NAME = "INVALID_NAME"
    INVALID_OPTIONS = "INVALID_OPTIONS"
    NOT_ENOUGH_PLAYERS = "NOT_ENOUGH_PLAYERS"
    STALE_VERSION = "STALE_VERSION"
    UNKNOWN_VARIANT = "UNKNOWN_VARIANT"


@strawberry.type(description="Why a mutation changed nothing.")
class UserError:
    code: ErrorCode = strawberry.field(description="A stable machine code.")
    message: str = strawberry.field(description="For people; never hides anything secret.")
    field: list[str] | None = strawberry.field(
        default=None, description="The input field at fault, as a path."
    )


def user_error(code: str, message: str, field: list[str] | None = None) -> UserError:
    return UserError(code=ErrorCode(code), message=message, field=field)


@strawberry.input(description="Options of a new game; every field has the variant's default.")
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
    raise domain_errors.InvalidAction("endTurn must be true to end the turn")


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
