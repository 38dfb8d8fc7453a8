"""RisiKo! Più's battles: the RisiKo! attack (domain/risiko) with its cards (a Generale adds 1
to the attacker's highest die, a Maresciallo to the defender's), fortresses that roll against
fewer dice and put their player out when they fall, and the flagship (an Ammiraglio) that
carries armies across the water, rolling with every army aboard."""

from __future__ import annotations

from typing import final

from domain import actions as a
from domain import events as e
from domain.combat import Modifier, Side, compare_sorted_dice, pairwise_losses
from domain.errors import (
    InvalidArmyCount,
    NotAdjacent,
    NotEnoughArmies,
    OncePerTurn,
    OwnTerritory,
    WrongKindOfSpace,
    WrongPhase,
)
from domain.flow import OpenPrompt, Phase
from domain.kernel import handles
from domain.legal import LegalAction, LegalAttack
from domain.risiko.attack import MAX_DICE
from domain.rng import DerivedRandom
from variants.piu import actions as pa
from variants.piu import events as pe
from variants.piu.base import (
    ABOARD,
    FLAGSHIP_DEFENCE,
    GENERAL,
    MARSHAL,
    SOURCE,
    STARTED,
    STOP_AT,
    TARGET,
    PiuBase,
)
from variants.piu.legal import LegalAdmiralAttack, LegalPlayGeneral
from variants.piu.ruleset import AMMIRAGLIO, GENERALE, MARESCIALLO


class PiuBattles(PiuBase):
    """The attack under way (`attack`), the cards on it, the flagship."""

    def _attack_dice_range(self, source: int, target: int) -> tuple[int, int]:
        return 1, min(self._most_dice(target), self.armies[source] - 1)

    def _check_attack(self, seat: int, source: int, target: int) -> None:
        self._check_no_truce(seat, target)

    def _attack_until_dice(self, action: a.AttackUntil) -> int:
        target = self.board.index.get(action.target)
        if target is not None and self.is_fortress(target):
            most = self.options.fortress_attack_dice
            if most < action.dice <= MAX_DICE:
                return most
        return action.dice

    # ------------------------------------------------------------------ families

    @final
    def _war_families(self, seat: int) -> list[LegalAction]:
        """The attacks by land, by sea with the flagship, and the Generale on either."""
        ids = self.board.territories
        armies = self.armies
        legal = self._attack_families(seat)
        pairs = [(f.source, f.target) for f in legal if isinstance(f, LegalAttack)]
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
                pairs += [(ids[source].id, ids[target].id) for target in targets]
        generals = self._cards_of(self.hands[seat], GENERALE)
        waiting = self.attack is not None and not self.attack[STARTED] and self.attack[GENERAL]
        if generals and pairs and not waiting:
            offered = [  # once each: a pair may be both a land border and a sea crossing
                (s, t)
                for s, t in dict.fromkeys(pairs)
                if not self._attack_started(self.board.index[s], self.board.index[t])
            ]
            if offered:
                legal.append(
                    LegalPlayGeneral(
                        generals, tuple(s for s, _ in offered), tuple(t for _, t in offered)
                    )
                )
        return legal

    @final
    def _sea_attacks(self, seat: int) -> list[tuple[int, list[int]]]:
        """Each own coastal territory that can load armies, with the enemy coastal
        territories the flagship reaches from it."""
        owner = self.owner
        reach = self.ruleset.sea_reach
        found = []
        for source in self.ruleset.shores:
            if owner[source] != seat or self.armies[source] < 2:
                continue
            targets = [t for t in reach[source] if owner[t] != seat and self._may_target(seat, t)]
            if targets:
                found.append((source, targets))
        return found

    # ------------------------------------------------------------------ the attack under way

    @final
    def _attack_started(self, source: int, target: int) -> bool:
        attack = self.attack
        return (
            attack is not None
            and attack[SOURCE] == source
            and attack[TARGET] == target
            and bool(attack[STARTED])
        )

    @final
    @handles(pa.PlayGeneral)
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

    def _engaging(self, source: int, target: int) -> list[e.Event]:
        """The defender's Maresciallo joins as the attack is declared (its standing orders),
        so that it declares its dice knowing its +1; then the attack waits for them."""
        return self._engage(source, target)

    @final
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

    @final
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

    # ------------------------------------------------------------------ rolls and conquests

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

    @final
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
        attacker, defender = rng.roll(dice, defence)  # each sorted highest first
        modifiers = self._modifiers()
        if modifiers:
            attacker_losses, defender_losses = pairwise_losses(attacker, defender, modifiers)
        else:
            attacker_losses, defender_losses = compare_sorted_dice(attacker, defender)
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

    def _conquered(self, seat: int, target: int, defender: int) -> list[e.Event]:
        """A fortress that falls puts its player out of the game."""
        self.attack = None
        if defender < 0 or self.fortress[defender] != target or self.eliminated[defender]:
            return []
        return self._fortress_falls(defender, seat, target)

    @final
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

    # ------------------------------------------------------------------ the flagship

    @final
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

    @final
    @handles(pa.AdmiralAttack)
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
        return events + self._sail_on(self._random(), source, target, loaded, action.stop_at, None)

    @final
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
        if self.armies[target] == 0:
            return events + self._land_flagship(seat, source, target, aboard)
        return events + self._unload_back(source, aboard)

    @final
    def _land_flagship(self, seat: int, source: int, target: int, aboard: int) -> list[e.Event]:
        """The flagship took `target`: its survivors land on it."""
        ids = self.board.territories
        defender = self.owner[target]
        events: list[e.Event] = [
            e.TerritoryConquered(seat, ids[source].id, ids[target].id, defender, aboard, aboard)
        ]
        events += self._conquered(seat, target, self._capture(seat, target))
        self.armies[target] = aboard
        events.append(pe.FlagshipUnloaded(seat, ids[target].id, aboard))
        return events + self._after_battle(seat, target)

    @final
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

    @final
    def _flagship_aboard(self) -> int:
        """The armies aboard the flagship while its attack waits for the defender (0: none)."""
        prompt = self.open_prompt()
        if prompt is None or prompt.topic != FLAGSHIP_DEFENCE:
            return 0
        return prompt.values[ABOARD]

    def _recall(self) -> list[e.Event]:
        """The flagship's attack stops while it waits for the defender (the attacker left, the
        game ended): the armies aboard go back to their territory."""
        prompt = self.open_prompt()
        if prompt is None or prompt.topic != FLAGSHIP_DEFENCE:
            return []
        self._pop_prompt()
        return self._unload_back(prompt.values[SOURCE], prompt.values[ABOARD])

    def _before_finish(self) -> list[e.Event]:
        return self._recall() + super()._before_finish()
