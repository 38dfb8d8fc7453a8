"""Rule tests for a turn of S.P.Q.RisiKo! on land (seed 001, sections 4-6, 8, 10, 13-17):
victory points and the end of the game, land reinforcements, power centres, cards and what
sets give, land attacks, garrisons, the strategic move, the card and the protection of the
first four rounds. Positions are hand-made and dice forced; each test fails if its rule is
broken. The sea (triremes, naval combat, sea attacks) is in test_spqr_sea.py."""

from __future__ import annotations

import itertools

import pytest

from domain import actions as a
from domain import events as e
from domain.flow import Phase
from domain.legal import LegalAttack, LegalAttackUntil, LegalStrategicMove, LegalTrade
from tests.spqr_support import (
    BOARD,
    ISLANDS,
    NEUTRAL,
    OTHER_NEUTRAL,
    PROVINCES,
    armies_on,
    cards,
    events_of,
    fleet,
    owner_of,
    position,
    the,
)
from tests.support import assert_rejected, force_dice
from variants.spqr import actions as sa
from variants.spqr import events as se
from variants.spqr.game import SpqrGame
from variants.spqr.legal import (
    LegalDisbandTrireme,
    LegalPlacePowerCentre,
    LegalPlaceTrireme,
    LegalSeaAttack,
)
from variants.spqr.options import SpqrOptions
from variants.spqr.phases import SpqrPhase

EMPIRE = ("galicia", "lusitania", "terraconensis", "baetica")  # four provinces joined by land
FOUR_ISLANDS = ("britannia", "corsica", "sardinia", "sicilia")
ANATOLIA = ("asia", "bithinya", "galatia", "cilicia")  # four more joined by land


def owned(seat: int, *provinces: str) -> dict[str, int]:
    return dict.fromkeys(provinces, seat)


def start_turn_of_seat_1(game: SpqrGame) -> list[e.Event]:
    """Seat 0 ends its turn; seat 1's begins and claims its victory points."""
    assert (game.current, game.phase, game.pending_reinforcements) == (0, Phase.REINFORCE, 0)
    return game.apply(0, a.EndTurn())


def finish_turn(game: SpqrGame) -> list[e.Event]:
    """Place every pending legionary on the seat's first province, then end the turn."""
    seat = game.current
    events: list[e.Event] = []
    if game.pending_reinforcements:
        first = next(p for p in PROVINCES if owner_of(game, p) == seat)
        events += game.apply(seat, a.PlaceArmies(first, game.pending_reinforcements))
    return events + game.apply(seat, a.EndTurn())


# --------------------------------------------------------------------------- victory points


@pytest.mark.parametrize(
    ("seat_1", "seat_2", "empire"),
    [
        (EMPIRE, ("creta", "cipro", "baleares", "arabia"), 1),
        (EMPIRE, ("asia", "bithinya", "galatia", "arabia"), 1),  # 4 against 3
        (EMPIRE, ANATOLIA, 0),  # a tie gives nothing
        (("galicia", "lusitania", "terraconensis", "mauretania"), ("creta", "cipro"), 0),  # 3
        (FOUR_ISLANDS, ("creta",), 0),  # islands never join anything
        ((*EMPIRE, "dacia", "moesia", "arabia"), ("asia", "bithinya", "galatia", "ponto"), 0),
    ],
    ids=["four", "four-against-three", "tie", "three", "islands", "split"],
)
def test_the_largest_empire_of_at_least_four_scores_one_point(
    seat_1: tuple[str, ...], seat_2: tuple[str, ...], empire: int
) -> None:
    game = position({**owned(0, "creta"), **owned(2, *seat_2), **owned(1, *seat_1)})
    scored = the(start_turn_of_seat_1(game), se.VictoryPointsScored)
    assert scored.empire == empire
    assert game.score(1)[0] == empire


def test_the_largest_empire_counts_provinces_joined_by_land_only() -> None:
    game = position({**owned(1, *EMPIRE, "dacia", "moesia", *FOUR_ISLANDS), **owned(0, "creta")})
    assert game.largest_empire(1) == 4
    assert game.largest_empire(0) == 1
    assert game.largest_empire(2) == 0
    game = position(owned(1, *ISLANDS))
    assert game.largest_empire(1) == 1


@pytest.mark.parametrize(("seat_0_count", "point"), [(3, 1), (4, 0), (5, 0)])
def test_strictly_the_most_provinces_scores_one_point(seat_0_count: int, point: int) -> None:
    """Seat 1 holds four provinces; the neutrals, holding most of the board, do not count."""
    seat_0 = ("arabia", "dacia", "creta", "cipro", "baleares")[:seat_0_count]
    game = position({**owned(1, *FOUR_ISLANDS), **owned(0, *seat_0), "ponto": 2})
    scored = the(start_turn_of_seat_1(game), se.VictoryPointsScored)
    assert scored.provinces == point


def test_a_sea_is_controlled_with_strictly_more_triremes_than_anyone_else() -> None:
    triremes = {"tyrrenum": {1: 2, 0: 1}, "ionium": {1: 1, 2: 1}, "aegeum": {0: 1}}
    game = position(owned(1, "italia"), triremes=triremes)
    assert game.controls(1, BOARD.index["tyrrenum"])
    assert not game.controls(0, BOARD.index["tyrrenum"])
    assert not game.controls(1, BOARD.index["ionium"])  # a tie: nobody
    assert not game.controls(2, BOARD.index["ionium"])
    assert game.controls(0, BOARD.index["aegeum"])
    assert not game.controls(1, BOARD.index["creticum"])  # nobody there
    assert [game.seas_controlled(seat) for seat in range(3)] == [1, 1, 0]


@pytest.mark.parametrize(
    ("triremes", "point"),
    [
        ({"tyrrenum": {1: 2, 0: 1}}, 1),
        ({"tyrrenum": {1: 2, 0: 1}, "aegeum": {0: 3}}, 0),  # one sea each
        ({"tyrrenum": {1: 2, 0: 2}}, 0),  # nobody controls the only sea with triremes
        ({"tyrrenum": {1: 1}, "ionium": {1: 1}, "aegeum": {0: 5}}, 1),  # two against one
        ({}, 0),
    ],
    ids=["one-to-none", "one-each", "tie-at-sea", "two-to-one", "empty-seas"],
)
def test_strictly_the_most_seas_controlled_scores_one_point(
    triremes: dict[str, dict[int, int]], point: int
) -> None:
    game = position({**owned(1, "italia"), **owned(0, "creta"), "arabia": 2}, triremes=triremes)
    scored = the(start_turn_of_seat_1(game), se.VictoryPointsScored)
    assert scored.seas == point


def test_each_power_centre_held_scores_one_point() -> None:
    owners = {**owned(1, "italia", "sicilia", "creta"), **owned(0, "achaia"), "arabia": 2}
    centres = ["italia", "sicilia", "achaia", "cappadocia"]  # seat 0's and a neutral's too
    game = position(owners, power_centres=centres)
    scored = the(start_turn_of_seat_1(game), se.VictoryPointsScored)
    assert scored.power_centres == 2


def test_victory_points_add_up_and_are_claimed_before_the_reinforcements() -> None:
    owners = {**owned(1, *EMPIRE, "sicilia"), **owned(0, "creta"), "arabia": 2}
    game = position(owners, triremes={"tyrrenum": {1: 1}}, power_centres=["sicilia"])
    game.victory_points = [4, 5, 6]
    events = start_turn_of_seat_1(game)
    assert the(events, se.VictoryPointsScored) == se.VictoryPointsScored(1, 1, 1, 1, 1, 9)
    assert game.victory_points == [4, 9, 6]
    kinds = [type(event) for event in events]
    assert kinds.index(e.TurnStarted) < kinds.index(se.VictoryPointsScored)
    assert kinds.index(se.VictoryPointsScored) < kinds.index(e.ArmiesPlaced)


def test_victory_points_are_claimed_only_at_the_start_of_the_own_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 0 takes Italia and its power centre: nothing is scored during its turn, nor for
    seat 2 when seat 1's turn starts; seat 0 scores at the start of its next turn."""
    owners = {**owned(0, "cisalpina", "creta"), **owned(1, "italia", "dacia"), "arabia": 2}
    game = position(owners, {"cisalpina": 5}, power_centres=["italia"])
    force_dice(monkeypatch, 6, 1)
    game.apply(0, a.Attack("cisalpina", "italia", 1))
    game.apply(0, a.Occupy(1))
    assert owner_of(game, "italia") == 0
    assert game.score(0)[3] == 1
    assert game.victory_points == [0, 0, 0]
    events = game.apply(0, a.EndTurn())
    assert [ev.seat for ev in events_of(events, se.VictoryPointsScored)] == [1]
    assert game.victory_points[0] == game.victory_points[2] == 0
    finish_turn(game)  # seat 1
    events = finish_turn(game)  # seat 2: seat 0's turn begins
    assert [ev.seat for ev in events_of(events, se.VictoryPointsScored)] == [0]
    assert game.victory_points[0] == sum(game.score(0)) >= 1


def test_reaching_the_target_ends_the_game_at_once() -> None:
    owners = {**owned(1, *EMPIRE, "sicilia"), **owned(0, "creta"), "arabia": 2}
    game = position(
        owners, {"sicilia": 2}, options=SpqrOptions(victory_points=10), power_centres=["sicilia"]
    )
    game.victory_points = [9, 7, 9]
    events = start_turn_of_seat_1(game)  # 3 points: empire, provinces, a power centre
    ended = the(events, e.GameEnded)
    assert (ended.winner, ended.reason) == (1, "victory_points")
    assert (game.phase, game.winner, game.end_reason) == (Phase.OVER, 1, "victory_points")
    assert game.victory_points == [9, 10, 9]
    assert ended.ranking[0] == (1, 1, 10)
    assert ended.objectives == ()  # a game without objectives reveals none
    assert armies_on(game, "sicilia") == 2  # nothing is placed any more
    assert not events_of(events, e.ArmiesPlaced)
    assert_rejected(game, 1, a.PlaceArmies("sicilia", 1), "GAME_OVER")


def test_below_the_target_the_game_goes_on() -> None:
    owners = {**owned(1, *EMPIRE, "sicilia"), **owned(0, "creta"), "arabia": 2}
    game = position(
        owners, {"sicilia": 2}, options=SpqrOptions(victory_points=11), power_centres=["sicilia"]
    )
    game.victory_points = [0, 7, 0]
    events = start_turn_of_seat_1(game)
    assert not events_of(events, e.GameEnded)
    assert game.victory_points[1] == 10
    assert game.phase is Phase.REINFORCE
    assert armies_on(game, "sicilia") == 3


def test_a_round_limit_ends_the_game_with_a_ranking_by_victory_points() -> None:
    options = SpqrOptions(victory_points=None, round_limit=5)
    owners = {**owned(0, "creta"), **owned(1, "cipro"), **owned(2, "arabia")}
    game = position(owners, options=options, current=2, round=5)
    game.victory_points = [3, 7, 3]
    events = game.apply(2, a.EndTurn())
    ended = the(events, e.GameEnded)
    assert (ended.winner, ended.reason) == (None, "round_limit")
    assert ended.ranking == ((1, 1, 7), (2, 0, 3), (2, 2, 3))
    assert game.ranking == ended.ranking
    assert game.is_over


def test_a_time_limit_ends_the_game_at_the_end_of_the_round() -> None:
    options = SpqrOptions(victory_points=None, time_limit_minutes=60)
    owners = {**owned(0, "creta", "cipro"), **owned(1, *EMPIRE), **owned(2, "arabia")}
    game = position(owners, options=options, round=5)
    assert game.apply(None, a.ExpireTime()) == [e.TimeExpired(5)]
    finish_turn(game)  # seat 0
    finish_turn(game)  # seat 1
    events = finish_turn(game)  # seat 2, the last of the round
    ended = the(events, e.GameEnded)
    assert (ended.winner, ended.reason) == (None, "time_limit")
    assert game.victory_points[1] >= 2  # seat 1 scored at the start of its turn
    points = [(seat, score) for _, seat, score in ended.ranking]
    assert points == sorted(
        ((seat, game.victory_points[seat]) for seat in range(3)), key=lambda item: -item[1]
    )


# --------------------------------------------------------------------------- land reinforcements


@pytest.mark.parametrize(
    ("provinces", "reinforcements"),
    [(1, 1), (2, 1), (3, 3), (11, 3), (12, 4), (14, 4), (15, 5), (44, 14)],
)
def test_land_reinforcements(provinces: int, reinforcements: int) -> None:
    """1 below 3 provinces, 3 from 3 to 11, provinces / 3 (rounded down) above 11."""
    game = position({**owned(1, *PROVINCES[:provinces]), "mauretania": 0})
    events = start_turn_of_seat_1(game)
    assert the(events, e.TurnStarted).reinforcements == reinforcements
    assert game.pending_reinforcements == reinforcements
    assert game.reinforcements_for(1)[0] == reinforcements


def test_land_reinforcements_for_the_whole_board() -> None:
    game = position(owned(0, *PROVINCES))
    assert game.reinforcements_for(0) == (15, 15, ())


def test_each_own_power_centre_gets_one_legionary_at_the_start_of_the_turn() -> None:
    owners = {**owned(1, "cisalpina", "sicilia", "creta"), **owned(0, "achaia"), "arabia": 2}
    armies = {"cisalpina": 2, "sicilia": 2, "creta": 2, "achaia": 2, "cappadocia": 2}
    game = position(owners, armies, power_centres=["cisalpina", "sicilia", "achaia", "cappadocia"])
    events = start_turn_of_seat_1(game)
    assert events_of(events, e.ArmiesPlaced) == [
        e.ArmiesPlaced(1, "cisalpina", 1),
        e.ArmiesPlaced(1, "sicilia", 1),
    ]
    assert [armies_on(game, p) for p in ("cisalpina", "sicilia", "creta")] == [3, 3, 2]
    assert armies_on(game, "achaia") == armies_on(game, "cappadocia") == 2
    assert game.pending_reinforcements == 3  # on top of the three for three provinces


DISBAND = {**owned(0, "italia", "sicilia", "creta"), **owned(1, "epirus"), "arabia": 2}


def disband_position(*, pending: int = 0, phase: Phase = Phase.REINFORCE) -> SpqrGame:
    triremes = {"tyrrenum": {0: 2, 1: 1}, "aegeum": {1: 1}}
    return position(DISBAND, {"italia": 2}, triremes=triremes, pending=pending, phase=phase)


def test_a_trireme_becomes_two_legionaries_in_an_own_province_on_its_sea() -> None:
    game = disband_position(pending=3)  # also while legionaries wait to be placed
    legal = [f for f in game.legal_actions(0) if isinstance(f, LegalDisbandTrireme)]
    assert legal == [LegalDisbandTrireme("tyrrenum", ("italia", "sicilia"))]
    events = game.apply(0, sa.DisbandTrireme("tyrrenum", "italia"))
    assert events == [se.TriremeDisbanded(0, "tyrrenum", "italia", 2)]
    assert armies_on(game, "italia") == 4
    assert fleet(game, "tyrrenum") == [1, 1, 0]
    assert game.pending_reinforcements == 3
    assert not [f for f in game.legal_actions(0) if isinstance(f, LegalDisbandTrireme)]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (sa.DisbandTrireme("tyrrenum", "creta"), "NOT_ADJACENT"),  # creta is not on it
        (sa.DisbandTrireme("tyrrenum", "epirus"), "NOT_YOUR_TERRITORY"),
        (sa.DisbandTrireme("ionium", "italia"), "NOT_ENOUGH_ARMIES"),  # no trireme there
        (sa.DisbandTrireme("aegeum", "creta"), "NOT_ENOUGH_ARMIES"),  # seat 1's trireme
        (sa.DisbandTrireme("italia", "sicilia"), "WRONG_KIND_OF_SPACE"),
        (sa.DisbandTrireme("tyrrenum", "ionium"), "WRONG_KIND_OF_SPACE"),
    ],
)
def test_a_trireme_is_disbanded_only_into_an_own_province_on_its_sea(
    action: a.Action, code: str
) -> None:
    assert_rejected(disband_position(), 0, action, code)


def test_only_one_trireme_a_turn_is_disbanded() -> None:
    game = disband_position()
    game.apply(0, sa.DisbandTrireme("tyrrenum", "italia"))
    assert_rejected(game, 0, sa.DisbandTrireme("tyrrenum", "sicilia"), "ONCE_PER_TURN")
    game.apply(0, a.EndTurn())
    assert not game.trireme_disbanded  # a new turn, a new chance


@pytest.mark.parametrize("phase", [SpqrPhase.NAVAL_REINFORCE, SpqrPhase.NAVAL_MOVE, Phase.ATTACK])
def test_a_trireme_is_disbanded_only_during_the_land_reinforcements(phase: Phase) -> None:
    game = disband_position(phase=phase)
    assert_rejected(game, 0, sa.DisbandTrireme("tyrrenum", "italia"), "WRONG_PHASE")


# --------------------------------------------------------------------------- cards and sets

SET_EXAMPLES = [  # the rulebook's examples (game-data.md 2.5) and more: legionaries, triremes,
    # power centres, and the vessilli's part of the legionaries
    ((("legionario", 3),), 8, 0, 0, 0),
    ((("legionario", 1), ("vessillo", 1), ("trireme", 1)), 12, 1, 0, 2),
    ((("trireme", 3),), 8, 3, 0, 0),
    ((("vessillo", 3),), 14, 0, 0, 6),
    ((("arena", 3),), 8, 0, 3, 0),
    ((("legionario", 1), ("trireme", 1), ("arena", 1)), 10, 1, 1, 0),
    ((("vessillo", 1), ("trireme", 1), ("arena", 1)), 12, 1, 1, 2),
]


@pytest.mark.parametrize(
    ("symbols", "legionaries", "triremes", "centres", "vessilli"), SET_EXAMPLES
)
def test_what_a_set_gives(
    symbols: tuple[tuple[str, int], ...],
    legionaries: int,
    triremes: int,
    centres: int,
    vessilli: int,
) -> None:
    hand = [card for symbol, count in symbols for card in cards(symbol, count)]
    game = position(owned(0, "italia", "creta"), pending=3, hands={0: [*hand, "legionario_10"]})
    offered = [f for f in game.legal_actions(0) if isinstance(f, LegalTrade)]
    assert (sorted(hand), legionaries) in [(sorted(f.cards), f.armies) for f in offered]
    events = game.apply(0, a.TradeCards(tuple(hand)))
    assert events[0] == e.CardsTraded(0, tuple(hand), legionaries - vessilli, vessilli)
    rewards = events_of(events, se.SetRewards)
    assert rewards == ([se.SetRewards(0, triremes, centres)] if triremes or centres else [])
    assert game.pending_reinforcements == 3 + legionaries
    assert (game.pending_triremes, game.pending_power_centres) == (triremes, centres)
    assert game.hands[0] == ["legionario_10"]
    assert sorted(game.discard) == sorted(hand)


@pytest.mark.parametrize(
    "hand",
    [
        [*cards("legionario", 2), "vessillo_01"],
        [*cards("trireme", 2), "arena_01"],
        ["arena_01", *cards("vessillo", 2)],
    ],
)
def test_two_equal_symbols_and_a_different_one_are_no_set(hand: list[str]) -> None:
    game = position(owned(0, "italia"), hands={0: hand})
    assert not [f for f in game.legal_actions(0) if isinstance(f, LegalTrade)]
    assert_rejected(game, 0, a.TradeCards(tuple(hand)), "INVALID_CARD_SET")


def test_every_triple_that_makes_a_set_is_offered() -> None:
    """Cards of a symbol are worth the same, but every accepted trade is a legal action: four
    vessilli and two other symbols make four sets of equal symbols and eight of different."""
    hand = [*cards("vessillo", 4), "legionario_01", "trireme_01"]
    game = position(owned(0, "italia"), hands={0: hand})
    offered = {f.cards for f in game.legal_actions(0) if isinstance(f, LegalTrade)}
    vessilli = cards("vessillo", 4)
    equal = set(itertools.combinations(vessilli, 3))
    different = {(v, "legionario_01", "trireme_01") for v in vessilli}
    assert offered == equal | different
    for triple in sorted(offered):
        assert game.clone().apply(0, a.TradeCards(triple))


def test_a_set_is_three_cards_held_traded_during_the_reinforcements() -> None:
    hand = cards("legionario", 3)
    game = position(owned(0, "italia"), {"italia": 5}, hands={0: hand})
    assert_rejected(game, 0, a.TradeCards(("legionario_01", "legionario_01")), "INVALID_CARD_SET")
    assert_rejected(
        game,
        0,
        a.TradeCards(("legionario_01", "legionario_02", "legionario_04")),
        "CARD_NOT_IN_HAND",
    )
    game.apply(0, sa.BuildTrireme("italia", "tyrrenum"))
    assert_rejected(game, 0, a.TradeCards(tuple(hand)), "WRONG_PHASE")


CENTRES = {**owned(0, "italia", "sicilia", "cisalpina", "creta"), **owned(1, "epirus")}


def centre_position(pending: int = 1, centres: tuple[str, ...] = ()) -> SpqrGame:
    game = position(CENTRES, {"italia": 5}, power_centres=centres)
    game.pending_power_centres = pending
    return game


def test_a_power_centre_is_built_in_an_own_province() -> None:
    game = centre_position(pending=1)
    legal = [f for f in game.legal_actions(0) if isinstance(f, LegalPlacePowerCentre)]
    assert legal == [LegalPlacePowerCentre(("cisalpina", "italia", "sicilia", "creta"))]
    assert game.apply(0, sa.PlacePowerCentre("italia")) == [se.PowerCentrePlaced(0, "italia")]
    assert game.power_centre[BOARD.index["italia"]] == 1
    assert game.pending_power_centres == 0
    assert not [f for f in game.legal_actions(0) if isinstance(f, LegalPlacePowerCentre)]
    assert_rejected(game, 0, sa.PlacePowerCentre("sicilia"), "WRONG_PHASE")  # none left


def test_power_centres_from_a_set_of_arenas() -> None:
    game = position(CENTRES, hands={0: cards("arena", 3)})
    game.apply(0, a.TradeCards(tuple(cards("arena", 3))))
    game.apply(0, sa.PlacePowerCentre("italia"))
    game.apply(0, sa.PlacePowerCentre("sicilia"))  # across the sea from italia: allowed
    game.apply(0, sa.PlacePowerCentre("creta"))
    assert [p for p in PROVINCES if game.power_centre[BOARD.index[p]]] == [
        "italia",
        "sicilia",
        "creta",
    ]


@pytest.mark.parametrize(
    ("province", "centres", "code"),
    [
        ("italia", ("italia",), "POWER_CENTRE_NOT_ALLOWED"),  # two in one province
        ("cisalpina", ("italia",), "POWER_CENTRE_NOT_ALLOWED"),  # land-adjacent
        ("cisalpina", ("noricum",), "POWER_CENTRE_NOT_ALLOWED"),  # a neutral's, adjacent
        ("epirus", (), "NOT_YOUR_TERRITORY"),
        ("raetia", (), "NOT_YOUR_TERRITORY"),  # a neutral's
        ("tyrrenum", (), "WRONG_KIND_OF_SPACE"),
    ],
)
def test_power_centres_never_share_or_border_a_province(
    province: str, centres: tuple[str, ...], code: str
) -> None:
    game = centre_position(pending=2, centres=centres)
    assert_rejected(game, 0, sa.PlacePowerCentre(province), code)
    legal = [f for f in game.legal_actions(0) if isinstance(f, LegalPlacePowerCentre)]
    assert province not in legal[0].provinces


# Twelve provinces no two of which border each other by land.
TWELVE = (*ISLANDS, "galicia", "baetica", "dacia", "arabia", "germania_inferior")


def test_at_most_twelve_power_centres_stand_on_the_board() -> None:
    game = centre_position(pending=1, centres=TWELVE)
    assert sum(game.power_centre) == 12
    assert_rejected(game, 0, sa.PlacePowerCentre("italia"), "POWER_CENTRE_NOT_ALLOWED")
    assert not [f for f in game.legal_actions(0) if isinstance(f, LegalPlacePowerCentre)]
    game = centre_position(pending=1, centres=TWELVE[:11])
    game.apply(0, sa.PlacePowerCentre("italia"))


def test_a_trireme_from_a_set_goes_on_a_sea_next_to_an_own_province() -> None:
    game = position(owned(0, "italia", "raetia"))
    game.pending_triremes = 2
    legal = [f for f in game.legal_actions(0) if isinstance(f, LegalPlaceTrireme)]
    assert legal == [LegalPlaceTrireme(("tyrrenum", "hadriaticum", "ionium"))]
    assert_rejected(game, 0, sa.PlaceTrireme("aegeum"), "NOT_ADJACENT")
    assert_rejected(game, 0, sa.PlaceTrireme("italia"), "WRONG_KIND_OF_SPACE")
    assert game.apply(0, sa.PlaceTrireme("ionium")) == [se.TriremesPlaced(0, "ionium", 1, None, 0)]
    game.apply(0, sa.PlaceTrireme("ionium"))
    assert fleet(game, "ionium") == [2, 0, 0]
    assert game.pending_triremes == 0
    assert_rejected(game, 0, sa.PlaceTrireme("ionium"), "WRONG_PHASE")  # none left


def test_rewards_may_be_placed_until_the_naval_move() -> None:
    game = position(owned(0, "italia", "creta"), {"italia": 5}, triremes={"ionium": {0: 1}})
    game.pending_triremes = game.pending_power_centres = 1
    game.apply(0, sa.BuildTrireme("italia", "tyrrenum"))  # the naval reinforcements
    game.apply(0, sa.PlaceTrireme("tyrrenum"))
    game.apply(0, sa.MoveFleet("ionium", "aegeum", 1))
    assert_rejected(game, 0, sa.PlacePowerCentre("creta"), "WRONG_PHASE")


def test_rewards_not_placed_are_forfeited_at_the_end_of_the_turn() -> None:
    game = position({**owned(0, "italia"), **owned(1, "creta")})
    game.pending_triremes, game.pending_power_centres = 2, 1
    events = game.apply(0, a.EndTurn())
    assert events[:2] == [se.RewardsForfeited(0, 2, 1), e.TurnEnded(0)]
    assert (game.pending_triremes, game.pending_power_centres) == (0, 0)
    assert game.current == 1
    assert not [f for f in game.legal_actions(1) if isinstance(f, LegalPlaceTrireme)]


def test_nothing_is_forfeited_when_every_reward_was_placed() -> None:
    game = position({**owned(0, "italia"), **owned(1, "creta")})
    game.pending_triremes = 1
    game.apply(0, sa.PlaceTrireme("tyrrenum"))
    assert not events_of(game.apply(0, a.EndTurn()), se.RewardsForfeited)


# --------------------------------------------------------------------------- land attacks

LAND = {
    **owned(0, "cisalpina", "italia", "sicilia"),
    **owned(1, "narbonensis", "corsica", "creta"),
    **owned(2, "raetia", "sardinia"),
}
LAND_ARMIES = {"cisalpina": 6, "italia": 4, "sicilia": 5, "narbonensis": 3, "raetia": 2}


def land(**kwargs: int) -> SpqrGame:
    return position(LAND, {**LAND_ARMIES, **kwargs})


def test_sicilia_and_italia_are_never_adjacent() -> None:
    game = position({**owned(0, "sicilia"), **owned(1, "italia", "creta")}, {"sicilia": 5})
    assert_rejected(game, 0, a.Attack("sicilia", "italia", 3), "NOT_ADJACENT")
    assert_rejected(game, 0, a.AttackUntil("sicilia", "italia"), "NOT_ADJACENT")
    attacks = [f for f in game.legal_actions(0) if isinstance(f, LegalAttack | LegalAttackUntil)]
    assert attacks == []


@pytest.mark.parametrize("island", ISLANDS)
def test_an_island_borders_no_province_by_land(island: str) -> None:
    game = position({island: 0}, {island: 9}, others=1)
    assert BOARD.land_neighbours[BOARD.index[island]] == ()
    attacks = [f for f in game.legal_actions(0) if isinstance(f, LegalAttack | LegalAttackUntil)]
    assert attacks == []


def test_a_land_attack_is_between_land_neighbours(monkeypatch: pytest.MonkeyPatch) -> None:
    game = land()
    attacks = {(f.source, f.target) for f in game.legal_actions(0) if isinstance(f, LegalAttack)}
    assert attacks == {
        ("cisalpina", target)
        for target in ("lugdunense", "narbonensis", "raetia", "noricum", "illiria")
    }
    assert_rejected(game, 0, a.Attack("italia", "narbonensis", 1), "NOT_ADJACENT")
    assert_rejected(game, 0, a.Attack("cisalpina", "italia", 1), "OWN_TERRITORY")
    assert_rejected(game, 0, a.Attack("cisalpina", "tyrrenum", 1), "WRONG_KIND_OF_SPACE")
    force_dice(monkeypatch, 3, 2, 1, 6, 6, 6)
    events = game.apply(0, a.Attack("cisalpina", "narbonensis", 3))
    assert the(events, e.DiceRolled) == e.DiceRolled(
        0, "cisalpina", "narbonensis", (3, 2, 1), (6, 6, 6), 3, 0
    )


@pytest.mark.parametrize(("defenders", "dice"), [(1, 1), (2, 2), (3, 3), (7, 3)])
@pytest.mark.parametrize("defender", ["narbonensis", "noricum"], ids=["player", "neutral"])
def test_the_defender_always_rolls_the_most_dice(
    monkeypatch: pytest.MonkeyPatch, defender: str, defenders: int, dice: int
) -> None:
    game = land(**{defender: defenders})
    force_dice(monkeypatch, 1, *[6] * dice)
    events = game.apply(0, a.Attack("cisalpina", defender, 1))
    assert the(events, e.DiceRolled).defender_dice == (6,) * dice
    assert game.seat_to_act == 0  # nobody else is asked anything
    assert game.phase is Phase.ATTACK


def test_a_neutral_province_is_conquered_like_any_other(monkeypatch: pytest.MonkeyPatch) -> None:
    game = land(noricum=2)
    force_dice(monkeypatch, 6, 6, 5, 1, 1)
    events = game.apply(0, a.Attack("cisalpina", "noricum", 3))
    assert the(events, e.TerritoryConquered) == e.TerritoryConquered(
        0, "cisalpina", "noricum", -1, 3, 4
    )
    assert owner_of(game, "noricum") == 0
    assert game.territory_count == [4, 3, 2]


def test_a_neutral_province_can_be_attacked_in_the_first_round() -> None:
    owners = {**owned(0, "italia"), **owned(1, "creta"), "cisalpina": NEUTRAL}
    game = position(owners, {"italia": 3}, round=1, others=OTHER_NEUTRAL)
    assert [owner_of(game, p) for p in PROVINCES].count(NEUTRAL) == 1  # its colour's last
    game.apply(0, a.Attack("italia", "cisalpina", 2))


# --------------------------------------------------------------------------- garrisons


def test_at_least_one_legionary_always_stays() -> None:
    game = land(cisalpina=1, italia=3)
    assert_rejected(game, 0, a.Attack("cisalpina", "narbonensis", 1), "NOT_ENOUGH_ARMIES")
    game = land(cisalpina=3)
    assert_rejected(game, 0, a.Attack("cisalpina", "narbonensis", 3), "INVALID_DICE")
    game.apply(0, a.Attack("cisalpina", "narbonensis", 2))


def conquer(monkeypatch: pytest.MonkeyPatch, game: SpqrGame, source: str, target: str) -> None:
    """Take `target` (one defender) with three dice."""
    force_dice(monkeypatch, 6, 6, 6, 1)
    game.apply(0, a.Attack(source, target, 3))
    assert owner_of(game, target) == 0


def test_moving_in_beyond_the_dice_keeps_two_on_a_border(monkeypatch: pytest.MonkeyPatch) -> None:
    game = land(narbonensis=1)
    conquer(monkeypatch, game, "cisalpina", "narbonensis")
    assert game.phase is Phase.OCCUPY
    assert game.pending_conquest == (BOARD.index["cisalpina"], BOARD.index["narbonensis"], 3, 4)
    assert_rejected(game, 0, a.Occupy(5), "MINIMUM_GARRISON")
    assert_rejected(game, 0, a.Occupy(2), "INVALID_ARMY_COUNT")
    game.apply(0, a.Occupy(4))
    assert (armies_on(game, "cisalpina"), armies_on(game, "narbonensis")) == (2, 4)


def test_moving_in_from_a_province_with_no_enemy_around_may_leave_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = position({**owned(0, "italia"), **owned(1, "cisalpina", "creta")}, {"italia": 6})
    conquer(monkeypatch, game, "italia", "cisalpina")  # italia's only neighbour
    game.apply(0, a.Occupy(5))
    assert (armies_on(game, "italia"), armies_on(game, "cisalpina")) == (1, 5)


# --------------------------------------------------------------------------- strategic move

IBERIA = {**owned(0, "galicia", "lusitania", "italia"), **owned(1, "creta")}


def test_the_strategic_move_joins_land_neighbours_and_ends_the_turn() -> None:
    game = position(IBERIA, {"galicia": 5})
    legal = [f for f in game.legal_actions(0) if isinstance(f, LegalStrategicMove)]
    assert legal == [LegalStrategicMove("galicia", "lusitania", 1, 3)]
    assert_rejected(game, 0, a.StrategicMove("galicia", "italia", 1), "NOT_ADJACENT")
    assert_rejected(game, 0, a.StrategicMove("galicia", "terraconensis", 1), "NOT_YOUR_TERRITORY")
    assert_rejected(game, 0, a.StrategicMove("galicia", "lusitania", 4), "MINIMUM_GARRISON")
    events = game.apply(0, a.StrategicMove("galicia", "lusitania", 3))
    assert events[0] == e.ArmiesMoved(0, "galicia", "lusitania", 3, True)
    assert e.TurnEnded(0) in events
    assert the(events, e.TurnStarted).seat == 1
    assert (armies_on(game, "galicia"), armies_on(game, "lusitania")) == (2, 4)


def test_the_strategic_move_may_empty_a_province_to_one_away_from_enemies() -> None:
    owners = {**IBERIA, **owned(0, "terraconensis")}  # galicia has no enemy neighbour now
    game = position(owners, {"galicia": 5})
    game.apply(0, a.StrategicMove("galicia", "lusitania", 4))
    assert armies_on(game, "galicia") == 1


def test_the_strategic_move_waits_for_the_reinforcements() -> None:
    game = position(IBERIA, {"galicia": 5}, pending=2)
    assert_rejected(game, 0, a.StrategicMove("galicia", "lusitania", 1), "REINFORCEMENTS_PENDING")
    assert_rejected(game, 0, a.EndTurn(), "REINFORCEMENTS_PENDING")


# --------------------------------------------------------------------------- the card


def test_a_conquest_earns_one_card_drawn_at_the_end_of_the_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = land(cisalpina=9, narbonensis=1, raetia=1)
    conquer(monkeypatch, game, "cisalpina", "narbonensis")
    game.apply(0, a.Occupy(3))
    conquer(monkeypatch, game, "cisalpina", "raetia")
    game.apply(0, a.Occupy(3))
    top = game.deck[-1]
    events = game.apply(0, a.EndTurn())
    assert events[:3] == [e.CardDrawn(0, 1), e.CardsReceived(0, (top,)), e.TurnEnded(0)]
    assert game.hands[0] == [top]
    assert game.current == 1


def test_drawing_the_card_ends_the_turn_after_a_strategic_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = land(narbonensis=1)
    conquer(monkeypatch, game, "cisalpina", "narbonensis")
    game.apply(0, a.Occupy(3))
    events = game.apply(0, a.StrategicMove("cisalpina", "italia", 1))
    kinds = [type(event) for event in events]
    assert kinds[:4] == [e.ArmiesMoved, e.CardDrawn, e.CardsReceived, e.TurnEnded]
    assert len(game.hands[0]) == 1


def test_no_conquest_no_card(monkeypatch: pytest.MonkeyPatch) -> None:
    game = land()
    force_dice(monkeypatch, 1, 6, 6, 6)
    game.apply(0, a.Attack("cisalpina", "narbonensis", 1))
    events = game.apply(0, a.EndTurn())
    assert not events_of(events, e.CardDrawn)
    assert game.hands[0] == []


# --------------------------------------------------------------------------- protection


@pytest.mark.parametrize("round", [1, 4])
def test_no_player_loses_their_last_province_in_the_first_four_rounds(round: int) -> None:
    owners = {**owned(0, "cisalpina", "sicilia"), **owned(1, "italia"), **owned(2, "creta")}
    game = position(
        owners, {"cisalpina": 6, "sicilia": 6}, triremes={"tyrrenum": {0: 2}}, round=round
    )
    assert_rejected(game, 0, a.Attack("cisalpina", "italia", 3), "ELIMINATION_TOO_EARLY")
    assert_rejected(game, 0, a.AttackUntil("cisalpina", "italia"), "ELIMINATION_TOO_EARLY")
    assert_rejected(
        game, 0, sa.SeaAttack("sicilia", "italia", "tyrrenum", 3), "ELIMINATION_TOO_EARLY"
    )
    targets = {
        f.target
        for f in game.legal_actions(0)
        if isinstance(f, LegalAttack | LegalAttackUntil | LegalSeaAttack)
    }
    assert "italia" not in targets
    assert not game.may_attack(BOARD.index["cisalpina"], BOARD.index["italia"])


def test_after_round_four_a_player_can_be_eliminated(monkeypatch: pytest.MonkeyPatch) -> None:
    owners = {**owned(0, "cisalpina", "sicilia"), **owned(1, "italia"), **owned(2, "creta")}
    triremes = {"tyrrenum": {0: 2, 1: 1}, "ionium": {1: 2}}
    game = position(owners, {"cisalpina": 6}, triremes=triremes, round=5, hands={1: ["arena_01"]})
    assert game.may_attack(BOARD.index["cisalpina"], BOARD.index["italia"])
    force_dice(monkeypatch, 6, 1)
    events = game.apply(0, a.Attack("cisalpina", "italia", 1))
    assert e.PlayerEliminated(1, 0, 1) in events
    assert se.TriremesSunk(1, 3) in events
    assert game.eliminated[1]
    assert game.hands == [["arena_01"], [], []]
    assert fleet(game, "tyrrenum") == [2, 0, 0]
    assert fleet(game, "ionium") == [0, 0, 0]
    game.apply(0, a.Occupy(1))
    game.apply(0, a.EndTurn())
    assert game.current == 2  # seat 1 is skipped


def test_the_last_player_standing_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position({**owned(0, "cisalpina"), **owned(1, "italia")}, {"cisalpina": 4})
    force_dice(monkeypatch, 6, 1)
    events = game.apply(0, a.Attack("cisalpina", "italia", 1))
    ended = the(events, e.GameEnded)
    assert (ended.winner, ended.reason) == (0, "last_player")


# --------------------------------------------------------------------------- the order of steps


@pytest.mark.parametrize(
    "action",
    [
        a.PlaceArmies("italia", 1),
        a.TradeCards(tuple(cards("legionario", 3))),
        sa.DisbandTrireme("tyrrenum", "italia"),
        sa.BuildTrireme("italia", "tyrrenum"),
        sa.MoveFleet("tyrrenum", "ionium", 1),
        sa.NavalBattle("tyrrenum", 1, 1),
        sa.SeaAttack("sicilia", "corsica", "tyrrenum", 1),
    ],
    ids=lambda action: action.kind,
)
def test_after_a_land_attack_no_earlier_step_comes_back(
    monkeypatch: pytest.MonkeyPatch, action: a.Action
) -> None:
    game = position(
        LAND,
        LAND_ARMIES,
        triremes={"tyrrenum": {0: 3, 1: 1}},
        hands={0: cards("legionario", 3)},
    )
    force_dice(monkeypatch, 1, 6, 6, 6)
    game.apply(0, a.Attack("cisalpina", "narbonensis", 1))
    assert game.phase is Phase.ATTACK
    assert_rejected(game, 0, action, "WRONG_PHASE")
