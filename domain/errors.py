"""Precise exception types. Each rule violation has a stable machine code and a human message.

A rejected action never changes the game: the engine validates everything before it mutates.
"""

from __future__ import annotations


class RisikoError(Exception):
    """Base of every error the engine raises on purpose."""

    code: str = "ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BoardDataError(RisikoError):
    """A board data file is malformed; the message names the bad entry."""

    code = "BOARD_DATA"


class SnapshotFormatError(RisikoError, ValueError):
    """A snapshot written in another format than this engine's: rebuild from the log."""

    code = "SNAPSHOT_FORMAT"


class RuleViolation(RisikoError):
    """An action that the rules do not allow in this state."""

    code = "RULE_VIOLATION"


class GameOver(RuleViolation):
    code = "GAME_OVER"


class NotYourTurn(RuleViolation):
    code = "NOT_YOUR_TURN"


class WrongPhase(RuleViolation):
    code = "WRONG_PHASE"


class UnknownTerritory(RuleViolation):
    code = "UNKNOWN_TERRITORY"


class NotYourTerritory(RuleViolation):
    code = "NOT_YOUR_TERRITORY"


class OwnTerritory(RuleViolation):
    """Attacking a territory the attacker already owns."""

    code = "OWN_TERRITORY"


class NotAdjacent(RuleViolation):
    code = "NOT_ADJACENT"


class NotEnoughArmies(RuleViolation):
    code = "NOT_ENOUGH_ARMIES"


class InvalidArmyCount(RuleViolation):
    """An army count outside the range the rules allow (zero, negative, too many)."""

    code = "INVALID_ARMY_COUNT"


class InvalidDice(RuleViolation):
    code = "INVALID_DICE"


class InvalidCardSet(RuleViolation):
    code = "INVALID_CARD_SET"


class CardNotInHand(RuleViolation):
    code = "CARD_NOT_IN_HAND"


class ReinforcementsPending(RuleViolation):
    """Every reinforcement must be placed before the first attack or the end of the turn."""

    code = "REINFORCEMENTS_PENDING"


class EliminationTooEarly(RuleViolation):
    """No player may be eliminated before the end of the fourth round."""

    code = "ELIMINATION_TOO_EARLY"


class MinimumGarrison(RuleViolation):
    """Tournament rule: a voluntary move may not leave a border territory with fewer than 2."""

    code = "MINIMUM_GARRISON"


class OptionDisabled(RuleViolation):
    """The action exists, but the game's options turn it off."""

    code = "OPTION_DISABLED"


class TimeAlreadyExpired(RuleViolation):
    code = "TIME_ALREADY_EXPIRED"


class InvalidAction(RuleViolation):
    """An action of a kind this variant does not know."""

    code = "INVALID_ACTION"


class OncePerTurn(RuleViolation):
    """Something the rules allow once a turn (the naval move, a naval combat in a sea area,
    a sea attack on a province) was already done."""

    code = "ONCE_PER_TURN"


class NoNavalSuperiority(RuleViolation):
    """Crossing a sea needs more triremes there than the defender (or than everyone)."""

    code = "NO_NAVAL_SUPERIORITY"


class PowerCentreNotAllowed(RuleViolation):
    """Never two power centres in one province or in land-adjacent provinces."""

    code = "POWER_CENTRE_NOT_ALLOWED"


class WrongKindOfSpace(RuleViolation):
    """A sea area where a province is wanted, or the other way round."""

    code = "WRONG_KIND_OF_SPACE"


class InvalidOptions(RisikoError):
    """Game options or players that a variant cannot start a game with."""

    code = "INVALID_OPTIONS"
