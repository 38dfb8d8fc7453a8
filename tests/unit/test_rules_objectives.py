"""Rule tests for the secret objectives of classic RisiKo!: what each objective asks, when a
player wins (only during their own turn), "destroy colour X" and its fallback, and what the end
of the game reveals and ranks. Every test fails if its rule is broken."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pytest

from domain import actions as a
from domain import events as e
from domain.flow import Phase
from tests.support import BOARD, CLASSIC, arrange, assert_rejected, force_dice, new_game, of_type
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions

UNMET = "territories_18_2"  # with one army a territory, nobody meets it

# --------------------------------------------------------------------------- helpers


def position(
    owners: Mapping[str, int],
    armies: Mapping[str, int] | None = None,
    *,
    objectives: Sequence[str] = (UNMET, UNMET, UNMET, UNMET),
    options: ClassicOptions | None = None,
    current: int = 0,
    phase: Phase = Phase.ATTACK,
    round: int = 5,
    pending: int = 0,
    others: int | None = None,
) -> ClassicGame:
    """A hand-made position (see `arrange`) with turn order 0 1 2 3 and the given objectives,
    which are also the objective cards."""
    game = new_game(len(objectives), options, seed=b"objective-rules")
    game.first_player = 0
    arrange(
        game,
        owners,
        armies,
        others=others,
        current=current,
        phase=phase,
        round=round,
        pending=pending,
    )
    game.objectives = list(objectives)
    game.objective_cards = list(objectives)
    return game


def ended(events: Sequence[e.Event]) -> e.GameEnded | None:
    found = [event for event in events if isinstance(event, e.GameEnded)]
    assert len(found) <= 1
    return found[0] if found else None


def region(*ids: str) -> list[str]:
    return [t for region_id in ids for t in BOARD.region(region_id).territories]


def seats(territories: Iterable[str], seat: int) -> dict[str, int]:
    return dict.fromkeys(territories, seat)


NA, SA, EU, AF, AS, OC = (
    "america_del_nord",
    "america_del_sud",
    "europa",
    "africa",
    "asia",
    "oceania",
)

# --------------------------------------------------------------------------- the objective deck


def test_the_standard_objective_deck() -> None:
    objectives = CLASSIC.ruleset.objectives
    assert sorted(objectives) == sorted(
        [
            "territories_24",
            "territories_18_2",
            "north_america_africa",
            "north_america_oceania",
            "asia_south_america",
            "asia_africa",
            "europe_south_america_plus_one",
            "europe_oceania_plus_one",
            *(f"destroy_{c}" for c in ("blu", "rosso", "giallo", "verde", "nero", "viola")),
        ]
    )


# --------------------------------------------------------------------------- meeting objectives

# (objective, what seat 0 must hold, an own source, the last territory it lacks)
ONE_CONQUEST_SHORT = [
    ("territories_24", [*region(NA, SA, EU), "africa_del_nord", "egitto", "congo"], "alaska",
     "kamchatka"),
    ("north_america_africa", region(NA, AF), "brasile", "africa_del_nord"),
    ("north_america_oceania", region(NA, OC), "siam", "indonesia"),
    ("asia_south_america", region(AS, SA), "alaska", "kamchatka"),
    ("asia_africa", region(AS, AF), "europa_meridionale", "egitto"),
    ("europe_south_america_plus_one", region(EU, SA, OC), "siam", "indonesia"),
    ("europe_south_america_plus_one", region(EU, SA, AS), "alaska", "kamchatka"),
    ("europe_oceania_plus_one", region(EU, OC, SA), "america_centrale", "venezuela"),
    ("europe_oceania_plus_one", region(EU, OC, AF), "brasile", "africa_del_nord"),
]  # fmt: skip


def one_short(
    objective: str, held: list[str], source: str, target: str, **kwargs: object
) -> ClassicGame:
    owners = seats(held, 0)
    owners[source] = 0
    owners[target] = 1
    spare = next(t.id for t in BOARD.territories if t.id not in owners)
    owners[spare] = 1  # seat 1 is not eliminated by the conquest
    game = position(owners, {source: 4}, objectives=[objective, UNMET, UNMET, UNMET])
    for name, value in kwargs.items():
        setattr(game, name, value)
    return game


@pytest.mark.parametrize(("objective", "held", "source", "target"), ONE_CONQUEST_SHORT)
def test_the_conquest_that_meets_the_objective_wins_at_once(
    monkeypatch: pytest.MonkeyPatch, objective: str, held: list[str], source: str, target: str
) -> None:
    game = one_short(objective, held, source, target)
    force_dice(monkeypatch, 6, 6, 6, 1)
    events = game.apply(0, a.Attack(source, target, 3))
    result = ended(events)
    assert result is not None
    assert (result.winner, result.reason) == (0, "objective")
    assert result.objectives == (objective, UNMET, UNMET, UNMET)
    assert game.is_over
    assert game.winner == 0


def start_turn(
    owners: Mapping[str, int], objective: str, armies: Mapping[str, int] | None = None
) -> list[e.Event]:
    """Seat 3 ends its turn and seat 0's turn starts, holding `owners`: the objective is
    checked then (placing armies cannot change who holds what)."""
    game = position(owners, armies, objectives=[objective, UNMET, UNMET, UNMET], current=3)
    return game.apply(3, a.EndTurn())


@pytest.mark.parametrize(("objective", "held", "source", "target"), ONE_CONQUEST_SHORT)
def test_one_territory_short_is_not_enough(
    objective: str, held: list[str], source: str, target: str
) -> None:
    game = one_short(objective, held, source, target, current=3)
    events = game.apply(3, a.EndTurn())
    assert ended(events) is None
    assert game.current == 0
    assert not game.is_over


@pytest.mark.parametrize(
    ("objective", "held", "wins"),
    [
        ("north_america_africa", region(NA), False),
        ("north_america_africa", region(AF), False),
        ("north_america_africa", region(NA, AF), True),
        ("north_america_oceania", region(NA, AF, SA), False),
        ("north_america_oceania", region(NA, OC), True),
        ("asia_south_america", region(AS, AF), False),
        ("asia_south_america", region(AS, SA), True),
        ("asia_africa", region(AS, SA, OC), False),
        ("asia_africa", region(AS, AF), True),
        ("europe_south_america_plus_one", region(EU, SA), False),
        ("europe_south_america_plus_one", region(EU, OC, AF), False),
        ("europe_south_america_plus_one", region(EU, SA, NA), True),
        ("europe_south_america_plus_one", region(EU, SA, AF), True),
        ("europe_south_america_plus_one", region(EU, SA, AS), True),
        ("europe_south_america_plus_one", region(EU, SA, OC), True),
        ("europe_oceania_plus_one", region(EU, OC), False),
        ("europe_oceania_plus_one", region(EU, SA, AF), False),
        ("europe_oceania_plus_one", region(EU, OC, NA), True),
        ("europe_oceania_plus_one", region(EU, OC, SA), True),
        ("europe_oceania_plus_one", region(EU, OC, AF), True),
        ("europe_oceania_plus_one", region(EU, OC, AS), True),
    ],
)
def test_continent_objectives(objective: str, held: list[str], wins: bool) -> None:
    result = ended(start_turn(seats(held, 0), objective))
    assert (result is not None) is wins
    if result is not None:
        assert (result.winner, result.reason) == (0, "objective")


@pytest.mark.parametrize(("held", "wins"), [(23, False), (24, True), (30, True)])
def test_24_territories(held: int, wins: bool) -> None:
    owners = seats([t.id for t in BOARD.territories][:held], 0)
    owners[BOARD.territories[41].id] = 1  # two other seats hold the rest
    result = ended(start_turn(owners, "territories_24"))
    assert (result is not None) is wins


def eighteen_with_two(ones: int, total: int = 18) -> tuple[dict[str, int], dict[str, int]]:
    """Seat 0 holds `total` territories, `ones` of them with one army, the others with two."""
    held = [t.id for t in BOARD.territories][:total]
    armies = {t: (1 if i < ones else 2) for i, t in enumerate(held)}
    return seats(held, 0), armies


@pytest.mark.parametrize(
    ("total", "ones", "wins"),
    [
        (18, 1, True),
        (18, 2, False),
        (19, 2, True),
        (19, 3, False),
        (20, 3, True),
        (17, 0, False),
        (25, 0, True),
    ],
)
def test_18_territories_with_two_armies_each(total: int, ones: int, wins: bool) -> None:
    """Seat 0 places its one reinforcement on its first territory, which holds one army."""
    owners, armies = eighteen_with_two(ones, total)
    game = position(
        owners, armies, objectives=["territories_18_2", UNMET, UNMET, UNMET],
        phase=Phase.REINFORCE, pending=1,
    )  # fmt: skip
    first = next(iter(owners))
    result = ended(game.apply(0, a.PlaceArmies(first, 1)))
    assert (result is not None) is wins


@pytest.mark.parametrize(
    ("moved", "wins"), [(1, False), (2, True), (3, True), (4, True), (5, False)]
)
def test_18_territories_with_two_armies_met_by_moving_in(
    monkeypatch: pytest.MonkeyPatch, moved: int, wins: bool
) -> None:
    """16 territories with two armies and Alaska with six take Kamchatka with one die: the
    objective is met when both Alaska and Kamchatka end up with at least two."""
    held = [t.id for t in BOARD.territories if t.id not in ("alaska", "kamchatka", "giappone")]
    owners = {**seats(held[:16], 0), "alaska": 0, "kamchatka": 1, "giappone": 1}
    armies = {**dict.fromkeys(held[:16], 2), "alaska": 6}
    game = position(owners, armies, objectives=["territories_18_2", UNMET, UNMET, UNMET])
    force_dice(monkeypatch, 6, 1)
    events = game.apply(0, a.Attack("alaska", "kamchatka", 1))
    assert ended(events) is None  # Kamchatka is empty until the armies move in
    assert game.phase is Phase.OCCUPY
    result = ended(game.apply(0, a.Occupy(moved)))
    assert (result is not None) is wins


def test_18_territories_with_two_armies_met_by_the_strategic_move() -> None:
    owners, armies = eighteen_with_two(ones=1)
    first = next(iter(owners))  # Alaska, with one army; Alberta borders it, with two
    assert first == "alaska"
    armies["alberta"] = 3
    game = position(owners, armies, objectives=["territories_18_2", UNMET, UNMET, UNMET])
    events = game.apply(0, a.StrategicMove("alberta", "alaska", 1))
    result = ended(events)
    assert result is not None
    assert (result.winner, result.reason) == (0, "objective")
    assert not of_type(events, e.TurnStarted)


# --------------------------------------------------------------------------- whose turn


def test_an_objective_held_at_the_start_of_the_turn_wins_then() -> None:
    game = position(
        seats(region(NA, AF), 0) | {"cina": 1},
        objectives=["north_america_africa", UNMET, UNMET, UNMET],
        current=3,
    )
    events = game.apply(3, a.EndTurn())
    assert [type(event) for event in events] == [e.TurnEnded, e.TurnStarted, e.GameEnded]
    result = ended(events)
    assert result is not None
    assert (result.winner, result.reason) == (0, "objective")


def test_nobody_wins_during_someone_elses_turn() -> None:
    # Seat 1 holds 24 territories and wants 24, but it is seat 0's turn.
    held = [t.id for t in BOARD.territories]
    owners = {**seats(held[:24], 1), "cina": 0, "india": 0, "siam": 2}
    game = position(
        owners, {"cina": 3}, objectives=[UNMET, "territories_24", UNMET, UNMET],
        phase=Phase.REINFORCE, pending=2,
    )  # fmt: skip
    assert ended(game.apply(0, a.PlaceArmies("cina", 2))) is None
    events = game.apply(0, a.StrategicMove("cina", "india", 1))  # ends seat 0's turn
    result = ended(events)
    assert result is not None
    assert (result.winner, result.reason) == (1, "objective")
    assert events.index(e.TurnEnded(0)) < events.index(result)


def destroy_position(holder: int, others: int | None = None) -> ClassicGame:
    """Seat 1 (rosso) holds only Kamchatka; seat 0 attacks it from Alaska; `holder` has the
    card "destroy rosso"."""
    objectives = [UNMET, UNMET, UNMET, UNMET]
    objectives[holder] = "destroy_rosso"
    owners = {"alaska": 0, "alberta": 0, "kamchatka": 1, "cina": 2, "india": 3}
    game = position(owners, {"alaska": 4}, objectives=objectives, others=others)
    assert game.colours[1] == "rosso"
    return game


def test_destroying_the_colour_wins_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = destroy_position(holder=0)
    force_dice(monkeypatch, 6, 6, 6, 1)
    events = game.apply(0, a.Attack("alaska", "kamchatka", 3))
    assert of_type(events, e.PlayerEliminated)
    result = ended(events)
    assert result is not None
    assert (result.winner, result.reason) == (0, "objective")


def test_a_colour_destroyed_by_someone_else_turns_the_objective_into_24_territories(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = destroy_position(holder=2)
    force_dice(monkeypatch, 6, 6, 6, 1)
    events = game.apply(0, a.Attack("alaska", "kamchatka", 3))
    changed = of_type(events, e.ObjectiveChanged)
    assert len(changed) == 1
    assert isinstance(changed[0], e.ObjectiveChanged)
    assert (changed[0].seat, changed[0].objective) == (2, "territories_24")
    assert changed[0].visible_to == 2
    assert not changed[0].is_visible_to(0)
    assert not changed[0].is_visible_to(None)
    assert game.objectives[2] == "territories_24"
    assert game.objective_cards[2] == "destroy_rosso"  # the card is still the card
    assert ended(events) is None


def test_a_fallback_met_in_someone_elses_turn_wins_only_when_the_holders_turn_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = destroy_position(holder=2, others=2)  # seat 2 holds 37 territories
    force_dice(monkeypatch, 6, 6, 6, 1)
    events = game.apply(0, a.Attack("alaska", "kamchatka", 3))
    assert of_type(events, e.ObjectiveChanged)
    assert ended(events) is None
    assert not game.is_over
    events = game.apply(0, a.EndTurn())  # seat 1 is out: seat 2 plays next
    assert [type(event) for event in events][-3:] == [e.TurnEnded, e.TurnStarted, e.GameEnded]
    result = ended(events)
    assert result is not None
    assert (result.winner, result.reason) == (2, "objective")
    assert result.objectives[2] == "destroy_rosso"


# --------------------------------------------------------------------------- the end


def test_the_end_reveals_every_objective_card_and_ranks_by_territories() -> None:
    cards = ["north_america_africa", "destroy_giallo", "asia_africa", "territories_24"]
    owners = {
        **seats(region(NA, AF), 0),  # 15
        **seats(["cina", "india", "siam", "urali", "siberia"], 1),  # 5
        **seats(["jacuzia", "cita", "kamchatka", "giappone", "mongolia"], 2),  # 5
    }  # seat 3: the other 17
    game = position(owners, objectives=cards, current=3)
    events = game.apply(3, a.EndTurn())
    result = ended(events)
    assert result is not None
    assert result == e.GameEnded(
        0, "objective", ((1, 0, 15), (2, 3, 17), (3, 1, 5), (3, 2, 5)), tuple(cards)
    )
    assert result.visible_to is None  # everyone sees every card now
    assert game.ranking == result.ranking


def test_a_round_limit_ranks_standard_games_by_territories_held() -> None:
    owners = {
        **seats(["cina", "india", "siam", "urali", "siberia"], 1),
        **seats(["jacuzia", "cita", "kamchatka", "giappone", "mongolia", "afghanistan"], 2),
        **seats(["alaska", "alberta", "ontario", "quebec", "groenlandia", "islanda"], 3),
    }  # seat 0: the other 25
    game = position(owners, options=ClassicOptions(round_limit=5), current=3, round=5, others=0)
    events = game.apply(3, a.EndTurn())
    result = ended(events)
    assert result is not None
    assert (result.winner, result.reason) == (None, "round_limit")
    assert result.ranking == ((1, 0, 25), (2, 2, 6), (2, 3, 6), (4, 1, 5))


def test_nothing_may_be_played_after_the_end() -> None:
    game = position(
        seats(region(NA, AF), 0),
        objectives=["north_america_africa", UNMET, UNMET, UNMET],
        current=3,
    )
    game.apply(3, a.EndTurn())
    assert game.is_over
    assert game.seat_to_act is None
    assert_rejected(game, 0, a.PlaceArmies("alaska", 1), "GAME_OVER")
    assert_rejected(game, 1, a.EndTurn(), "GAME_OVER")
