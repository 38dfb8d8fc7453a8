"""S.P.Q.RisiKo!: the classic engine with provinces and sea areas, triremes, neutral armies,
power centres and victory points (seed 001; the choices are in docs/spqr.md).

A turn goes through its steps in order: victory points (claimed automatically at the start),
reinforcements (cards, legionaries, power centres, a trireme disbanded), naval reinforcements,
the naval move, naval combats, sea attacks, land attacks, the strategic move, the card. Each
action belongs to a step; an action of an earlier step than the current one is refused.

Owners: a seat (0…), -1 for a free province (during the occupation), and -2 - j for the j-th
neutral colour. Events name a neutral owner -1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from domain import actions as a
from domain import events as e
from domain.actions import doc
from domain.combat import compare_dice
from domain.errors import (
    CardNotInHand,
    EliminationTooEarly,
    InvalidAction,
    InvalidArmyCount,
    InvalidDice,
    InvalidOptions,
    MinimumGarrison,
    NotAdjacent,
    NotEnoughArmies,
    NotYourTerritory,
    OncePerTurn,
    OwnTerritory,
    ReinforcementsPending,
    WrongKindOfSpace,
    WrongPhase,
)
from domain.game import MAX_DICE, Game, Phase
from domain.legal import (
    LegalAction,
    LegalAttack,
    LegalAttackUntil,
    LegalEndTurn,
    LegalOccupy,
    LegalPlace,
    LegalStrategicMove,
    LegalTrade,
)
from domain.objectives import Objective
from domain.options import DefenderDice, GameOptions
from domain.rng import DerivedRandom
from domain.ruleset import Ruleset
from domain.views import ARMY, SpaceView, StateView, UnitStack
from variants.spqr import actions as sa
from variants.spqr import events as se
from variants.spqr.errors import NoNavalSuperiority, PowerCentreNotAllowed
from variants.spqr.legal import (
    LegalBuildTrireme,
    LegalClaimProvince,
    LegalDisbandTrireme,
    LegalMoveFleet,
    LegalNavalBattle,
    LegalPlaceNeutral,
    LegalPlacePowerCentre,
    LegalPlaceTrireme,
    LegalSeaAttack,
)
from variants.spqr.options import SpqrOptions
from variants.spqr.phases import SpqrPhase
from variants.spqr.ruleset import POWER_CENTRE, TRIREME, SpqrRuleset

FREE = -1
NEUTRAL_IN_EVENTS = -1

# The steps of a turn after the occupation, in the order the rules impose.
STEPS = (
    Phase.REINFORCE,
    SpqrPhase.NAVAL_REINFORCE,
    SpqrPhase.NAVAL_MOVE,
    SpqrPhase.NAVAL_COMBAT,
    SpqrPhase.SEA_ATTACK,
    Phase.ATTACK,
)
STEP = {phase: position for position, phase in enumerate(STEPS)}


def neutral_owner(position: int) -> int:
    """The owner value of the neutral colour at `position` among the game's neutrals."""
    return -2 - position


@dataclass(frozen=True, slots=True)
class SpqrState(StateView):
    """S.P.Q.RisiKo!'s own state, beyond the board and the players."""

    name: ClassVar[str] = "SpqrState"
    victory_points: tuple[int, ...] = doc("Victory points won so far, by seat.")
    neutral_colours: tuple[str, ...] = doc("The colours of the neutral armies (no seat's).")
    neutral_groups_left: tuple[int, ...] = doc(
        "Groups of neutral legionaries still to place, by neutral colour (Game.neutralColours)."
    )
    trireme_disbanded: bool = doc("The seat in turn has disbanded a trireme this turn.")
    fleet_moved: bool = doc("The seat in turn has moved its fleet this turn.")
    naval_combat_sea: str | None = doc(
        "The sea area of the naval combat the seat in turn may go on with; null if none."
    )


class SpqrGame(Game):
    RULES_REVISIONS: ClassVar[Mapping[int, str]] = {1: "The rules as first played."}
    UNIT_KINDS = (ARMY, TRIREME)
    MARKER_KINDS = (POWER_CENTRE,)
    RULESET_CLASS = SpqrRuleset
    OPTIONS_CLASS = SpqrOptions
    ruleset: SpqrRuleset
    options: SpqrOptions
    neutral_colours: tuple[str, ...]
    triremes: list[list[int]]  # by space, then seat
    power_centre: list[int]  # by space: 1 where a power centre stands
    victory_points: list[int]
    neutral_groups: list[int]  # groups left, by neutral colour
    setup_claimed: bool  # this occupation turn's province is claimed
    setup_neutral_placed: bool  # this occupation turn's neutral group is placed
    pending_triremes: int  # won with cards, still to place
    pending_power_centres: int
    trireme_disbanded: bool
    fleet_moved: bool
    naval_seas: list[int]  # seas of this turn's naval combats
    naval_battle: list[int] | None  # [sea, opponent] while its next roll is allowed
    sea_attacked: list[int]  # provinces attacked by sea this turn
    conquered_by_sea: list[int]  # provinces taken by sea this turn

    def _check_options(self, ruleset: Ruleset, options: GameOptions) -> None:
        super()._check_options(ruleset, options)
        if options.defender_dice is not DefenderDice.MAXIMUM:
            raise InvalidOptions("in S.P.Q.RisiKo! the defender always rolls the most dice")
        if not options.minimum_garrison:
            raise InvalidOptions("the garrison of 2 is a rule of S.P.Q.RisiKo!, not an option")

    _STATE: ClassVar[tuple[str, ...]] = (
        "triremes",
        "power_centre",
        "victory_points",
        "neutral_groups",
        "setup_claimed",
        "setup_neutral_placed",
        "pending_triremes",
        "pending_power_centres",
        "trireme_disbanded",
        "fleet_moved",
        "naval_seas",
        "naval_battle",
        "sea_attacked",
        "conquered_by_sea",
    )

    def _bind_handlers(self) -> dict[type[a.Action], Callable[[int | None, Any], list[e.Event]]]:
        handlers = super()._bind_handlers()
        del handlers[a.Defend]  # the defender never chooses: it rolls the most dice
        handlers.update(
            {
                sa.ClaimProvince: self._claim_province,
                sa.PlaceNeutral: self._place_neutral,
                sa.PlacePowerCentre: self._place_power_centre,
                sa.PlaceTrireme: self._place_trireme,
                sa.BuildTrireme: self._build_trireme,
                sa.DisbandTrireme: self._disband_trireme,
                sa.MoveFleet: self._move_fleet,
                sa.NavalBattle: self._naval_battle,
                sa.SeaAttack: self._sea_attack,
            }
        )
        return handlers

    def _after_action(self, seat: int | None, action: a.Action) -> None:
        if seat == self.current and not isinstance(action, sa.NavalBattle):
            # Any other action of the player in turn ends a naval combat that could have gone
            # on (the clock, or another player leaving, does not).
            self.naval_battle = None

    # ------------------------------------------------------------------ public views

    @property
    def neutral_count(self) -> int:
        return len(self.neutral_colours)

    def owner_colour(self, space: int) -> str | None:
        """The colour of the army on a province (a player's or a neutral's), or None."""
        owner = self.owner[space]
        if owner >= 0:
            return self.colours[owner]
        if owner <= -2:
            return self.neutral_colours[-2 - owner]
        return None

    def objective_of(self, seat: int) -> Objective:
        raise KeyError("S.P.Q.RisiKo! has no objectives: players score victory points")

    def reinforcements_for(self, seat: int) -> tuple[int, int, tuple[tuple[str, int], ...]]:
        """Land reinforcements: 1 below 3 provinces, 3 for 3 to 11, provinces ÷ 3 above 11.
        The legionary of each power centre is placed on it at the start of the turn."""
        provinces = self.territory_count[seat]
        total = 1 if provinces < 3 else 3 if provinces <= 11 else provinces // 3
        return total, total, ()

    def points(self, seat: int) -> int:
        return self.victory_points[seat]

    STATE_VIEW = SpqrState

    def state_view(self) -> StateView:
        battle = self.naval_battle
        return SpqrState(
            self.turn_order,
            tuple(self.victory_points),
            self.neutral_colours,
            tuple(self.neutral_groups),
            self.trireme_disbanded,
            self.fleet_moved,
            None if battle is None else self.board.territories[battle[0]].id,
        )

    def pieces_to_place(self) -> dict[str, int]:
        owed = {TRIREME: self.pending_triremes, POWER_CENTRE: self.pending_power_centres}
        return {kind: count for kind, count in owed.items() if count}

    def space_views(self) -> list[SpaceView]:
        """Provinces with their legionaries (a seat's or a neutral colour's) and power centre;
        sea areas with every seat's triremes and the seat that controls them."""
        views = []
        for space in self.board.territories:
            index = space.index
            if space.is_sea:
                fleet = self.triremes[index]
                units = tuple(UnitStack(TRIREME, n, s) for s, n in enumerate(fleet) if n)
                views.append(SpaceView(space.id, None, units, (), self._controller(index)))
                continue
            owner, armies = self.owner[index], self.armies[index]
            neutral = self.neutral_colours[-2 - owner] if owner <= -2 else None
            seat = owner if owner >= 0 else None
            legion = (UnitStack(ARMY, armies, seat, neutral),) if armies else ()
            markers = (POWER_CENTRE,) if self.power_centre[index] else ()
            views.append(SpaceView(space.id, seat, legion, markers))
        return views

    def score(self, seat: int) -> tuple[int, int, int, int]:
        """The victory points `seat` would claim now: (largest empire, most provinces, most sea
        areas, power centres held)."""
        players = range(len(self.players))
        empires = self.largest_empires()
        mine = empires[seat]
        empire = int(mine >= 4 and all(mine > empires[s] for s in players if s != seat))
        counts = self.territory_count
        provinces = int(all(counts[seat] > counts[s] for s in players if s != seat))
        seas = self._seas_controlled()
        most_seas = int(all(seas[seat] > seas[s] for s in players if s != seat))
        owner = self.owner
        centres = sum(1 for p in self._provinces if self.power_centre[p] and owner[p] == seat)
        return empire, provinces, most_seas, centres

    def largest_empire(self, seat: int) -> int:
        """The most provinces of `seat` joined by land (islands never join anything)."""
        return self.largest_empires()[seat]

    def largest_empires(self) -> list[int]:
        """Every player's largest empire, from one pass over the land borders."""
        owner = self.owner
        land = self.board.land_neighbours
        best = [0] * len(self.players)
        seen: set[int] = set()
        for start in self._provinces:
            seat = owner[start]
            if seat < 0 or start in seen:
                continue
            seen.add(start)
            frontier = [start]
            size = 0
            while frontier:
                current = frontier.pop()
                size += 1
                for neighbour in land[current]:
                    if owner[neighbour] == seat and neighbour not in seen:
                        seen.add(neighbour)
                        frontier.append(neighbour)
            best[seat] = max(best[seat], size)
        return best

    def _controller(self, sea: int) -> int | None:
        """The player with strictly more triremes in `sea` than any other, if any."""
        fleet = self.triremes[sea]
        most = max(fleet)
        if most == 0 or fleet.count(most) > 1:
            return None
        return fleet.index(most)

    def controls(self, seat: int, sea: int) -> bool:
        """Strictly more triremes in `sea` than any other player."""
        return self._controller(sea) == seat

    def seas_controlled(self, seat: int) -> int:
        return self._seas_controlled()[seat]

    def _seas_controlled(self) -> list[int]:
        """The sea areas each player controls, by seat."""
        seas = [0] * len(self.players)
        for sea in self._seas:
            holder = self._controller(sea)
            if holder is not None:
                seas[holder] += 1
        return seas

    def _attacks_open(self) -> bool:
        return self.phase in STEP and not self.pending_reinforcements

    # ------------------------------------------------------------------ the occupation

    def _deal(self, rng: DerivedRandom) -> list[e.Event]:
        ruleset = self.ruleset
        board = self.board
        n = len(self.players)
        spaces = len(board.territories)
        self._seas = tuple(t.index for t in board.territories if t.is_sea)
        self._provinces = tuple(t.index for t in board.territories if not t.is_sea)
        unused = [c.id for c in ruleset.colours if c.id not in self.colours]
        self.neutral_colours = tuple(unused[: len(ruleset.colours) - n])
        self.triremes = [[0] * n for _ in range(spaces)]
        self.power_centre = [0] * spaces
        self.victory_points = [0] * n
        self.neutral_groups = [ruleset.neutral_groups] * self.neutral_count
        self.setup_claimed = False
        self.setup_neutral_placed = False
        self.pending_triremes = 0
        self.pending_power_centres = 0
        self.trireme_disbanded = False
        self.fleet_moved = False
        self.naval_seas = []
        self.naval_battle = None
        self.sea_attacked = []
        self.conquered_by_sea: list[int] = []

        # The dice decide who starts; play goes clockwise (the seat order).
        self.first_player = rng.below(n)
        events: list[e.Event] = [
            e.GameStarted(
                self.players, self.colours, self.first_player, self.turn_order, self.commitment
            )
        ]
        # With 4 players, 3 neutral legionaries stand on Italia from the start.
        if self.neutral_colours:
            for province_id, groups in ruleset.neutrals_at_start.get(n, ()):
                province = board.index[province_id]
                armies = groups * ruleset.neutral_group
                self.owner[province] = neutral_owner(0)
                self.armies[province] = armies
                self.neutral_groups[0] -= groups
                events.append(
                    se.NeutralPlaced(
                        NEUTRAL_IN_EVENTS, province_id, self.neutral_colours[0], armies
                    )
                )
        for seat in range(n):
            self.setup_remaining[seat] = ruleset.provinces_per_player
        self.current = self.first_player
        self.setup_quota = 0
        return events

    def _neutral_due(self) -> bool:
        """Whether the current occupation turn also places a neutral group."""
        return not self.setup_neutral_placed and sum(self.neutral_groups) > 0

    def _free_province(self, province_id: str) -> int:
        province = self._province(province_id)
        if self.owner[province] != FREE:
            raise OwnTerritory(f"{self.board.territories[province].name} is already occupied")
        return province

    def _claim_province(self, seat: int | None, action: sa.ClaimProvince) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is not Phase.SETUP:
            raise WrongPhase("provinces are claimed only during the initial occupation")
        if self.setup_claimed or self.setup_remaining[seat] == 0:
            raise OncePerTurn("you have already claimed a province this turn")
        province = self._free_province(action.province)
        armies = self.ruleset.occupation_armies
        self.owner[province] = seat
        self.armies[province] = armies
        self.territory_count[seat] += 1
        self.setup_remaining[seat] -= 1
        self.setup_claimed = True
        events: list[e.Event] = [se.ProvinceClaimed(seat, action.province, armies)]
        return events + self._after_occupation_step()

    def _place_neutral(self, seat: int | None, action: sa.PlaceNeutral) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is not Phase.SETUP:
            raise WrongPhase("neutral armies are placed only during the initial occupation")
        if not self._neutral_due():
            raise OncePerTurn("no neutral group to place this turn")
        if action.colour not in self.neutral_colours:
            raise InvalidAction(
                f"{action.colour!r} is not a neutral colour: use one of "
                f"{', '.join(self.neutral_colours)}"
            )
        position = self.neutral_colours.index(action.colour)
        if self.neutral_groups[position] == 0:
            raise InvalidArmyCount(f"no neutral group of {action.colour} is left")
        province = self._free_province(action.province)
        armies = self.ruleset.neutral_group
        self.owner[province] = neutral_owner(position)
        self.armies[province] = armies
        self.neutral_groups[position] -= 1
        self.setup_neutral_placed = True
        events: list[e.Event] = [se.NeutralPlaced(seat, action.province, action.colour, armies)]
        return events + self._after_occupation_step()

    def _after_occupation_step(self) -> list[e.Event]:
        seat = self.current
        if (not self.setup_claimed and self.setup_remaining[seat] > 0) or self._neutral_due():
            return []
        return self._next_setup_turn(self._random())

    def _next_setup_turn(self, rng: DerivedRandom) -> list[e.Event]:
        self.setup_claimed = False
        self.setup_neutral_placed = False
        order = self.turn_order
        position = order.index(self.current)
        for step in range(1, len(order) + 1):
            seat = order[(position + step) % len(order)]
            if self.setup_remaining[seat] > 0 and not self.resigned[seat]:
                self.current = seat
                return []
        # Everyone holds their provinces: the deck is shuffled and the first turn begins. No
        # neutral group is left: every turn places one while any remain, and there are more
        # turns than groups even after a resignation (whose provinces are claimed for it).
        self.deck = list(self.ruleset.cards.cards)
        rng.shuffle(self.deck)
        self.round = 1
        events: list[e.Event] = [e.DeckShuffled(len(self.deck), False)]
        first = next(seat for seat in self.turn_order if not self.resigned[seat])
        return events + self._start_turn(first)

    def _leaving(self, seat: int) -> list[e.Event]:
        events: list[e.Event] = []
        if self.phase is Phase.SETUP:
            # The provinces still due to a player who leaves are occupied for them, in board
            # order, so that every province is held when play begins.
            free = [p for p in self._provinces if self.owner[p] == FREE]
            for province in free[: self.setup_remaining[seat]]:
                self.owner[province] = seat
                self.armies[province] = self.ruleset.occupation_armies
                self.territory_count[seat] += 1
                province_id = self.board.territories[province].id
                events.append(se.ProvinceClaimed(seat, province_id, self.armies[province]))
            self.setup_remaining[seat] = 0
        return events + super()._leaving(seat)

    # ------------------------------------------------------------------ turns

    def _start_turn(self, seat: int) -> list[e.Event]:
        self.current = seat
        self.phase = Phase.REINFORCE
        self.conquered_this_turn = False
        self.pending_triremes = self.pending_power_centres = 0
        self.trireme_disbanded = self.fleet_moved = False
        self.naval_seas, self.naval_battle = [], None
        self.sea_attacked, self.conquered_by_sea = [], []
        total, _, _ = self.reinforcements_for(seat)
        self.pending_reinforcements = total
        events: list[e.Event] = [e.TurnStarted(seat, self.round, total, total, ())]
        # Victory points are claimed first, and only now (the server never forgets them).
        empire, provinces, seas, centres = self.score(seat)
        gained = empire + provinces + seas + centres
        self.victory_points[seat] += gained
        events.append(
            se.VictoryPointsScored(
                seat, empire, provinces, seas, centres, self.victory_points[seat]
            )
        )
        target = self.options.victory_points
        if target is not None and self.victory_points[seat] >= target:
            return events + self._finish(seat, "victory_points")
        for province, centre in enumerate(self.power_centre):
            if centre and self.owner[province] == seat:
                self.armies[province] += 1
                province_id = self.board.territories[province].id
                events.append(e.ArmiesPlaced(seat, province_id, 1))
        return events

    def _end_turn(self, seat: int) -> list[e.Event]:
        events: list[e.Event] = []
        if self.pending_triremes or self.pending_power_centres:
            events.append(
                se.RewardsForfeited(seat, self.pending_triremes, self.pending_power_centres)
            )
            self.pending_triremes = self.pending_power_centres = 0
        self.naval_battle = None
        return events + super()._end_turn(seat)

    def _check_victory(self) -> list[e.Event]:
        """Victory points are won only at the start of a turn; a conquest can only leave a
        single player standing."""
        active = self.active_seats()
        if len(active) <= 1:
            return self._finish(active[0] if active else None, "last_player")
        return []

    def _after_armies_changed(self, seat: int) -> list[e.Event]:
        return []

    def _after_elimination(self, loser: int, winner: int) -> list[e.Event]:
        """The eliminated player's triremes leave the board (there are no objectives)."""
        sunk = 0
        for sea in self._seas:
            sunk += self.triremes[sea][loser]
            self.triremes[sea][loser] = 0
        return [se.TriremesSunk(loser, sunk)] if sunk else []

    # ------------------------------------------------------------------ checks

    def _province(self, space_id: str) -> int:
        space = self._territory(space_id)
        if self.board.territories[space].is_sea:
            raise WrongKindOfSpace(f"{self.board.territories[space].name} is a sea area")
        return space

    def _sea(self, space_id: str) -> int:
        space = self._territory(space_id)
        if not self.board.territories[space].is_sea:
            raise WrongKindOfSpace(f"{self.board.territories[space].name} is not a sea area")
        return space

    def _own_province(self, seat: int, province_id: str) -> int:
        province = self._province(province_id)
        if self.owner[province] != seat:
            raise NotYourTerritory(f"{self.board.territories[province].name} is not yours")
        return province

    def _check_step(self, step: Phase) -> None:
        """The turn's steps go in order: nothing of an earlier step once a later one began,
        and every land reinforcement placed before anything after them."""
        if self.phase not in STEP:
            raise WrongPhase(f"you cannot do that in the {self.phase.value} phase")
        if STEP[step] < STEP[self.phase]:
            raise WrongPhase(
                f"{step.value.replace('_', ' ')} comes before {self.phase.value.replace('_', ' ')}"
                " in the turn"
            )
        if step is not Phase.REINFORCE and self.pending_reinforcements:
            raise ReinforcementsPending(
                f"place your {self.pending_reinforcements} remaining legionaries first"
            )

    def _check_can_act_in_turn(self) -> None:
        # The strategic move and the end of the turn may come after any step.
        self._check_step(Phase.ATTACK)

    def _validate_attack(
        self, seat: int, source_id: str, target_id: str, dice: int
    ) -> tuple[int, int]:
        self._check_step(Phase.ATTACK)
        self._province(source_id)
        self._province(target_id)
        return super()._validate_attack(seat, source_id, target_id, dice)

    def _place_armies(self, seat: int | None, action: a.PlaceArmies) -> list[e.Event]:
        if self.phase is Phase.SETUP:
            raise WrongPhase("during the occupation, claim a province (2 legionaries) instead")
        return super()._place_armies(seat, action)

    # ------------------------------------------------------------------ reinforcements

    def _trade_cards(self, seat: int | None, action: a.TradeCards) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is not Phase.REINFORCE:
            raise WrongPhase("cards can be traded only in the reinforcement phase")
        hand = self.hands[seat]
        for card in action.cards:
            if card not in hand:
                raise CardNotInHand(f"you do not hold the card {card!r}")
        value = self.ruleset.set_value(action.cards)
        for card in action.cards:
            hand.remove(card)
        self.discard.extend(action.cards)
        self.pending_reinforcements += value.legionaries
        self.pending_triremes += value.triremes
        self.pending_power_centres += value.power_centres
        events: list[e.Event] = [
            e.CardsTraded(seat, tuple(action.cards), value.base, value.legionaries - value.base)
        ]
        if value.triremes or value.power_centres:
            events.append(se.SetRewards(seat, value.triremes, value.power_centres))
        return events

    def _power_centre_sites(self, seat: int) -> list[int]:
        """Own provinces where a power centre may stand: none there or land-adjacent."""
        if sum(self.power_centre) >= self.ruleset.power_centres:
            return []
        centre = self.power_centre
        land = self.board.land_neighbours
        return [
            p
            for p in self._provinces
            if self.owner[p] == seat and not centre[p] and not any(centre[n] for n in land[p])
        ]

    def _check_reward_step(self) -> None:
        if self.phase not in (Phase.REINFORCE, SpqrPhase.NAVAL_REINFORCE):
            raise WrongPhase("what a set gives is placed during the reinforcements")

    def _place_power_centre(self, seat: int | None, action: sa.PlacePowerCentre) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_reward_step()
        if not self.pending_power_centres:
            raise WrongPhase("you have no power centre to place: trade a set with an arena")
        province = self._own_province(seat, action.province)
        name = self.board.territories[province].name
        if sum(self.power_centre) >= self.ruleset.power_centres:
            raise PowerCentreNotAllowed(
                f"all {self.ruleset.power_centres} power centres are on the board"
            )
        if self.power_centre[province]:
            raise PowerCentreNotAllowed(f"{name} already has a power centre")
        for neighbour in self.board.land_neighbours[province]:
            if self.power_centre[neighbour]:
                other = self.board.territories[neighbour].name
                raise PowerCentreNotAllowed(f"{name} borders {other}, which has a power centre")
        self.power_centre[province] = 1
        self.pending_power_centres -= 1
        return [se.PowerCentrePlaced(seat, action.province)]

    def _place_trireme(self, seat: int | None, action: sa.PlaceTrireme) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_reward_step()
        if not self.pending_triremes:
            raise WrongPhase("you have no trireme to place: trade a set with a trireme")
        sea = self._sea(action.sea)
        if not any(self.owner[p] == seat for p in self.board.coasts[sea]):
            raise NotAdjacent(f"none of your provinces is on {self.board.territories[sea].name}")
        self.triremes[sea][seat] += 1
        self.pending_triremes -= 1
        return [se.TriremesPlaced(seat, action.sea, 1, None, 0)]

    def _disband_trireme(self, seat: int | None, action: sa.DisbandTrireme) -> list[e.Event]:
        seat = self._check_turn(seat)
        if self.phase is not Phase.REINFORCE:
            raise WrongPhase("a trireme becomes legionaries only during the land reinforcements")
        if self.trireme_disbanded:
            raise OncePerTurn("one trireme a turn may become legionaries")
        sea = self._sea(action.sea)
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

    def _build_trireme(self, seat: int | None, action: sa.BuildTrireme) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_step(SpqrPhase.NAVAL_REINFORCE)
        province = self._own_province(seat, action.province)
        sea = self._sea(action.sea)
        names = self.board.territories
        if sea not in self.board.coasts[province]:
            raise NotAdjacent(f"{names[province].name} is not on {names[sea].name}")
        cost = self.ruleset.legionaries_per_trireme
        most = (self.armies[province] - 1) // cost
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

    # ------------------------------------------------------------------ at sea

    def _move_fleet(self, seat: int | None, action: sa.MoveFleet) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_step(SpqrPhase.NAVAL_MOVE)
        if self.fleet_moved:
            raise OncePerTurn("the naval move has been made this turn")
        source = self._sea(action.source)
        target = self._sea(action.target)
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

    def _naval_dice_range(self, seat: int, sea: int, opponent: int) -> tuple[int, int]:
        high = min(MAX_DICE, self.triremes[sea][seat])  # no garrison at sea
        low = 1
        if self.options.attacker_dice_at_least_defender:
            low = min(MAX_DICE, self.triremes[sea][opponent])
        return low, high

    def _naval_battle(self, seat: int | None, action: sa.NavalBattle) -> list[e.Event]:
        seat = self._check_turn(seat)
        sea = self._sea(action.sea)
        names = self.board.territories
        ongoing = self.naval_battle == [sea, action.opponent]
        if not ongoing:
            self._check_step(SpqrPhase.NAVAL_COMBAT)
            if sea in self.naval_seas:
                raise OncePerTurn(f"there has been a naval combat on {names[sea].name} this turn")
            if not 0 <= action.opponent < len(self.players) or action.opponent == seat:
                raise InvalidAction(f"seat {action.opponent} is not an opponent")
            if self.triremes[sea][seat] == 0:
                raise NotEnoughArmies(f"you have no trireme on {names[sea].name}")
            if self.triremes[sea][action.opponent] == 0:
                raise NotEnoughArmies(
                    f"{self.players[action.opponent]} has no trireme on {names[sea].name}"
                )
        low, high = self._naval_dice_range(seat, sea, action.opponent)
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

    def _superior(self, seat: int, sea: int, rival: int) -> bool:
        """More triremes in `sea` than the owner `rival` (a neutral has none)."""
        theirs = self.triremes[sea][rival] if rival >= 0 else 0
        return self.triremes[sea][seat] > theirs

    def _sea_attack(self, seat: int | None, action: sa.SeaAttack) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_step(SpqrPhase.SEA_ATTACK)
        source = self._own_province(seat, action.source)
        target = self._province(action.target)
        sea = self._sea(action.sea)
        names = self.board.territories
        if self.owner[target] == seat:
            raise OwnTerritory(f"{names[target].name} is already yours")
        for province in (source, target):
            if sea not in self.board.coasts[province]:
                raise NotAdjacent(f"{names[province].name} is not on {names[sea].name}")
        defender = self.owner[target]
        if not self._superior(seat, sea, defender):
            raise NoNavalSuperiority(
                f"you need more triremes on {names[sea].name} than the defender"
            )
        if target in self.sea_attacked:
            raise OncePerTurn(f"{names[target].name} has already been attacked by sea this turn")
        if source in self.conquered_by_sea:
            raise OncePerTurn(
                f"{names[source].name} was taken by sea this turn: it may attack only by land"
            )
        if self._protected(target):
            raise EliminationTooEarly(
                f"no player may be eliminated before the end of round "
                f"{self.options.protected_rounds}: {names[target].name} is the last province "
                f"of {self.players[defender]}"
            )
        if self.armies[source] < 2:
            raise NotEnoughArmies(f"{names[source].name} needs at least 2 legionaries to attack")
        most = self._strategic_max(source)  # a sea attack's force is bound like a move
        if not 1 <= action.legionaries <= self.armies[source] - 1:
            raise InvalidArmyCount(
                f"attack with 1 to {self.armies[source] - 1} legionaries, not {action.legionaries}"
            )
        if action.legionaries > most:
            raise MinimumGarrison(
                f"{names[source].name} borders an enemy and must keep at least 2 legionaries: "
                f"attack with at most {most}"
            )
        self.phase = SpqrPhase.SEA_ATTACK
        self.sea_attacked.append(target)
        self.armies[source] -= action.legionaries
        force = action.legionaries
        events: list[e.Event] = [
            se.SeaAttackLaunched(
                seat,
                action.source,
                action.target,
                action.sea,
                action.legionaries,
                max(defender, NEUTRAL_IN_EVENTS),
            )
        ]
        rng = self._random()
        armies = self.armies
        while force and armies[target]:
            attacker, defending = rng.roll(min(MAX_DICE, force), min(MAX_DICE, armies[target]))
            attacker_losses, defender_losses = compare_dice(attacker, defending)
            force -= attacker_losses
            armies[target] -= defender_losses
            events.append(
                e.DiceRolled(
                    seat,
                    action.source,
                    action.target,
                    tuple(attacker),
                    tuple(defending),
                    attacker_losses,
                    defender_losses,
                )
            )
        if armies[target]:
            return events
        self.owner[target] = seat
        self.armies[target] = force
        self.territory_count[seat] += 1
        self.conquered_this_turn = True
        self.conquered_by_sea.append(target)
        events.append(
            e.TerritoryConquered(
                seat,
                action.source,
                action.target,
                max(defender, NEUTRAL_IN_EVENTS),
                force,
                force,
            )
        )
        events.append(e.ArmiesMoved(seat, action.source, action.target, force, False))
        if defender >= 0:
            self.territory_count[defender] -= 1
            if self.territory_count[defender] == 0:
                events += self._eliminate(defender, seat)
        return events + self._check_victory()

    # ------------------------------------------------------------------ the strategic move

    def _reach(self, source: int, controlled: Sequence[int]) -> set[int]:
        """The spaces a strategic move from `source` may reach: its land neighbours, and every
        shore of the `controlled` sea areas it touches (one sea crossed, no more)."""
        reach = set(self.board.land_neighbours[source])
        for sea in controlled:
            if sea in self.board.coasts[source]:
                reach.update(self.board.coasts[sea])
        return reach

    def _controlled_by(self, seat: int) -> list[int]:
        return [sea for sea in self._seas if self._controller(sea) == seat]

    def _strategic_move(self, seat: int | None, action: a.StrategicMove) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_can_act_in_turn()
        source = self._own_province(seat, action.source)
        target = self._own_province(seat, action.target)
        names = self.board.territories
        if source == target or target not in self._reach(source, self._controlled_by(seat)):
            raise NotAdjacent(
                f"{names[source].name} and {names[target].name} are neither neighbours nor on a "
                "sea area where you have more triremes than everyone else"
            )
        base_high = self.armies[source] - 1
        if base_high < 1:
            raise NotEnoughArmies(f"{names[source].name} must keep at least one legionary")
        if not 1 <= action.armies <= base_high:
            raise InvalidArmyCount(f"move 1 to {base_high} legionaries, not {action.armies}")
        if action.armies > self._strategic_max(source):
            raise MinimumGarrison(
                f"{names[source].name} borders an enemy and must keep at least 2 legionaries"
            )
        self.armies[source] -= action.armies
        self.armies[target] += action.armies
        events: list[e.Event] = [
            e.ArmiesMoved(seat, action.source, action.target, action.armies, True)
        ]
        return events + self._end_turn(seat)

    # ------------------------------------------------------------------ legal actions

    def _turn_actions(self, seat: int) -> list[LegalAction]:
        ids = self.board.territories
        if self.phase is Phase.SETUP:
            free = tuple(ids[p].id for p in self._provinces if self.owner[p] == FREE)
            legal: list[LegalAction] = []
            if not self.setup_claimed and self.setup_remaining[seat] > 0:
                legal.append(LegalClaimProvince(free))
            if self._neutral_due():
                colours = tuple(
                    c for i, c in enumerate(self.neutral_colours) if self.neutral_groups[i]
                )
                legal.append(LegalPlaceNeutral(free, colours))
            return legal
        if self.phase is Phase.OCCUPY:
            assert self.pending_conquest is not None
            source, target, low, high = self.pending_conquest
            return [LegalOccupy(ids[source].id, ids[target].id, low, high)]
        legal = []
        step = STEP[self.phase]
        own = [p for p in self._provinces if self.owner[p] == seat]
        if self.phase is Phase.REINFORCE:
            for triple in self.ruleset.tradeable_sets(self.hands[seat]):
                legal.append(LegalTrade(triple, self.ruleset.set_value(triple).legionaries))
            if self.pending_reinforcements:
                legal.append(
                    LegalPlace(tuple(ids[p].id for p in own), 1, self.pending_reinforcements)
                )
            if not self.trireme_disbanded:
                for sea in self._seas:
                    if self.triremes[sea][seat]:
                        shore = tuple(
                            ids[p].id for p in self.board.coasts[sea] if self.owner[p] == seat
                        )
                        if shore:
                            legal.append(LegalDisbandTrireme(ids[sea].id, shore))
        if step <= STEP[SpqrPhase.NAVAL_REINFORCE]:
            if self.pending_power_centres:
                sites = self._power_centre_sites(seat)
                if sites:
                    legal.append(LegalPlacePowerCentre(tuple(ids[p].id for p in sites)))
            if self.pending_triremes:
                seas = tuple(
                    ids[s].id
                    for s in self._seas
                    if any(self.owner[p] == seat for p in self.board.coasts[s])
                )
                if seas:
                    legal.append(LegalPlaceTrireme(seas))
        if self.pending_reinforcements:
            return legal
        fleet = self.triremes
        cost = self.ruleset.legionaries_per_trireme
        if step <= STEP[SpqrPhase.NAVAL_REINFORCE]:
            for p in own:
                most = (self.armies[p] - 1) // cost
                if most >= 1:
                    for sea in self.board.coasts[p]:
                        legal.append(LegalBuildTrireme(ids[p].id, ids[sea].id, 1, most))
        if step < STEP[SpqrPhase.NAVAL_MOVE] and not self.fleet_moved:
            for sea in self._seas:
                if fleet[sea][seat]:
                    for other in self.board.sea_neighbours[sea]:
                        legal.append(
                            LegalMoveFleet(ids[sea].id, ids[other].id, 1, fleet[sea][seat])
                        )
        if step <= STEP[SpqrPhase.NAVAL_COMBAT]:
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
        spare = {p: self._strategic_max(p) for p in own}  # what may leave each province
        if step <= STEP[SpqrPhase.SEA_ATTACK]:
            for source in own:
                most = spare[source]
                if most < 1 or source in self.conquered_by_sea:
                    continue
                for sea in self.board.coasts[source]:
                    if not fleet[sea][seat]:
                        continue
                    for target in self.board.coasts[sea]:
                        holder = self.owner[target]
                        if (
                            holder == seat
                            or target in self.sea_attacked
                            or not self._superior(seat, sea, holder)
                            or self._protected(target)
                        ):
                            continue
                        legal.append(
                            LegalSeaAttack(ids[source].id, ids[target].id, ids[sea].id, 1, most)
                        )
        land = self.board.land_neighbours
        armies = self.armies
        for source in own:
            if armies[source] < 2:
                continue
            for target in land[source]:
                if self.owner[target] == seat or self._protected(target):
                    continue
                low, high = self._attack_dice_range(source, target)
                if low > high:
                    continue
                legal.append(LegalAttack(ids[source].id, ids[target].id, low, high))
                legal.append(
                    LegalAttackUntil(ids[source].id, ids[target].id, low, 1, armies[source] - 1)
                )
        controlled = self._controlled_by(seat)
        for source in own:
            high = spare[source]
            if high < 1:
                continue
            reach = self._reach(source, controlled)
            for target in own:
                if target != source and target in reach:
                    legal.append(LegalStrategicMove(ids[source].id, ids[target].id, 1, high))
        legal.append(LegalEndTurn())
        return legal
