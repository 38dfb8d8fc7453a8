"""Example bots that play through the public API only, and the loop that drives them.

A bot answers `choose(state)` with an ActionInput; `play(bot, client, game_id)` does the rest:
it follows the game's events, loads the game when it may be the bot's turn, submits the
bot's choice with the version it was decided on, and stops when the game is over. To write a
bot, copy RandomBot or OddsBot, say in `plays` the actions it needs the game to have (the
members of ActionInput, as the server lists them in Variant.actionKinds) and register it in
BOTS under its name: a game gets, of the bots of a name, the one that knows the most of its
actions (`make_bot`), so a bot is found by what the game plays, never by the game's name.

    bot = make_bot("odds", await client.action_kinds("classic"), seed=7)
    async with RisikoClient(url, seat.token) as client:
        stats = await play(bot, client, seat.game_id)
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import ClassVar

from risiko_client.api import ActionInput, Board, GameState, Json, RisikoClient, UserError


class Bot:
    """The base of bots: `prepare` once before the first move, then `choose` at every turn."""

    name = "bot"
    # The ActionInput members a game must have for this bot to play it (Variant.actionKinds).
    plays: ClassVar[frozenset[str]] = frozenset()
    client: RisikoClient  # set by prepare

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    async def prepare(self, client: RisikoClient, state: GameState) -> None:
        """Load what the bot needs (the board, …); the client stays usable in `choose`."""
        self.client = client

    async def choose(self, state: GameState) -> ActionInput:
        """The action to send, decided on `state` (where `state.my_turn` holds)."""
        raise NotImplementedError


class RandomBot(Bot):
    """A legal family chosen uniformly; inside it, a member chosen uniformly in its ranges."""

    name = "random"

    async def choose(self, state: GameState) -> ActionInput:
        family = self.rng.choice(state.legal_actions)
        kind, ready = next(iter(family["input"].items()))
        randint = self.rng.randint
        match family["__typename"]:
            case "LegalPlaceArmies":
                territory = self.rng.choice(family["territories"])
                armies = randint(family["minArmies"], family["maxArmies"])
                return {kind: {"territory": territory, "armies": armies}}
            case "LegalAttack" | "LegalDefend":
                return {kind: {**ready, "dice": randint(family["minDice"], family["maxDice"])}}
            case "LegalAttackUntil":
                dice = randint(family["minDice"], 3)
                stop_at = randint(family["minStopAt"], family["maxStopAt"])
                return {kind: {**ready, "dice": dice, "stopAt": stop_at}}
            case "LegalOccupy" | "LegalStrategicMove":
                armies = randint(family["minArmies"], family["maxArmies"])
                return {kind: {**ready, "armies": armies}}
            # S.P.Q.RisiKo!
            case "LegalClaimProvince" | "LegalPlacePowerCentre":
                return {kind: {"province": self.rng.choice(family["provinces"])}}
            case "LegalPlaceNeutral":
                province = self.rng.choice(family["provinces"])
                return {kind: {"province": province, "colour": self.rng.choice(family["colours"])}}
            case "LegalPlaceTrireme":
                return {kind: {"sea": self.rng.choice(family["seas"])}}
            case "LegalDisbandTrireme":
                return {kind: {**ready, "province": self.rng.choice(family["provinces"])}}
            case "LegalBuildTrireme" | "LegalMoveFleet":
                triremes = randint(family["minTriremes"], family["maxTriremes"])
                return {kind: {**ready, "triremes": triremes}}
            case "LegalNavalBattle":
                return {kind: {**ready, "dice": randint(family["minDice"], family["maxDice"])}}
            case "LegalSeaAttack":
                legionaries = randint(family["minLegionaries"], family["maxLegionaries"])
                return {kind: {**ready, "legionaries": legionaries}}
        return dict(family["input"])  # trade this set, end the turn: nothing to choose


class OddsBot(Bot):
    """Trades its best set, reinforces the border territory with the best attack, attacks
    when the exact odds (the API's battleOdds) of conquest are at least `threshold`, moves
    every army it may into a conquest, defends with every die, and ends its turn."""

    name = "odds"
    plays = frozenset({"placeArmies", "attack", "occupy", "endTurn"})
    threshold = 0.6

    async def prepare(self, client: RisikoClient, state: GameState) -> None:
        await super().prepare(client, state)
        self.board: Board = await client.board(state.variant)
        self.odds: dict[tuple[int, int], float] = {}

    async def conquest(self, attackers: int, defenders: int) -> float:
        """P(conquest) of `attackers` (the source holds one more) against `defenders`."""
        if attackers < 1:
            return 0.0
        if (attackers, defenders) not in self.odds:
            odds = await self.client.battle_odds(attackers, defenders)
            self.odds[attackers, defenders] = odds.conquest_probability
        return self.odds[attackers, defenders]

    async def choose(self, state: GameState) -> ActionInput:
        families = by_kind(state)
        if "LegalDefend" in families:
            (defend,) = families["LegalDefend"]
            return {"defend": {"dice": defend["maxDice"]}}
        if "LegalOccupy" in families:
            (occupy,) = families["LegalOccupy"]
            return {"occupy": {"armies": occupy["maxArmies"]}}
        if "LegalTradeCards" in families:
            richest = max(families["LegalTradeCards"], key=lambda family: family["armies"])
            return dict(richest["input"])
        if "LegalPlaceArmies" in families:
            return await self.place(state, families["LegalPlaceArmies"][0])
        attack = await self.attack(state, families)
        if attack is not None:
            return attack
        if "LegalEndTurn" in families:
            return {"endTurn": True}
        return dict(state.legal_actions[0]["input"])

    async def attack(self, state: GameState, families: dict[str, list[Json]]) -> Json | None:
        """The land attack with the best odds of conquest, if they reach the threshold."""
        attacks = families.get("LegalAttackUntil") or families.get("LegalAttack") or []
        armies = state.armies()
        best_p: float = 0.0
        best: Json | None = None  # the attack with the best odds
        for family in attacks:
            p = await self.conquest(armies[family["source"]] - 1, armies[family["target"]])
            if p > best_p:
                best_p, best = p, family
        if best is None or best_p < self.threshold:
            return None
        move = {"source": best["source"], "target": best["target"]}
        if best["__typename"] == "LegalAttackUntil":
            return {"attackUntil": {**move, "dice": 3, "stopAt": best["minStopAt"]}}
        return {"attack": {**move, "dice": best["maxDice"]}}

    async def place(self, state: GameState, family: Json) -> ActionInput:
        """Every army it may place on the territory with the best odds against a neighbour
        (across land borders: armies never attack across a sea area)."""
        owners, armies = state.owners(), state.armies()
        placed = family["maxArmies"]
        best_score, best = (-1.0, -1_000), family["territories"][0]
        for territory in family["territories"]:
            for neighbour in self.board.land_neighbours[territory]:
                if owners[neighbour] == state.viewer_seat:
                    continue
                attackers = armies[territory] + placed - 1
                p = await self.conquest(attackers, armies[neighbour])
                score = (p, attackers - armies[neighbour])
                if score > best_score:
                    best_score, best = score, territory
        return {"placeArmies": {"territory": best, "armies": placed}}


class AggressiveBot(OddsBot):
    """OddsBot that attacks on any fair chance (a conquest at 25 % or more): more attacks,
    more losses; between the random bot and the odds bot in strength (the bots' ladder)."""

    name = "aggressive"
    threshold = 0.25


class SpqrOddsBot(OddsBot):
    """S.P.Q.RisiKo!: OddsBot's land war, plus the occupation, the set rewards and the sea.

    Occupation: claims a free province next to its own (else one with room around it) and
    puts neutral legionaries away from its own provinces, next to its rivals if it can.
    Reinforcement: trades its richest set, places its power centres on its strongest province
    and its triremes where they win (or strengthen) command of a sea, then its legionaries.
    Then it fights the naval combat, the sea attack and the land attack with the best odds
    when they reach `threshold`, each with all it may, and ends its turn. It builds and moves
    no fleet: copy it and add that."""

    plays = OddsBot.plays | {"claimProvince", "placeNeutral", "navalBattle", "seaAttack"}

    async def prepare(self, client: RisikoClient, state: GameState) -> None:
        await super().prepare(client, state)
        self.naval_odds: dict[tuple[int, int], float] = {}

    async def choose(self, state: GameState) -> ActionInput:
        families = by_kind(state)
        mine = state.viewer_seat
        owners, armies = state.owners(), state.armies()
        land = self.board.land_neighbours
        if "LegalOccupy" in families:
            (occupy,) = families["LegalOccupy"]
            return {"occupy": {"armies": occupy["maxArmies"]}}
        if "LegalClaimProvince" in families:
            (claim,) = families["LegalClaimProvince"]

            def room(p: str) -> tuple[int, int, float]:  # own neighbours, free ones, chance
                around = [owners[n] for n in land[p]]
                free = sum(1 for n in land[p] if owners[n] is None and armies[n] == 0)
                return around.count(mine), free, self.rng.random()

            return {"claimProvince": {"province": max(claim["provinces"], key=room)}}
        if "LegalPlaceNeutral" in families:
            (neutral,) = families["LegalPlaceNeutral"]

            def away(p: str) -> tuple[int, int, float]:  # far from own, near rivals
                around = [owners[n] for n in land[p]]
                rivals = sum(1 for o in around if o is not None and o != mine)
                return -around.count(mine), rivals, self.rng.random()

            province = max(neutral["provinces"], key=away)
            return {"placeNeutral": {"province": province, "colour": neutral["colours"][0]}}
        if "LegalTradeCards" in families:
            richest = max(families["LegalTradeCards"], key=lambda family: family["armies"])
            return dict(richest["input"])
        if "LegalPlacePowerCentre" in families:
            (centre,) = families["LegalPlacePowerCentre"]
            province = max(centre["provinces"], key=lambda p: armies[p])
            return {"placePowerCentre": {"province": province}}
        if "LegalPlaceTrireme" in families:
            (trireme,) = families["LegalPlaceTrireme"]
            return {"placeTrireme": {"sea": self.best_sea(state, trireme["seas"])}}
        if "LegalPlaceArmies" in families:
            return await self.place(state, families["LegalPlaceArmies"][0])
        for fight in (self.naval_battle, self.sea_attack, self.attack):
            action = await fight(state, families)
            if action is not None:
                return action
        return {"endTurn": True}

    def best_sea(self, state: GameState, seas: list[str]) -> str:
        """The sea area where one more trireme wins command, else where the most own
        provinces lie on the shore."""
        mine, owners = state.viewer_seat, state.owners()
        assert mine is not None  # it is our turn
        fleets = state.triremes()

        def worth(sea: str) -> tuple[bool, int]:
            fleet = fleets.get(sea, {})
            ours = fleet.get(mine, 0)
            theirs = max((n for s, n in fleet.items() if s != mine), default=0)
            shore = sum(1 for p in self.board.coasts[sea] if owners[p] == mine)
            return theirs == ours, shore  # one more: strictly more than any other

        return max(seas, key=worth)

    async def naval_battle(self, state: GameState, families: dict[str, list[Json]]) -> Json | None:
        """The naval combat (or its next roll) most likely to sink the opponent's fleet."""
        mine, fleets = state.viewer_seat, state.triremes()
        assert mine is not None  # it is our turn
        best_p, best = 0.0, None
        for family in families.get("LegalNavalBattle", []):
            fleet = fleets.get(family["sea"], {})
            ours, theirs = fleet.get(mine, 0), fleet.get(family["opponent"], 0)
            if theirs == 0:
                continue
            if (ours, theirs) not in self.naval_odds:
                odds = await self.client.battle_odds(ours, theirs, naval=True)
                self.naval_odds[ours, theirs] = odds.conquest_probability
            p = self.naval_odds[ours, theirs]
            if p > best_p:
                best_p, best = p, family
        if best is None or best_p < self.threshold:
            return None
        ready = best["input"]["navalBattle"]
        return {"navalBattle": {**ready, "dice": best["maxDice"]}}

    async def sea_attack(self, state: GameState, families: dict[str, list[Json]]) -> Json | None:
        """The sea attack with the best odds, with every legionary that may sail."""
        armies = state.armies()
        best_p, best = 0.0, None
        for family in families.get("LegalSeaAttack", []):
            p = await self.conquest(family["maxLegionaries"], armies[family["target"]])
            if p > best_p:
                best_p, best = p, family
        if best is None or best_p < self.threshold:
            return None
        ready = best["input"]["seaAttack"]
        return {"seaAttack": {**ready, "legionaries": best["maxLegionaries"]}}


class PiuOddsBot(OddsBot):
    """RisiKo! Più: OddsBot's land war, the setup, and the cards.

    Setup: the fortress on the territory of its empire with the fewest foreign neighbours,
    free territories next to its own, the hidden armies' territory among its own. Turn: brings
    its hidden armies out at once, places like OddsBot, plays every Rinforzi and every Spia
    (taking the most useful card it sees), then attacks where the odds reach `threshold`: by
    sea with the flagship when that is the best attack, with a Generale on an attack whose
    odds it turns (between 0.3 and 0.8). It keeps its Diplomatici: copy it and add them."""

    plays = OddsBot.plays | {"chooseFortress", "claimTerritory", "writeHiddenTerritory"}
    WORTH = ("ammiraglio", "generale", "rinforzi", "maresciallo", "spia", "diplomatico")

    async def choose(self, state: GameState) -> ActionInput:
        families = by_kind(state)
        mine = state.viewer_seat
        owners = state.owners()
        land = self.board.land_neighbours
        if "LegalOccupy" in families:
            (occupy,) = families["LegalOccupy"]
            return {"occupy": {"armies": occupy["maxArmies"]}}
        if "LegalChooseFortress" in families:
            (fortress,) = families["LegalChooseFortress"]

            def exposure(t: str) -> tuple[int, float]:
                return sum(1 for n in land[t] if owners[n] != mine), self.rng.random()

            return {"chooseFortress": {"territory": min(fortress["territories"], key=exposure)}}
        if "LegalClaimTerritory" in families:
            (claim,) = families["LegalClaimTerritory"]

            def friends(t: str) -> tuple[int, float]:
                return sum(1 for n in land[t] if owners[n] == mine), self.rng.random()

            return {"claimTerritory": {"territory": max(claim["territories"], key=friends)}}
        if "LegalWriteHiddenTerritory" in families:
            (hidden,) = families["LegalWriteHiddenTerritory"]
            own = [t for t in hidden["territories"] if owners[t] == mine] or hidden["territories"]
            return {"writeHiddenTerritory": {"territory": self.rng.choice(own)}}
        if "LegalDiscardSpiedCard" in families:
            (spied,) = families["LegalDiscardSpiedCard"]
            best = min(spied["cards"], key=lambda c: self.WORTH.index(c.rsplit("_", 1)[0]))
            return {"discardSpiedCard": {"card": best}}
        for kind in ("LegalRevealHiddenArmies", "LegalPlayRinforzi", "LegalPlaySpy"):
            if kind in families:
                return dict(families[kind][0]["input"])
        if "LegalPlaceArmies" in families:
            return await self.place(state, families["LegalPlaceArmies"][0])
        return await self.piu_attack(state, families) or {"endTurn": True}

    async def piu_attack(self, state: GameState, families: dict[str, list[Json]]) -> Json | None:
        """The best attack by land or by sea, with a Generale when it turns the odds."""
        armies = state.armies()
        best_p, best = 0.0, None
        for family in families.get("LegalAttackUntil", []):
            p = await self.conquest(armies[family["source"]] - 1, armies[family["target"]])
            if p > best_p:
                best_p = p
                move = {"source": family["source"], "target": family["target"]}
                best = {"attackUntil": {**move, "dice": 3, "stopAt": family["minStopAt"]}}
        for family in families.get("LegalAdmiralAttack", []):
            for target in family["targets"]:
                p = await self.conquest(family["maxArmies"], armies[target])
                if p > best_p:
                    best_p = p
                    ready = family["input"]["admiralAttack"]
                    loaded = {"target": target, "armies": family["maxArmies"], "stopAt": 0}
                    best = {"admiralAttack": {**ready, **loaded}}
        if best is None or best_p < self.threshold:
            return None
        (attack,) = best.values()
        for general in families.get("LegalPlayGeneral", []):
            pairs = set(zip(general["sources"], general["targets"], strict=True))
            if (attack["source"], attack["target"]) in pairs and 0.3 <= best_p <= 0.8:
                card = general["cards"][0]
                return {
                    "playGeneral": {"card": card, **{k: attack[k] for k in ("source", "target")}}
                }
        return best


def by_kind(state: GameState) -> dict[str, list[Json]]:
    """The legal families by __typename."""
    families: dict[str, list[Json]] = {}
    for family in state.legal_actions:
        families.setdefault(family["__typename"], []).append(family)
    return families


# The bots by name: of those of a name, a game gets the one that plays the most of its actions
# (a bot for a game of new actions is added to its name's list).
BOTS: dict[str, list[type[Bot]]] = {
    "random": [RandomBot],  # each family's ready input, drawn uniformly: any game
    "odds": [OddsBot, SpqrOddsBot, PiuOddsBot],
    "aggressive": [AggressiveBot],  # classic's land war only
}


def bot_class(name: str, action_kinds: Collection[str]) -> type[Bot]:
    """The bot called `name` for a game whose actions are `action_kinds` (Variant.actionKinds):
    of the bots of that name that know every action they need, the one that needs the most."""
    kinds = set(action_kinds)
    fitting = [cls for cls in BOTS.get(name, []) if cls.plays <= kinds]
    if not fitting:
        known = ", ".join(
            sorted(n for n, classes in BOTS.items() if any(c.plays <= kinds for c in classes))
        )
        raise ValueError(f"no bot {name!r} plays this game (known: {known})")
    return max(fitting, key=lambda cls: len(cls.plays))


def make_bot(name: str, action_kinds: Collection[str], seed: int | str | None = None) -> Bot:
    """A bot called `name` that plays a game whose actions are `action_kinds`."""
    return bot_class(name, action_kinds)(seed)


class BotError(RuntimeError):
    """The bot's choices were refused again and again."""


@dataclass
class PlayStats:
    """What one bot did in one game."""

    actions: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    refused: list[UserError] = field(default_factory=list)  # every user error, STALE included
    seconds: float = 0.0


async def play(
    bot: Bot, client: RisikoClient, game_id: str, *, poll: float = 5.0, max_refused: int = 3
) -> PlayStats:
    """Play the client's seat until the game is over. Between its turns the bot waits for an
    event of a newer version (or `poll` seconds), then looks whose turn it is."""
    stats = PlayStats()
    started = time.perf_counter()
    newest = 0  # the newest version the event stream has shown
    news = asyncio.Event()

    async def follow() -> None:
        nonlocal newest
        async for event in client.events(game_id):
            if event.version > newest:
                newest = event.version
                news.set()

    follower = asyncio.create_task(follow())
    try:
        state = await client.game(game_id)
        await bot.prepare(client, state)
        refusals = 0
        while not state.finished:
            if state.my_turn:
                action = await bot.choose(state)
                submitted = await client.submit(game_id, action, state.version)
                if submitted.ok and submitted.state is not None:
                    refusals = 0
                    stats.actions += 1
                    (kind,) = action
                    stats.kinds[kind] = stats.kinds.get(kind, 0) + 1
                    state = submitted.state
                    continue
                stats.refused += submitted.user_errors
                refusals += 1
                if refusals > max_refused:
                    raise BotError(f"{bot.name}: {action} refused: {submitted.user_errors}")
                state = await client.game(game_id)
                continue
            # Not our turn: wait for news, then a cheap look before loading the whole game.
            version = state.version
            while True:
                if newest <= version:
                    news.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(news.wait(), poll)
                if follower.done():
                    follower.result()  # the event stream failed: raise its error
                version, status, seat_to_act = await client.turn(game_id)
                if status == "FINISHED" or seat_to_act == state.viewer_seat:
                    break
            state = await client.game(game_id)
    finally:
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower
        stats.seconds = time.perf_counter() - started
    return stats
