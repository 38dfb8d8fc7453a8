"""RisiKo! Più's state and the facts its parts share (the setup, the cards, the battles):
who holds which card, fortresses, truces, the Spia's discard owed. The game is these parts
composed over the RisiKo! mechanics (domain/risiko): variants/piu/game.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, final

from domain.errors import CardNotInHand, InvalidAction, Truce, WrongPhase
from domain.flow import Phase
from domain.risiko.attack import MAX_DICE
from domain.risiko.defence import DeclaredDefence
from domain.risiko.placement import Placement
from domain.risiko.strategic import StrategicMove
from variants.piu import actions as pa
from variants.piu.options import PiuOptions
from variants.piu.ruleset import PiuRuleset

# The steps of the setup, in order ("" once it is over).
FORTRESS_STEP = "fortress"
CLAIM_STEP = "claim"
PLACE_STEP = "place"
HIDDEN_STEP = "hidden"
SETUP_STEPS = (FORTRESS_STEP, CLAIM_STEP, PLACE_STEP, HIDDEN_STEP)

FREE = -1
# The attack under way (`PiuGame.attack`): source, target, a Generale on it, a Maresciallo
# against it, and whether its first roll has been made (then a Generale comes too late).
SOURCE, TARGET, GENERAL, MARSHAL, STARTED = range(5)
# The topic of the prompt a flagship's attack waits on, when defenders declare their dice: its
# values are the battle's (source, target, the attacker's dice), then ABOARD and STOP_AT.
FLAGSHIP_DEFENCE = "defence against the flagship"
ABOARD, STOP_AT = 3, 4


class PiuBase(DeclaredDefence, StrategicMove, Placement):
    """The state of a game of RisiKo! Più, beyond the board, the hands and the turn."""

    _STATE: ClassVar[tuple[str, ...]] = (
        "empire",
        "fortress",
        "banners",
        "hidden",
        "hidden_used",
        "rinforzi_played",
        "marshal_orders",
        "spy_orders",
        "truces",
        "attack",
        "admiral_used",
        "spied",
        "setup_step",
    )
    ruleset: PiuRuleset
    options: PiuOptions
    empire: list[int]  # by seat: the region position of the empire drawn
    fortress: list[int]  # by seat: the fortress territory (-1 before it is placed)
    banners: list[list[int]]  # by seat: the seats whose banners it holds (its own first)
    hidden: list[int]  # by seat: the hidden armies' territory (-1 before it is written)
    hidden_used: list[bool]
    rinforzi_played: int
    marshal_orders: list[str]
    spy_orders: list[str]
    truces: list[list[int]]  # [imposer, target]
    attack: list[int] | None  # SOURCE, TARGET, GENERAL, MARSHAL, STARTED
    admiral_used: bool
    spied: int  # the seat whose hand the seat in turn must discard from; -1 none
    setup_step: str

    def _start_state(self) -> None:
        count = len(self.players)
        self.empire = [-1] * count
        self.fortress = [-1] * count
        self.banners = [[seat] for seat in range(count)]
        self.hidden = [-1] * count
        self.hidden_used = [False] * count
        self.rinforzi_played = 0
        self.marshal_orders = [pa.MARSHAL_ALWAYS] * count
        self.spy_orders = [pa.SPY_BLOCK] * count
        self.truces = []
        self.attack = None
        self.admiral_used = False
        self.spied = -1
        self.setup_step = FORTRESS_STEP
        super()._start_state()

    @staticmethod
    def _cards_of(hand: Sequence[str], kind: str) -> tuple[str, ...]:
        prefix = f"{kind}_"
        return tuple(card for card in hand if card.startswith(prefix))

    @final
    def _card(self, seat: int, card: str, kind: str) -> None:
        if card not in self.hands[seat]:
            raise CardNotInHand(f"you do not hold the card {card!r}")
        if self.ruleset.cards.cards[card].symbol != kind:
            raise InvalidAction(f"{card} is not a {kind.capitalize()} card")

    @final
    def _discard(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.discard.append(card)

    @final
    def _opponent(self, seat: int, player: int) -> int:
        if not 0 <= player < len(self.players) or player == seat:
            raise InvalidAction("name an opponent by seat")
        if self.eliminated[player] or self.resigned[player]:
            raise InvalidAction(f"{self.players[player]} is no longer in the game")
        return player

    @final
    def _plays_out_of_turn(self, seat: int) -> bool:
        return (
            0 <= seat < len(self.players)
            and self.phase is not Phase.SETUP
            and self.phase is not Phase.OVER
            and not self.eliminated[seat]
            and not self.resigned[seat]
        )

    @final
    def _check_no_spy_owed(self) -> None:
        """A Spia's discard comes before anything else of the turn (but standing orders)."""
        if self.spied >= 0:
            raise WrongPhase("discard a card of the spied hand first")

    @final
    def _in_truce(self, seat: int, other: int) -> bool:
        return [seat, other] in self.truces or [other, seat] in self.truces

    @final
    def may_target(self, seat: int, target: int) -> bool:
        """Whether no truce keeps `seat` from attacking `target`'s holder."""
        return not self._in_truce(seat, self.owner[target])

    def _may_target(self, seat: int, target: int) -> bool:
        return self.may_target(seat, target)

    @final
    def _check_no_truce(self, seat: int, target: int) -> None:
        defender = self.owner[target]
        if self._in_truce(seat, defender):
            raise Truce(
                f"a truce with {self.players[defender]} forbids attacking "
                f"{self.board.territories[target].name} until it ends"
            )

    @final
    def is_fortress(self, territory: int) -> bool:
        seat = self.owner[territory]
        return seat >= 0 and self.fortress[seat] == territory and not self.eliminated[seat]

    @final
    def _most_dice(self, target: int) -> int:
        if self.is_fortress(target):
            return self.options.fortress_attack_dice
        return MAX_DICE
