"""The client's S.P.Q.RisiKo! bots (client/bots.py) offline: hand-built GameState data (the
API's shapes), the real spqr board, and odds computed in-process instead of by the server.
RandomBot answers every new family inside its ranges; SpqrOddsBot makes the choices its
docstring promises."""

from __future__ import annotations

from typing import Any

import pytest
from risiko_client.api import ActionInput, Board, GameState, Odds, RisikoClient
from risiko_client.bots import BOTS, RandomBot, SpqrOddsBot, make_bot

from domain.odds import TieRule, battle_odds
from variants import get_variant

pytestmark = pytest.mark.anyio

Json = dict[str, Any]
ME, RIVAL, OTHER = 0, 1, 2


def spqr_board() -> Board:
    """The spqr board as `client.board("spqr")` returns it (the API's SEA/LAND kinds)."""
    data = get_variant("spqr").ruleset.board.to_data()
    for territory in data["territories"]:
        territory["kind"] = territory["kind"].upper()
    return Board.from_data(data)


BOARD = spqr_board()


class OfflineClient(RisikoClient):
    """The board and the odds without a server; remembers the odds it was asked for."""

    def __init__(self) -> None:
        super().__init__("http://offline.invalid")
        self.asked: list[tuple[int, int, bool]] = []

    async def board(self, variant: str = "classic") -> Board:
        return BOARD

    async def battle_odds(
        self,
        attackers: int,
        defenders: int,
        *,
        attacker_dice: int = 3,
        defender_dice: int = 3,
        tie_rule: str = "DEFENDER_WINS",
        attacker_bonus: int = 0,
        defender_bonus: int = 0,
        stop_at: int = 0,
        naval: bool = False,
    ) -> Odds:
        self.asked.append((attackers, defenders, naval))
        rule = TieRule.NO_LOSS if naval else TieRule(tie_rule.lower())
        odds = battle_odds(
            attackers,
            defenders,
            max_attacker_dice=attacker_dice,
            max_defender_dice=defender_dice,
            tie_rule=rule,
            attacker_bonus=attacker_bonus,
            defender_bonus=defender_bonus,
            stop_at=stop_at,
            stop_on_no_loss=naval,
        )
        return Odds(
            odds.attackers,
            odds.defenders,
            odds.conquest_probability,
            list(odds.attacker_survivors),
            list(odds.defender_survivors),
            odds.expected_attacker_losses,
            odds.expected_defender_losses,
        )


def state(
    families: list[Json],
    *,
    phase: str = "REINFORCE",
    owners: dict[str, int | None] | None = None,
    armies: dict[str, int] | None = None,
    triremes: dict[str, dict[int, int]] | None = None,
) -> GameState:
    """Seat 0's turn in a 3-player game: every province free unless given, seas empty."""
    owners, armies, triremes = owners or {}, armies or {}, triremes or {}
    territories = [
        {
            "id": space,
            "owner": owners.get(space),
            "armies": armies.get(space, 0),
            "neutral": None,
            "triremes": [{"seat": s, "count": n} for s, n in triremes.get(space, {}).items()],
            "controlledBy": None,
            "powerCentre": False,
        }
        for space in sorted(BOARD.neighbours)
    ]
    players = [
        {"seat": seat, "name": f"p{seat}", "colour": colour, "victoryPoints": 0, "triremes": 0}
        for seat, colour in enumerate(("rosso", "blu", "giallo"))
    ]
    return GameState(
        id="R2FtZTpvZmZsaW5l",
        variant="spqr",
        version=7,
        status="ACTIVE",
        phase=phase,
        round=2,
        current_player=ME,
        seat_to_act=ME,
        viewer_seat=ME,
        armies_to_place=0,
        players=players,
        territories=territories,
        hand=[],
        objective=None,
        legal_actions=families,
        outcome=None,
        neutral_colours=["verde", "nero"],
    )


# One family of each new kind, as the API lists them (ranges and a ready input).
FAMILIES: list[Json] = [
    {
        "__typename": "LegalClaimProvince",
        "provinces": ["italia", "sicilia", "arabia"],
        "input": {"claimProvince": {"province": "italia"}},
    },
    {
        "__typename": "LegalPlaceNeutral",
        "provinces": ["italia", "sicilia"],
        "colours": ["verde", "nero"],
        "input": {"placeNeutral": {"province": "italia", "colour": "verde"}},
    },
    {
        "__typename": "LegalPlacePowerCentre",
        "provinces": ["italia", "cisalpina"],
        "input": {"placePowerCentre": {"province": "italia"}},
    },
    {
        "__typename": "LegalPlaceTrireme",
        "seas": ["tyrrenum", "ionium"],
        "input": {"placeTrireme": {"sea": "tyrrenum"}},
    },
    {
        "__typename": "LegalBuildTrireme",
        "province": "italia",
        "sea": "ionium",
        "minTriremes": 1,
        "maxTriremes": 3,
        "input": {"buildTrireme": {"province": "italia", "sea": "ionium", "triremes": 1}},
    },
    {
        "__typename": "LegalDisbandTrireme",
        "sea": "tyrrenum",
        "provinces": ["italia", "sicilia"],
        "input": {"disbandTrireme": {"sea": "tyrrenum", "province": "italia"}},
    },
    {
        "__typename": "LegalMoveFleet",
        "source": "tyrrenum",
        "target": "ionium",
        "minTriremes": 1,
        "maxTriremes": 4,
        "input": {"moveFleet": {"source": "tyrrenum", "target": "ionium", "triremes": 4}},
    },
    {
        "__typename": "LegalNavalBattle",
        "sea": "tyrrenum",
        "opponent": RIVAL,
        "minDice": 1,
        "maxDice": 2,
        "ongoing": False,
        "input": {"navalBattle": {"sea": "tyrrenum", "opponent": RIVAL, "dice": 2}},
    },
    {
        "__typename": "LegalSeaAttack",
        "source": "italia",
        "target": "africa",
        "sea": "tyrrenum",
        "minLegionaries": 1,
        "maxLegionaries": 5,
        "input": {
            "seaAttack": {
                "source": "italia",
                "target": "africa",
                "sea": "tyrrenum",
                "legionaries": 5,
            }
        },
    },
]


CHOICES = {"province": "provinces", "colour": "colours", "sea": "seas"}  # lists to pick in
RANGES = {"triremes": "Triremes", "dice": "Dice", "legionaries": "Legionaries"}  # min…, max…


def within(family: Json, action: ActionInput) -> bool:
    """Whether `action` is a member of `family`: same kind, picks from its lists, numbers in
    its ranges, the other fields (source, target, opponent, …) as in its ready input."""
    ((kind, ready),) = family["input"].items()
    ((chosen_kind, chosen),) = action.items()
    if chosen_kind != kind or set(chosen) != set(ready):
        return False
    for name, value in chosen.items():
        if CHOICES.get(name) in family:
            fits = value in family[CHOICES[name]]
        elif name in RANGES:
            fits = family[f"min{RANGES[name]}"] <= value <= family[f"max{RANGES[name]}"]
        else:
            fits = value == ready[name]
        if not fits:
            return False
    return True


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f["__typename"])
async def test_random_bot_answers_every_new_family_inside_its_ranges(family: Json) -> None:
    bot = RandomBot(seed=11)
    seen: set[str] = set()
    for _ in range(60):
        action = await bot.choose(state([family]))
        assert within(family, action), action
        seen.add(repr(action))
    assert len(seen) > 1  # it really chooses, not always the ready input


def test_both_bots_play_spqr() -> None:
    from api.graphql.catalogue import _action_kinds
    from variants import get_variant

    kinds = _action_kinds(get_variant("spqr"))
    assert SpqrOddsBot in BOTS["odds"]
    assert isinstance(make_bot("odds", kinds, 1), SpqrOddsBot)
    assert type(make_bot("random", kinds, 1)) is RandomBot


def test_the_client_board_tells_land_borders_from_coasts() -> None:
    assert BOARD.land_neighbours["italia"] == {"cisalpina"}
    assert BOARD.coasts["italia"] == {"hadriaticum", "ionium", "tyrrenum"}
    assert BOARD.coasts["tyrrenum"] >= {"italia", "sicilia", "africa"}
    assert BOARD.sea_neighbours["syrtis"] == {"ionium", "tyrrenum"}
    assert BOARD.land_neighbours["sicilia"] == frozenset()  # an island
    assert "tyrrenum" in BOARD.seas
    assert "italia" not in BOARD.seas
    assert BOARD.neighbours["italia"] == BOARD.land_neighbours["italia"] | BOARD.coasts["italia"]


async def odds_bot(game: GameState) -> tuple[SpqrOddsBot, OfflineClient]:
    bot, client = SpqrOddsBot(seed=3), OfflineClient()
    await bot.prepare(client, game)
    return bot, client


END = {"__typename": "LegalEndTurn", "input": {"endTurn": True}}


async def test_odds_bot_occupation_claims_next_to_its_own_and_neutrals_away() -> None:
    owners: dict[str, int | None] = {"italia": ME, "dalmazia": RIVAL}
    armies = {"italia": 2, "dalmazia": 2}
    claim = {
        "__typename": "LegalClaimProvince",
        "provinces": ["sicilia", "cisalpina", "arabia"],
        "input": {"claimProvince": {"province": "sicilia"}},
    }
    game = state([claim], phase="SETUP", owners=owners, armies=armies)
    bot, _ = await odds_bot(game)
    assert await bot.choose(game) == {"claimProvince": {"province": "cisalpina"}}

    neutral = {
        "__typename": "LegalPlaceNeutral",
        "provinces": ["cisalpina", "arabia", "noricum"],
        "colours": ["nero"],
        "input": {"placeNeutral": {"province": "cisalpina", "colour": "nero"}},
    }
    game = state([neutral], phase="SETUP", owners=owners, armies=armies)
    # noricum borders the rival's dalmazia and none of ours; cisalpina borders italia.
    assert await bot.choose(game) == {"placeNeutral": {"province": "noricum", "colour": "nero"}}


async def test_odds_bot_reinforcement_trades_places_rewards_then_legionaries() -> None:
    owners: dict[str, int | None] = {"italia": ME, "sicilia": ME, "cisalpina": RIVAL}
    owners["africa"] = RIVAL
    armies = {"italia": 3, "sicilia": 8, "cisalpina": 2, "africa": 1}
    fleets = {"tyrrenum": {ME: 1, RIVAL: 3}, "ionium": {ME: 1, RIVAL: 1}}
    trade = [
        {
            "__typename": "LegalTradeCards",
            "cards": c,
            "armies": n,
            "input": {"tradeCards": {"cards": c}},
        }
        for c, n in ((["a", "b", "c"], 4), (["d", "e", "f"], 10))
    ]
    centre = FAMILIES[2] | {"provinces": ["italia", "sicilia"]}
    trireme = FAMILIES[3] | {"seas": ["tyrrenum", "ionium", "hadriaticum"]}
    place = {
        "__typename": "LegalPlaceArmies",
        "territories": ["italia", "sicilia"],
        "minArmies": 1,
        "maxArmies": 3,
        "input": {"placeArmies": {"territory": "italia", "armies": 3}},
    }
    families = [*trade, centre, trireme, place, END]
    game = state(families, owners=owners, armies=armies, triremes=fleets)
    bot, _ = await odds_bot(game)
    assert await bot.choose(game) == {"tradeCards": {"cards": ["d", "e", "f"]}}  # the richest
    families = families[2:]
    game = state(families, owners=owners, armies=armies, triremes=fleets)
    # The power centre on the strongest province.
    assert await bot.choose(game) == {"placePowerCentre": {"province": "sicilia"}}
    families = families[1:]
    game = state(families, owners=owners, armies=armies, triremes=fleets)
    # One more trireme commands ionium (1 against 1) and hadriaticum (empty); ionium has more
    # of our provinces on its shore. tyrrenum (1 against 3) stays the rival's.
    assert await bot.choose(game) == {"placeTrireme": {"sea": "ionium"}}
    families = families[1:]
    game = state(families, owners=owners, armies=armies, triremes=fleets)
    # sicilia is stronger but an island: legionaries never attack across the sea.
    assert await bot.choose(game) == {"placeArmies": {"territory": "italia", "armies": 3}}


async def test_odds_bot_fights_at_sea_only_with_good_odds() -> None:
    owners: dict[str, int | None] = {"italia": ME, "africa": RIVAL, "cisalpina": OTHER}
    armies = {"italia": 7, "africa": 1, "cisalpina": 9}
    good = FAMILIES[7]  # tyrrenum, 3 triremes against 1
    bad = good | {
        "sea": "ionium",
        "maxDice": 1,
        "input": {"navalBattle": {"sea": "ionium", "opponent": RIVAL, "dice": 1}},
    }
    fleets = {"tyrrenum": {ME: 3, RIVAL: 1}, "ionium": {ME: 1, RIVAL: 4}}
    game = state([bad, good, END], owners=owners, armies=armies, triremes=fleets)
    bot, client = await odds_bot(game)
    assert await bot.choose(game) == {
        "navalBattle": {"sea": "tyrrenum", "opponent": RIVAL, "dice": 2}
    }
    assert (3, 1, True) in client.asked
    assert (1, 4, True) in client.asked
    game = state([bad, END], owners=owners, armies=armies, triremes=fleets)
    assert await bot.choose(game) == {"endTurn": True}

    # A sea attack with every legionary that may sail, when it is likely to conquer.
    sea_attack = FAMILIES[8]
    game = state([sea_attack, END], owners=owners, armies=armies, triremes=fleets)
    assert await bot.choose(game) == {
        "seaAttack": {"source": "italia", "target": "africa", "sea": "tyrrenum", "legionaries": 5}
    }
    assert (5, 1, False) in client.asked
    strong = {**armies, "africa": 12}
    game = state([sea_attack, END], owners=owners, armies=strong, triremes=fleets)
    assert await bot.choose(game) == {"endTurn": True}

    # Then the land attacks, as OddsBot: cisalpina (9) is too strong for italia's 6.
    attack = {
        "__typename": "LegalAttackUntil",
        "source": "italia",
        "target": "cisalpina",
        "minDice": 1,
        "minStopAt": 1,
        "maxStopAt": 6,
        "input": {"attackUntil": {"source": "italia", "target": "cisalpina", "dice": 3}},
    }
    game = state([attack, END], owners=owners, armies=armies, triremes=fleets)
    assert await bot.choose(game) == {"endTurn": True}
    weak = {**armies, "cisalpina": 1}
    game = state([attack, END], owners=owners, armies=weak, triremes=fleets)
    assert await bot.choose(game) == {
        "attackUntil": {"source": "italia", "target": "cisalpina", "dice": 3, "stopAt": 1}
    }
    occupy = {
        "__typename": "LegalOccupy",
        "source": "italia",
        "target": "cisalpina",
        "minArmies": 3,
        "maxArmies": 5,
        "input": {"occupy": {"armies": 3}},
    }
    game = state([occupy], phase="OCCUPY", owners=owners, armies=weak, triremes=fleets)
    assert await bot.choose(game) == {"occupy": {"armies": 5}}
