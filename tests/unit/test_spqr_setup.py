"""Rule tests for the start of S.P.Q.RisiKo! (seed 001, sections 3 and 17; game-data.md 2.5
and 2.6): the options, the neutral armies, the initial occupation and the deck. Each test
fails if its rule is broken."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields

import pytest

from domain import actions as a
from domain import events as e
from domain.errors import InvalidOptions
from domain.flow import Phase
from domain.risiko.defence import DefenderDice
from tests.spqr_support import (
    BOARD,
    FREE,
    NEUTRAL,
    OTHER_NEUTRAL,
    PROVINCES,
    RULESET,
    SEAS,
    SPQR,
    armies_on,
    free_provinces,
    new_spqr_game,
    owner_of,
    play_occupation,
)
from tests.support import assert_rejected
from variants.classic.options import ClassicOptions
from variants.spqr import actions as sa
from variants.spqr import events as se
from variants.spqr.game import SpqrGame
from variants.spqr.legal import LegalClaimProvince, LegalPlaceNeutral
from variants.spqr.options import SpqrOptions

COLOURS = ("blu", "rosso", "giallo", "verde", "nero")

# --------------------------------------------------------------------------- options


def test_the_default_target_is_20_victory_points() -> None:
    game = new_spqr_game()
    assert game.options.victory_points == 20
    assert not game.defenders_declare()  # the defender always rolls the most: a rule
    assert game._keeps_garrison()  # the garrison of 2: a rule
    assert game.options.protected_rounds == 4


def test_a_game_without_a_victory_point_target_needs_a_time_or_round_limit() -> None:
    with pytest.raises(InvalidOptions):
        SpqrOptions(victory_points=None)
    assert SpqrOptions(victory_points=None, round_limit=10).round_limit == 10
    assert SpqrOptions(victory_points=None, time_limit_minutes=90).time_limit_minutes == 90


@pytest.mark.parametrize("target", [0, -1])
def test_a_victory_point_target_is_at_least_one(target: int) -> None:
    with pytest.raises(InvalidOptions):
        SpqrOptions(victory_points=target)


def test_the_defender_cannot_be_made_to_declare_its_dice() -> None:
    with pytest.raises(InvalidOptions):
        SPQR.options({"defender_dice": DefenderDice.DECLARE.value})
    assert "defender_dice" not in {f.name for f in fields(SpqrOptions)}  # no such option


def test_the_garrison_of_two_cannot_be_turned_off() -> None:
    with pytest.raises(InvalidOptions):
        SPQR.options({"minimum_garrison": False})
    assert "minimum_garrison" not in {f.name for f in fields(SpqrOptions)}


def test_classic_options_are_refused() -> None:
    with pytest.raises(InvalidOptions):
        SPQR.new_game(["a", "b", "c"], ClassicOptions(minimum_garrison=True), seed=b"x")


@pytest.mark.parametrize("players", [1, 2, 6])
def test_a_game_needs_three_to_five_players(players: int) -> None:
    with pytest.raises(InvalidOptions):
        new_spqr_game(players)


def test_a_classic_only_action_is_not_an_action_of_this_game() -> None:
    game = new_spqr_game()
    assert_rejected(game, game.current, a.Defend(1), "INVALID_ACTION")


# --------------------------------------------------------------------------- neutral armies


def test_three_players_have_two_neutral_colours_of_nine_groups() -> None:
    game = new_spqr_game(3)
    assert game.neutral_colours == ("verde", "nero")
    assert game.neutral_groups == [9, 9]
    assert all(owner == FREE for owner in game.owner)
    assert not [ev for ev in game.initial_events if isinstance(ev, se.NeutralPlaced)]


def test_four_players_have_one_neutral_colour_with_three_on_italia_and_eight_groups() -> None:
    game = new_spqr_game(4)
    assert game.neutral_colours == ("nero",)
    assert game.neutral_groups == [8]
    assert (owner_of(game, "italia"), armies_on(game, "italia")) == (NEUTRAL, 3)
    assert game.owner_colour(BOARD.index["italia"]) == "nero"
    placed = [ev for ev in game.initial_events if isinstance(ev, se.NeutralPlaced)]
    assert placed == [se.NeutralPlaced(-1, "italia", "nero", 3)]
    assert len(free_provinces(game)) == 44


def test_five_players_have_no_neutral_army() -> None:
    game = new_spqr_game(5)
    assert game.neutral_colours == ()
    assert game.neutral_groups == []
    assert len(free_provinces(game)) == 45
    legal = game.legal_actions(game.current)
    assert [type(family) for family in legal] == [LegalClaimProvince]


def test_the_neutral_colours_are_the_colours_nobody_plays() -> None:
    game = SPQR.new_game(["a", "b", "c"], seed=b"colours", colours=["nero", "blu", "verde"])
    assert isinstance(game, SpqrGame)
    assert game.neutral_colours == ("rosso", "giallo")


def test_neutrals_have_no_seat_and_never_play() -> None:
    game = new_spqr_game(4)
    assert len(game.turn_order) == 4
    assert sorted(game.turn_order) == [0, 1, 2, 3]
    play_occupation(game)
    assert game.seat_to_act in range(4)
    assert len(game.victory_points) == 4


# --------------------------------------------------------------------------- occupation turns


def test_a_setup_turn_claims_a_province_then_places_a_neutral_group() -> None:
    game = new_spqr_game(3)
    first = game.current
    events = game.apply(first, sa.ClaimProvince("italia"))
    assert events == [se.ProvinceClaimed(first, "italia", 2)]
    assert (owner_of(game, "italia"), armies_on(game, "italia")) == (first, 2)
    assert game.current == first  # the neutral group is still due
    assert [type(f) for f in game.legal_actions(first)] == [LegalPlaceNeutral]
    assert_rejected(game, first, sa.ClaimProvince("sicilia"), "ONCE_PER_TURN")
    events = game.apply(first, sa.PlaceNeutral("sicilia", "nero"))
    assert events[0] == se.NeutralPlaced(first, "sicilia", "nero", 3)
    assert (owner_of(game, "sicilia"), armies_on(game, "sicilia")) == (OTHER_NEUTRAL, 3)
    assert game.neutral_groups == [9, 8]
    order = game.turn_order
    assert game.current == order[(order.index(first) + 1) % 3]


def test_a_setup_turn_may_place_the_neutral_group_first() -> None:
    game = new_spqr_game(3)
    first = game.current
    game.apply(first, sa.PlaceNeutral("italia", "verde"))
    assert game.current == first
    assert [type(f) for f in game.legal_actions(first)] == [LegalClaimProvince]
    assert_rejected(game, first, sa.PlaceNeutral("sicilia", "verde"), "ONCE_PER_TURN")
    game.apply(first, sa.ClaimProvince("sicilia"))
    assert game.current != first
    assert game.neutral_groups == [8, 9]


def test_both_occupation_actions_are_offered_at_the_start_of_a_setup_turn() -> None:
    game = new_spqr_game(3)
    legal = game.legal_actions(game.current)
    claim = next(f for f in legal if isinstance(f, LegalClaimProvince))
    neutral = next(f for f in legal if isinstance(f, LegalPlaceNeutral))
    assert claim.provinces == neutral.provinces == PROVINCES
    assert neutral.colours == ("verde", "nero")
    for seat in range(3):
        if seat != game.current:
            assert game.legal_actions(seat) == []


def test_setup_turns_follow_the_turn_order() -> None:
    game = new_spqr_game(4)
    order = game.turn_order
    seen: list[int] = []
    while game.phase is Phase.SETUP and len(seen) < 12:
        seat = game.current
        seen.append(seat)
        game.apply(seat, sa.ClaimProvince(free_provinces(game)[0]))
        if game.current == seat:
            game.apply(seat, sa.PlaceNeutral(free_provinces(game)[0], "nero"))
    assert seen == [*order, *order, *order]


def test_once_the_neutral_groups_are_gone_a_setup_turn_is_one_claim() -> None:
    game = new_spqr_game(4)
    while sum(game.neutral_groups):
        seat = game.current
        game.apply(seat, sa.PlaceNeutral(free_provinces(game)[0], "nero"))
        game.apply(seat, sa.ClaimProvince(free_provinces(game)[0]))
    seat = game.current
    assert [type(f) for f in game.legal_actions(seat)] == [LegalClaimProvince]
    assert_rejected(game, seat, sa.PlaceNeutral(free_provinces(game)[0], "nero"), "ONCE_PER_TURN")
    game.apply(seat, sa.ClaimProvince(free_provinces(game)[0]))
    assert game.current != seat


def test_a_neutral_colour_without_groups_left_is_refused() -> None:
    game = new_spqr_game(3)
    for _ in range(9):
        seat = game.current
        game.apply(seat, sa.PlaceNeutral(free_provinces(game)[0], "verde"))
        game.apply(seat, sa.ClaimProvince(free_provinces(game)[0]))
    assert game.neutral_groups == [0, 9]
    seat = game.current
    neutral = next(f for f in game.legal_actions(seat) if isinstance(f, LegalPlaceNeutral))
    assert neutral.colours == ("nero",)
    assert_rejected(
        game, seat, sa.PlaceNeutral(free_provinces(game)[0], "verde"), "INVALID_ARMY_COUNT"
    )


@pytest.mark.parametrize("colour", ["blu", "rosso", "giallo", "viola"])
def test_only_a_neutral_colour_can_be_placed_as_neutral(colour: str) -> None:
    game = new_spqr_game(3)
    assert_rejected(game, game.current, sa.PlaceNeutral("italia", colour), "INVALID_ACTION")


def test_an_occupied_province_or_a_sea_cannot_be_claimed() -> None:
    game = new_spqr_game(4)
    seat = game.current
    assert_rejected(game, seat, sa.ClaimProvince("italia"), "OWN_TERRITORY")  # the neutrals'
    assert_rejected(game, seat, sa.PlaceNeutral("italia", "nero"), "OWN_TERRITORY")
    assert_rejected(game, seat, sa.ClaimProvince("tyrrenum"), "WRONG_KIND_OF_SPACE")
    assert_rejected(game, seat, sa.PlaceNeutral("ionium", "nero"), "WRONG_KIND_OF_SPACE")
    assert_rejected(game, seat, sa.ClaimProvince("atlantide"), "UNKNOWN_TERRITORY")
    game.apply(seat, sa.ClaimProvince("sicilia"))
    game.apply(seat, sa.PlaceNeutral("creta", "nero"))
    other = game.current
    assert_rejected(game, other, sa.ClaimProvince("sicilia"), "OWN_TERRITORY")
    assert_rejected(game, other, sa.ClaimProvince("creta"), "OWN_TERRITORY")
    assert_rejected(game, other, sa.PlaceNeutral("sicilia", "nero"), "OWN_TERRITORY")


@pytest.mark.parametrize(
    "action",
    [
        a.TradeCards(("legionario_01", "legionario_02", "legionario_03")),
        a.EndTurn(),
        a.Attack("sicilia", "italia", 1),
        a.StrategicMove("sicilia", "creta", 1),
        sa.BuildTrireme("sicilia", "tyrrenum"),
        sa.PlacePowerCentre("sicilia"),
        sa.PlaceTrireme("tyrrenum"),
        sa.MoveFleet("tyrrenum", "ionium", 1),
        sa.SeaAttack("sicilia", "italia", "tyrrenum", 1),
    ],
    ids=lambda action: action.kind,
)
def test_only_claims_and_neutral_groups_are_played_during_the_occupation(
    action: a.Action,
) -> None:
    game = new_spqr_game(3)
    seat = game.current
    game.apply(seat, sa.ClaimProvince("italia"))
    game.apply(seat, sa.PlaceNeutral("cisalpina", "verde"))
    following = game.current
    game.apply(following, sa.ClaimProvince("sicilia"))  # its own province, with 2 legionaries
    assert_rejected(game, following, action, "WRONG_PHASE")


def test_placing_armies_is_refused_during_the_occupation() -> None:
    game = new_spqr_game(3)
    seat = game.current
    game.apply(seat, sa.ClaimProvince("italia"))
    game.apply(seat, sa.PlaceNeutral("cisalpina", "verde"))
    following = game.current
    game.apply(following, sa.ClaimProvince("sicilia"))
    assert_rejected(game, following, a.PlaceArmies("sicilia", 1), "WRONG_PHASE")


def test_only_the_seat_in_turn_occupies() -> None:
    game = new_spqr_game(3)
    other = (game.current + 1) % 3
    assert_rejected(game, other, sa.ClaimProvince("italia"), "NOT_YOUR_TURN")
    assert_rejected(game, None, sa.PlaceNeutral("italia", "verde"), "NOT_YOUR_TURN")
    assert game.legal_actions(other) == []


# --------------------------------------------------------------------------- the end of it


@pytest.mark.parametrize("players", [3, 4, 5])
def test_after_the_occupation_everyone_holds_nine_provinces_of_two(players: int) -> None:
    game = new_spqr_game(players, seed=f"occupation-{players}".encode())
    events = play_occupation(game)
    claimed = [ev for ev in events if isinstance(ev, se.ProvinceClaimed)]
    assert len(claimed) == 9 * players
    assert game.territory_count == [9] * players
    neutral_provinces = 0
    for province in PROVINCES:
        owner = owner_of(game, province)
        if owner >= 0:
            assert armies_on(game, province) == 2
        else:
            assert owner <= NEUTRAL  # nothing free
            assert armies_on(game, province) == 3
            neutral_provinces += 1
    assert neutral_provinces == 45 - 9 * players == {3: 18, 4: 9, 5: 0}[players]
    assert game.neutral_groups == [0] * game.neutral_count
    for sea in SEAS:
        index = BOARD.index[sea]
        assert game.owner[index] == FREE
        assert game.armies[index] == 0
        assert game.triremes[index] == [0] * players
    assert game.power_centre == [0] * len(BOARD.territories)
    assert game.phase is Phase.REINFORCE
    assert game.round == 1
    assert game.current == game.first_player
    assert game.pending_reinforcements == 3  # nine provinces


@pytest.mark.parametrize("players", [3, 4, 5])
def test_after_the_occupation_the_deck_holds_the_55_cards(players: int) -> None:
    game = new_spqr_game(players)
    assert game.deck == []
    events = play_occupation(game)
    assert e.DeckShuffled(55, False) in events
    assert len(game.deck) == 55
    assert sorted(game.deck) == sorted(RULESET.cards.cards)
    symbols = Counter(RULESET.cards.cards[card].symbol for card in game.deck)
    assert symbols == {"legionario": 25, "vessillo": 15, "trireme": 10, "arena": 5}
    assert game.hands == [[] for _ in range(players)]
    assert game.deck not in (sorted(game.deck), list(RULESET.cards.cards))  # shuffled
    other = new_spqr_game(players, seed=b"another seed")
    play_occupation(other)
    assert other.deck != game.deck


def test_a_player_who_resigns_during_the_occupation_has_their_provinces_claimed() -> None:
    game = new_spqr_game(3, seed=b"resign-occupation")
    leaver = game.turn_order[1]
    game.apply(game.current, sa.ClaimProvince("italia"))
    game.apply(game.current, sa.PlaceNeutral("sicilia", "verde"))
    assert game.current == leaver
    game.apply(leaver, sa.ClaimProvince("creta"))
    events = game.apply(leaver, a.Resign())
    claimed = [ev.province for ev in events if isinstance(ev, se.ProvinceClaimed)]
    expected = [p for p in PROVINCES if p not in {"italia", "sicilia", "creta"}][:8]
    assert claimed == expected
    assert game.territory_count[leaver] == 9
    assert game.resigned[leaver]
    play_occupation(game)
    assert all(owner_of(game, p) != FREE for p in PROVINCES)
    assert game.territory_count == [9, 9, 9]
    assert game.current != leaver
