"""Precise exception types. Each rule violation has a stable machine code and a human message.

A rejected action never changes the game: the engine validates everything before it mutates.
"""

from __future__ import annotations

import enum


class ErrorCode(enum.StrEnum):
    """The stable machine code of every error a player or a client is told about, from the
    rules to the lobby: one list, which the API shows as it is (the GraphQL enum ErrorCode)."""

    # The rules (RuleViolation and its kinds, below)
    BATTLES_PENDING = "BATTLES_PENDING"
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
    NO_NAVAL_SUPERIORITY = "NO_NAVAL_SUPERIORITY"
    ONCE_PER_TURN = "ONCE_PER_TURN"
    POWER_CENTRE_NOT_ALLOWED = "POWER_CENTRE_NOT_ALLOWED"
    WRONG_KIND_OF_SPACE = "WRONG_KIND_OF_SPACE"
    REINFORCEMENTS_PENDING = "REINFORCEMENTS_PENDING"
    RULE_VIOLATION = "RULE_VIOLATION"
    TIME_ALREADY_EXPIRED = "TIME_ALREADY_EXPIRED"
    TRUCE = "TRUCE"
    ONCE_PER_GAME = "ONCE_PER_GAME"
    UNKNOWN_TERRITORY = "UNKNOWN_TERRITORY"
    WRONG_PHASE = "WRONG_PHASE"
    # A game's options (InvalidOptions)
    INVALID_OPTIONS = "INVALID_OPTIONS"
    # The lobby and the service that keeps the games
    COLOUR_TAKEN = "COLOUR_TAKEN"
    GAME_ALREADY_STARTED = "GAME_ALREADY_STARTED"
    GAME_FULL = "GAME_FULL"
    GAME_NOT_FOUND = "GAME_NOT_FOUND"
    GAME_NOT_STARTED = "GAME_NOT_STARTED"
    INVALID_COLOUR = "INVALID_COLOUR"
    INVALID_ID = "INVALID_ID"
    INVALID_NAME = "INVALID_NAME"
    NOT_ENOUGH_PLAYERS = "NOT_ENOUGH_PLAYERS"
    STALE_VERSION = "STALE_VERSION"
    TOO_MANY_UNSTARTED_GAMES = "TOO_MANY_UNSTARTED_GAMES"
    UNKNOWN_VARIANT = "UNKNOWN_VARIANT"
    # Accounts, their passwords and their API tokens (api/accounts/)
    ACCOUNT_DISABLED = "ACCOUNT_DISABLED"
    ACCOUNT_NOT_FOUND = "ACCOUNT_NOT_FOUND"
    ALREADY_PLAYED = "ALREADY_PLAYED"
    INVALID_EXPIRY = "INVALID_EXPIRY"
    INVALID_PASSWORD = "INVALID_PASSWORD"
    INVALID_SCOPES = "INVALID_SCOPES"
    LOGIN_FAILED = "LOGIN_FAILED"
    NAME_RESERVED = "NAME_RESERVED"
    NAME_TAKEN = "NAME_TAKEN"
    PASSWORD_TOO_LONG = "PASSWORD_TOO_LONG"
    PASSWORD_TOO_SHORT = "PASSWORD_TOO_SHORT"
    PASSWORD_TOO_WEAK = "PASSWORD_TOO_WEAK"
    RATE_LIMITED = "RATE_LIMITED"
    TOKEN_NOT_FOUND = "TOKEN_NOT_FOUND"
    TOO_MANY_TOKENS = "TOO_MANY_TOKENS"
    WRONG_PASSWORD = "WRONG_PASSWORD"
    # Accounts in games: who a game admits, and one seat per account (api/lobby.py)
    ACCOUNT_REQUIRED = "ACCOUNT_REQUIRED"
    ALREADY_SEATED = "ALREADY_SEATED"
    BOTS_ONLY = "BOTS_ONLY"
    PEOPLE_ONLY = "PEOPLE_ONLY"


class RisikoError(Exception):
    """Base of every error the engine raises on purpose."""

    code: str = "ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CodedError(RisikoError):
    """An error a player is told about (a user error of the API): its code is an ErrorCode."""

    code: ErrorCode = ErrorCode.RULE_VIOLATION


class BoardDataError(RisikoError):
    """A board data file is malformed; the message names the bad entry."""

    code = "BOARD_DATA"


class SnapshotFormatError(RisikoError, ValueError):
    """A snapshot written in another format than this engine's: rebuild from the log."""

    code = "SNAPSHOT_FORMAT"


class RuleViolation(CodedError):
    """An action that the rules do not allow in this state."""

    code = ErrorCode.RULE_VIOLATION


class GameOver(RuleViolation):
    code = ErrorCode.GAME_OVER


class NotYourTurn(RuleViolation):
    code = ErrorCode.NOT_YOUR_TURN


class WrongPhase(RuleViolation):
    code = ErrorCode.WRONG_PHASE


class UnknownTerritory(RuleViolation):
    code = ErrorCode.UNKNOWN_TERRITORY


class NotYourTerritory(RuleViolation):
    code = ErrorCode.NOT_YOUR_TERRITORY


class OwnTerritory(RuleViolation):
    """Attacking a territory the attacker already owns."""

    code = ErrorCode.OWN_TERRITORY


class NotAdjacent(RuleViolation):
    code = ErrorCode.NOT_ADJACENT


class NotEnoughArmies(RuleViolation):
    code = ErrorCode.NOT_ENOUGH_ARMIES


class InvalidArmyCount(RuleViolation):
    """An army count outside the range the rules allow (zero, negative, too many)."""

    code = ErrorCode.INVALID_ARMY_COUNT


class InvalidDice(RuleViolation):
    code = ErrorCode.INVALID_DICE


class InvalidCardSet(RuleViolation):
    code = ErrorCode.INVALID_CARD_SET


class CardNotInHand(RuleViolation):
    code = ErrorCode.CARD_NOT_IN_HAND


class ReinforcementsPending(RuleViolation):
    """Every reinforcement must be placed before the first attack or the end of the turn."""

    code = ErrorCode.REINFORCEMENTS_PENDING


class EliminationTooEarly(RuleViolation):
    """No player may be eliminated before the end of the fourth round."""

    code = ErrorCode.ELIMINATION_TOO_EARLY


class MinimumGarrison(RuleViolation):
    """Tournament rule: a voluntary move may not leave a border territory with fewer than 2."""

    code = ErrorCode.MINIMUM_GARRISON


class OptionDisabled(RuleViolation):
    """The action exists, but the game's options turn it off."""

    code = ErrorCode.OPTION_DISABLED


class TimeAlreadyExpired(RuleViolation):
    code = ErrorCode.TIME_ALREADY_EXPIRED


class InvalidAction(RuleViolation):
    """An action of a kind this variant does not know."""

    code = ErrorCode.INVALID_ACTION


class OncePerTurn(RuleViolation):
    """Something the rules allow once a turn (the naval move, a naval combat in a sea area,
    a sea attack on a province) was already done."""

    code = ErrorCode.ONCE_PER_TURN


class NoNavalSuperiority(RuleViolation):
    """Crossing a sea needs more triremes there than the defender (or than everyone)."""

    code = ErrorCode.NO_NAVAL_SUPERIORITY


class PowerCentreNotAllowed(RuleViolation):
    """Never two power centres in one province or in land-adjacent provinces."""

    code = ErrorCode.POWER_CENTRE_NOT_ALLOWED


class WrongKindOfSpace(RuleViolation):
    """A sea area where a province is wanted, or the other way round."""

    code = ErrorCode.WRONG_KIND_OF_SPACE


class Truce(RuleViolation):
    """A truce forbids attacks between two players for now (RisiKo! Più's Diplomatico,
    FutuRisiKo!'s Tregua)."""

    code = ErrorCode.TRUCE


class OncePerGame(RuleViolation):
    """Something the rules allow once a game (RisiKo! Più's hidden armies) was already done."""

    code = ErrorCode.ONCE_PER_GAME


class BattlesPending(RuleViolation):
    """A turn that ends with its units still facing the enemy's: every battle is fought first
    (FutuRisiKo!)."""

    code = ErrorCode.BATTLES_PENDING


class InvalidOptions(CodedError):
    """Game options or players that a variant cannot start a game with."""

    code = ErrorCode.INVALID_OPTIONS
