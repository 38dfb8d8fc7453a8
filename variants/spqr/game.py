"""S.P.Q.RisiKo!: 45 provinces and 12 sea areas, triremes, neutral armies, power centres and
victory points (seed 001; the choices are in docs/spqr.md), composed of the RisiKo! mechanics
(domain/risiko) and its own: the occupation (occupation.py), the turn's steps (steps.py), the
fleets (fleet.py) and the sea attack (sea_attack.py)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import ClassVar, final

from domain import actions as a
from domain import events as e
from domain.actions import doc
from domain.errors import WrongPhase
from domain.flow import Phase
from domain.kernel import handles
from domain.legal import LegalAction, LegalEndTurn
from domain.risiko.cards import SetTrading
from domain.risiko.strategic import StrategicMove
from domain.rng import DerivedRandom
from domain.views import ARMY, SpaceView, StateView, UnitStack
from variants.spqr import actions as sa
from variants.spqr import events as se
from variants.spqr.errors import PowerCentreNotAllowed
from variants.spqr.legal import LegalPlacePowerCentre
from variants.spqr.occupation import Occupation
from variants.spqr.options import SpqrOptions
from variants.spqr.phases import SpqrPhase
from variants.spqr.ruleset import POWER_CENTRE, TRIREME, SpqrRuleset
from variants.spqr.sea_attack import SeaAttacks
from variants.spqr.steps import FREE, NEUTRAL_IN_EVENTS, STEP, STEPS, neutral_owner

__all__ = ["FREE", "STEP", "STEPS", "SpqrGame", "SpqrState", "neutral_owner"]


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


class SpqrGame(SeaAttacks, Occupation, SetTrading, StrategicMove):
    RULES_REVISIONS: ClassVar[Mapping[int, str]] = {1: "The rules as first played."}
    UNIT_KINDS = (ARMY, TRIREME)
    MARKER_KINDS = (POWER_CENTRE,)
    RULESET_CLASS = SpqrRuleset
    OPTIONS_CLASS = SpqrOptions
    STATE_VIEW = SpqrState
    # 2: the snapshot format classic RisiKo! had when this game was built on it.
    SNAPSHOT_FORMAT: ClassVar[int] = 2
    LEAVES_BEFORE_ANSWERING: ClassVar[bool] = True
    _STATE: ClassVar[tuple[str, ...]] = ("power_centre", "victory_points", "pending_power_centres")
    power_centre: list[int]  # by space: 1 where a power centre stands
    victory_points: list[int]
    pending_power_centres: int

    def _start_state(self) -> None:
        self.power_centre = [0] * len(self.board.territories)
        self.victory_points = [0] * len(self.players)
        self.pending_power_centres = 0
        super()._start_state()

    # ------------------------------------------------------------------ the options' rules

    def _keeps_garrison(self) -> bool:
        return True  # the garrison of 2 is a rule of S.P.Q.RisiKo!

    def _check_attack_spaces(self, source_id: str, target_id: str) -> None:
        self.board.land(source_id)  # an attack by land is between provinces
        self.board.land(target_id)

    def _after_action(self, seat: int | None, action: a.Action) -> None:
        if seat == self.current and type(action) is not sa.NavalBattle:
            # Any other action of the player in turn ends a naval combat that could have gone
            # on (the clock, or another player leaving, does not).
            self.naval_battle = None

    # ------------------------------------------------------------------ public views

    def owner_colour(self, space: int) -> str | None:
        """The colour of the army on a province (a player's or a neutral's), or None."""
        owner = self.owner[space]
        if owner >= 0:
            return self.colours[owner]
        if owner <= -2:
            return self.neutral_colours[-2 - owner]
        return None

    def reinforcements_for(self, seat: int) -> tuple[int, int, tuple[tuple[str, int], ...]]:
        """Land reinforcements: 1 below 3 provinces, 3 for 3 to 11, provinces ÷ 3 above 11.
        The legionary of each power centre is placed on it at the start of the turn."""
        provinces = self.territory_count[seat]
        total = 1 if provinces < 3 else 3 if provinces <= 11 else provinces // 3
        return total, total, ()

    def points(self, seat: int) -> int:
        return self.victory_points[seat]

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

    # ------------------------------------------------------------------ victory points

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

    # ------------------------------------------------------------------ the deal

    def _deal(self, rng: DerivedRandom) -> list[e.Event]:
        ruleset = self.ruleset
        board = self.board
        n = len(self.players)
        events = self._draw_first_player(rng)
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

    def _start_play(self, rng: DerivedRandom) -> list[e.Event]:
        return self._first_round(rng)

    def _leaving(self, seat: int) -> list[e.Event]:
        return self._claim_for_the_departed(seat)

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

    def _closing_turn(self, seat: int) -> list[e.Event]:
        events: list[e.Event] = []
        if self.pending_triremes or self.pending_power_centres:
            events.append(
                se.RewardsForfeited(seat, self.pending_triremes, self.pending_power_centres)
            )
            self.pending_triremes = self.pending_power_centres = 0
        self.naval_battle = None
        return events + self._conquest_card(seat)

    def _check_victory(self) -> list[e.Event]:
        """Victory points are won only at the start of a turn; a conquest can only leave a
        single player standing."""
        active = self.active_seats()
        if len(active) <= 1:
            return self._finish(active[0] if active else None, "last_player")
        return []

    def _after_battle(self, seat: int, target: int) -> list[e.Event]:
        return self._check_victory() if self.owner[target] == seat else []

    def _after_elimination(self, loser: int, winner: int) -> list[e.Event]:
        """The eliminated player's triremes leave the board (there are no objectives)."""
        return self._sink_fleet(loser)

    # ------------------------------------------------------------------ reinforcements

    def _set_offers(self, seat: int) -> list[tuple[tuple[str, str, str], int]]:
        sets = self.ruleset.tradeable_sets(self.hands[seat])
        return [(triple, self.ruleset.set_value(triple).legionaries) for triple in sets]

    def _redeem(self, seat: int, cards: tuple[str, ...]) -> list[e.Event]:
        value = self.ruleset.set_value(cards)
        self.pending_reinforcements += value.legionaries
        self.pending_triremes += value.triremes
        self.pending_power_centres += value.power_centres
        events: list[e.Event] = [
            e.CardsTraded(seat, tuple(cards), value.base, value.legionaries - value.base)
        ]
        if value.triremes or value.power_centres:
            events.append(se.SetRewards(seat, value.triremes, value.power_centres))
        return events

    @final
    def _power_centre_refusal(self, seat: int, province: int) -> str | None:
        """Why no power centre may stand on `province` (own) now, or None."""
        if sum(self.power_centre) >= self.ruleset.power_centres:
            return f"all {self.ruleset.power_centres} power centres are on the board"
        name = self.board.territories[province].name
        if self.power_centre[province]:
            return f"{name} already has a power centre"
        for neighbour in self.board.land_neighbours[province]:
            if self.power_centre[neighbour]:
                other = self.board.territories[neighbour].name
                return f"{name} borders {other}, which has a power centre"
        return None

    @final
    @handles(sa.PlacePowerCentre)
    def _place_power_centre(self, seat: int | None, action: sa.PlacePowerCentre) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_reward_step()
        if not self.pending_power_centres:
            raise WrongPhase("you have no power centre to place: trade a set with an arena")
        province = self._own_province(seat, action.province)
        refusal = self._power_centre_refusal(seat, province)
        if refusal is not None:
            raise PowerCentreNotAllowed(refusal)
        self.power_centre[province] = 1
        self.pending_power_centres -= 1
        return [se.PowerCentrePlaced(seat, action.province)]

    @final
    def _power_centre_families(self, seat: int) -> list[LegalAction]:
        if not self.pending_power_centres:
            return []
        sites = [
            p
            for p in self._provinces
            if self.owner[p] == seat and self._power_centre_refusal(seat, p) is None
        ]
        ids = self.board.territories
        return [LegalPlacePowerCentre(tuple(ids[p].id for p in sites))] if sites else []

    # ------------------------------------------------------------------ the strategic move

    def _move_reach(self, seat: int, source: int) -> Collection[int]:
        return self._reach(source, self._controlled_by(seat))

    @final
    def _reach(self, source: int, controlled: Collection[int]) -> set[int]:
        """The spaces a strategic move from `source` may reach: its land neighbours, and every
        shore of the `controlled` sea areas it touches (one sea crossed, no more)."""
        reach = set(self.board.land_neighbours[source])
        for sea in controlled:
            if sea in self.board.coasts[source]:
                reach.update(self.board.coasts[sea])
        return reach

    def _unreachable(self, source: int, target: int) -> str:
        names = self.board.territories
        return (
            f"{names[source].name} and {names[target].name} are neither neighbours nor on a "
            "sea area where you have more triremes than everyone else"
        )

    def _own_space(self, seat: int, space_id: str) -> int:
        return self._own_province(seat, space_id)

    def _moved(self, seat: int) -> list[e.Event]:
        return self._end_turn(seat)

    # ------------------------------------------------------------------ legal actions

    def _turn_actions(self, seat: int) -> list[LegalAction]:
        if self.phase is Phase.SETUP:
            return self._occupation_families(seat)
        if self.phase is Phase.OCCUPY:
            return [self._occupy_family()]
        legal: list[LegalAction] = []
        step = STEP[self.phase]
        own = [p for p in self._provinces if self.owner[p] == seat]
        if self.phase is Phase.REINFORCE:
            legal += self._trade_families(seat)
            if self.pending_reinforcements:
                legal.append(self._place_family(seat, self.pending_reinforcements))
            legal += self._disband_families(seat)
        if step <= STEP[SpqrPhase.NAVAL_REINFORCE]:
            legal += self._power_centre_families(seat)
            legal += self._place_trireme_families(seat)
        if self.pending_reinforcements:
            return legal
        if step <= STEP[SpqrPhase.NAVAL_REINFORCE]:
            legal += self._build_families(seat, own)
        legal += self._fleet_families(seat)
        if step <= STEP[SpqrPhase.NAVAL_COMBAT]:
            legal += self._naval_families(seat)
        spare = {p: self._strategic_max(p) for p in own}  # what may leave each province
        if step <= STEP[SpqrPhase.SEA_ATTACK]:
            legal += self._sea_attack_families(seat, own, spare)
        legal += self._attack_families(seat)
        controlled = self._controlled_by(seat)
        legal += self._move_families(seat, spare, lambda source: self._reach(source, controlled))
        legal.append(LegalEndTurn())
        return legal
