"""S.P.Q.RisiKo!'s triremes: placed from a set, built from legionaries, disbanded into them,
moved once a turn, and fighting naval combats; the command of each sea area. Each action's
rule is one function, which its legal family and its handler both read."""

from __future__ import annotations

from typing import ClassVar, final

from domain import events as e
from domain.combat import compare_dice
from domain.errors import (
    InvalidAction,
    InvalidArmyCount,
    InvalidDice,
    NotAdjacent,
    NotEnoughArmies,
    OncePerTurn,
    WrongPhase,
)
from domain.flow import Phase
from domain.kernel import handles
from domain.legal import LegalAction
from domain.risiko.attack import MAX_DICE, AttackOptions
from variants.spqr import actions as sa
from variants.spqr import events as se
from variants.spqr.legal import (
    LegalBuildTrireme,
    LegalDisbandTrireme,
    LegalMoveFleet,
    LegalNavalBattle,
    LegalPlaceTrireme,
)
from variants.spqr.phases import SpqrPhase
from variants.spqr.steps import STEP, TurnSteps


class Fleets(TurnSteps):
    """Each seat's triremes on each sea area, and what the seat in turn did with them. The
    tournament's dice (AttackOptions) hold at sea too."""

    _STATE: ClassVar[tuple[str, ...]] = (
        "triremes",
        "pending_triremes",
        "trireme_disbanded",
        "fleet_moved",
        "naval_seas",
        "naval_battle",
    )
    triremes: list[list[int]]  # by space, then seat
    pending_triremes: int  # won with cards, still to place
    trireme_disbanded: bool
    fleet_moved: bool
    naval_seas: list[int]  # seas of this turn's naval combats
    naval_battle: list[int] | None  # [sea, opponent] while its next roll is allowed

    def _start_state(self) -> None:
        self.triremes = [[0] * len(self.players) for _ in self.board.territories]
        self.pending_triremes = 0
        self.trireme_disbanded = False
        self.fleet_moved = False
        self.naval_seas = []
        self.naval_battle = None
        super()._start_state()
        options = self.options  # the options' rule, read once
        self._naval_matching = (
            isinstance(options, AttackOptions) and options.attacker_dice_at_least_defender
        )

    # ------------------------------------------------------------------ command of the seas

    @final
    def _controller(self, sea: int) -> int | None:
        """The player with strictly more triremes in `sea` than any other, if any."""
        fleet = self.triremes[sea]
        most = max(fleet)
        if most == 0 or fleet.count(most) > 1:
            return None
        return fleet.index(most)

    @final
    def controls(self, seat: int, sea: int) -> bool:
        """Strictly more triremes in `sea` than any other player."""
        return self._controller(sea) == seat

    @final
    def seas_controlled(self, seat: int) -> int:
        return self._seas_controlled()[seat]

    @final
    def _seas_controlled(self) -> list[int]:
        """The sea areas each player controls, by seat."""
        seas = [0] * len(self.players)
        for sea in self._seas:
            holder = self._controller(sea)
            if holder is not None:
                seas[holder] += 1
        return seas

    @final
    def _controlled_by(self, seat: int) -> list[int]:
        return [sea for sea in self._seas if self._controller(sea) == seat]

    @final
    def _superior(self, seat: int, sea: int, rival: int) -> bool:
        """More triremes in `sea` than the owner `rival` (a neutral has none)."""
        theirs = self.triremes[sea][rival] if rival >= 0 else 0
        return self.triremes[sea][seat] > theirs

    @final
    def _sink_fleet(self, loser: int) -> list[e.Event]:
        """The eliminated player's triremes leave the board."""
        sunk = 0
        for sea in self._seas:
            sunk += self.triremes[sea][loser]
            self.triremes[sea][loser] = 0
        return [se.TriremesSunk(loser, sunk)] if sunk else []

    # ------------------------------------------------------------------ triremes placed

    @final
    def _check_reward_step(self) -> None:
        if self.phase not in (Phase.REINFORCE, SpqrPhase.NAVAL_REINFORCE):
            raise WrongPhase("what a set gives is placed during the reinforcements")

    @final
    def _trireme_seas(self, seat: int) -> tuple[int, ...]:
        """The seas where a trireme from a set may go: those touching an own province."""
        owner = self.owner
        coasts = self.board.coasts
        return tuple(s for s in self._seas if any(owner[p] == seat for p in coasts[s]))

    @final
    @handles(sa.PlaceTrireme)
    def _place_trireme(self, seat: int | None, action: sa.PlaceTrireme) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_reward_step()
        if not self.pending_triremes:
            raise WrongPhase("you have no trireme to place: trade a set with a trireme")
        sea = self.board.sea(action.sea)
        if sea not in self._trireme_seas(seat):
            raise NotAdjacent(f"none of your provinces is on {self.board.territories[sea].name}")
        self.triremes[sea][seat] += 1
        self.pending_triremes -= 1
        return [se.TriremesPlaced(seat, action.sea, 1, None, 0)]

    @final
    def _place_trireme_families(self, seat: int) -> list[LegalAction]:
        if not self.pending_triremes:
            return []
        seas = self._trireme_seas(seat)
        ids = self.board.territories
        return [LegalPlaceTrireme(tuple(ids[s].id for s in seas))] if seas else []

    # ------------------------------------------------------------------ disbanded, built

    @final
    @handles(sa.DisbandTrireme)
    def _disband_trireme(self, seat: int | None, action: sa.DisbandTrireme) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is not Phase.REINFORCE:
            raise WrongPhase("a trireme becomes legionaries only during the land reinforcements")
        if self.trireme_disbanded:
            raise OncePerTurn("one trireme a turn may become legionaries")
        sea = self.board.sea(action.sea)
        province = self._own_province(seat, action.province)
        names = self.board.territories
        if self.triremes[sea][seat] == 0:
            raise NotEnoughArmies(f"you have no trireme on {names[sea].name}")
        if sea not in self.board.coasts[province]:
            raise NotAdjacent(f"{names[province].name} is not on {names[sea].name}")
        legionaries = self.ruleset.legionaries_per_disbanded_trireme
        self.triremes[sea][seat] -= 1
        self.armies[province] += legionaries
        self.trireme_disbanded = True
        return [se.TriremeDisbanded(seat, action.sea, action.province, legionaries)]

    @final
    def _disband_families(self, seat: int) -> list[LegalAction]:
        if self.trireme_disbanded:
            return []
        ids = self.board.territories
        legal: list[LegalAction] = []
        for sea in self._seas:
            if self.triremes[sea][seat]:
                shore = tuple(ids[p].id for p in self.board.coasts[sea] if self.owner[p] == seat)
                if shore:
                    legal.append(LegalDisbandTrireme(ids[sea].id, shore))
        return legal

    @final
    def _most_built(self, province: int) -> int:
        """The triremes `province`'s legionaries may build (one legionary always stays)."""
        return (self.armies[province] - 1) // self.ruleset.legionaries_per_trireme

    @final
    @handles(sa.BuildTrireme)
    def _build_trireme(self, seat: int | None, action: sa.BuildTrireme) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_step(SpqrPhase.NAVAL_REINFORCE)
        province = self._own_province(seat, action.province)
        sea = self.board.sea(action.sea)
        names = self.board.territories
        if sea not in self.board.coasts[province]:
            raise NotAdjacent(f"{names[province].name} is not on {names[sea].name}")
        cost = self.ruleset.legionaries_per_trireme
        most = self._most_built(province)
        if most < 1:
            raise NotEnoughArmies(
                f"{names[province].name} needs {cost + 1} legionaries for a trireme "
                "(one always stays)"
            )
        if not 1 <= action.triremes <= most:
            raise InvalidArmyCount(f"build 1 to {most} triremes from {names[province].name}")
        self.phase = SpqrPhase.NAVAL_REINFORCE
        self.armies[province] -= cost * action.triremes
        self.triremes[sea][seat] += action.triremes
        return [
            se.TriremesPlaced(
                seat, action.sea, action.triremes, action.province, cost * action.triremes
            )
        ]

    @final
    def _build_families(self, seat: int, own: list[int]) -> list[LegalAction]:
        ids = self.board.territories
        legal: list[LegalAction] = []
        for p in own:
            most = self._most_built(p)
            if most >= 1:
                for sea in self.board.coasts[p]:
                    legal.append(LegalBuildTrireme(ids[p].id, ids[sea].id, 1, most))
        return legal

    # ------------------------------------------------------------------ the naval move

    @final
    @handles(sa.MoveFleet)
    def _move_fleet(self, seat: int | None, action: sa.MoveFleet) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_step(SpqrPhase.NAVAL_MOVE)
        if self.fleet_moved:
            raise OncePerTurn("the naval move has been made this turn")
        source = self.board.sea(action.source)
        target = self.board.sea(action.target)
        names = self.board.territories
        if target not in self.board.sea_neighbours[source]:
            raise NotAdjacent(f"{names[source].name} does not border {names[target].name}")
        own = self.triremes[source][seat]
        if own == 0:
            raise NotEnoughArmies(f"you have no trireme on {names[source].name}")
        if not 1 <= action.triremes <= own:
            raise InvalidArmyCount(f"move 1 to {own} triremes, not {action.triremes}")
        self.phase = SpqrPhase.NAVAL_MOVE
        self.fleet_moved = True
        self.triremes[source][seat] -= action.triremes
        self.triremes[target][seat] += action.triremes
        return [se.FleetMoved(seat, action.source, action.target, action.triremes)]

    @final
    def _fleet_families(self, seat: int) -> list[LegalAction]:
        if STEP[self.phase] >= STEP[SpqrPhase.NAVAL_MOVE] or self.fleet_moved:
            return []
        ids = self.board.territories
        fleet = self.triremes
        legal: list[LegalAction] = []
        for sea in self._seas:
            if fleet[sea][seat]:
                for other in self.board.sea_neighbours[sea]:
                    legal.append(LegalMoveFleet(ids[sea].id, ids[other].id, 1, fleet[sea][seat]))
        return legal

    # ------------------------------------------------------------------ naval combat

    @final
    def _naval_dice_range(self, seat: int, sea: int, opponent: int) -> tuple[int, int]:
        high = min(MAX_DICE, self.triremes[sea][seat])  # no garrison at sea
        low = 1
        if self._naval_matching:
            low = min(MAX_DICE, self.triremes[sea][opponent])
        return low, high

    @final
    @handles(sa.NavalBattle)
    def _naval_battle(self, seat: int | None, action: sa.NavalBattle) -> list[e.Event]:
        seat = self._check_turn(seat)
        sea = self.board.sea(action.sea)
        ongoing = self.naval_battle == [sea, action.opponent]
        if not ongoing:
            self._check_new_naval_battle(seat, sea, action.opponent)
        low, high = self._naval_dice_range(seat, sea, action.opponent)
        names = self.board.territories
        if not 1 <= action.dice <= high:
            raise InvalidDice(f"fight with 1 to {high} dice on {names[sea].name}")
        if action.dice < low:
            raise InvalidDice(f"attack with at least as many dice as the defender ({low})")
        self.phase = SpqrPhase.NAVAL_COMBAT
        if not ongoing:
            self.naval_seas.append(sea)
        fleet = self.triremes[sea]
        defence = min(MAX_DICE, fleet[action.opponent])
        attacker, defender = self._random().roll(action.dice, defence)
        attacker_losses, defender_losses = compare_dice(
            attacker, defender, defender_wins_ties=False
        )
        fleet[seat] -= attacker_losses
        fleet[action.opponent] -= defender_losses
        over = (
            attacker_losses + defender_losses == 0 or not fleet[seat] or not fleet[action.opponent]
        )
        self.naval_battle = None if over else [sea, action.opponent]
        return [
            se.NavalDiceRolled(
                seat,
                action.sea,
                action.opponent,
                tuple(attacker),
                tuple(defender),
                attacker_losses,
                defender_losses,
                over,
            )
        ]

    @final
    def _check_new_naval_battle(self, seat: int, sea: int, opponent: int) -> None:
        names = self.board.territories
        self._check_step(SpqrPhase.NAVAL_COMBAT)
        if sea in self.naval_seas:
            raise OncePerTurn(f"there has been a naval combat on {names[sea].name} this turn")
        if not 0 <= opponent < len(self.players) or opponent == seat:
            raise InvalidAction(f"seat {opponent} is not an opponent")
        if self.triremes[sea][seat] == 0:
            raise NotEnoughArmies(f"you have no trireme on {names[sea].name}")
        if self.triremes[sea][opponent] == 0:
            raise NotEnoughArmies(f"{self.players[opponent]} has no trireme on {names[sea].name}")

    @final
    def _naval_families(self, seat: int) -> list[LegalAction]:
        ids = self.board.territories
        fleet = self.triremes
        legal: list[LegalAction] = []
        if self.naval_battle is not None:
            sea, opponent = self.naval_battle
            low, high = self._naval_dice_range(seat, sea, opponent)
            if low <= high:
                legal.append(LegalNavalBattle(ids[sea].id, opponent, low, high, True))
        for sea in self._seas:
            if not fleet[sea][seat] or sea in self.naval_seas:
                continue
            for opponent, count in enumerate(fleet[sea]):
                if opponent != seat and count:
                    low, high = self._naval_dice_range(seat, sea, opponent)
                    if low <= high:
                        legal.append(LegalNavalBattle(ids[sea].id, opponent, low, high, False))
        return legal
