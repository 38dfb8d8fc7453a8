"""Rule tests for the tournament rules of classic RisiKo! ("Regole da torneo"): compulsory
defence, no attack with fewer dice than the defender, the minimum garrison, the tournament
objectives and their points, the time limit and the round limit. Every test fails if its rule is
broken."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from domain import actions as a
from domain import events as e
from domain.errors import InvalidOptions
from domain.flow import Phase
from domain.legal import LegalAttack, LegalAttackUntil, LegalOccupy, LegalStrategicMove
from domain.risiko.defence import DefenderDice
from domain.risiko.objectives import ObjectiveDeck
from tests.support import BOARD, CLASSIC, armies_on, arrange, assert_rejected, force_dice, new_game
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions

TOURNAMENT_OBJECTIVES = CLASSIC.ruleset.tournament_objectives

# --------------------------------------------------------------------------- helpers


def position(
    owners: Mapping[str, int],
    armies: Mapping[str, int] | None = None,
    *,
    options: ClassicOptions | None = None,
    objectives: Sequence[str] = ("tappeto", "letto", "eurasia", "guerra_fredda"),
    first_player: int = 0,
    current: int = 0,
    phase: Phase = Phase.ATTACK,
    round: int = 5,
    others: int | None = None,
) -> ClassicGame:
    """A hand-made tournament position (see `arrange`), four seats, tournament objectives."""
    game = new_game(
        len(objectives), options or ClassicOptions.tournament(), seed=b"tournament-rules"
    )
    game.first_player = first_player
    arrange(game, owners, armies, others=others, current=current, phase=phase, round=round)
    game.objectives = list(objectives)
    game.objective_cards = list(objectives)
    return game


def rolls(events: Sequence[e.Event]) -> list[e.DiceRolled]:
    return [event for event in events if isinstance(event, e.DiceRolled)]


def ended(events: Sequence[e.Event]) -> e.GameEnded | None:
    found = [event for event in events if isinstance(event, e.GameEnded)]
    assert len(found) <= 1
    return found[0] if found else None


# Seat 0's Alaska faces seat 1's Kamchatka (seat 1 also holds Giappone); Territori del Nord
# Ovest and the rest are seat 3's; seat 2 holds Cina.
OWNERS = {"alaska": 0, "alberta": 0, "kamchatka": 1, "giappone": 1, "cina": 2}


def battle(
    source_armies: int, target_armies: int, options: ClassicOptions | None = None
) -> ClassicGame:
    armies = {"alaska": source_armies, "kamchatka": target_armies, "giappone": 2}
    return position(OWNERS, armies, options=options)


# --------------------------------------------------------------------------- the preset


def test_the_tournament_preset() -> None:
    options = ClassicOptions.tournament()
    assert options.defender_dice is DefenderDice.MAXIMUM
    assert options.attacker_dice_at_least_defender
    assert options.minimum_garrison
    assert options.objectives is ObjectiveDeck.TOURNAMENT
    assert options.protected_rounds == 4
    assert ClassicOptions.tournament(time_limit_minutes=90).time_limit_minutes == 90


@pytest.mark.parametrize("seed", [b"t-1", b"t-2", b"t-3"])
def test_a_tournament_game_deals_tournament_objectives(seed: bytes) -> None:
    game = new_game(4, ClassicOptions.tournament(), seed=seed)
    dealt = [event for event in game.initial_events if isinstance(event, e.ObjectiveAssigned)]
    assert len(dealt) == 4
    assert len({event.card for event in dealt}) == 4
    for event in dealt:
        assert event.card in TOURNAMENT_OBJECTIVES
        assert event.objective == event.card
        assert event.visible_to == event.seat


# --------------------------------------------------------------------------- dice


@pytest.mark.parametrize(("target_armies", "dice"), [(1, 1), (2, 2), (3, 3), (7, 3)])
def test_the_defender_always_rolls_its_maximum(
    monkeypatch: pytest.MonkeyPatch, target_armies: int, dice: int
) -> None:
    game = battle(source_armies=4, target_armies=target_armies)
    force_dice(monkeypatch, 1, 1, 1, *[6] * dice)
    (rolled,) = rolls(game.apply(0, a.Attack("alaska", "kamchatka", 3)))
    assert len(rolled.defender_dice) == dice
    assert_rejected(game, 1, a.Defend(1), "WRONG_PHASE")  # nobody declares anything


@pytest.mark.parametrize(
    ("target_armies", "dice", "allowed"),
    [
        (1, 1, True),
        (2, 1, False),
        (2, 2, True),
        (3, 1, False),
        (3, 2, False),
        (3, 3, True),
        (8, 2, False),
        (8, 3, True),
    ],
)
def test_the_attacker_may_not_roll_fewer_dice_than_the_defender(
    monkeypatch: pytest.MonkeyPatch, target_armies: int, dice: int, allowed: bool
) -> None:
    game = battle(source_armies=4, target_armies=target_armies)
    if not allowed:
        assert_rejected(game, 0, a.Attack("alaska", "kamchatka", dice), "INVALID_DICE")
        return
    force_dice(monkeypatch, *[1] * dice, *[6] * min(3, target_armies))
    (rolled,) = rolls(game.apply(0, a.Attack("alaska", "kamchatka", dice)))
    assert len(rolled.attacker_dice) == dice


def test_fewer_dice_than_the_defender_are_allowed_outside_tournaments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = battle(source_armies=4, target_armies=3, options=ClassicOptions())
    force_dice(monkeypatch, 1, 6, 6, 6)
    game.apply(0, a.Attack("alaska", "kamchatka", 1))
    assert armies_on(game, "alaska") == 3


@pytest.mark.parametrize(("target_armies", "min_dice"), [(1, 1), (2, 2), (3, 3), (9, 3)])
def test_legal_attacks_state_the_minimum_dice(target_armies: int, min_dice: int) -> None:
    game = battle(source_armies=5, target_armies=target_armies)
    legal = game.legal_actions(0)
    assert LegalAttack("alaska", "kamchatka", min_dice, 3) in legal
    assert LegalAttackUntil("alaska", "kamchatka", min_dice, 1, 4) in legal


def test_no_attack_when_the_defender_would_roll_more_dice() -> None:
    game = battle(source_armies=3, target_armies=3)  # two dice at most against three
    legal = game.legal_actions(0)
    assert not any(
        isinstance(family, LegalAttack | LegalAttackUntil) and family.target == "kamchatka"
        for family in legal
    )
    assert not game.may_attack(BOARD.index["alaska"], BOARD.index["kamchatka"])
    assert_rejected(game, 0, a.Attack("alaska", "kamchatka", 2), "INVALID_DICE")
    assert_rejected(game, 0, a.AttackUntil("alaska", "kamchatka", 3, 1), "INVALID_DICE")


def test_attack_until_may_not_ask_for_fewer_dice_than_the_defender() -> None:
    game = battle(source_armies=6, target_armies=3)
    assert_rejected(game, 0, a.AttackUntil("alaska", "kamchatka", 2, 1), "INVALID_DICE")


def test_attack_until_stops_before_a_roll_with_fewer_dice_than_the_defender(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = battle(source_armies=6, target_armies=3)
    remaining = force_dice(monkeypatch, 6, 1, 1, 6, 6, 5)  # the attacker loses three
    events = game.apply(0, a.AttackUntil("alaska", "kamchatka", 3, 1))
    assert len(rolls(events)) == 1
    assert remaining == []
    # Three armies left: two dice against three would break the rule, so it stops above stop_at.
    assert (armies_on(game, "alaska"), armies_on(game, "kamchatka")) == (3, 3)
    assert game.phase is Phase.ATTACK


def test_attack_until_goes_on_while_the_dice_allow(monkeypatch: pytest.MonkeyPatch) -> None:
    game = battle(source_armies=6, target_armies=3)
    # 6 6 1 against 6 5 5: two lost, one won -> 4 against 2; then 6 6 6 against 1 1.
    force_dice(monkeypatch, 6, 6, 1, 6, 5, 5, 6, 6, 6, 1, 1)
    events = game.apply(0, a.AttackUntil("alaska", "kamchatka", 3, 1))
    assert [(len(r.attacker_dice), len(r.defender_dice)) for r in rolls(events)] == [
        (3, 3),
        (3, 2),
    ]
    assert game.owner[BOARD.index["kamchatka"]] == 0


# --------------------------------------------------------------------------- minimum garrison

# Alaska (seat 0) borders Kamchatka (seat 1) and Territori del Nord Ovest (seat 3); Alberta is
# seat 0's and borders Territori del Nord Ovest too. Ontario, Quebec, Groenlandia, Stati Uniti
# Orientali are seat 0's; Quebec borders only own territories.
GARRISON = {
    **OWNERS,
    "ontario": 0,
    "quebec": 0,
    "groenlandia": 0,
    "stati_uniti_orientali": 0,
}


@pytest.mark.parametrize(
    ("source", "target", "start", "moved", "allowed"),
    [
        ("alaska", "alberta", 5, 3, True),  # leaves 2 on a border
        ("alaska", "alberta", 5, 4, False),  # leaves 1 on a border
        ("alaska", "alberta", 2, 1, False),
        ("quebec", "ontario", 5, 4, True),  # Quebec borders no enemy: 1 may stay
    ],
)
def test_the_strategic_move_keeps_two_armies_on_a_border(
    source: str, target: str, start: int, moved: int, allowed: bool
) -> None:
    game = position(GARRISON, {source: start})
    action = a.StrategicMove(source, target, moved)
    if not allowed:
        assert_rejected(game, 0, action, "MINIMUM_GARRISON")
        return
    game.apply(0, action)
    assert armies_on(game, source) == start - moved


def test_the_strategic_move_may_leave_one_on_a_border_outside_tournaments() -> None:
    game = position(GARRISON, {"alaska": 5}, options=ClassicOptions())
    game.apply(0, a.StrategicMove("alaska", "alberta", 4))
    assert armies_on(game, "alaska") == 1


def test_legal_strategic_moves_respect_the_garrison() -> None:
    game = position(GARRISON, {"alaska": 5, "alberta": 2, "quebec": 5})
    legal = game.legal_actions(0)
    assert LegalStrategicMove("alaska", "alberta", 1, 3) in legal
    assert LegalStrategicMove("quebec", "ontario", 1, 4) in legal
    assert not any(
        isinstance(family, LegalStrategicMove) and family.source == "alberta" for family in legal
    )


def conquer_kamchatka(
    monkeypatch: pytest.MonkeyPatch, alaska: int, dice: int, tno_owner: int = 3
) -> tuple[ClassicGame, list[e.Event]]:
    owners = {**GARRISON, "territori_del_nord_ovest": tno_owner}
    game = position(owners, {"alaska": alaska})
    force_dice(monkeypatch, *[6] * dice, 1)
    return game, game.apply(0, a.Attack("alaska", "kamchatka", dice))


def test_armies_moved_in_beyond_the_minimum_keep_the_garrison(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, events = conquer_kamchatka(monkeypatch, alaska=6, dice=1)
    conquered = [event for event in events if isinstance(event, e.TerritoryConquered)]
    assert conquered == [e.TerritoryConquered(0, "alaska", "kamchatka", 1, 1, 4)]
    assert game.legal_actions(0) == [LegalOccupy("alaska", "kamchatka", 1, 4)]
    assert_rejected(game, 0, a.Occupy(5), "MINIMUM_GARRISON")
    game.apply(0, a.Occupy(4))
    assert armies_on(game, "alaska") == 2


def test_the_garrison_counts_only_when_the_source_still_borders_an_enemy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Territori del Nord Ovest is seat 0's: once Kamchatka falls, Alaska borders no enemy.
    game, _ = conquer_kamchatka(monkeypatch, alaska=6, dice=1, tno_owner=0)
    assert game.legal_actions(0) == [LegalOccupy("alaska", "kamchatka", 1, 5)]
    game.apply(0, a.Occupy(5))
    assert armies_on(game, "alaska") == 1


@pytest.mark.parametrize(("alaska", "dice"), [(4, 3), (3, 2), (2, 1)])
def test_the_mandatory_move_is_always_allowed(
    monkeypatch: pytest.MonkeyPatch, alaska: int, dice: int
) -> None:
    """Moving in the dice of the last roll may leave a single army on a border."""
    game, events = conquer_kamchatka(monkeypatch, alaska=alaska, dice=dice)
    moved = [event for event in events if isinstance(event, e.ArmiesMoved)]
    assert moved == [e.ArmiesMoved(0, "alaska", "kamchatka", dice, False)]
    assert armies_on(game, "alaska") == 1
    assert game.phase is Phase.ATTACK


def test_the_mandatory_move_may_be_all_that_is_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    game, events = conquer_kamchatka(monkeypatch, alaska=5, dice=3)  # 3 must go, 2 stay
    assert [event for event in events if isinstance(event, e.ArmiesMoved)] == [
        e.ArmiesMoved(0, "alaska", "kamchatka", 3, False)
    ]
    assert armies_on(game, "alaska") == 2


# --------------------------------------------------------------------------- objectives and points

# The printed table of the rule text: a territory is worth this many points.
PRINTED_VALUES = {
    "afghanistan": 4, "africa_del_nord": 6, "africa_del_sud": 3, "africa_orientale": 5,
    "alaska": 3, "alberta": 4, "america_centrale": 3, "argentina": 2,
    "australia_occidentale": 3, "australia_orientale": 2, "brasile": 4, "cina": 7, "cita": 4,
    "congo": 3, "egitto": 4, "europa_meridionale": 6, "europa_occidentale": 4,
    "europa_settentrionale": 5, "giappone": 2, "gran_bretagna": 4, "groenlandia": 4,
    "india": 3, "indonesia": 3, "islanda": 3, "jacuzia": 3, "kamchatka": 5, "madagascar": 2,
    "medio_oriente": 6, "mongolia": 5, "nuova_guinea": 3, "ontario": 6, "peru": 3,
    "quebec": 3, "scandinavia": 4, "siam": 3, "siberia": 5, "stati_uniti_occidentali": 4,
    "stati_uniti_orientali": 4, "territori_del_nord_ovest": 4, "ucraina": 6, "urali": 4,
    "venezuela": 3,
}  # fmt: skip


def test_a_territory_is_worth_its_number_of_borders() -> None:
    assert sorted(PRINTED_VALUES) == sorted(BOARD.index)
    for territory, value in PRINTED_VALUES.items():
        assert len(BOARD.neighbours[BOARD.index[territory]]) == value, territory
    assert sum(PRINTED_VALUES.values()) == 164


def test_there_are_sixteen_tournament_objectives() -> None:
    assert len(TOURNAMENT_OBJECTIVES) == 16


@pytest.mark.parametrize("objective_id", sorted(TOURNAMENT_OBJECTIVES))
def test_every_tournament_objective_is_worth_86_points(objective_id: str) -> None:
    objective = TOURNAMENT_OBJECTIVES[objective_id]
    territories = [BOARD.territories[t].id for t in objective.territories]
    assert len(set(territories)) == len(territories)
    assert sum(PRINTED_VALUES[t] for t in territories) == 86
    assert objective.total_points(BOARD) == 86


def test_tappeto_is_the_corrected_list_without_indonesia() -> None:
    tappeto = TOURNAMENT_OBJECTIVES["tappeto"]
    ids = {BOARD.territories[t].id for t in tappeto.territories}
    africa_asia = set(BOARD.region("africa").territories) | set(BOARD.region("asia").territories)
    assert ids == africa_asia | {"europa_meridionale", "ucraina"}
    assert "indonesia" not in ids


# Seat 0 (tappeto) holds Cina 7, India 3 and Argentina (not in tappeto): 10 points.
# Seat 1 (letto) holds Alaska 3, Brasile 4, Siam 3: 10 points.
# Seat 2 (eurasia) holds Islanda 3, Giappone 2: 5 points.
# Seat 3 (guerra fredda) holds the rest: 86 - Alaska 3 - Giappone 2 - Cina 7 - India 3 -
# Siam 3 = 68 points.
SCORED = {
    "cina": 0,
    "india": 0,
    "argentina": 0,
    "alaska": 1,
    "brasile": 1,
    "siam": 1,
    "islanda": 2,
    "giappone": 2,
}
SCORED_RANKING = ((1, 3, 68), (2, 0, 10), (2, 1, 10), (4, 2, 5))


def test_a_completed_tournament_objective_wins_with_100_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seat 3 (guerra fredda) lacks only Giappone, which seat 2 holds with Islanda.
    owners = SCORED | {"cina": 3, "india": 3, "alaska": 3, "siam": 3}
    game = position(owners, {"kamchatka": 4}, current=3)
    force_dice(monkeypatch, 6, 6, 6, 1)
    events = game.apply(3, a.Attack("kamchatka", "giappone", 3))
    result = ended(events)
    assert result is not None
    assert (result.winner, result.reason) == (3, "objective")
    # Seat 0 holds Argentina only (not in tappeto), seat 1 Brasile (4), seat 2 Islanda (3).
    assert result.ranking == ((1, 3, 100), (2, 1, 4), (3, 2, 3), (4, 0, 0))


# --------------------------------------------------------------------------- time limit


def timed(first_player: int = 0, current: int = 0, others: int | None = None) -> ClassicGame:
    return position(
        SCORED,
        options=ClassicOptions.tournament(time_limit_minutes=60),
        first_player=first_player,
        current=current,
        others=others,
    )


def test_the_clock_declares_the_time_limit() -> None:
    game = timed()
    events = game.apply(None, a.ExpireTime())
    assert events == [e.TimeExpired(5)]
    assert game.time_expired
    assert (game.current, game.phase, game.round) == (0, Phase.ATTACK, 5)
    assert not game.is_over


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_no_seat_may_declare_the_time_limit(seat: int) -> None:
    assert_rejected(timed(), seat, a.ExpireTime(), "NOT_YOUR_TURN")


@pytest.mark.parametrize(
    "options",
    [ClassicOptions.tournament(), ClassicOptions(), ClassicOptions.tournament(round_limit=8)],
    ids=["tournament", "standard", "round_limit_only"],
)
def test_no_time_limit_without_the_option(options: ClassicOptions) -> None:
    game = position(SCORED, options=options)
    assert_rejected(game, None, a.ExpireTime(), "OPTION_DISABLED")


def test_the_time_limit_is_declared_once() -> None:
    game = timed()
    game.apply(None, a.ExpireTime())
    assert_rejected(game, None, a.ExpireTime(), "TIME_ALREADY_EXPIRED")


def play_until_the_end(game: ClassicGame) -> list[tuple[int, list[e.Event]]]:
    """Every seat ends its turn (placing its reinforcements first) until the game ends."""
    turns: list[tuple[int, list[e.Event]]] = []
    while not game.is_over and len(turns) < 10:
        seat = game.current
        if game.pending_reinforcements:
            own = next(t.id for t in BOARD.territories if game.owner[t.index] == seat)
            game.apply(seat, a.PlaceArmies(own, game.pending_reinforcements))
        turns.append((seat, game.apply(seat, a.EndTurn())))
    return turns


@pytest.mark.parametrize(
    ("first_player", "expired_in", "last_turns"),
    [
        (0, 0, [0, 1, 2, 3]),
        (0, 2, [2, 3]),
        (0, 3, [3]),
        (2, 3, [3, 0, 1]),  # order 2 3 0 1: seat 1 closes the round
        (2, 1, [1]),
    ],
)
def test_the_game_ends_when_the_round_of_the_time_limit_is_completed(
    first_player: int, expired_in: int, last_turns: list[int]
) -> None:
    game = timed(first_player=first_player, current=expired_in)
    game.apply(None, a.ExpireTime())
    turns = play_until_the_end(game)
    assert [seat for seat, _ in turns] == last_turns
    final = turns[-1][1]
    assert final[-1] == e.GameEnded(
        None, "time_limit", SCORED_RANKING, ("tappeto", "letto", "eurasia", "guerra_fredda")
    )
    assert not any(isinstance(event, e.TurnStarted) for event in final)
    assert e.TurnEnded(last_turns[-1]) in final
    assert game.round == 5
    assert game.winner is None
    assert game.ranking == SCORED_RANKING


def test_the_round_ends_with_the_last_living_player() -> None:
    # Seat 3 holds nothing (out); seat 2 holds the rest and closes the round.
    game = timed(current=1, others=2)
    assert game.eliminated == [False, False, False, True]
    game.apply(None, a.ExpireTime())
    turns = play_until_the_end(game)
    assert [seat for seat, _ in turns] == [1, 2]
    result = ended(turns[-1][1])
    assert result is not None
    assert result.reason == "time_limit"


def test_the_strategic_move_that_closes_the_round_ends_the_game() -> None:
    game = timed(current=3)
    game.armies[BOARD.index["kamchatka"]] = 3
    game.apply(None, a.ExpireTime())
    events = game.apply(3, a.StrategicMove("kamchatka", "jacuzia", 1))
    result = ended(events)
    assert result is not None
    assert result.reason == "time_limit"


# --------------------------------------------------------------------------- round limit


@pytest.mark.parametrize(("round_number", "over"), [(3, False), (4, False), (5, True)])
def test_a_round_limit_ends_the_game_after_that_round(round_number: int, over: bool) -> None:
    game = position(
        SCORED, options=ClassicOptions.tournament(round_limit=5), current=3, round=round_number
    )
    events = game.apply(3, a.EndTurn())
    result = ended(events)
    assert (result is not None) is over
    if result is not None:
        assert result == e.GameEnded(
            None, "round_limit", SCORED_RANKING, ("tappeto", "letto", "eurasia", "guerra_fredda")
        )
    else:
        assert game.round == round_number + 1
        assert game.current == 0


def test_a_round_limit_waits_for_the_last_player() -> None:
    game = position(SCORED, options=ClassicOptions.tournament(round_limit=5), current=2)
    assert ended(game.apply(2, a.EndTurn())) is None
    assert game.current == 3


@pytest.mark.parametrize("name", ["round_limit", "time_limit_minutes"])
@pytest.mark.parametrize("value", [0, -1])
def test_limits_must_be_positive(name: str, value: int) -> None:
    with pytest.raises(InvalidOptions) as excinfo:
        ClassicOptions.tournament(**{name: value})
    assert excinfo.value.code == "INVALID_OPTIONS"
