"""Precise exception types. Each rule violation has a stable machine code and a human message.

A rejected action never changes the game: the engine validates everything before it mutates.

The codes every game shares, the options' and the lobby's are `ErrorCode`'s members; a game's
own (S.P.Q.RisiKo!'s naval superiority, FutuRisiKo!'s pending battles) are declared in its
folder, each by a `RuleViolation` subclass with its `code` and a docstring that says what it
means. Declaring the class registers the code (`RULE_CODES`); the API's enum ErrorCode is the
shared codes and the codes of the games it serves.
"""

from __future__ import annotations

import enum
import re
from typing import Any


class ErrorCode(enum.StrEnum):
    """The stable machine codes every game shares, from the rules to the lobby. A game's own
    codes are its `RuleViolation` subclasses' (`RULE_CODES`)."""

    # The rules (RuleViolation and its kinds, below)
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
    ONCE_PER_TURN = "ONCE_PER_TURN"
    WRONG_KIND_OF_SPACE = "WRONG_KIND_OF_SPACE"
    REINFORCEMENTS_PENDING = "REINFORCEMENTS_PENDING"
    RULE_VIOLATION = "RULE_VIOLATION"
    TIME_ALREADY_EXPIRED = "TIME_ALREADY_EXPIRED"
    TRUCE = "TRUCE"
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
    # Rated games (api/ratings/): a chosen seed arranges the dice
    RATED_GAME_SEEDED = "RATED_GAME_SEEDED"
    # The matchmaking pool (api/pool/)
    INVALID_SEEK = "INVALID_SEEK"
    NOT_YOUR_SEEK = "NOT_YOUR_SEEK"
    SEEK_NOT_FOUND = "SEEK_NOT_FOUND"
    TOO_MANY_SEEKS = "TOO_MANY_SEEKS"
    # Tournaments: settings, registration, rounds (api/tournaments/)
    ALREADY_REGISTERED = "ALREADY_REGISTERED"
    INVALID_TOURNAMENT = "INVALID_TOURNAMENT"
    NOT_ORGANISER = "NOT_ORGANISER"
    NOT_REGISTERED = "NOT_REGISTERED"
    REGISTRATION_CLOSED = "REGISTRATION_CLOSED"
    ROUND_NOT_ENDED = "ROUND_NOT_ENDED"
    TOURNAMENT_FINISHED = "TOURNAMENT_FINISHED"
    TOURNAMENT_NOT_FOUND = "TOURNAMENT_NOT_FOUND"
    TOURNAMENT_STARTED = "TOURNAMENT_STARTED"
    WRONG_ROUND = "WRONG_ROUND"
    # Challenges: who may be challenged, who answers, and when (api/challenges/)
    ALREADY_ANSWERED = "ALREADY_ANSWERED"
    CANNOT_CHALLENGE_SELF = "CANNOT_CHALLENGE_SELF"
    CHALLENGE_CLOSED = "CHALLENGE_CLOSED"
    CHALLENGE_EXPIRED = "CHALLENGE_EXPIRED"
    CHALLENGE_NOT_FOUND = "CHALLENGE_NOT_FOUND"
    INVALID_CHALLENGE = "INVALID_CHALLENGE"
    NOT_CHALLENGED = "NOT_CHALLENGED"
    NOT_CHALLENGER = "NOT_CHALLENGER"
    TOO_MANY_CHALLENGES = "TOO_MANY_CHALLENGES"


class RisikoError(Exception):
    """Base of every error the engine raises on purpose."""

    code: str = "ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CodedError(RisikoError):
    """An error a player is told about (a user error of the API): its code is one of
    `ErrorCode`'s or a game's own (`RULE_CODES`)."""

    code: str = ErrorCode.RULE_VIOLATION


class BoardDataError(RisikoError):
    """A board data file is malformed; the message names the bad entry."""

    code = "BOARD_DATA"


class SnapshotFormatError(RisikoError, ValueError):
    """A snapshot written in another format than this engine's: rebuild from the log."""

    code = "SNAPSHOT_FORMAT"


# Every rule violation's code, with the class that declares it: the domain's, and each game's
# own once its module is imported.
RULE_CODES: dict[str, type[RuleViolation]] = {}
_CODE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")


class RuleViolation(CodedError):
    """An action that the rules do not allow in this state."""

    code: str = ErrorCode.RULE_VIOLATION

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that sets a code declares it: once, in capitals and underscores, and
        described by the class's docstring (what a client is told it means)."""
        super().__init_subclass__(**kwargs)
        code = cls.__dict__.get("code")
        if code is None:
            return  # a kind of an existing violation: its parent's code
        if not isinstance(code, str) or not _CODE.fullmatch(code):
            raise ValueError(
                f"{cls.__qualname__}: a code is capitals and underscores, not {code!r}"
            )
        if not (cls.__doc__ or "").strip():
            raise ValueError(f"{cls.__qualname__}: say what {code} means in its docstring")
        if RULE_CODES.get(code, cls) is not cls:
            raise ValueError(f"{code} is declared twice: {RULE_CODES[code].__qualname__}, {cls}")
        RULE_CODES[str(code)] = cls


RULE_CODES[str(RuleViolation.code)] = RuleViolation


def known_codes() -> frozenset[str]:
    """Every code a player may be told: the shared ones and those of the games imported."""
    return frozenset(ErrorCode) | frozenset(RULE_CODES)


def code_description(code: str) -> str | None:
    """What a rule violation's code means (its class's docstring), if a class declares it."""
    declared = RULE_CODES.get(code)
    if declared is None:
        return None
    return " ".join((declared.__doc__ or "").split())


class GameOver(RuleViolation):
    """The game is over: it takes no more actions."""

    code = ErrorCode.GAME_OVER


class NotYourTurn(RuleViolation):
    """Another seat is to act (or, out of turn, the seat may not do that)."""

    code = ErrorCode.NOT_YOUR_TURN


class WrongPhase(RuleViolation):
    """The action belongs to another phase or step of the turn."""

    code = ErrorCode.WRONG_PHASE


class UnknownTerritory(RuleViolation):
    """No space of the board has that id."""

    code = ErrorCode.UNKNOWN_TERRITORY


class NotYourTerritory(RuleViolation):
    """The space is not the acting seat's."""

    code = ErrorCode.NOT_YOUR_TERRITORY


class OwnTerritory(RuleViolation):
    """Attacking (or claiming) a territory the seat already holds, or one already taken."""

    code = ErrorCode.OWN_TERRITORY


class NotAdjacent(RuleViolation):
    """The two spaces do not border each other (or are not joined the way the action needs)."""

    code = ErrorCode.NOT_ADJACENT


class NotEnoughArmies(RuleViolation):
    """The space has too few units for that."""

    code = ErrorCode.NOT_ENOUGH_ARMIES


class InvalidArmyCount(RuleViolation):
    """An army count outside the range the rules allow (zero, negative, too many)."""

    code = ErrorCode.INVALID_ARMY_COUNT


class InvalidDice(RuleViolation):
    """A number of dice outside the range the rules allow."""

    code = ErrorCode.INVALID_DICE


class InvalidCardSet(RuleViolation):
    """The cards do not make a set that can be traded."""

    code = ErrorCode.INVALID_CARD_SET


class CardNotInHand(RuleViolation):
    """The seat does not hold that card."""

    code = ErrorCode.CARD_NOT_IN_HAND


class ReinforcementsPending(RuleViolation):
    """Every reinforcement must be placed before the first attack or the end of the turn."""

    code = ErrorCode.REINFORCEMENTS_PENDING


class EliminationTooEarly(RuleViolation):
    """No player may be eliminated before the end of the protected rounds."""

    code = ErrorCode.ELIMINATION_TOO_EARLY


class MinimumGarrison(RuleViolation):
    """A voluntary move may not leave a border territory with fewer than 2 armies."""

    code = ErrorCode.MINIMUM_GARRISON


class OptionDisabled(RuleViolation):
    """The action exists, but the game's options turn it off."""

    code = ErrorCode.OPTION_DISABLED


class TimeAlreadyExpired(RuleViolation):
    """The game's time limit has already been declared reached."""

    code = ErrorCode.TIME_ALREADY_EXPIRED


class InvalidAction(RuleViolation):
    """An action of a kind this game does not know, or a value no rule accepts."""

    code = ErrorCode.INVALID_ACTION


class OncePerTurn(RuleViolation):
    """Something the rules allow once a turn (a naval move, a card of a kind, a sea attack on
    a province) was already done."""

    code = ErrorCode.ONCE_PER_TURN


class WrongKindOfSpace(RuleViolation):
    """A sea area where a territory is wanted, or the other way round."""

    code = ErrorCode.WRONG_KIND_OF_SPACE


class Truce(RuleViolation):
    """A truce forbids attacks between two players for now (RisiKo! Più's Diplomatico,
    FutuRisiKo!'s Tregua)."""

    code = ErrorCode.TRUCE


class InvalidOptions(CodedError):
    """Game options or players that a variant cannot start a game with."""

    code = ErrorCode.INVALID_OPTIONS
