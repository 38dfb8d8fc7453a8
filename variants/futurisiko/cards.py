"""FutuRisiKo!'s cards played outside battles: each card's placeholder effect
(docs/futurisiko.md), once a turn each, in the phase it belongs to."""

from __future__ import annotations

from domain import events as e
from domain.combat import volley_hits
from domain.errors import (
    CardNotInHand,
    InvalidAction,
    NotAdjacent,
    NotEnoughArmies,
    NotYourTurn,
    OncePerTurn,
    OptionDisabled,
    Truce,
    WrongPhase,
)
from domain.kernel import handles
from variants.futurisiko import actions as fa
from variants.futurisiko import events as fe
from variants.futurisiko.base import (
    MISSILE_DICE,
    FutuBase,
)
from variants.futurisiko.phases import CARDS, COMBAT, MOVEMENT, PRODUCTION
from variants.futurisiko.ruleset import (
    CARD_TYPES,
    MISSILI_BALISTICI,
    SCUDO_SPAZIALE,
    SILURO_KILLER,
    SUBMARINE,
    SUPER_PRODUZIONE,
    TREGUA,
)


class FutuCards(FutuBase):
    """Super Produzione, Scudo Spaziale, Missili Balistici, Siluro Killer, Tregua."""

    @handles(fa.PlayCard)
    def _play_card(self, seat: int | None, action: fa.PlayCard) -> list[e.Event]:
        if seat is None or seat != self.current:
            raise NotYourTurn("it is not your turn")
        card_type = action.card
        if card_type not in CARD_TYPES:
            raise InvalidAction(f"there is no card {card_type!r}: use one of {CARD_TYPES}")
        card = self._first_card(seat, card_type)
        if card is None:
            raise CardNotInHand(f"you hold no {card_type} card")
        phases = {
            SUPER_PRODUZIONE: (PRODUCTION,),
            SCUDO_SPAZIALE: (PRODUCTION,),
            MISSILI_BALISTICI: (PRODUCTION,),
            SILURO_KILLER: (MOVEMENT, COMBAT),
            TREGUA: (CARDS,),
        }.get(card_type)
        if phases is None:
            raise WrongPhase(f"a {card_type} card is played before the dice of a battle")
        if not getattr(self.options, card_type):
            raise OptionDisabled(f"the {card_type} card has no effect in this game's options")
        if self.phase not in phases:
            raise WrongPhase(f"a {card_type} card is played in the {phases[-1].value} phase")
        if card_type in self.played:
            raise OncePerTurn(f"one {card_type} card a turn")
        effect = {
            SUPER_PRODUZIONE: self._super_produzione,
            SCUDO_SPAZIALE: self._scudo_spaziale,
            MISSILI_BALISTICI: self._missili_balistici,
            SILURO_KILLER: self._siluro_killer,
            TREGUA: self._tregua,
        }[card_type]
        events = effect(seat, action)  # checks everything before it changes anything
        self._discard(seat, card)
        self.played.append(card_type)
        played = fe.CardPlayed(seat, card, card_type, action.target, action.against)
        return [played, *events]

    def _no_target(self, action: fa.PlayCard) -> None:
        if action.target or action.against != -1:
            raise InvalidAction("this card aims at nothing: leave target and against empty")

    def _super_produzione(self, seat: int, action: fa.PlayCard) -> list[e.Event]:
        self._no_target(action)
        self.points_left += self.production_points(seat)  # the round's points, doubled
        return []

    def _scudo_spaziale(self, seat: int, action: fa.PlayCard) -> list[e.Event]:
        self._no_target(action)
        if self.shields[seat]:
            raise OncePerTurn("your Scudo Spaziale is already raised this round")
        self.shields[seat] = 1
        return []

    def _missili_balistici(self, seat: int, action: fa.PlayCard) -> list[e.Event]:
        target = self.board.land(action.target)
        if action.against != -1:
            raise InvalidAction("Missili Balistici aims at a territory: leave against at -1")
        if target not in self.missile_targets(seat):
            raise NotAdjacent(
                f"{self._name(target)} is not an enemy territory with units within two steps"
            )
        defender = self.enemy_at(target, seat)
        assert defender is not None
        if self.shields[defender]:  # the shield stops this missile, and is spent
            self.shields[defender] = 0
            return [fe.UnitsHit(seat, "missile", action.target, defender, (), 0, 0)]
        dice = self._random().dice(MISSILE_DICE)
        hits = volley_hits(dice, self.ruleset.explosion_faces)
        tanks, aircraft = self._destroy(target, defender, hits)
        return [fe.UnitsHit(seat, "missile", action.target, defender, tuple(dice), tanks, aircraft)]

    def _siluro_killer(self, seat: int, action: fa.PlayCard) -> list[e.Event]:
        sea = self.board.sea(action.target)
        if not self.forces.count(sea, seat, SUBMARINE):
            raise NotEnoughArmies(f"you have no submarine in {self._name(sea)}")
        victim = action.against
        if not 0 <= victim < len(self.players) or victim == seat:
            raise InvalidAction(f"seat {victim} is not an enemy")
        if not self.forces.count(sea, victim, SUBMARINE):
            raise NotEnoughArmies(f"seat {victim} has no submarine in {self._name(sea)}")
        if self.bound_by_truce(seat, victim):
            raise Truce(f"a truce binds you to seat {victim} this round")
        self._leave_movement()
        self.forces.remove(sea, victim, SUBMARINE, 1)
        return [fe.SubmarineSunk(seat, action.target, victim)]

    def _tregua(self, seat: int, action: fa.PlayCard) -> list[e.Event]:
        other = action.against
        if action.target:
            raise InvalidAction("Tregua aims at a seat: leave target empty")
        if other == seat or other not in self.active_seats():
            raise InvalidAction(f"seat {other} is not an opponent still playing")
        if self.bound_by_truce(seat, other):
            raise OncePerTurn(f"a truce already binds you to seat {other}")
        self.truces.append(sorted((seat, other)))
        return []
