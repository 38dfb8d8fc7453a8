"""Rule tests for combat in classic RisiKo!: who may attack what with how many dice, how dice
compare, declared defence, repeated attacks, conquest and occupation, elimination and its
protection in the first rounds. Dice are forced; every test fails if its rule is broken."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from domain import actions as a
from domain import events as e
from domain.combat import compare_dice
from domain.flow import Phase
from domain.legal import LegalAttack, LegalAttackUntil, LegalDefend, LegalOccupy
from domain.risiko.defence import DefenderDice
from tests.support import (
    BOARD,
    armies_on,
    arrange,
    assert_rejected,
    force_dice,
    new_game,
    of_type,
    owner_of,
)
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions

# --------------------------------------------------------------------------- helpers


def position(
    owners: Mapping[str, int],
    armies: Mapping[str, int] | None = None,
    *,
    players: int = 4,
    options: ClassicOptions | None = None,
    objective: str = "territories_18_2",
    phase: Phase = Phase.ATTACK,
    round: int = 5,
    hands: Mapping[int, list[str]] | None = None,
    others: int | None = None,
) -> ClassicGame:
    """A hand-made position (see `arrange`): seat 0 to play, turn order from seat 0, every seat
    on an objective that positions with one army a territory cannot meet."""
    game = new_game(players, options, seed=b"combat-rules")
    game.first_player = 0
    arrange(game, owners, armies, others=others, phase=phase, round=round, hands=hands)
    game.objectives = [objective] * players
    game.objective_cards = list(game.objectives)
    return game


def rolls(events: Sequence[e.Event]) -> list[e.DiceRolled]:
    return [event for event in events if isinstance(event, e.DiceRolled)]


# Seat 0 attacks from Alaska; Kamchatka and Giappone are seat 1's; Alberta is seat 0's with one
# army; Territori del Nord Ovest and the rest are seat 3's; seat 2 holds Cina.
OWNERS = {"alaska": 0, "alberta": 0, "kamchatka": 1, "giappone": 1, "cina": 2}


def battle(
    source_armies: int = 4,
    target_armies: int = 1,
    *,
    options: ClassicOptions | None = None,
    phase: Phase = Phase.ATTACK,
    round: int = 5,
) -> ClassicGame:
    """Seat 0's Alaska against seat 1's Kamchatka (seat 1 also holds Giappone, with 2)."""
    armies = {"alaska": source_armies, "kamchatka": target_armies, "giappone": 2}
    return position(OWNERS, armies, options=options, phase=phase, round=round)


# --------------------------------------------------------------------------- comparing dice

WORKED_EXAMPLES = [  # the rulebook's four examples: (attacker, defender, losses)
    ((5, 3, 2), (6, 2), (1, 1)),
    ((6, 4, 3), (5,), (0, 1)),
    ((6,), (6,), (1, 0)),
    ((6, 2, 2), (5, 4, 2), (2, 1)),
]


@pytest.mark.parametrize(("attacker", "defender", "losses"), WORKED_EXAMPLES)
def test_compare_dice_worked_examples(
    attacker: tuple[int, ...], defender: tuple[int, ...], losses: tuple[int, int]
) -> None:
    assert compare_dice(attacker, defender) == losses
    # Highest against highest whatever order the dice are given in; never added up.
    assert compare_dice(attacker[::-1], defender[::-1]) == losses


@pytest.mark.parametrize(
    ("attacker", "defender", "losses"),
    [
        ((1, 1, 1), (1, 1, 1), (3, 0)),  # every tie to the defender
        ((6, 6, 6), (5, 5, 5), (0, 3)),
        ((6, 6), (6, 5, 1), (1, 1)),  # two comparisons only
        ((2,), (1, 1, 1), (0, 1)),  # one comparison only
        ((6, 5, 1), (6, 6), (2, 0)),  # a sum of 12 beats nothing
    ],
)
def test_compare_dice_more_cases(
    attacker: tuple[int, ...], defender: tuple[int, ...], losses: tuple[int, int]
) -> None:
    assert compare_dice(attacker, defender) == losses


@pytest.mark.parametrize(("attacker", "defender", "losses"), WORKED_EXAMPLES)
def test_the_worked_examples_through_the_engine(
    monkeypatch: pytest.MonkeyPatch,
    attacker: tuple[int, ...],
    defender: tuple[int, ...],
    losses: tuple[int, int],
) -> None:
    game = battle(source_armies=4, target_armies=len(defender))
    force_dice(monkeypatch, *attacker[::-1], *defender[::-1])  # unsorted on purpose
    events = game.apply(0, a.Attack("alaska", "kamchatka", len(attacker)))
    assert rolls(events)[0] == e.DiceRolled(
        0, "alaska", "kamchatka", attacker, defender, losses[0], losses[1]
    )
    if losses[1] == len(defender):  # the second example: the defender's only army is gone
        assert owner_of(game, "kamchatka") == 0
        assert (armies_on(game, "alaska"), armies_on(game, "kamchatka")) == (1, 3)
    else:
        assert owner_of(game, "kamchatka") == 1
        assert armies_on(game, "alaska") == 4 - losses[0]
        assert armies_on(game, "kamchatka") == len(defender) - losses[1]


# --------------------------------------------------------------------------- number of dice


@pytest.mark.parametrize(
    ("source_armies", "dice"), [(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (4, 3), (12, 3)]
)
def test_the_attacker_rolls_1_to_3_dice_keeping_one_army_back(
    monkeypatch: pytest.MonkeyPatch, source_armies: int, dice: int
) -> None:
    game = battle(source_armies, target_armies=5)
    force_dice(monkeypatch, *[1] * dice, 6, 6, 6)
    (rolled,) = rolls(game.apply(0, a.Attack("alaska", "kamchatka", dice)))
    assert len(rolled.attacker_dice) == dice
    assert armies_on(game, "alaska") == source_armies - dice


@pytest.mark.parametrize(
    ("source_armies", "dice"), [(2, 2), (3, 3), (4, 4), (12, 4), (12, 0), (12, -1)]
)
def test_more_dice_than_armies_minus_one_or_than_three_is_invalid(
    source_armies: int, dice: int
) -> None:
    game = battle(source_armies, target_armies=5)
    assert_rejected(game, 0, a.Attack("alaska", "kamchatka", dice), "INVALID_DICE")


@pytest.mark.parametrize(("target_armies", "dice"), [(1, 1), (2, 2), (3, 3), (4, 3), (10, 3)])
def test_the_defender_rolls_as_many_dice_as_it_can_up_to_three(
    monkeypatch: pytest.MonkeyPatch, target_armies: int, dice: int
) -> None:
    game = battle(source_armies=4, target_armies=target_armies)
    force_dice(monkeypatch, 1, 1, 1, *[6] * dice)
    (rolled,) = rolls(game.apply(0, a.Attack("alaska", "kamchatka", 3)))
    assert len(rolled.defender_dice) == dice
    assert rolled.attacker_losses == dice


# --------------------------------------------------------------------------- who attacks what

MakeAttack = Callable[[str, str, int], a.Action]


def _attack(source: str, target: str, dice: int) -> a.Action:
    return a.Attack(source, target, dice)


def _attack_until(source: str, target: str, dice: int) -> a.Action:
    return a.AttackUntil(source, target, dice, 1)


ATTACK_KINDS = pytest.mark.parametrize(
    "make", [_attack, _attack_until], ids=["attack", "attack_until"]
)


@ATTACK_KINDS
@pytest.mark.parametrize(
    ("seat", "source", "target", "dice", "code"),
    [
        (0, "kamchatka", "alaska", 1, "NOT_YOUR_TERRITORY"),
        (0, "jacuzia", "kamchatka", 1, "NOT_YOUR_TERRITORY"),
        (0, "alaska", "giappone", 1, "NOT_ADJACENT"),
        (0, "alaska", "cina", 1, "NOT_ADJACENT"),
        (0, "alaska", "alberta", 1, "OWN_TERRITORY"),
        (0, "alaska", "atlantide", 1, "UNKNOWN_TERRITORY"),
        (0, "atlantide", "alaska", 1, "UNKNOWN_TERRITORY"),
        (0, "alaska", "kamchatka", 4, "INVALID_DICE"),
        (0, "alaska", "kamchatka", 0, "INVALID_DICE"),
        (1, "kamchatka", "alaska", 1, "NOT_YOUR_TURN"),
        (None, "alaska", "kamchatka", 1, "NOT_YOUR_TURN"),
    ],
)
def test_attack_rejections(
    make: MakeAttack, seat: int | None, source: str, target: str, dice: int, code: str
) -> None:
    game = battle(source_armies=4, target_armies=2)
    assert_rejected(game, seat, make(source, target, dice), code)


def test_an_attack_needs_two_armies_on_its_source() -> None:
    game = position({**OWNERS, "territori_del_nord_ovest": 3}, {"alaska": 4})
    assert armies_on(game, "alberta") == 1
    assert_rejected(
        game, 0, a.Attack("alberta", "territori_del_nord_ovest", 1), "NOT_ENOUGH_ARMIES"
    )
    assert not any(
        isinstance(family, LegalAttack) and family.source == "alberta"
        for family in game.legal_actions(0)
    )


def test_attack_until_also_needs_two_armies_on_its_source() -> None:
    game = position({**OWNERS, "territori_del_nord_ovest": 3}, {"alaska": 4})
    assert_rejected(
        game, 0, a.AttackUntil("alberta", "territori_del_nord_ovest", 1, 1), "NOT_ENOUGH_ARMIES"
    )


def test_the_first_attack_ends_the_reinforcement_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    game = battle(target_armies=3, phase=Phase.REINFORCE)
    force_dice(monkeypatch, 1, 6, 6, 6)
    game.apply(0, a.Attack("alaska", "kamchatka", 1))
    assert game.phase is Phase.ATTACK


def test_several_attacks_from_several_territories(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position(
        {**OWNERS, "territori_del_nord_ovest": 3}, {"alaska": 4, "alberta": 3, "kamchatka": 5}
    )
    force_dice(monkeypatch, 1, 6, 6, 6, 1, 6, 6, 6, 1, 6)
    game.apply(0, a.Attack("alaska", "kamchatka", 1))
    game.apply(0, a.Attack("alaska", "kamchatka", 1))
    game.apply(0, a.Attack("alberta", "territori_del_nord_ovest", 1))
    assert (armies_on(game, "alaska"), armies_on(game, "alberta")) == (2, 2)


# --------------------------------------------------------------------------- declared defence


def declare(target_armies: int = 3) -> ClassicGame:
    return battle(
        source_armies=4,
        target_armies=target_armies,
        options=ClassicOptions(defender_dice=DefenderDice.DECLARE),
    )


def test_declared_defence_waits_for_the_defender(monkeypatch: pytest.MonkeyPatch) -> None:
    game = declare(target_armies=5)
    force_dice(monkeypatch)  # no die may be rolled yet
    events = game.apply(0, a.Attack("alaska", "kamchatka", 2))
    assert events == [e.AttackDeclared(0, "alaska", "kamchatka", 2, 1)]
    assert game.phase is Phase.DEFEND
    assert game.seat_to_act == 1
    assert (armies_on(game, "alaska"), armies_on(game, "kamchatka")) == (4, 5)
    assert game.legal_actions(1) == [LegalDefend(1, 3)]
    assert game.legal_actions(0) == []
    assert game.legal_actions(2) == []


@pytest.mark.parametrize(("target_armies", "dice"), [(1, 1), (2, 1), (2, 2), (3, 1), (5, 3)])
def test_the_defender_rolls_exactly_the_dice_it_declares(
    monkeypatch: pytest.MonkeyPatch, target_armies: int, dice: int
) -> None:
    game = declare(target_armies)
    game.apply(0, a.Attack("alaska", "kamchatka", 2))
    force_dice(monkeypatch, 1, 1, *[6] * dice)
    events = game.apply(1, a.Defend(dice))
    (rolled,) = rolls(events)
    assert len(rolled.attacker_dice) == 2
    assert len(rolled.defender_dice) == dice
    assert rolled.attacker_losses == min(2, dice)
    assert game.phase is Phase.ATTACK
    assert game.seat_to_act == 0
    assert game.prompts() == []


@pytest.mark.parametrize(("target_armies", "dice"), [(1, 2), (2, 3), (5, 4), (5, 0), (5, -1)])
def test_the_defender_declares_1_to_its_armies_up_to_three(target_armies: int, dice: int) -> None:
    game = declare(target_armies)
    game.apply(0, a.Attack("alaska", "kamchatka", 1))
    assert_rejected(game, 1, a.Defend(dice), "INVALID_DICE")


@pytest.mark.parametrize("seat", [0, 2, 3, None])
def test_only_the_defender_may_declare_the_defence(seat: int | None) -> None:
    game = declare()
    game.apply(0, a.Attack("alaska", "kamchatka", 1))
    assert_rejected(game, seat, a.Defend(1), "NOT_YOUR_TURN")


@pytest.mark.parametrize(
    "action",
    [a.Attack("alaska", "kamchatka", 1), a.EndTurn(), a.StrategicMove("alaska", "alberta", 1)],
    ids=["attack", "end_turn", "strategic_move"],
)
def test_the_attacker_waits_while_the_defender_declares(action: a.Action) -> None:
    game = declare()
    game.apply(0, a.Attack("alaska", "kamchatka", 1))
    assert_rejected(game, 0, action, "WRONG_PHASE")


def test_attack_until_is_disabled_when_defenders_declare() -> None:
    game = declare()
    assert_rejected(game, 0, a.AttackUntil("alaska", "kamchatka", 3, 1), "OPTION_DISABLED")
    legal = game.legal_actions(0)
    assert any(isinstance(family, LegalAttack) for family in legal)
    assert not any(isinstance(family, LegalAttackUntil) for family in legal)


def test_no_defence_is_declared_by_default() -> None:
    game = battle()
    assert_rejected(game, 1, a.Defend(1), "WRONG_PHASE")


def test_a_declared_defence_may_lose_the_territory(monkeypatch: pytest.MonkeyPatch) -> None:
    game = declare(target_armies=1)
    game.apply(0, a.Attack("alaska", "kamchatka", 1))
    force_dice(monkeypatch, 6, 1)
    events = game.apply(1, a.Defend(1))
    assert of_type(events, e.TerritoryConquered) == [
        e.TerritoryConquered(0, "alaska", "kamchatka", 1, 1, 3)
    ]
    assert game.phase is Phase.OCCUPY
    assert game.seat_to_act == 0


# --------------------------------------------------------------------------- attack until


def test_attack_until_rolls_until_the_conquest(monkeypatch: pytest.MonkeyPatch) -> None:
    game = battle(source_armies=5, target_armies=2)
    remaining = force_dice(monkeypatch, 1, 1, 1, 6, 6, 6, 6, 1, 1)
    events = game.apply(0, a.AttackUntil("alaska", "kamchatka", 3, 1))
    first, second = rolls(events)
    assert (first.attacker_dice, first.defender_dice) == ((1, 1, 1), (6, 6))
    # Three armies are left: the second roll can use only two dice.
    assert (second.attacker_dice, second.defender_dice) == ((6, 6), (1, 1))
    assert remaining == []
    assert of_type(events, e.TerritoryConquered) == [
        e.TerritoryConquered(0, "alaska", "kamchatka", 1, 2, 2)
    ]
    assert owner_of(game, "kamchatka") == 0


@pytest.mark.parametrize(("stop_at", "expected_rolls"), [(5, 1), (3, 1), (2, 2), (1, 2)])
def test_attack_until_stops_when_the_source_is_down_to_stop_at(
    monkeypatch: pytest.MonkeyPatch, stop_at: int, expected_rolls: int
) -> None:
    game = battle(source_armies=6, target_armies=10)
    # Each roll loses every die: 6 -> 3 (three dice), then 3 -> 1 (two dice).
    force_dice(monkeypatch, 1, 1, 1, 6, 6, 6, 1, 1, 6, 6, 6)
    events = game.apply(0, a.AttackUntil("alaska", "kamchatka", 3, stop_at))
    assert len(rolls(events)) == expected_rolls
    assert armies_on(game, "alaska") == (3 if expected_rolls == 1 else 1)
    assert armies_on(game, "kamchatka") == 10
    assert game.phase is Phase.ATTACK


def test_attack_until_never_rolls_more_dice_than_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    game = battle(source_armies=4, target_armies=2)
    force_dice(monkeypatch, 1, 6, 6, 1, 6, 6, 1, 6, 6)
    events = game.apply(0, a.AttackUntil("alaska", "kamchatka", 1, 1))
    assert [len(roll.attacker_dice) for roll in rolls(events)] == [1, 1, 1]
    assert [len(roll.defender_dice) for roll in rolls(events)] == [2, 2, 2]
    assert armies_on(game, "alaska") == 1


def test_attack_until_with_three_dice_from_three_armies_rolls_two(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = battle(source_armies=3, target_armies=5)
    force_dice(monkeypatch, 1, 1, 6, 6, 6)
    events = game.apply(0, a.AttackUntil("alaska", "kamchatka", 3, 1))
    assert [len(roll.attacker_dice) for roll in rolls(events)] == [2]


@pytest.mark.parametrize(
    ("stop_at", "dice", "code"),
    [
        (0, 3, "INVALID_ARMY_COUNT"),
        (6, 3, "INVALID_ARMY_COUNT"),  # the source holds 6: stop_at is 1 to 5
        (7, 3, "INVALID_ARMY_COUNT"),
        (1, 0, "INVALID_DICE"),
        (1, 4, "INVALID_DICE"),
    ],
)
def test_attack_until_rejections(stop_at: int, dice: int, code: str) -> None:
    game = battle(source_armies=6, target_armies=3)
    assert_rejected(game, 0, a.AttackUntil("alaska", "kamchatka", dice, stop_at), code)


def test_attack_until_offered_with_its_ranges() -> None:
    game = battle(source_armies=6, target_armies=3)
    assert LegalAttackUntil("alaska", "kamchatka", 1, 1, 5) in game.legal_actions(0)
    assert LegalAttack("alaska", "kamchatka", 1, 3) in game.legal_actions(0)


# --------------------------------------------------------------------------- conquest


def conquer(
    monkeypatch: pytest.MonkeyPatch, source_armies: int = 6, dice: int = 2
) -> tuple[ClassicGame, list[e.Event]]:
    game = battle(source_armies=source_armies, target_armies=1)
    force_dice(monkeypatch, *[6] * dice, 1)
    return game, game.apply(0, a.Attack("alaska", "kamchatka", dice))


def test_a_conquest_waits_for_the_armies_to_move_in(monkeypatch: pytest.MonkeyPatch) -> None:
    game, events = conquer(monkeypatch, source_armies=6, dice=2)
    assert of_type(events, e.TerritoryConquered) == [
        e.TerritoryConquered(0, "alaska", "kamchatka", 1, 2, 5)
    ]
    assert not of_type(events, e.ArmiesMoved)
    assert owner_of(game, "kamchatka") == 0
    assert game.territory_count[0] == 3
    assert game.territory_count[1] == 1
    assert game.phase is Phase.OCCUPY
    assert game.legal_actions(0) == [LegalOccupy("alaska", "kamchatka", 2, 5)]


@pytest.mark.parametrize("armies", [2, 3, 4, 5])
def test_occupy_moves_at_least_the_last_dice_and_at_most_all_but_one(
    monkeypatch: pytest.MonkeyPatch, armies: int
) -> None:
    game, _ = conquer(monkeypatch, source_armies=6, dice=2)
    events = game.apply(0, a.Occupy(armies))
    assert events[0] == e.ArmiesMoved(0, "alaska", "kamchatka", armies, False)
    assert (armies_on(game, "alaska"), armies_on(game, "kamchatka")) == (6 - armies, armies)
    assert game.phase is Phase.ATTACK
    assert game.pending_conquest is None


@pytest.mark.parametrize(
    ("seat", "armies", "code"),
    [
        (0, 1, "INVALID_ARMY_COUNT"),
        (0, 0, "INVALID_ARMY_COUNT"),
        (0, 6, "INVALID_ARMY_COUNT"),
        (1, 2, "NOT_YOUR_TURN"),
    ],
)
def test_occupy_rejections(
    monkeypatch: pytest.MonkeyPatch, seat: int, armies: int, code: str
) -> None:
    game, _ = conquer(monkeypatch, source_armies=6, dice=2)
    assert_rejected(game, seat, a.Occupy(armies), code)


def test_occupy_without_a_conquest_is_out_of_phase() -> None:
    game = battle()
    assert_rejected(game, 0, a.Occupy(1), "WRONG_PHASE")


def test_no_attack_before_occupying(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = conquer(monkeypatch, source_armies=6, dice=2)
    assert_rejected(game, 0, a.Attack("kamchatka", "giappone", 1), "WRONG_PHASE")
    assert_rejected(game, 0, a.Attack("alaska", "territori_del_nord_ovest", 1), "WRONG_PHASE")


@pytest.mark.parametrize(("source_armies", "dice"), [(2, 1), (3, 2), (4, 3)])
def test_the_move_is_automatic_when_there_is_no_choice(
    monkeypatch: pytest.MonkeyPatch, source_armies: int, dice: int
) -> None:
    game, events = conquer(monkeypatch, source_armies=source_armies, dice=dice)
    assert of_type(events, e.TerritoryConquered) == [
        e.TerritoryConquered(0, "alaska", "kamchatka", 1, dice, dice)
    ]
    assert of_type(events, e.ArmiesMoved) == [e.ArmiesMoved(0, "alaska", "kamchatka", dice, False)]
    assert (armies_on(game, "alaska"), armies_on(game, "kamchatka")) == (1, dice)
    assert game.phase is Phase.ATTACK


def test_the_minimum_is_the_dice_of_the_last_roll_only(monkeypatch: pytest.MonkeyPatch) -> None:
    game = battle(source_armies=6, target_armies=2)
    force_dice(monkeypatch, 6, 2, 1, 5, 5, 6, 1)
    game.apply(0, a.Attack("alaska", "kamchatka", 3))  # 6 2 1 against 5 5: one each
    assert (armies_on(game, "alaska"), armies_on(game, "kamchatka")) == (5, 1)
    events = game.apply(0, a.Attack("alaska", "kamchatka", 1))
    assert of_type(events, e.TerritoryConquered) == [
        e.TerritoryConquered(0, "alaska", "kamchatka", 1, 1, 4)
    ]
    game.apply(0, a.Occupy(1))
    assert (armies_on(game, "alaska"), armies_on(game, "kamchatka")) == (4, 1)


def test_a_conquered_territory_can_attack_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = conquer(monkeypatch, source_armies=6, dice=2)
    game.apply(0, a.Occupy(3))
    assert LegalAttack("kamchatka", "giappone", 1, 2) in game.legal_actions(0)
    force_dice(monkeypatch, 6, 6, 1, 1)
    events = game.apply(0, a.Attack("kamchatka", "giappone", 2))
    assert rolls(events)[0].source == "kamchatka"
    assert owner_of(game, "giappone") == 0


# --------------------------------------------------------------------------- elimination

LAST = {"alaska": 0, "alberta": 0, "kamchatka": 1, "cina": 2}  # Kamchatka is all seat 1 has


def eliminate(
    monkeypatch: pytest.MonkeyPatch, make: MakeAttack, hands: Mapping[int, list[str]]
) -> tuple[ClassicGame, list[e.Event]]:
    game = position(LAST, {"alaska": 4}, hands=hands)
    force_dice(monkeypatch, 6, 6, 6, 1)
    return game, game.apply(0, make("alaska", "kamchatka", 3))


@ATTACK_KINDS
def test_conquering_the_last_territory_eliminates_and_takes_the_cards(
    monkeypatch: pytest.MonkeyPatch, make: MakeAttack
) -> None:
    game, events = eliminate(monkeypatch, make, {0: ["peru"], 1: ["quebec", "jolly_2"]})
    assert of_type(events, e.PlayerEliminated) == [e.PlayerEliminated(1, 0, 2)]
    received = of_type(events, e.CardsReceived)
    assert received == [e.CardsReceived(0, ("quebec", "jolly_2"))]
    assert received[0].visible_to == 0
    assert not received[0].is_visible_to(1)
    assert not received[0].is_visible_to(None)
    assert sorted(game.hands[0]) == ["jolly_2", "peru", "quebec"]
    assert game.hands[1] == []
    assert game.eliminated[1]
    assert game.territory_count[1] == 0
    assert not game.is_over  # seats 0, 2 and 3 play on
    conquered = of_type(events, e.TerritoryConquered)[0]
    assert events.index(conquered) < events.index(of_type(events, e.PlayerEliminated)[0])


def test_an_eliminated_player_without_cards_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    game, events = eliminate(monkeypatch, _attack, {0: ["peru"]})
    assert of_type(events, e.PlayerEliminated) == [e.PlayerEliminated(1, 0, 0)]
    assert not of_type(events, e.CardsReceived)
    assert game.hands[0] == ["peru"]


@ATTACK_KINDS
@pytest.mark.parametrize("round_number", [1, 2, 3, 4])
def test_no_elimination_before_the_end_of_the_fourth_round(
    make: MakeAttack, round_number: int
) -> None:
    game = position(LAST, {"alaska": 4, "giappone": 1}, round=round_number)
    assert_rejected(game, 0, make("alaska", "kamchatka", 3), "ELIMINATION_TOO_EARLY")
    legal = game.legal_actions(0)
    assert not any(
        isinstance(family, LegalAttack | LegalAttackUntil) and family.target == "kamchatka"
        for family in legal
    )
    assert not game.may_attack(BOARD.index["alaska"], BOARD.index["kamchatka"])
    # Seat 3's territories can still be attacked: it has many.
    assert LegalAttack("alaska", "territori_del_nord_ovest", 1, 3) in legal


def test_a_player_with_two_territories_may_be_attacked_early(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = battle(source_armies=4, target_armies=1, round=1)
    assert LegalAttack("alaska", "kamchatka", 1, 3) in game.legal_actions(0)
    force_dice(monkeypatch, 6, 6, 6, 1)
    game.apply(0, a.Attack("alaska", "kamchatka", 3))
    assert owner_of(game, "kamchatka") == 0
    assert game.territory_count[1] == 1  # Giappone: now protected
    assert_rejected(game, 0, a.Attack("kamchatka", "giappone", 2), "ELIMINATION_TOO_EARLY")


@ATTACK_KINDS
@pytest.mark.parametrize(
    ("protected_rounds", "round_number"), [(4, 5), (4, 9), (0, 1), (2, 3), (1, 2)]
)
def test_elimination_is_allowed_after_the_protected_rounds(
    monkeypatch: pytest.MonkeyPatch, make: MakeAttack, protected_rounds: int, round_number: int
) -> None:
    game = position(
        LAST,
        {"alaska": 4},
        round=round_number,
        options=ClassicOptions(protected_rounds=protected_rounds),
    )
    legal = game.legal_actions(0)
    assert LegalAttack("alaska", "kamchatka", 1, 3) in legal
    assert LegalAttackUntil("alaska", "kamchatka", 1, 1, 3) in legal
    force_dice(monkeypatch, 6, 6, 6, 1)
    events = game.apply(0, make("alaska", "kamchatka", 3))
    assert of_type(events, e.PlayerEliminated) == [e.PlayerEliminated(1, 0, 0)]


@pytest.mark.parametrize(("protected_rounds", "round_number"), [(2, 2), (1, 1), (6, 6)])
def test_the_protection_lasts_protected_rounds(protected_rounds: int, round_number: int) -> None:
    game = position(
        LAST,
        {"alaska": 4},
        round=round_number,
        options=ClassicOptions(protected_rounds=protected_rounds),
    )
    assert_rejected(game, 0, a.Attack("alaska", "kamchatka", 3), "ELIMINATION_TOO_EARLY")


@pytest.mark.parametrize("needs_occupy", [False, True])
def test_the_last_player_left_wins(monkeypatch: pytest.MonkeyPatch, needs_occupy: bool) -> None:
    # Three seats; seat 2 holds nothing; seat 1 holds only Kamchatka; seat 0 everything else.
    game = position({"kamchatka": 1}, {"alaska": 6 if needs_occupy else 4}, players=3, others=0)
    assert game.eliminated == [False, False, True]
    force_dice(monkeypatch, 6, 6, 6, 1)
    events = game.apply(0, a.Attack("alaska", "kamchatka", 3))
    (ended,) = of_type(events, e.GameEnded)
    assert isinstance(ended, e.GameEnded)
    assert (ended.winner, ended.reason) == (0, "last_player")
    assert ended.ranking[0] == (1, 0, 42)
    assert game.is_over
    assert game.winner == 0
    assert game.legal_actions(0) == []
    assert_rejected(game, 0, a.EndTurn(), "GAME_OVER")
