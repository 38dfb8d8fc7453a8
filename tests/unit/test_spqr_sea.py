"""Rule tests for the sea in S.P.Q.RisiKo! (seed 001, sections 7, 9, 11, 12, 14 and 15):
naval reinforcements, the naval move, naval combat, sea attacks and the strategic move across
a sea area. Positions are hand-made and dice forced; each test fails if its rule is broken."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain import actions as a
from domain import events as e
from domain.legal import LegalStrategicMove
from tests.spqr_support import (
    BOARD,
    SPQR,
    armies_on,
    events_of,
    families,
    fleet,
    owner_of,
    position,
    the,
)
from tests.support import assert_rejected, force_dice, state
from variants.spqr import actions as sa
from variants.spqr import events as se
from variants.spqr.game import SpqrGame
from variants.spqr.legal import LegalBuildTrireme, LegalMoveFleet, LegalNavalBattle, LegalSeaAttack
from variants.spqr.options import SpqrOptions
from variants.spqr.phases import SpqrPhase

# Seat 0 holds Italia (on Tyrrenum, Hadriaticum and Ionium; it borders the neutral Cisalpina),
# Sicilia (an island on Tyrrenum, Ionium and Syrtis) and landlocked Raetia; seat 1 holds
# Corsica, Sardinia, Epirus and Creta; seat 2 Africa and Achaia; the neutrals the rest.
OWNERS = {
    "italia": 0,
    "sicilia": 0,
    "raetia": 0,
    "corsica": 1,
    "sardinia": 1,
    "epirus": 1,
    "creta": 1,
    "africa": 2,
    "achaia": 2,
}
ARMIES = {"italia": 4, "sicilia": 6, "raetia": 7, "corsica": 2, "sardinia": 2, "epirus": 2}
FLEETS = {"tyrrenum": {0: 2, 1: 1}, "ionium": {0: 1, 1: 1}, "syrtis": {0: 1}}


def sea(
    armies: dict[str, int] | None = None,
    triremes: dict[str, dict[int, int]] | None = None,
    *,
    pending: int = 0,
    round: int = 5,
) -> SpqrGame:
    return position(
        OWNERS,
        {**ARMIES, **(armies or {})},
        triremes=FLEETS if triremes is None else triremes,
        pending=pending,
        round=round,
    )


# --------------------------------------------------------------------------- naval reinforcements


def test_three_legionaries_of_a_coastal_province_become_a_trireme() -> None:
    game = sea({"italia": 7})
    events = game.apply(0, sa.BuildTrireme("italia", "hadriaticum", 2))
    assert events == [se.TriremesPlaced(0, "hadriaticum", 2, "italia", 6)]
    assert armies_on(game, "italia") == 1
    assert fleet(game, "hadriaticum") == [2, 0, 0]
    assert game.phase is SpqrPhase.NAVAL_REINFORCE
    game.apply(0, sa.BuildTrireme("sicilia", "syrtis", 1))  # as many as the legionaries allow
    assert (armies_on(game, "sicilia"), fleet(game, "syrtis")) == (3, [2, 0, 0])


def test_the_trireme_families_offered() -> None:
    game = sea({"italia": 7, "sicilia": 4})
    builds = families(game, LegalBuildTrireme)
    assert builds == [
        LegalBuildTrireme("italia", "tyrrenum", 1, 2),
        LegalBuildTrireme("italia", "hadriaticum", 1, 2),
        LegalBuildTrireme("italia", "ionium", 1, 2),
        LegalBuildTrireme("sicilia", "tyrrenum", 1, 1),
        LegalBuildTrireme("sicilia", "ionium", 1, 1),
        LegalBuildTrireme("sicilia", "syrtis", 1, 1),
    ]  # none from landlocked Raetia, whatever its legionaries


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (sa.BuildTrireme("italia", "aegeum"), "NOT_ADJACENT"),  # not a sea of italia
        (sa.BuildTrireme("sicilia", "hadriaticum"), "NOT_ADJACENT"),
        (sa.BuildTrireme("raetia", "hadriaticum"), "NOT_ADJACENT"),  # landlocked
        (sa.BuildTrireme("italia", "tyrrenum", 2), "INVALID_ARMY_COUNT"),  # 4: one trireme
        (sa.BuildTrireme("italia", "tyrrenum", 0), "INVALID_ARMY_COUNT"),
        (sa.BuildTrireme("corsica", "tyrrenum"), "NOT_YOUR_TERRITORY"),
        (sa.BuildTrireme("tyrrenum", "italia"), "WRONG_KIND_OF_SPACE"),
        (sa.BuildTrireme("italia", "sicilia"), "WRONG_KIND_OF_SPACE"),
    ],
)
def test_a_trireme_is_built_on_a_sea_of_the_province(action: a.Action, code: str) -> None:
    assert_rejected(sea(), 0, action, code)


def test_one_legionary_stays_and_provinces_do_not_pool_their_legionaries() -> None:
    game = sea({"italia": 3, "sicilia": 3})
    assert_rejected(game, 0, sa.BuildTrireme("italia", "tyrrenum"), "NOT_ENOUGH_ARMIES")
    assert_rejected(game, 0, sa.BuildTrireme("sicilia", "tyrrenum"), "NOT_ENOUGH_ARMIES")
    assert families(game, LegalBuildTrireme) == []


def test_triremes_are_built_once_every_land_reinforcement_is_placed() -> None:
    game = sea({"italia": 7}, pending=1)
    assert_rejected(game, 0, sa.BuildTrireme("italia", "tyrrenum"), "REINFORCEMENTS_PENDING")
    assert families(game, LegalBuildTrireme) == []
    game.apply(0, a.PlaceArmies("italia", 1))
    game.apply(0, sa.BuildTrireme("italia", "tyrrenum"))
    assert_rejected(game, 0, a.PlaceArmies("italia", 1), "WRONG_PHASE")


def test_no_trireme_is_built_after_the_naval_move() -> None:
    game = sea({"italia": 7})
    game.apply(0, sa.MoveFleet("syrtis", "ionium", 1))
    assert_rejected(game, 0, sa.BuildTrireme("italia", "tyrrenum"), "WRONG_PHASE")
    assert families(game, LegalBuildTrireme) == []


# --------------------------------------------------------------------------- the naval move


def test_the_naval_move_takes_triremes_to_an_adjacent_sea() -> None:
    game = sea()
    moves = {(f.source, f.target) for f in families(game, LegalMoveFleet)}
    assert ("tyrrenum", "ionium") in moves
    assert ("tyrrenum", "aegeum") not in moves
    events = game.apply(0, sa.MoveFleet("tyrrenum", "ionium", 1))
    assert events == [se.FleetMoved(0, "tyrrenum", "ionium", 1)]
    assert (fleet(game, "tyrrenum"), fleet(game, "ionium")) == ([1, 1, 0], [2, 1, 0])
    assert game.phase is SpqrPhase.NAVAL_MOVE
    assert families(game, LegalMoveFleet) == []


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (sa.MoveFleet("tyrrenum", "hadriaticum", 1), "NOT_ADJACENT"),
        (sa.MoveFleet("tyrrenum", "aegeum", 1), "NOT_ADJACENT"),
        (sa.MoveFleet("tyrrenum", "ionium", 3), "INVALID_ARMY_COUNT"),
        (sa.MoveFleet("tyrrenum", "ionium", 0), "INVALID_ARMY_COUNT"),
        (sa.MoveFleet("aegeum", "ionium", 1), "NOT_ENOUGH_ARMIES"),
        (sa.MoveFleet("italia", "ionium", 1), "WRONG_KIND_OF_SPACE"),
        (sa.MoveFleet("tyrrenum", "tyrrenum", 1), "NOT_ADJACENT"),
    ],
)
def test_the_naval_move_is_to_an_adjacent_sea_with_own_triremes(
    action: a.Action, code: str
) -> None:
    assert_rejected(sea(), 0, action, code)


def test_one_naval_move_a_turn() -> None:
    game = sea()
    game.apply(0, sa.MoveFleet("tyrrenum", "ionium", 1))
    assert_rejected(game, 0, sa.MoveFleet("tyrrenum", "ionium", 1), "ONCE_PER_TURN")
    assert_rejected(game, 0, sa.MoveFleet("syrtis", "tyrrenum", 1), "ONCE_PER_TURN")


def test_the_naval_move_waits_for_the_reinforcements() -> None:
    game = sea(pending=2)
    assert_rejected(game, 0, sa.MoveFleet("tyrrenum", "ionium", 1), "REINFORCEMENTS_PENDING")


Prelude = Callable[[pytest.MonkeyPatch, SpqrGame], None]


def naval_combat(monkeypatch: pytest.MonkeyPatch, game: SpqrGame) -> None:
    force_dice(monkeypatch, 1, 1)  # a tie: nothing lost, the combat is over
    game.apply(0, sa.NavalBattle("ionium", 1, 1))


def sea_attack(monkeypatch: pytest.MonkeyPatch, game: SpqrGame) -> None:
    force_dice(monkeypatch, 1, 6, 6)  # the one legionary is lost
    game.apply(0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 1))


def land_attack(monkeypatch: pytest.MonkeyPatch, game: SpqrGame) -> None:
    force_dice(monkeypatch, 1, 6)
    game.apply(0, a.Attack("italia", "cisalpina", 1))


@pytest.mark.parametrize("before", [naval_combat, sea_attack, land_attack])
def test_the_naval_move_comes_before_any_combat(
    monkeypatch: pytest.MonkeyPatch, before: Prelude
) -> None:
    game = sea()
    before(monkeypatch, game)
    assert_rejected(game, 0, sa.MoveFleet("tyrrenum", "ionium", 1), "WRONG_PHASE")
    assert families(game, LegalMoveFleet) == []


# --------------------------------------------------------------------------- naval combat

BATTLE = {"tyrrenum": {0: 3, 1: 2, 2: 1}, "ionium": {0: 1, 1: 1}, "syrtis": {0: 1}}


def test_a_naval_combat_goes_on_while_each_roll_sinks_a_trireme(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = sea(triremes=BATTLE)
    force_dice(monkeypatch, 6, 5, 4, 6, 3, 6, 2)
    events = game.apply(0, sa.NavalBattle("tyrrenum", 1, 3))
    # 6 against 6 is a tie: nobody loses; 5 beats 3.
    assert events == [se.NavalDiceRolled(0, "tyrrenum", 1, (6, 5, 4), (6, 3), 0, 1, False)]
    assert fleet(game, "tyrrenum") == [3, 1, 1]
    assert game.naval_battle == [BOARD.index["tyrrenum"], 1]
    battles = families(game, LegalNavalBattle)
    assert LegalNavalBattle("tyrrenum", 1, 1, 3, True) in battles
    assert LegalNavalBattle("tyrrenum", 2, 1, 3, False) not in battles  # one combat per sea
    events = game.apply(0, sa.NavalBattle("tyrrenum", 1, 1))  # the next roll: 6 against 2
    assert events == [se.NavalDiceRolled(0, "tyrrenum", 1, (6,), (2,), 0, 1, True)]
    assert fleet(game, "tyrrenum") == [3, 0, 1]
    assert game.naval_battle is None


def test_a_roll_that_sinks_nothing_ends_the_naval_combat(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea(triremes=BATTLE)
    force_dice(monkeypatch, 4, 2, 1, 4, 2)  # two ties: nothing is lost
    events = game.apply(0, sa.NavalBattle("tyrrenum", 1, 3))
    assert events == [se.NavalDiceRolled(0, "tyrrenum", 1, (4, 2, 1), (4, 2), 0, 0, True)]
    assert fleet(game, "tyrrenum") == [3, 2, 1]
    assert game.naval_battle is None
    assert_rejected(game, 0, sa.NavalBattle("tyrrenum", 1, 3), "ONCE_PER_TURN")
    assert_rejected(game, 0, sa.NavalBattle("tyrrenum", 2, 1), "ONCE_PER_TURN")
    assert not [f for f in families(game, LegalNavalBattle) if f.sea == "tyrrenum"]


def test_the_attacker_loses_triremes_too(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea(triremes=BATTLE)
    force_dice(monkeypatch, 2, 5)
    events = game.apply(0, sa.NavalBattle("tyrrenum", 2, 1))
    assert events == [se.NavalDiceRolled(0, "tyrrenum", 2, (2,), (5,), 1, 0, False)]
    assert fleet(game, "tyrrenum") == [2, 2, 1]


def test_every_trireme_fights_there_is_no_garrison_at_sea(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea(triremes={"ionium": {0: 1, 1: 5}})
    assert families(game, LegalNavalBattle) == [LegalNavalBattle("ionium", 1, 1, 1, False)]
    assert_rejected(game, 0, sa.NavalBattle("ionium", 1, 2), "INVALID_DICE")
    assert_rejected(game, 0, sa.NavalBattle("ionium", 1, 0), "INVALID_DICE")
    force_dice(monkeypatch, 6, 5, 5, 5)  # the defender rolls the most dice: 3
    events = game.apply(0, sa.NavalBattle("ionium", 1, 1))
    assert events == [se.NavalDiceRolled(0, "ionium", 1, (6,), (5, 5, 5), 0, 1, False)]


def test_a_naval_combat_ends_when_a_fleet_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea(triremes=BATTLE)
    force_dice(monkeypatch, 6, 1)
    events = game.apply(0, sa.NavalBattle("tyrrenum", 2, 1))
    assert the(events, se.NavalDiceRolled).over
    assert fleet(game, "tyrrenum") == [3, 2, 0]
    assert game.naval_battle is None


def test_another_action_ends_a_naval_combat_that_could_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = sea(triremes=BATTLE)
    force_dice(monkeypatch, 6, 5, 4, 6, 3, 1, 1)
    game.apply(0, sa.NavalBattle("tyrrenum", 1, 3))
    assert game.naval_battle is not None
    game.apply(0, sa.NavalBattle("ionium", 1, 1))  # a combat in another sea: allowed
    assert_rejected(game, 0, sa.NavalBattle("tyrrenum", 1, 3), "ONCE_PER_TURN")
    assert_rejected(game, 0, sa.NavalBattle("ionium", 1, 1), "ONCE_PER_TURN")


def test_a_sea_attack_ends_a_naval_combat_that_could_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = sea(triremes=BATTLE)
    force_dice(monkeypatch, 6, 5, 4, 6, 3, 1, 6)
    game.apply(0, sa.NavalBattle("tyrrenum", 1, 3))
    assert game.naval_battle is not None
    assert_rejected(game, 0, sa.NavalBattle("tyrrenum", 1, 4), "INVALID_DICE")
    assert game.naval_battle is not None  # a refused action changes nothing
    game.apply(0, sa.SeaAttack("sicilia", "cyrenaica", "syrtis", 1))
    assert game.naval_battle is None
    assert_rejected(game, 0, sa.NavalBattle("tyrrenum", 1, 3), "WRONG_PHASE")


@pytest.mark.parametrize(
    ("seat", "action"), [(None, a.ExpireTime()), (2, a.Resign())], ids=["clock", "resign"]
)
def test_only_the_player_in_turn_ends_their_naval_combat(
    monkeypatch: pytest.MonkeyPatch, seat: int | None, action: a.Action
) -> None:
    """The clock running out, or another player leaving, is no decision of the attacker:
    the combat may still go on."""
    options = SpqrOptions(victory_points=None, time_limit_minutes=60)
    game = position(OWNERS, ARMIES, triremes=BATTLE, options=options)
    force_dice(monkeypatch, 6, 5, 4, 6, 3, 6, 2)
    game.apply(0, sa.NavalBattle("tyrrenum", 1, 3))
    game.apply(seat, action)
    assert game.naval_battle == [BOARD.index["tyrrenum"], 1]
    assert LegalNavalBattle("tyrrenum", 1, 1, 3, True) in families(game, LegalNavalBattle)
    events = game.apply(0, sa.NavalBattle("tyrrenum", 1, 1))
    assert the(events, se.NavalDiceRolled).defender_losses == 1


def test_the_end_of_the_turn_ends_a_naval_combat(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea(triremes=BATTLE)
    force_dice(monkeypatch, 6, 5, 4, 6, 3)
    game.apply(0, sa.NavalBattle("tyrrenum", 1, 3))
    game.apply(0, a.EndTurn())
    assert game.naval_battle is None
    assert game.naval_seas == []


def test_a_snapshot_keeps_the_turn_where_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """Restored in the middle of a naval combat, after a naval move and a conquest by sea,
    the game goes on as the original would."""
    game = sea(triremes={**BATTLE, "syrtis": {0: 2}})
    game.pending_triremes = 1
    force_dice(monkeypatch, 6, 1, 6, 5, 4, 6, 3)
    game.apply(0, sa.SeaAttack("sicilia", "cyrenaica", "syrtis", 1))
    copy = SPQR.new_game([f"P{i}" for i in range(3)], seed=b"spqr-rules")
    assert isinstance(copy, SpqrGame)
    copy.restore(game.snapshot())
    assert state(copy) == state(game)
    game = sea(triremes={**BATTLE, "syrtis": {0: 2}})
    game.apply(0, sa.MoveFleet("syrtis", "ionium", 1))
    game.apply(0, sa.NavalBattle("tyrrenum", 1, 3))
    copy.restore(game.snapshot())
    assert state(copy) == state(game)
    assert copy.naval_battle == [BOARD.index["tyrrenum"], 1]
    assert copy.legal_actions(0) == game.legal_actions(0)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (sa.NavalBattle("tyrrenum", 0), "INVALID_ACTION"),  # itself
        (sa.NavalBattle("tyrrenum", 3), "INVALID_ACTION"),  # no such seat
        (sa.NavalBattle("tyrrenum", -2), "INVALID_ACTION"),  # neutrals have no triremes
        (sa.NavalBattle("syrtis", 1), "NOT_ENOUGH_ARMIES"),  # nobody to fight
        (sa.NavalBattle("aegeum", 1), "NOT_ENOUGH_ARMIES"),  # no own trireme
        (sa.NavalBattle("italia", 1), "WRONG_KIND_OF_SPACE"),
    ],
)
def test_a_naval_combat_is_against_an_opponent_in_the_same_sea(action: a.Action, code: str) -> None:
    game = sea(triremes={**BATTLE, "aegeum": {1: 2}})
    assert_rejected(game, 0, action, code)


def test_a_naval_combat_waits_for_the_reinforcements() -> None:
    game = sea(triremes=BATTLE, pending=1)
    assert_rejected(game, 0, sa.NavalBattle("tyrrenum", 1), "REINFORCEMENTS_PENDING")


@pytest.mark.parametrize("before", [sea_attack, land_attack])
def test_naval_combats_come_before_the_attacks(
    monkeypatch: pytest.MonkeyPatch, before: Prelude
) -> None:
    game = sea()
    before(monkeypatch, game)
    assert_rejected(game, 0, sa.NavalBattle("ionium", 1), "WRONG_PHASE")
    assert families(game, LegalNavalBattle) == []


def test_a_naval_combat_may_follow_the_naval_move(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea()
    game.apply(0, sa.MoveFleet("syrtis", "ionium", 1))
    force_dice(monkeypatch, 6, 5, 1)
    game.apply(0, sa.NavalBattle("ionium", 1, 2))
    assert fleet(game, "ionium") == [2, 0, 0]


# --------------------------------------------------------------------------- sea attacks


def test_a_sea_attack_conquers_and_the_force_moves_in(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea()
    force_dice(monkeypatch, 6, 6, 6, 1, 1)
    events = game.apply(0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 3))
    assert events == [
        se.SeaAttackLaunched(0, "sicilia", "corsica", "tyrrenum", 3, 1),
        e.DiceRolled(0, "sicilia", "corsica", (6, 6, 6), (1, 1), 0, 2),
        e.TerritoryConquered(0, "sicilia", "corsica", 1, 3, 3),
        e.ArmiesMoved(0, "sicilia", "corsica", 3, False),
    ]
    assert (owner_of(game, "corsica"), armies_on(game, "corsica")) == (0, 3)
    assert armies_on(game, "sicilia") == 3
    assert game.phase is SpqrPhase.SEA_ATTACK  # no occupation step: nothing more moves in
    assert game.territory_count == [4, 3, 2]


def test_a_sea_attack_is_fought_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea()
    # 1 1 1 against 6 6: two attackers lost; 6 against 1 1: one defender lost; 6 against 1.
    force_dice(monkeypatch, 1, 1, 1, 6, 6, 6, 1, 1, 6, 1)
    events = game.apply(0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 3))
    rolls = events_of(events, e.DiceRolled)
    assert [(r.attacker_dice, r.defender_dice) for r in rolls] == [
        ((1, 1, 1), (6, 6)),
        ((6,), (1, 1)),
        ((6,), (1,)),
    ]
    assert (owner_of(game, "corsica"), armies_on(game, "corsica")) == (0, 1)
    assert armies_on(game, "sicilia") == 3


def test_ties_in_a_sea_attack_go_to_the_defender(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea()
    force_dice(monkeypatch, 4, 3, 4, 3)
    events = game.apply(0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 2))
    assert the(events, e.DiceRolled) == e.DiceRolled(0, "sicilia", "corsica", (4, 3), (4, 3), 2, 0)
    assert (owner_of(game, "corsica"), armies_on(game, "corsica")) == (1, 2)


def test_a_sea_attack_may_lose_the_whole_force(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea({"corsica": 5})
    force_dice(monkeypatch, 5, 5, 6, 6, 6)
    events = game.apply(0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 2))
    assert the(events, e.DiceRolled) == e.DiceRolled(
        0, "sicilia", "corsica", (5, 5), (6, 6, 6), 2, 0
    )
    assert not events_of(events, e.TerritoryConquered)
    assert (owner_of(game, "corsica"), armies_on(game, "corsica")) == (1, 5)
    assert armies_on(game, "sicilia") == 4


def test_a_sea_attack_needs_more_triremes_than_the_defender() -> None:
    game = sea(triremes={"tyrrenum": {0: 1, 1: 1}, "ionium": {0: 1, 1: 2}, "syrtis": {0: 1}})
    assert_rejected(
        game, 0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 1), "NO_NAVAL_SUPERIORITY"
    )
    assert_rejected(game, 0, sa.SeaAttack("sicilia", "creta", "ionium", 1), "NO_NAVAL_SUPERIORITY")
    targets = {(f.target, f.sea) for f in families(game, LegalSeaAttack)}
    assert ("corsica", "tyrrenum") not in targets
    assert ("creta", "ionium") not in targets
    assert ("africa", "syrtis") in targets  # seat 2 has no trireme there
    assert ("cyrenaica", "syrtis") in targets  # a neutral: one trireme is enough


def test_a_sea_attack_on_a_neutral_needs_one_trireme(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea()
    assert_rejected(
        game, 0, sa.SeaAttack("italia", "illiria", "hadriaticum", 1), "NO_NAVAL_SUPERIORITY"
    )
    force_dice(monkeypatch, 6, 1)
    events = game.apply(0, sa.SeaAttack("sicilia", "cyrenaica", "syrtis", 1))
    assert the(events, se.SeaAttackLaunched).defender == -1
    assert the(events, e.TerritoryConquered).defender == -1
    assert owner_of(game, "cyrenaica") == 0


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (sa.SeaAttack("sicilia", "creta", "tyrrenum", 1), "NOT_ADJACENT"),  # creta not on it
        (sa.SeaAttack("italia", "africa", "syrtis", 1), "NOT_ADJACENT"),  # italia not on it
        (sa.SeaAttack("sicilia", "italia", "tyrrenum", 1), "OWN_TERRITORY"),
        (sa.SeaAttack("corsica", "sicilia", "tyrrenum", 1), "NOT_YOUR_TERRITORY"),
        (sa.SeaAttack("sicilia", "corsica", "ionium", 1), "NOT_ADJACENT"),
        (sa.SeaAttack("sicilia", "tyrrenum", "corsica", 1), "WRONG_KIND_OF_SPACE"),
        (sa.SeaAttack("sicilia", "corsica", "tyrrenum", 6), "INVALID_ARMY_COUNT"),
        (sa.SeaAttack("sicilia", "corsica", "tyrrenum", 0), "INVALID_ARMY_COUNT"),
        (sa.SeaAttack("italia", "corsica", "tyrrenum", 3), "MINIMUM_GARRISON"),
    ],
)
def test_a_sea_attack_crosses_one_sea_between_its_provinces(action: a.Action, code: str) -> None:
    assert_rejected(sea(), 0, action, code)


def test_the_force_of_a_sea_attack_respects_the_garrisons() -> None:
    """Italia (4 legionaries) borders the neutral Cisalpina: at most 2 sail; Sicilia borders
    nothing by land: all but one may sail."""
    game = sea()
    attacks = {(f.source, f.target, f.sea): f for f in families(game, LegalSeaAttack)}
    assert attacks[("italia", "corsica", "tyrrenum")] == LegalSeaAttack(
        "italia", "corsica", "tyrrenum", 1, 2
    )
    assert attacks[("sicilia", "corsica", "tyrrenum")] == LegalSeaAttack(
        "sicilia", "corsica", "tyrrenum", 1, 5
    )
    game = sea({"sicilia": 1})
    assert_rejected(game, 0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 1), "NOT_ENOUGH_ARMIES")


def test_the_defender_of_a_sea_attack_rolls_the_most_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea({"corsica": 4})
    force_dice(monkeypatch, 1, 6, 6, 6)
    events = game.apply(0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 1))
    assert the(events, e.DiceRolled).defender_dice == (6, 6, 6)


def test_a_province_is_attacked_by_sea_once_a_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    owners = {**OWNERS, "baleares": 0}
    triremes = {**FLEETS, "sinus_gallicus": {0: 1}}
    game = position(owners, {**ARMIES, "baleares": 4}, triremes=triremes)
    force_dice(monkeypatch, 1, 6, 6, 1, 6, 6)
    game.apply(0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 1))
    assert_rejected(game, 0, sa.SeaAttack("italia", "corsica", "tyrrenum", 1), "ONCE_PER_TURN")
    assert_rejected(
        game, 0, sa.SeaAttack("baleares", "corsica", "sinus_gallicus", 1), "ONCE_PER_TURN"
    )
    targets = {f.target for f in families(game, LegalSeaAttack)}
    assert "corsica" not in targets
    assert "sardinia" in targets
    game.apply(0, sa.SeaAttack("baleares", "sardinia", "sinus_gallicus", 1))  # another one: fine


def test_a_province_taken_by_sea_attacks_again_only_by_land(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = sea({"epirus": 1}, triremes={"ionium": {0: 2, 1: 1}, "hadriaticum": {0: 1}})
    force_dice(monkeypatch, 6, 6, 6, 1)
    game.apply(0, sa.SeaAttack("sicilia", "epirus", "ionium", 3))
    assert (owner_of(game, "epirus"), armies_on(game, "epirus")) == (0, 3)
    assert_rejected(game, 0, sa.SeaAttack("epirus", "creta", "ionium", 1), "ONCE_PER_TURN")
    assert_rejected(game, 0, sa.SeaAttack("epirus", "illiria", "hadriaticum", 1), "ONCE_PER_TURN")
    sources = {f.source for f in families(game, LegalSeaAttack)}
    assert "epirus" not in sources
    assert "sicilia" in sources
    force_dice(monkeypatch, 6, 1)
    game.apply(0, a.Attack("epirus", "illiria", 1))  # by land: allowed
    assert owner_of(game, "illiria") == 0


def test_sea_attacks_come_before_land_attacks(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea()
    land_attack(monkeypatch, game)
    assert_rejected(game, 0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 1), "WRONG_PHASE")
    assert families(game, LegalSeaAttack) == []


def test_a_sea_attack_waits_for_the_reinforcements() -> None:
    game = sea(pending=1)
    assert_rejected(
        game, 0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 1), "REINFORCEMENTS_PENDING"
    )


def test_a_conquest_by_sea_earns_the_card(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea()
    force_dice(monkeypatch, 6, 6, 1, 1)
    game.apply(0, sa.SeaAttack("sicilia", "corsica", "tyrrenum", 2))
    events = game.apply(0, a.EndTurn())
    assert the(events, e.CardDrawn) == e.CardDrawn(0, 1)


def test_a_lost_sea_attack_earns_no_card(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sea()
    sea_attack(monkeypatch, game)
    assert not events_of(game.apply(0, a.EndTurn()), e.CardDrawn)


# --------------------------------------------------------------------------- strategic move by sea


@pytest.mark.parametrize(
    ("triremes", "allowed"),
    [
        ({"tyrrenum": {0: 1}}, True),
        ({"tyrrenum": {0: 2, 1: 1}}, True),
        ({"ionium": {0: 3, 1: 1, 2: 2}}, True),
        ({"tyrrenum": {0: 1, 1: 1}}, False),  # as many as someone else
        ({"tyrrenum": {0: 2, 1: 1, 2: 2}}, False),
        ({"tyrrenum": {1: 1}}, False),
        ({}, False),
    ],
)
def test_the_strategic_move_crosses_a_sea_where_the_player_has_the_most_triremes(
    triremes: dict[str, dict[int, int]], allowed: bool
) -> None:
    game = sea({"italia": 6}, triremes=triremes)
    offered = LegalStrategicMove("italia", "sicilia", 1, 4) in families(game, LegalStrategicMove)
    assert offered is allowed
    move = a.StrategicMove("italia", "sicilia", 4)  # one trireme carries any number
    if allowed:
        game.apply(0, move)
        assert (armies_on(game, "italia"), armies_on(game, "sicilia")) == (2, 10)
        assert game.current == 1
    else:
        assert_rejected(game, 0, move, "NOT_ADJACENT")


def test_the_strategic_move_crosses_one_sea_area_only() -> None:
    owners = {"britannia": 0, "galicia": 0, "creta": 1}
    triremes = {"britannicus": {0: 2}, "cantabricum": {0: 2}}
    game = position(owners, {"britannia": 5}, triremes=triremes)
    assert families(game, LegalStrategicMove) == []
    assert_rejected(game, 0, a.StrategicMove("britannia", "galicia", 1), "NOT_ADJACENT")


def test_the_strategic_move_by_sea_keeps_the_garrison() -> None:
    game = sea({"italia": 6}, triremes={"tyrrenum": {0: 1}})
    assert_rejected(game, 0, a.StrategicMove("italia", "sicilia", 5), "MINIMUM_GARRISON")
    game = sea({"sicilia": 6}, triremes={"tyrrenum": {0: 1}})
    game.apply(0, a.StrategicMove("sicilia", "italia", 5))  # an island borders no enemy
    assert armies_on(game, "sicilia") == 1
