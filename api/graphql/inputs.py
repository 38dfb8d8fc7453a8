"""Inputs, and the payloads of mutations with their user errors."""

from __future__ import annotations

import strawberry

from api.graphql.clock import TimeControlInput
from api.graphql.codes import ErrorCode, code_member
from api.graphql.context import Info
from api.graphql.events import GameEvent
from api.graphql.game import Game, game_type
from api.graphql.generated import ActionInput
from api.graphql.options import GameOptionsInput, VariantOptionsInput
from api.graphql.seat_types import AdmissionInput
from api.service import Session
from api.text_inputs import CLIENT_MUTATION_ID, DATA_NAME, GLOBAL_ID, NAME, SEED
from bots.seated import BotPolicy as DomainBotPolicy
from domain import errors as domain_errors

NAME_RULE = (
    f"{NAME.rule} once trimmed and normalised (NFC), none of them control, format or "
    "unassigned characters (INVALID_NAME)"
)
ECHOED_KEY = f"Echoed back in the payload ({CLIENT_MUTATION_ID.rule}; BAD_USER_INPUT otherwise)."
GAME_ID = f"The game's id ({GLOBAL_ID.rule})."


CLIENT_SEED = (
    "The seat's contribution to the game's randomness (a client seed: 1 to 64 printable "
    "ASCII characters, else BAD_USER_INPUT; send a fresh random one): the seed of every die "
    "is derived from the server's secret, committed to at creation, and every seat's "
    "contribution, so that neither the server nor any seat alone can choose it. Public from "
    "the start (Game.randomness)."
)


@strawberry.type(description="Why a mutation changed nothing.")
class UserError:
    code: ErrorCode = strawberry.field(description="A stable machine code.")
    message: str = strawberry.field(description="For people; never hides anything secret.")
    field: list[str] | None = strawberry.field(
        default=None, description="The input field at fault, as a path."
    )


def user_error(error: domain_errors.CodedError, field: list[str] | None = None) -> UserError:
    return UserError(code=code_member(error.code), message=error.message, field=field)


@strawberry.input(description="A new game.")
class CreateGameInput:
    variant: str = strawberry.field(
        default="classic", description=f"The variant's name (see `variants`; {DATA_NAME.rule})."
    )
    options: GameOptionsInput | None = strawberry.field(
        default=None, description="Options; omitted ones take their defaults."
    )
    variant_options: VariantOptionsInput | None = strawberry.field(
        default=None,
        description="Options in the variant's own input type (its member of "
        "VariantOptionsInput), instead of options; omitted ones take their defaults.",
    )
    seed: str | None = strawberry.field(
        default=None,
        description="A seed for a reproducible game (" + SEED.rule + "): whoever chose it "
        "knows every roll and card to come, so the game says so to everyone (seedChosen) and "
        "takes no contributions. By default the server's secret, mixed with the seats' "
        "contributions at the start.",
    )
    time_control: TimeControlInput | None = strawberry.field(
        default=None, description="The game's clock; omitted, the game has none."
    )
    admission: AdmissionInput | None = strawberry.field(
        default=None, description="Who may take a seat; omitted, anyone (guests too)."
    )
    rated: bool = strawberry.field(
        default=False,
        description="A rated game: accounts only (guests and bots the server plays are refused: "
        "ACCOUNT_REQUIRED), dice nobody arranged (a seed is refused: RATED_GAME_SEEDED); each "
        "account's rating in the variant and speed (Game.speed, from the time control) "
        "changes once when it ends.",
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.input(description="Seat a bot that the server plays (any seated player, in the lobby).")
class AddBotInput:
    game_id: strawberry.ID = strawberry.field(description=GAME_ID)
    policy: DomainBotPolicy = strawberry.field(
        default=DomainBotPolicy.ODDS, description="How the bot plays."
    )
    name: str | None = strawberry.field(
        default=None,
        description=f'Its name, as a player\'s ({NAME_RULE}); by default "Bot N (policy)".',
    )
    colour: str | None = strawberry.field(
        default=None, description=f"Colour id ({DATA_NAME.rule}); default: free."
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.type(description="The result of createGame.")
class CreateGamePayload:
    game: Game | None = strawberry.field(description="The new game, in the lobby.")
    user_errors: list[UserError] = strawberry.field(description="Why nothing was created, if so.")
    client_mutation_id: str | None = strawberry.field(description="As given in the input.")


@strawberry.input(
    description="Take a seat in a game that has not started: as a guest (the answer holds the "
    "seat's token), or with an account's credential (the scope GAMES_PLAY), which binds the "
    "seat to the account: its credential then acts for the seat."
)
class JoinGameInput:
    game_id: strawberry.ID = strawberry.field(description=GAME_ID)
    name: str | None = strawberry.field(
        default=None,
        description=f"A guest's name: {NAME_RULE}. An account's seat takes the account's "
        "name (a name given is ignored).",
    )
    colour: str | None = strawberry.field(
        default=None,
        description=f"A free colour id ({DATA_NAME.rule}); by default the first free one.",
    )
    client_seed: str | None = strawberry.field(
        default=None,
        description=CLIENT_SEED + " Ignored in a game whose seed was chosen (Game.seedChosen: "
        "its creator knows every roll; see clientSeedAccepted).",
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.type(description="The result of joinGame.")
class JoinGamePayload:
    game: Game | None = strawberry.field(description="The game, as the new seat sees it.")
    seat: int | None = strawberry.field(description="The new seat's number.")
    token: str | None = strawberry.field(
        description="A guest's seat token, shown once: send it as 'Authorization: Bearer …' "
        "(or as 'token' in the WebSocket connection_init payload). Null for a seat bound to an "
        "account: the account's credential acts for it."
    )
    user_errors: list[UserError] = strawberry.field(description="Why no seat was taken, if so.")
    client_mutation_id: str | None = strawberry.field(description="As given in the input.")
    client_seed_accepted: bool | None = strawberry.field(
        default=None,
        description="The clientSeed given is recorded, and the game's dice will be derived "
        "from it too; false: none was given, or the game's seed was chosen (then its creator "
        "knows every roll and card to come: game.seedChosen); null when no seat was taken.",
    )


@strawberry.input(
    description="A game, by id, for startGame and leaveGame (the seat token says who)."
)
class GameInput:
    game_id: strawberry.ID = strawberry.field(description=GAME_ID)
    client_seed: str | None = strawberry.field(
        default=None,
        description="startGame only: the starting seat's contribution, which replaces the one "
        "it gave when joining. " + CLIENT_SEED + " Given at the start, when every other is "
        "fixed, it is the last: no seat could have chosen its own knowing it. Ignored by "
        "leaveGame, and in a game whose seed was chosen.",
    )
    client_mutation_id: str | None = strawberry.field(default=None, description=ECHOED_KEY)


@strawberry.type(description="The result of startGame or leaveGame.")
class GamePayload:
    game: Game | None = strawberry.field(description="The game after the change.")
    user_errors: list[UserError] = strawberry.field(description="Why nothing changed, if so.")
    client_mutation_id: str | None = strawberry.field(description="As given in the input.")
    client_seed_accepted: bool | None = strawberry.field(
        default=None,
        description="startGame: the clientSeed given is the starting seat's contribution now; "
        "false: none was given, or the game's seed was chosen; null for leaveGame and when "
        "nothing changed.",
    )


@strawberry.input(description="One action of the game, for the seat of the token.")
class SubmitActionInput:
    game_id: strawberry.ID = strawberry.field(description=GAME_ID)
    action: ActionInput = strawberry.field(description="The action.")
    expected_version: int | None = strawberry.field(
        default=None,
        description="The version the action was decided on; STALE_VERSION if the game moved.",
    )
    client_mutation_id: str | None = strawberry.field(
        default=None,
        description="Sending the same id again returns the first answer and applies nothing "
        f"({CLIENT_MUTATION_ID.rule}; BAD_USER_INPUT otherwise).",
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
    session: strawberry.Private[Session | None] = None  # the game just after the action

    @strawberry.field(description="The game after the action, as the caller sees it.")
    async def game(self, info: Info) -> Game | None:
        # Loaded only when asked for: a bot that needs just the version pays nothing for it.
        if self.game_id is None:
            return None
        session = self.session or await info.context.service.session(self.game_id)
        return game_type(session, await info.context.viewer_seat(self.game_id))
