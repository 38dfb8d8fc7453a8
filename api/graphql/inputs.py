"""Inputs, and the payloads of mutations with their user errors."""

from __future__ import annotations

import enum

import strawberry

from api.graphql.types import DefenderDice, Game, GameEvent, ObjectiveDeck
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
    code: ErrorCode
    message: str = strawberry.field(description="For people; never hides anything secret.")
    field: list[str] | None = strawberry.field(
        default=None, description="The input field at fault, as a path."
    )


def user_error(code: str, message: str, field: list[str] | None = None) -> UserError:
    return UserError(code=ErrorCode(code), message=message, field=field)


@strawberry.input(description="Options of a new game; every field has the variant's default.")
class GameOptionsInput:
    defender_dice: DefenderDice | None = None
    protected_rounds: int | None = None
    attacker_dice_at_least_defender: bool | None = None
    minimum_garrison: bool | None = None
    objectives: ObjectiveDeck | None = None
    time_limit_minutes: int | None = None
    round_limit: int | None = None
    tournament: bool | None = strawberry.field(
        default=None, description="Start from the tournament preset; other fields override it."
    )


@strawberry.input(description="A new game.")
class CreateGameInput:
    variant: str = "classic"
    options: GameOptionsInput | None = None
    seed: str | None = strawberry.field(
        default=None,
        description="A seed for a reproducible game (then known to whoever chose it); "
        "by default a secret random one.",
    )
    client_mutation_id: str | None = None


@strawberry.type
class CreateGamePayload:
    game: Game | None
    user_errors: list[UserError]
    client_mutation_id: str | None


@strawberry.input(description="Take a seat in a game that has not started.")
class JoinGameInput:
    game_id: strawberry.ID
    name: str
    colour: str | None = None
    client_mutation_id: str | None = None


@strawberry.type
class JoinGamePayload:
    game: Game | None
    seat: int | None
    token: str | None = strawberry.field(
        description="The seat's secret token, shown once: send it as 'Authorization: Bearer …' "
        "(or as 'token' in the WebSocket connection_init payload)."
    )
    user_errors: list[UserError]
    client_mutation_id: str | None


@strawberry.input(
    description="A game, by id, for startGame and leaveGame (the seat token says who)."
)
class GameInput:
    game_id: strawberry.ID
    client_mutation_id: str | None = None


@strawberry.type
class GamePayload:
    game: Game | None
    user_errors: list[UserError]
    client_mutation_id: str | None


@strawberry.input(description="Put armies on an own territory.")
class PlaceArmiesInput:
    territory: str
    armies: int


@strawberry.input(description="Trade three cards for armies.")
class TradeCardsInput:
    cards: list[str]


@strawberry.input(description="One roll: attack target from source with 1 to 3 dice.")
class AttackInput:
    source: str
    target: str
    dice: int


@strawberry.input(description="Attack until conquest or until source holds stopAt armies.")
class AttackUntilInput:
    source: str
    target: str
    dice: int = 3
    stop_at: int = 1


@strawberry.input(description="The defender's dice.")
class DefendInput:
    dice: int


@strawberry.input(description="Armies moved into the territory just conquered.")
class OccupyInput:
    armies: int


@strawberry.input(description="The strategic move; it ends the turn.")
class StrategicMoveInput:
    source: str
    target: str
    armies: int


@strawberry.input(one_of=True, description="Exactly one action.")
class ActionInput:
    place_armies: PlaceArmiesInput | None = strawberry.UNSET
    trade_cards: TradeCardsInput | None = strawberry.UNSET
    attack: AttackInput | None = strawberry.UNSET
    attack_until: AttackUntilInput | None = strawberry.UNSET
    defend: DefendInput | None = strawberry.UNSET
    occupy: OccupyInput | None = strawberry.UNSET
    strategic_move: StrategicMoveInput | None = strawberry.UNSET
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
    game_id: strawberry.ID
    action: ActionInput
    expected_version: int | None = strawberry.field(
        default=None,
        description="The version the action was decided on; STALE_VERSION if the game moved.",
    )
    client_mutation_id: str | None = strawberry.field(
        default=None,
        description="Sending the same id again returns the first answer and applies nothing.",
    )


@strawberry.type
class SubmitActionPayload:
    version: int | None = strawberry.field(description="The game's version after the action.")
    events: list[GameEvent] = strawberry.field(description="The events the caller may see.")
    game: Game | None
    user_errors: list[UserError]
    client_mutation_id: str | None
