"""RisiKo! Più (seed 003): empires and fortresses, banners, six kinds of card, the flagship and
hidden armies, composed of the RisiKo! mechanics (domain/risiko) and its own parts: the setup
(setup.py), the cards (cards.py), the battles and the flagship (battle.py). The choices where
the seed is silent: docs/piu.md.

A turn: reinforcements (Phase.REINFORCE); the hand drawn up to three and cards played
(PiuPhase.CARDS); attacks (Phase.ATTACK, Phase.OCCUPY); the move, which ends the turn. A card
of an earlier step is refused after a later one. Cards played out of turn (a Maresciallo in
defence, a Spia that blocks a Spia) follow each seat's private standing orders, so that nobody
is ever asked, and nothing tells who holds which card. When defenders declare their dice
(option `defender_dice`), an attack waits for its defender's answer, a prompt on the kernel's
stack as in classic RisiKo!: the Maresciallo joins as the attack is declared, before the
defender's dice, and the flagship's attack waits for an answer before each of its rolls.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain import events as e
from domain.actions import doc
from domain.errors import InvalidArmyCount, ReinforcementsPending, WrongPhase
from domain.flow import Phase
from domain.legal import LegalAction, LegalEndTurn
from domain.views import ARMY, SpaceView, StateView, UnitStack
from variants.piu import events as pe
from variants.piu.base import (
    FLAGSHIP_DEFENCE,
    FORTRESS_STEP,
    GENERAL,
    HIDDEN_STEP,
    MARSHAL,
    SOURCE,
    TARGET,
)
from variants.piu.battle import PiuBattles
from variants.piu.cards import PiuCards
from variants.piu.legal import LegalDiscardSpiedCard
from variants.piu.options import PiuOptions
from variants.piu.phases import PiuPhase
from variants.piu.ruleset import FORTRESS, PiuRuleset
from variants.piu.setup import PiuSetup

__all__ = ["FLAGSHIP_DEFENCE", "FORTRESS_STEP", "HIDDEN_STEP", "PiuGame", "PiuState"]


@dataclass(frozen=True, slots=True)
class PiuState(StateView):
    """RisiKo! Più's own state, beyond the board and the players."""

    name: ClassVar[str] = "PiuState"
    first_player: int = doc("The seat the dice chose to play first; play goes clockwise.")
    setup_step: str = doc(
        "The setup's step: fortress, claim, place or hidden; empty once the game is under way."
    )
    setup_quota: int = doc("Armies the seat in turn places in this setup turn; 0 after it.")
    reinforcements_left: int = doc("Armies the seat in turn still has to place.")
    empires: tuple[str, ...] = doc("The empire (a region id) each seat drew, by seat.")
    fortresses: tuple[str, ...] = doc(
        "Each seat's fortress territory, by seat; empty where none stands (not yet placed, "
        "or fallen)."
    )
    banner_holders: tuple[int, ...] = doc(
        "By seat: who holds that seat's banner (the seat itself while its fortress stands)."
    )
    rinforzi_played: int = doc("Rinforzi cards played in the game, the shared track's count.")
    next_rinforzi: int = doc("What the next Rinforzi card gives (the track's next step).")
    hidden_armies_out: tuple[int, ...] = doc("The seats whose hidden armies have come out.")
    truce_imposers: tuple[int, ...] = doc(
        "Truces: the seat that played each Diplomatico (it ends as that seat's turn starts)."
    )
    truce_targets: tuple[int, ...] = doc("Truces: the seat each Diplomatico was played on.")
    attack_source: str | None = doc("The attack under way this turn: its source.")
    attack_target: str | None = doc("The attack under way this turn: its target.")
    general: bool = doc("A Generale adds 1 to the attacker's highest die in that attack.")
    marshal: bool = doc("A Maresciallo adds 1 to the defender's highest die in that attack.")
    admiral_used: bool = doc("The seat in turn has used the flagship this turn.")
    flagship_armies: int = doc(
        "Armies aboard the flagship while its attack waits for the defender's dice (when "
        "defenders declare them); 0 otherwise."
    )
    spied_player: int | None = doc(
        "The seat whose hand the seat in turn has seen with a Spia and must discard from."
    )
    time_expired: bool = doc("The time limit has passed: the game ends with this round.")


class PiuGame(PiuBattles, PiuCards, PiuSetup):
    RULES_REVISIONS: ClassVar[Mapping[int, str]] = {1: "The rules as first played."}
    MARKER_KINDS = (FORTRESS,)
    STATE_VIEW: ClassVar[type[StateView]] = PiuState
    SNAPSHOT_FORMAT: ClassVar[int] = 1
    RULESET_CLASS = PiuRuleset
    OPTIONS_CLASS = PiuOptions
    LEAVES_BEFORE_ANSWERING: ClassVar[bool] = True

    # ------------------------------------------------------------------ public views

    def state_view(self) -> StateView:
        ids = self.board.territories
        holders = list(range(len(self.players)))
        for holder, taken in enumerate(self.banners):
            for seat in taken:
                holders[seat] = holder
        attack = self.attack
        return PiuState(
            self.turn_order,
            self.first_player,
            self.setup_step,
            self.setup_quota if self.phase is Phase.SETUP else 0,
            self.pending_reinforcements,
            tuple(self.board.regions[r].id if r >= 0 else "" for r in self.empire),
            tuple(
                ids[t].id if t >= 0 and not self.eliminated[seat] else ""
                for seat, t in enumerate(self.fortress)
            ),
            tuple(holders),
            self.rinforzi_played,
            self.ruleset.rinforzi_value(self.rinforzi_played),
            tuple(seat for seat, used in enumerate(self.hidden_used) if used),
            tuple(imposer for imposer, _ in self.truces),
            tuple(target for _, target in self.truces),
            ids[attack[SOURCE]].id if attack else None,
            ids[attack[TARGET]].id if attack else None,
            bool(attack and attack[GENERAL]),
            bool(attack and attack[MARSHAL]),
            self.admiral_used,
            self._flagship_aboard(),
            self.spied if self.spied >= 0 else None,
            self.time_expired,
        )

    def space_views(self) -> list[SpaceView]:
        fortresses = {
            t for seat, t in enumerate(self.fortress) if t >= 0 and not self.eliminated[seat]
        }
        views = []
        for territory, owner, armies in zip(
            self.board.territories, self.owner, self.armies, strict=True
        ):
            seat = owner if owner >= 0 else None
            units = (UnitStack(ARMY, armies, seat),) if armies else ()
            markers = (FORTRESS,) if territory.index in fortresses else ()
            views.append(SpaceView(territory.id, seat, units, markers))
        return views

    def private_state(self, seat: int) -> tuple[tuple[str, str], ...]:
        """What `seat` alone knows of its own: the hidden armies' territory and its standing
        orders."""
        hidden = self.hidden[seat]
        return (
            ("hidden_territory", self.board.territories[hidden].id if hidden >= 0 else ""),
            ("hidden_armies_used", "yes" if self.hidden_used[seat] else "no"),
            ("marshal_orders", self.marshal_orders[seat]),
            ("spy_orders", self.spy_orders[seat]),
        )

    def points(self, seat: int) -> int:
        """Ranking points: whole empires held besides its own, then territories (an empire
        counts for 100)."""
        return 100 * self.empires_held(seat) + self.territory_count[seat]

    def empires_held(self, seat: int) -> int:
        """Whole empires `seat` holds besides the one it drew."""
        owner = self.owner
        members = self.board.region_members
        own = self.empire[seat]
        held = 0
        for region in self.ruleset.empires:  # loops, not generators: asked after every conquest
            if region == own:
                continue
            for territory in members[region]:
                if owner[territory] != seat:
                    break
            else:
                held += 1
        return held

    def reinforcements_for(self, seat: int) -> tuple[int, int, tuple[tuple[str, int], ...]]:
        """(total, 0, sources): 2 a banner taken, 6 a whole empire, 4 a whole independent
        block, or 15 for all three blocks instead of their 12. Sources are region ids,
        "all_three_blocks" and "banners"."""
        rules = self.ruleset
        owner = self.owner
        members = self.board.region_members
        regions = self.board.regions
        sources: list[tuple[str, int]] = []
        for region in rules.empires:
            if all(owner[t] == seat for t in members[region]):
                sources.append((regions[region].id, rules.per_empire))
        blocks = [r for r in rules.blocks if all(owner[t] == seat for t in members[r])]
        if len(blocks) == len(rules.blocks):
            sources.append(("all_three_blocks", rules.all_three_blocks))
        else:
            sources += [(regions[r].id, rules.per_independent_block) for r in blocks]
        taken = sum(1 for other in self.banners[seat] if other != seat)
        if taken:
            sources.append(("banners", taken * rules.per_enemy_banner))
        return sum(armies for _, armies in sources), 0, tuple(sources)

    # ------------------------------------------------------------------ legal actions

    def _turn_actions(self, seat: int) -> list[LegalAction]:
        if self.phase is Phase.SETUP:
            return [self._setup_family(seat)]
        orders = self._orders_family()
        if self.phase is Phase.OCCUPY:
            return [self._occupy_family(), orders]
        if self.spied >= 0:
            return [LegalDiscardSpiedCard(self.spied, tuple(self.hands[self.spied])), orders]
        legal: list[LegalAction] = []
        if self.pending_reinforcements:
            legal.append(self._place_family(seat, self.pending_reinforcements))
        if self.phase is PiuPhase.CARDS:
            legal += self._card_families(seat)
        legal += self._hidden_families(seat)
        if self._attacks_open():
            legal += self._war_families(seat)
            legal += self._move_families(seat)
            legal.append(LegalEndTurn())
        legal.append(orders)
        return legal

    def _attacks_open(self) -> bool:
        return (
            self.phase in (PiuPhase.CARDS, Phase.ATTACK)
            and not self.pending_reinforcements
            and self.spied < 0
        )

    def _check_can_act_in_turn(self) -> None:
        """Attacks, the move and the end of the turn need every army placed and the Spia's
        discard made."""
        if self.phase is Phase.SETUP or self.phase is Phase.OCCUPY:
            raise WrongPhase(f"you cannot do that in the {self.phase.value} phase")
        if self.pending_reinforcements:
            raise ReinforcementsPending(
                f"place your {self.pending_reinforcements} remaining armies first"
            )
        self._check_no_spy_owed()

    # ------------------------------------------------------------------ the turn

    def _armies_available(self) -> int:
        if self.phase is Phase.SETUP:
            return self.setup_quota
        if self.phase is Phase.OCCUPY:
            raise WrongPhase("move armies into the conquered territory first")
        self._check_no_spy_owed()
        if self.pending_reinforcements == 0:
            raise InvalidArmyCount("you have no armies left to place")
        return self.pending_reinforcements

    def _armies_placed(self, seat: int, armies: int) -> list[e.Event]:
        if self.phase is Phase.SETUP:
            return super()._armies_placed(seat, armies)
        self.pending_reinforcements -= armies
        if self.phase is Phase.REINFORCE and not self.pending_reinforcements:
            return self._draw_cards(seat)
        return []

    def _start_turn(self, seat: int) -> list[e.Event]:
        self.current = seat
        self.phase = Phase.REINFORCE
        self.attack = None
        self.admiral_used = False
        events: list[e.Event] = []
        ended = tuple(target for imposer, target in self.truces if imposer == seat)
        if ended:
            self.truces = [truce for truce in self.truces if truce[0] != seat]
            events.append(pe.TrucesEnded(seat, ended))
        total, _, sources = self.reinforcements_for(seat)
        self.pending_reinforcements = total
        events.append(e.TurnStarted(seat, self.round, total, 0, sources))
        events += self._check_victory()
        if self.phase is Phase.OVER or total:
            return events
        return events + self._draw_cards(seat)

    def _closing_turn(self, seat: int) -> list[e.Event]:
        self.attack = None
        self.conquered_this_turn = False  # no card for a conquest: the hand is drawn up to 3
        return []

    def _check_victory(self) -> list[e.Event]:
        """The first to hold three whole empires besides its own wins (in its own turn), or
        the last one playing."""
        active = self.active_seats()
        if len(active) <= 1:
            return self._finish(active[0] if active else None, "last_player")
        if self.empires_held(self.current) >= self.ruleset.empires_to_win:
            return self._finish(self.current, "empires")
        return []

    def _after_battle(self, seat: int, target: int) -> list[e.Event]:
        return self._check_victory() if self.owner[target] == seat else []

    # ------------------------------------------------------------------ leaving

    def _leaving(self, seat: int) -> list[e.Event]:
        if seat == self.current:
            self.spied = -1  # the Spia's discard is forgone
        self.truces = [truce for truce in self.truces if seat not in truce]
        return super()._leaving(seat)
