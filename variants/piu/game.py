"""RisiKo! Più (seed 003): the classic engine with empires and fortresses, banners, six kinds
of card, the flagship and hidden armies. The choices where the seed is silent: docs/piu.md.

The setup goes through its steps in turn order: each seat places its fortress on the empire it
drew; then one army at a time on the free territories; then the rest five at a time; then each
writes, secretly, its hidden armies' territory; then three cards each. A turn: reinforcements
(Phase.REINFORCE); the hand drawn up to three and cards played (PiuPhase.CARDS); attacks
(Phase.ATTACK, Phase.OCCUPY); the move, which ends the turn. A card of an earlier step is
refused after a later one. Cards played out of turn (a Maresciallo in defence, a Spia that
blocks a Spia) follow each seat's private standing orders, so that nobody is ever asked, and
nothing tells who holds which card. When defenders declare their dice (option `defender_dice`),
an attack waits for its defender's answer, a prompt on the kernel's stack as in classic
RisiKo!: the Maresciallo joins as the attack is declared, before the defender's dice, and the
flagship's attack waits for an answer before each of its rolls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from domain import actions as a
from domain import events as e
from domain.actions import doc
from domain.combat import Modifier, Side, pairwise_losses
from domain.errors import (
    CardNotInHand,
    InvalidAction,
    InvalidArmyCount,
    NotAdjacent,
    NotEnoughArmies,
    NotYourTerritory,
    NotYourTurn,
    OncePerTurn,
    OptionDisabled,
    OwnTerritory,
    ReinforcementsPending,
    Truce,
    WrongKindOfSpace,
    WrongPhase,
)
from domain.flow import OpenPrompt
from domain.game import MAX_DICE, Game, Phase
from domain.kernel import Handler
from domain.legal import (
    LegalAction,
    LegalAttack,
    LegalAttackUntil,
    LegalEndTurn,
    LegalOccupy,
    LegalPlace,
    LegalStrategicMove,
)
from domain.options import DefenderDice
from domain.rng import DerivedRandom
from domain.views import ARMY, SpaceView, StateView, UnitStack
from variants.piu import actions as pa
from variants.piu import events as pe
from variants.piu.errors import OncePerGame
from variants.piu.legal import (
    LegalAdmiralAttack,
    LegalChooseFortress,
    LegalClaimTerritory,
    LegalDiscardSpiedCard,
    LegalPlayDiplomat,
    LegalPlayGeneral,
    LegalPlayRinforzi,
    LegalPlaySpy,
    LegalRevealHiddenArmies,
    LegalStandingOrders,
    LegalWriteHiddenTerritory,
)
from variants.piu.options import PiuOptions
from variants.piu.phases import PiuPhase
from variants.piu.ruleset import (
    AMMIRAGLIO,
    DIPLOMATICO,
    FORTRESS,
    GENERALE,
    MARESCIALLO,
    RINFORZI,
    SPIA,
    PiuRuleset,
)

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


class PiuGame(Game):
    RULES_REVISIONS: ClassVar[Mapping[int, str]] = {1: "The rules as first played."}
    MARKER_KINDS = (FORTRESS,)
    STATE_VIEW: ClassVar[type[StateView]] = PiuState
    SNAPSHOT_FORMAT: ClassVar[int] = 1
    RULESET_CLASS = PiuRuleset
    OPTIONS_CLASS = PiuOptions
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

    def _start_state(self) -> None:
        super()._start_state()
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

    def _bind_handlers(self) -> dict[type[a.Action], Handler]:
        handlers = super()._bind_handlers()
        del handlers[a.TradeCards]  # classic's cards: RisiKo! Più's are played one at a time
        handlers.update(
            {
                pa.ChooseFortress: self._choose_fortress,
                pa.ClaimTerritory: self._claim_territory,
                pa.WriteHiddenTerritory: self._write_hidden_territory,
                pa.RevealHiddenArmies: self._reveal_hidden_armies,
                pa.PlayRinforzi: self._play_rinforzi,
                pa.PlaySpy: self._play_spy,
                pa.DiscardSpiedCard: self._discard_spied_card,
                pa.PlayDiplomat: self._play_diplomat,
                pa.PlayGeneral: self._play_general,
                pa.AdmiralAttack: self._admiral_attack,
                pa.SetStandingOrders: self._set_standing_orders,
            }
        )
        return handlers

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

    def secret_objective(self, seat: int) -> None:
        return None

    def points(self, seat: int) -> int:
        """Ranking points: whole empires held besides its own, then territories (an empire
        counts for 100)."""
        return 100 * self.empires_held(seat) + self.territory_count[seat]

    def empires_held(self, seat: int) -> int:
        """Whole empires `seat` holds besides the one it drew."""
        owner = self.owner
        members = self.board.region_members
        return sum(
            1
            for region in self.ruleset.empires
            if region != self.empire[seat] and all(owner[t] == seat for t in members[region])
        )

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

    def may_attack(self, source: int, target: int) -> bool:
        return super().may_attack(source, target) and not self._in_truce(
            self.current, self.owner[target]
        )

    def _attacks_open(self) -> bool:
        return (
            self.phase in (PiuPhase.CARDS, Phase.ATTACK)
            and not self.pending_reinforcements
            and self.spied < 0
        )

    # ------------------------------------------------------------------ legal actions

    def _out_of_turn_actions(self, seat: int) -> list[LegalAction]:
        """To every seat still playing but the one in turn, once the setup is over, what it
        may do out of turn: its standing orders, its hidden armies."""
        if not self._plays_out_of_turn(seat):
            return []
        out_of_turn: list[LegalAction] = []
        hidden = self.hidden_armies_now(seat)
        if hidden:
            out_of_turn.append(
                LegalRevealHiddenArmies(self.board.territories[self.hidden[seat]].id, hidden)
            )
        return [*out_of_turn, LegalStandingOrders(pa.MARSHAL_ORDERS, pa.SPY_ORDERS)]

    def _plays_out_of_turn(self, seat: int) -> bool:
        return (
            0 <= seat < len(self.players)
            and self.phase is not Phase.SETUP
            and self.phase is not Phase.OVER
            and not self.eliminated[seat]
            and not self.resigned[seat]
        )

    def _turn_actions(self, seat: int) -> list[LegalAction]:
        ids = self.board.territories
        owner = self.owner
        own = [t.id for t in self.board.lands if owner[t.index] == seat]
        if self.phase is Phase.SETUP:
            return [self._setup_family(seat, own)]
        orders = LegalStandingOrders(pa.MARSHAL_ORDERS, pa.SPY_ORDERS)
        if self.phase is Phase.OCCUPY:
            assert self.pending_conquest is not None
            source, target, low, high = self.pending_conquest
            return [LegalOccupy(ids[source].id, ids[target].id, low, high), orders]
        if self.spied >= 0:
            return [LegalDiscardSpiedCard(self.spied, tuple(self.hands[self.spied])), orders]
        legal: list[LegalAction] = []
        if self.pending_reinforcements:
            legal.append(LegalPlace(tuple(own), 1, self.pending_reinforcements))
        hand = self.hands[seat]
        if self.phase is PiuPhase.CARDS:
            rinforzi = self._cards_of(hand, RINFORZI)
            if rinforzi:
                legal.append(
                    LegalPlayRinforzi(rinforzi, self.ruleset.rinforzi_value(self.rinforzi_played))
                )
            opponents = tuple(s for s in self.active_seats() if s != seat)
            spies = self._cards_of(hand, SPIA)
            if spies and opponents:
                legal.append(LegalPlaySpy(spies, opponents))
            diplomats = self._cards_of(hand, DIPLOMATICO)
            untouched = tuple(s for s in opponents if [seat, s] not in self.truces)
            if diplomats and untouched:
                legal.append(LegalPlayDiplomat(diplomats, untouched))
        hidden = self.hidden_armies_now(seat)
        if hidden:
            legal.append(LegalRevealHiddenArmies(ids[self.hidden[seat]].id, hidden))
        if self._attacks_open():
            legal += self._attack_families(seat)
            for source in (t for t, o in enumerate(owner) if o == seat):
                high = self._strategic_max(source)
                if high < 1:
                    continue
                for target in self.board.land_neighbours[source]:
                    if owner[target] == seat:
                        legal.append(LegalStrategicMove(ids[source].id, ids[target].id, 1, high))
            legal.append(LegalEndTurn())
        legal.append(orders)
        return legal

    def _setup_family(self, seat: int, own: list[str]) -> LegalAction:
        board = self.board
        if self.setup_step == FORTRESS_STEP:
            members = board.region_members[self.empire[seat]]
            return LegalChooseFortress(tuple(board.territories[t].id for t in members))
        if self.setup_step == CLAIM_STEP:
            free = tuple(t.id for t in board.lands if self.owner[t.index] == FREE)
            return LegalClaimTerritory(free)
        if self.setup_step == PLACE_STEP:
            return LegalPlace(tuple(own), 1, self.setup_quota)
        fortresses = set(self.fortress)
        return LegalWriteHiddenTerritory(
            tuple(t.id for t in board.lands if t.index not in fortresses)
        )

    def _attack_families(self, seat: int) -> list[LegalAction]:
        ids = self.board.territories
        owner = self.owner
        armies = self.armies
        neighbours = self.board.land_neighbours
        legal: list[LegalAction] = []
        general_sources: list[str] = []
        general_targets: list[str] = []
        declare = self.options.defender_dice is DefenderDice.DECLARE
        for source in (t for t, o in enumerate(owner) if o == seat):
            if armies[source] < 2:
                continue
            for target in neighbours[source]:
                if owner[target] == seat or not self.may_target(seat, target):
                    continue
                low, high = self._attack_dice_range(source, target)
                legal.append(LegalAttack(ids[source].id, ids[target].id, low, high))
                if not declare:  # rolling until would take the defender's choice away
                    legal.append(
                        LegalAttackUntil(ids[source].id, ids[target].id, low, 1, armies[source] - 1)
                    )
                general_sources.append(ids[source].id)
                general_targets.append(ids[target].id)
        admirals = self._cards_of(self.hands[seat], AMMIRAGLIO)
        if admirals and not self.admiral_used:
            for source, targets in self._sea_attacks(seat):
                legal.append(
                    LegalAdmiralAttack(
                        admirals,
                        ids[source].id,
                        tuple(ids[t].id for t in targets),
                        armies[source] - 1,
                    )
                )
                for target in targets:
                    general_sources.append(ids[source].id)
                    general_targets.append(ids[target].id)
        generals = self._cards_of(self.hands[seat], GENERALE)
        waiting = self.attack is not None and not self.attack[STARTED] and self.attack[GENERAL]
        if generals and general_sources and not waiting:
            pairs = [  # once each: a pair may be both a land border and a sea crossing
                (s, t)
                for s, t in dict.fromkeys(zip(general_sources, general_targets, strict=True))
                if not self._attack_started(self.board.index[s], self.board.index[t])
            ]
            if pairs:
                legal.append(
                    LegalPlayGeneral(
                        generals, tuple(s for s, _ in pairs), tuple(t for _, t in pairs)
                    )
                )
        return legal

    def _sea_attacks(self, seat: int) -> list[tuple[int, list[int]]]:
        """Each own coastal territory that can load armies, with the enemy coastal
        territories the flagship reaches from it."""
        owner = self.owner
        waters = self.ruleset.waters
        shores = [t for t in range(len(owner)) if waters[t]]
        found = []
        for source in shores:
            if owner[source] != seat or self.armies[source] < 2:
                continue
            targets = [
                t
                for t in shores
                if owner[t] != seat
                and t != source
                and self.ruleset.by_sea(source, t)
                and self.may_target(seat, t)
            ]
            if targets:
                found.append((source, targets))
        return found

    @staticmethod
    def _cards_of(hand: Sequence[str], kind: str) -> tuple[str, ...]:
        prefix = f"{kind}_"
        return tuple(card for card in hand if card.startswith(prefix))

    # ------------------------------------------------------------------ setup

    def _deal(self, rng: DerivedRandom) -> list[e.Event]:
        n = len(self.players)
        self.first_player = rng.below(n)
        events: list[e.Event] = [
            e.GameStarted(
                self.players, self.colours, self.first_player, self.turn_order, self.commitment
            )
        ]
        # Each seat draws an empire by lot: one army on each of its territories.
        empires = list(self.ruleset.empires)
        rng.shuffle(empires)
        starting = self.options.starting_armies or self.ruleset.starting_armies[n]
        members = self.board.region_members
        for seat in range(n):
            self.empire[seat] = empires[seat]
            for territory in members[empires[seat]]:
                self.owner[territory] = seat
                self.armies[territory] = 1
                self.territory_count[seat] += 1
            self.setup_remaining[seat] = starting - self.territory_count[seat]
        regions = self.board.regions
        events.append(
            pe.EmpiresDrawn(
                tuple(regions[r].id for r in self.empire),
                tuple(self.owner),
                starting,
            )
        )
        self.current = self.first_player
        self.setup_step = FORTRESS_STEP
        return events

    def _next_setup_turn(self, rng: DerivedRandom) -> list[e.Event]:
        """The next seat and step of the setup, in turn order; the game starts after it."""
        order = self.turn_order
        while self.setup_step:
            position = order.index(self.current)
            for step in range(1, len(order) + 1):
                seat = order[(position + step) % len(order)]
                if self._owes_setup(seat):
                    self.current = seat
                    if self.setup_step == PLACE_STEP:
                        rule = self.ruleset.setup_armies_per_turn
                        self.setup_quota = min(rule, self.setup_remaining[seat])
                    return []
            following = SETUP_STEPS.index(self.setup_step) + 1
            self.setup_step = SETUP_STEPS[following] if following < len(SETUP_STEPS) else ""
            # Each step starts again from the first player (the seat before it, searched on).
            self.current = order[-1]
        return self._start_play(rng)

    def _owes_setup(self, seat: int) -> bool:
        if self.resigned[seat]:
            return False
        step = self.setup_step
        if step == FORTRESS_STEP:
            return self.fortress[seat] < 0
        if step == CLAIM_STEP:
            # Every territory is taken before the rest are placed: if the armies run out
            # first (a player left during the setup), the others claim beyond their own.
            if not any(self.owner[t.index] == FREE for t in self.board.lands):
                return False
            return self.setup_remaining[seat] > 0 or not any(
                self.setup_remaining[other] > 0
                for other in range(len(self.players))
                if not self.resigned[other]
            )
        if step == PLACE_STEP:
            return self.setup_remaining[seat] > 0
        return self.hidden[seat] < 0

    def _start_play(self, rng: DerivedRandom) -> list[e.Event]:
        """Three cards each, in turn order; then the first turn."""
        self.setup_quota = 0
        self.deck = list(self.ruleset.cards.cards)
        rng.shuffle(self.deck)
        events: list[e.Event] = [e.DeckShuffled(len(self.deck), False)]
        for seat in self.turn_order:
            if self.resigned[seat]:
                continue
            cards = tuple(self.deck.pop() for _ in range(self.ruleset.hand_size))
            self.hands[seat].extend(cards)
            events += [e.CardDrawn(seat, len(self.hands[seat])), e.CardsReceived(seat, cards)]
        self.round = 1
        first = next(seat for seat in self.turn_order if not self.resigned[seat])
        return events + self._start_turn(first)

    def _setup_turn(self, seat: int | None, step: str) -> int:
        seat = self._check_turn(seat)
        if self.phase is not Phase.SETUP or self.setup_step != step:
            raise WrongPhase(f"this is not the {step} step of the setup")
        return seat

    def _land(self, territory_id: str) -> int:
        index = self._territory(territory_id)
        if self.board.territories[index].is_sea:
            raise WrongKindOfSpace(f"{self.board.territories[index].name} is a sea area")
        return index

    def _choose_fortress(self, seat: int | None, action: pa.ChooseFortress) -> list[e.Event]:
        seat = self._setup_turn(seat, FORTRESS_STEP)
        territory = self._land(action.territory)
        if territory not in self.board.region_members[self.empire[seat]]:
            region = self.board.regions[self.empire[seat]].name
            raise NotYourTerritory(f"the fortress goes on a territory of your {region}")
        self.fortress[seat] = territory
        events: list[e.Event] = [pe.FortressPlaced(seat, action.territory)]
        return events + self._next_setup_turn(self._random())

    def _claim_territory(self, seat: int | None, action: pa.ClaimTerritory) -> list[e.Event]:
        seat = self._setup_turn(seat, CLAIM_STEP)
        territory = self._land(action.territory)
        if self.owner[territory] != FREE:
            raise OwnTerritory(f"{self.board.territories[territory].name} is already taken")
        self.owner[territory] = seat
        self.armies[territory] = 1
        self.territory_count[seat] += 1
        self.setup_remaining[seat] -= 1
        events: list[e.Event] = [pe.TerritoryClaimed(seat, action.territory)]
        return events + self._next_setup_turn(self._random())

    def _write_hidden_territory(
        self, seat: int | None, action: pa.WriteHiddenTerritory
    ) -> list[e.Event]:
        seat = self._setup_turn(seat, HIDDEN_STEP)
        territory = self._land(action.territory)
        if territory in self.fortress:
            raise InvalidAction("the hidden armies never come out on a fortress's territory")
        self.hidden[seat] = territory
        events: list[e.Event] = [
            pe.HiddenTerritoryWritten(seat),
            pe.HiddenTerritoryChosen(seat, action.territory),
        ]
        return events + self._next_setup_turn(self._random())

    # ------------------------------------------------------------------ checks

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

    def _in_truce(self, seat: int, other: int) -> bool:
        return [seat, other] in self.truces or [other, seat] in self.truces

    def may_target(self, seat: int, target: int) -> bool:
        return not self._in_truce(seat, self.owner[target])

    def is_fortress(self, territory: int) -> bool:
        seat = self.owner[territory]
        return seat >= 0 and self.fortress[seat] == territory and not self.eliminated[seat]

    def _attack_dice_range(self, source: int, target: int) -> tuple[int, int]:
        return 1, min(self._most_dice(target), self.armies[source] - 1)

    def _most_dice(self, target: int) -> int:
        if self.is_fortress(target):
            return self.options.fortress_attack_dice
        return MAX_DICE

    def _validate_attack(
        self, seat: int, source_id: str, target_id: str, dice: int
    ) -> tuple[int, int]:
        source, target = super()._validate_attack(seat, source_id, target_id, dice)
        self._check_no_truce(seat, target)
        return source, target

    def _check_no_truce(self, seat: int, target: int) -> None:
        defender = self.owner[target]
        if self._in_truce(seat, defender):
            raise Truce(
                f"a truce with {self.players[defender]} forbids attacking "
                f"{self.board.territories[target].name} until it ends"
            )

    def _card(self, seat: int, card: str, kind: str) -> None:
        if card not in self.hands[seat]:
            raise CardNotInHand(f"you do not hold the card {card!r}")
        if self.ruleset.cards.cards[card].symbol != kind:
            raise InvalidAction(f"{card} is not a {kind.capitalize()} card")

    def _discard(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.discard.append(card)

    def _opponent(self, seat: int, player: int) -> int:
        if not 0 <= player < len(self.players) or player == seat:
            raise InvalidAction("name an opponent by seat")
        if self.eliminated[player] or self.resigned[player]:
            raise InvalidAction(f"{self.players[player]} is no longer in the game")
        return player

    def _in_cards_step(self, seat: int | None, what: str) -> int:
        seat = self._check_turn(seat)
        if self.phase is not PiuPhase.CARDS:
            raise WrongPhase(f"{what} is played after the reinforcements, before any attack")
        self._check_no_spy_owed()
        return seat

    def _check_no_spy_owed(self) -> None:
        """A Spia's discard comes before anything else of the turn (but standing orders)."""
        if self.spied >= 0:
            raise WrongPhase("discard a card of the spied hand first")

    # ------------------------------------------------------------------ the turn

    def _place_armies(self, seat: int | None, action: a.PlaceArmies) -> list[e.Event]:
        if self.phase is Phase.SETUP:
            if self.setup_step != PLACE_STEP:
                raise WrongPhase(f"this is the {self.setup_step} step of the setup")
            return super()._place_armies(seat, action)
        seat = self._check_turn(seat)
        available = self.pending_reinforcements
        if self.phase is Phase.OCCUPY:
            raise WrongPhase("move armies into the conquered territory first")
        self._check_no_spy_owed()
        if available == 0:
            raise InvalidArmyCount("you have no armies left to place")
        territory = self._own_territory(seat, action.territory)
        if not 1 <= action.armies <= available:
            raise InvalidArmyCount(f"place 1 to {available} armies, not {action.armies}")
        self.armies[territory] += action.armies
        self.pending_reinforcements -= action.armies
        events: list[e.Event] = [e.ArmiesPlaced(seat, action.territory, action.armies)]
        if self.phase is Phase.REINFORCE and not self.pending_reinforcements:
            events += self._draw_cards(seat)
        return events

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

    def _draw_cards(self, seat: int) -> list[e.Event]:
        """Step 2: the hand drawn up to three; then the cards may be played."""
        self.phase = PiuPhase.CARDS
        events: list[e.Event] = []
        while len(self.hands[seat]) < self.ruleset.hand_size:
            drawn = self._draw_card(seat)
            if not drawn:
                break
            events += drawn
        return events

    def _end_turn(self, seat: int) -> list[e.Event]:
        self.attack = None
        self.conquered_this_turn = False  # no card for a conquest: the hand is drawn up to 3
        return super()._end_turn(seat)

    def _reveal_hidden_armies(
        self, seat: int | None, action: pa.RevealHiddenArmies
    ) -> list[e.Event]:
        if seat is None or not self._plays_out_of_turn(seat):
            raise NotYourTurn(
                "the hidden armies come out for a player still in the game, after the setup"
            )
        if seat == self.current:  # in its own turn, not in the middle of a step
            if self.phase is Phase.OCCUPY:
                raise WrongPhase("move armies into the conquered territory first")
            self._check_no_spy_owed()
        if self.hidden_used[seat]:
            raise OncePerGame("your hidden armies have already come out")
        territory = self.hidden[seat]
        if self.owner[territory] != seat:
            name = self.board.territories[territory].name
            raise NotYourTerritory(f"the hidden armies come out only while you hold {name}")
        armies = self._hidden_armies_size()
        if not armies:
            raise OptionDisabled("this game is played without hidden armies")
        self.hidden_used[seat] = True
        self.armies[territory] += armies
        return [pe.HiddenArmiesRevealed(seat, self.board.territories[territory].id, armies)]

    def _hidden_armies_size(self) -> int:
        size = self.options.hidden_armies
        return self.ruleset.rinforzi_value(self.rinforzi_played) if size is None else size

    def hidden_armies_now(self, seat: int) -> int:
        """How many hidden armies `seat` may bring out now (0: none)."""
        territory = self.hidden[seat]
        if self.hidden_used[seat] or territory < 0 or self.owner[territory] != seat:
            return 0
        return self._hidden_armies_size()

    def _play_rinforzi(self, seat: int | None, action: pa.PlayRinforzi) -> list[e.Event]:
        seat = self._in_cards_step(seat, "a Rinforzi card")
        self._card(seat, action.card, RINFORZI)
        rules = self.ruleset
        step = self.rinforzi_played % len(rules.rinforzi_track) + 1
        armies = rules.rinforzi_value(self.rinforzi_played)
        self._discard(seat, action.card)
        self.rinforzi_played += 1
        self.pending_reinforcements += armies
        return [pe.RinforziPlayed(seat, action.card, step, armies)]

    def _play_spy(self, seat: int | None, action: pa.PlaySpy) -> list[e.Event]:
        seat = self._in_cards_step(seat, "a Spia")
        self._card(seat, action.card, SPIA)
        player = self._opponent(seat, action.player)
        self._discard(seat, action.card)
        events: list[e.Event] = [pe.SpyPlayed(seat, action.card, player)]
        blockers = self._cards_of(self.hands[player], SPIA)
        if blockers and self.spy_orders[player] == pa.SPY_BLOCK:
            self._discard(player, blockers[0])
            return [*events, pe.SpyBlocked(player, blockers[0], seat)]
        hand = tuple(self.hands[player])
        if hand:
            self.spied = player
        return [*events, pe.SpyReport(seat, player, hand)]

    def _discard_spied_card(self, seat: int | None, action: pa.DiscardSpiedCard) -> list[e.Event]:
        seat = self._check_turn(seat)
        player = self.spied
        if player < 0:
            raise WrongPhase("no Spia is waiting for a discard")
        if action.card not in self.hands[player]:
            raise CardNotInHand(f"{self.players[player]} does not hold {action.card!r}")
        self._discard(player, action.card)
        self.spied = -1
        return [pe.SpiedCardDiscarded(seat, player), pe.CardLost(player, action.card, seat)]

    def _play_diplomat(self, seat: int | None, action: pa.PlayDiplomat) -> list[e.Event]:
        seat = self._in_cards_step(seat, "a Diplomatico")
        self._card(seat, action.card, DIPLOMATICO)
        player = self._opponent(seat, action.player)
        if [seat, player] in self.truces:
            raise InvalidAction(f"you already have a truce with {self.players[player]}")
        self._discard(seat, action.card)
        self.truces.append([seat, player])
        return [pe.TruceImposed(seat, action.card, player)]

    def _play_general(self, seat: int | None, action: pa.PlayGeneral) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_can_act_in_turn()
        self._card(seat, action.card, GENERALE)
        source = self._own_territory(seat, action.source)
        target = self._territory(action.target)
        if target in self.board.land_neighbours[source]:
            self._validate_attack(seat, action.source, action.target, 1)
        else:
            self._check_sea_attack(seat, source, target)
        if self._attack_started(source, target):
            raise WrongPhase("a Generale is played before the attack's first roll")
        if self.attack is not None and not self.attack[STARTED] and self.attack[GENERAL]:
            raise OncePerTurn("a Generale is already played on the attack about to start")
        self._discard(seat, action.card)
        self.attack = [source, target, 1, 0, 0]
        self.phase = Phase.ATTACK
        return [pe.GeneralPlayed(seat, action.card, action.source, action.target)]

    def _attack_started(self, source: int, target: int) -> bool:
        attack = self.attack
        return (
            attack is not None
            and attack[SOURCE] == source
            and attack[TARGET] == target
            and bool(attack[STARTED])
        )

    def _check_sea_attack(self, seat: int, source: int, target: int) -> None:
        """Whether the flagship may attack `target` from `source` now (an Ammiraglio in hand)."""
        names = self.board.territories
        if not self._cards_of(self.hands[seat], AMMIRAGLIO):
            raise NotAdjacent(
                f"{names[source].name} does not border {names[target].name}; by sea the "
                "flagship needs an Ammiraglio"
            )
        if self.admiral_used:
            raise OncePerTurn("the flagship sails once a turn")
        if names[target].is_sea:
            raise WrongKindOfSpace(f"{names[target].name} is a sea area")
        if self.owner[target] == seat:
            raise OwnTerritory(f"{names[target].name} is already yours")
        if not self.ruleset.waters[source] or not self.ruleset.waters[target]:
            landlocked = names[source] if not self.ruleset.waters[source] else names[target]
            raise NotAdjacent(f"{landlocked.name} is landlocked: the flagship cannot reach it")
        if not self.ruleset.by_sea(source, target):
            raise NotAdjacent(
                f"{names[source].name} and {names[target].name} are not on the same water "
                "(the Mar Nero reaches only the Mar Nero)"
            )
        if self.armies[source] < 2:
            raise NotEnoughArmies(f"{names[source].name} needs at least 2 armies to attack")
        self._check_no_truce(seat, target)

    def _engage(self, source: int, target: int) -> list[e.Event]:
        """The attack on `target` from `source` starts, unless it is the one under way: the
        defender's Maresciallo joins it if its standing orders say so."""
        attack = self.attack
        if attack is not None and attack[SOURCE] == source and attack[TARGET] == target:
            if attack[STARTED]:
                return []
        else:
            attack = self.attack = [source, target, 0, 0, 0]
        attack[STARTED] = 1
        defender = self.owner[target]
        if defender < 0 or self.eliminated[defender] or self.resigned[defender]:
            return []
        orders = self.marshal_orders[defender]
        marshals = self._cards_of(self.hands[defender], MARESCIALLO)
        wanted = orders == pa.MARSHAL_ALWAYS or (
            orders == pa.MARSHAL_FORTRESS and self.fortress[defender] == target
        )
        if not marshals or not wanted:
            return []
        self._discard(defender, marshals[0])
        attack[MARSHAL] = 1
        return [pe.MarshalPlayed(defender, marshals[0], self.board.territories[target].id)]

    def _modifiers(self) -> tuple[Modifier, ...]:
        attack = self.attack
        if attack is None:
            return ()
        modifiers = []
        if attack[GENERAL]:
            modifiers.append(Modifier(Side.ATTACKER, 1, GENERALE))
        if attack[MARSHAL]:
            modifiers.append(Modifier(Side.DEFENDER, 1, MARESCIALLO))
        return tuple(modifiers)

    def _attack_until(self, seat: int | None, action: a.AttackUntil) -> list[e.Event]:
        target = self.board.index.get(action.target)
        if target is not None and self.is_fortress(target):
            most = self.options.fortress_attack_dice
            if most < action.dice <= MAX_DICE:
                action = a.AttackUntil(action.source, action.target, most, action.stop_at)
        return super()._attack_until(seat, action)

    def _declare_attack(
        self, seat: int, source: int, target: int, dice: int, topic: str, more: tuple[int, ...]
    ) -> list[e.Event]:
        """The defender's Maresciallo joins as the attack is declared (its standing orders),
        so that it declares its dice knowing its +1; then the attack waits for them."""
        events = self._engage(source, target)
        return events + super()._declare_attack(seat, source, target, dice, topic, more)

    def _roll(
        self, rng: DerivedRandom, seat: int, source: int, target: int, dice: int, defence: int
    ) -> list[e.Event]:
        events = self._engage(source, target)
        attacker_losses, _, rolled = self._battle(rng, seat, source, target, dice, defence)
        self.armies[source] -= attacker_losses
        events.append(rolled)
        if self.armies[target] == 0:
            events += self._conquer(seat, source, target, dice)
        return events

    def _battle(
        self,
        rng: DerivedRandom,
        seat: int,
        source: int,
        target: int,
        dice: int,
        defence: int | None = None,
    ) -> tuple[int, int, e.DiceRolled]:
        """One roll, with the attack's cards: the defender's losses are taken off at once,
        the attacker's are returned (they come off the source, or off the flagship). The
        defender rolls `defence` dice, the ones it declared, or else the most it may."""
        if defence is None:
            defence = min(MAX_DICE, self.armies[target])
        attacker, defender = rng.roll(dice, defence)
        attacker_losses, defender_losses = pairwise_losses(attacker, defender, self._modifiers())
        self.armies[target] -= defender_losses
        ids = self.board.territories
        rolled = e.DiceRolled(
            seat,
            ids[source].id,
            ids[target].id,
            tuple(attacker),
            tuple(defender),
            attacker_losses,
            defender_losses,
        )
        return attacker_losses, defender_losses, rolled

    def _take(self, seat: int, target: int) -> list[e.Event]:
        """`target` changes hands: a fortress that falls puts its player out of the game."""
        defender = self.owner[target]
        self.owner[target] = seat
        self.territory_count[seat] += 1
        if defender >= 0:
            self.territory_count[defender] -= 1
        self.attack = None
        if defender < 0 or self.fortress[defender] != target or self.eliminated[defender]:
            return []
        return self._fortress_falls(defender, seat, target)

    def _conquer(self, seat: int, source: int, target: int, dice: int) -> list[e.Event]:
        defender = self.owner[target]
        source_id = self.board.territories[source].id
        target_id = self.board.territories[target].id
        high = max(dice, self._strategic_max(source))
        events: list[e.Event] = [
            e.TerritoryConquered(seat, source_id, target_id, max(defender, -1), dice, high)
        ]
        events += self._take(seat, target)
        if dice == high:
            self.armies[source] -= dice
            self.armies[target] = dice
            events.append(e.ArmiesMoved(seat, source_id, target_id, dice, False))
        else:
            self.pending_conquest = (source, target, dice, high)
            self.phase = Phase.OCCUPY
        return events

    def _fortress_falls(self, loser: int, winner: int, territory: int) -> list[e.Event]:
        """The loser is out: the winner takes its banner, the banners it had taken and its
        cards; its armies stay on the board and defend, as a player's who resigned."""
        banners = tuple(self.banners[loser])
        self.banners[winner].extend(banners)
        self.banners[loser] = []
        self.truces = [t for t in self.truces if loser not in t]
        events: list[e.Event] = [
            pe.FortressFallen(loser, winner, self.board.territories[territory].id, banners)
        ]
        return events + self._eliminate(loser, winner)

    def _after_elimination(self, loser: int, winner: int) -> list[e.Event]:
        return []

    def _after_armies_changed(self, seat: int) -> list[e.Event]:
        return []  # armies alone never win: only a conquest can complete three empires

    def _check_victory(self) -> list[e.Event]:
        """The first to hold three whole empires besides its own wins (in its own turn), or
        the last one playing."""
        active = self.active_seats()
        if len(active) <= 1:
            return self._finish(active[0] if active else None, "last_player")
        if self.empires_held(self.current) >= self.ruleset.empires_to_win:
            return self._finish(self.current, "empires")
        return []

    def _admiral_attack(self, seat: int | None, action: pa.AdmiralAttack) -> list[e.Event]:
        seat = self._check_turn(seat)
        self._check_can_act_in_turn()
        self._card(seat, action.card, AMMIRAGLIO)
        source = self._own_territory(seat, action.source)
        target = self._territory(action.target)
        self._check_sea_attack(seat, source, target)
        loaded = action.armies
        if not 1 <= loaded <= self.armies[source] - 1:
            raise InvalidArmyCount(
                f"load 1 to {self.armies[source] - 1} armies (one stays), not {loaded}"
            )
        if not 0 <= action.stop_at < loaded:
            raise InvalidArmyCount(f"stop_at must be 0 to {loaded - 1}, not {action.stop_at}")
        self._discard(seat, action.card)
        self.admiral_used = True
        self.phase = Phase.ATTACK
        self.armies[source] -= loaded
        events: list[e.Event] = [
            pe.FlagshipSailed(seat, action.card, action.source, action.target, loaded)
        ]
        events += self._engage(source, target)
        rng = self._random()
        return events + self._sail_on(rng, source, target, loaded, action.stop_at, None)

    def _sail_on(
        self,
        rng: DerivedRandom,
        source: int,
        target: int,
        aboard: int,
        stop_at: int,
        declared: int | None,
    ) -> list[e.Event]:
        """The flagship's rolls: every army aboard rolls (up to the most dice), until the
        conquest or `stop_at`; then the survivors land. Before each roll a defender who
        declares its dice is asked (`declared`: its answer for the first roll), and the attack
        waits for it aboard."""
        seat = self.current
        most = self._most_dice(target)
        events: list[e.Event] = []
        while True:
            dice = min(most, aboard)
            if declared is None and self._defender_declares(target):
                more = (aboard, stop_at)
                return events + self._declare_attack(
                    seat, source, target, dice, FLAGSHIP_DEFENCE, more
                )
            attacker_losses, _, rolled = self._battle(rng, seat, source, target, dice, declared)
            declared = None
            aboard -= attacker_losses
            events.append(rolled)
            if self.armies[target] == 0 or aboard <= stop_at:
                break
        ids = self.board.territories
        if self.armies[target] == 0:
            defender = self.owner[target]
            events.append(
                e.TerritoryConquered(seat, ids[source].id, ids[target].id, defender, aboard, aboard)
            )
            events += self._take(seat, target)
            self.armies[target] = aboard
            events.append(pe.FlagshipUnloaded(seat, ids[target].id, aboard))
            return events + self._check_victory()
        return events + self._unload_back(source, aboard)

    def _unload_back(self, source: int, aboard: int) -> list[e.Event]:
        """The flagship's attack is over without a conquest: the survivors go back."""
        self.armies[source] += aboard
        self.attack = None
        if not aboard:
            return []
        return [pe.FlagshipUnloaded(self.current, self.board.territories[source].id, aboard)]

    def _roll_declared(self, rng: DerivedRandom, prompt: OpenPrompt, defence: int) -> list[e.Event]:
        if prompt.topic != FLAGSHIP_DEFENCE:
            return super()._roll_declared(rng, prompt, defence)
        source, target = prompt.values[SOURCE], prompt.values[TARGET]
        aboard, stop_at = prompt.values[ABOARD], prompt.values[STOP_AT]
        return self._sail_on(rng, source, target, aboard, stop_at, defence)

    def _flagship_aboard(self) -> int:
        """The armies aboard the flagship while its attack waits for the defender (0: none)."""
        prompt = self.open_prompt()
        if prompt is None or prompt.topic != FLAGSHIP_DEFENCE:
            return 0
        return prompt.values[ABOARD]

    def _recall_flagship(self) -> list[e.Event]:
        """The flagship's attack stops while it waits for the defender (the attacker left, the
        game ended): the armies aboard go back to their territory."""
        prompt = self.open_prompt()
        if prompt is None or prompt.topic != FLAGSHIP_DEFENCE:
            return []
        self._pop_prompt()
        return self._unload_back(prompt.values[SOURCE], prompt.values[ABOARD])

    def _drop_prompts(self) -> list[e.Event]:
        return self._recall_flagship() + super()._drop_prompts()

    def _before_finish(self) -> list[e.Event]:
        return self._recall_flagship() + super()._before_finish()

    def _set_standing_orders(self, seat: int | None, action: pa.SetStandingOrders) -> list[e.Event]:
        if seat is None or not 0 <= seat < len(self.players):
            raise NotYourTurn("only a seat of the game sets its orders")
        if not self._plays_out_of_turn(seat):
            raise WrongPhase("orders are set by a player still in the game, after the setup")
        if action.marshal not in pa.MARSHAL_ORDERS:
            raise InvalidAction(f"marshal: one of {', '.join(pa.MARSHAL_ORDERS)}")
        if action.spy not in pa.SPY_ORDERS:
            raise InvalidAction(f"spy: one of {', '.join(pa.SPY_ORDERS)}")
        self.marshal_orders[seat] = action.marshal
        self.spy_orders[seat] = action.spy
        return [pe.StandingOrdersSet(seat, action.marshal, action.spy)]

    def _leaving(self, seat: int) -> list[e.Event]:
        if seat == self.current:
            self.spied = -1  # the Spia's discard is forgone
        self.truces = [truce for truce in self.truces if seat not in truce]
        return super()._leaving(seat)


__all__ = ["PiuGame", "PiuState"]
