"""RisiKo! Più's rules (seed 003; the choices in docs/piu.md), one test per rule, on hand-made
positions (tests/piu_support.py). Each test fails if its rule breaks."""

from __future__ import annotations

import functools
import itertools
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from domain import actions as a
from domain import events as e
from domain.errors import RuleViolation
from domain.flow import Phase
from domain.legal import LegalAttack, LegalAttackUntil, LegalDefend
from domain.odds import battle_odds
from domain.odds.pairwise import roll_outcomes
from domain.risiko.defence import DefenderDice
from domain.views import Prompt
from tests.piu_support import (
    BOARD,
    LANDS,
    RULESET,
    armies_on,
    cards,
    events_of,
    families,
    new_piu_game,
    owner_of,
    position,
    region_owned_by,
    the,
)
from tests.support import assert_rejected, force_dice
from variants.piu import actions as pa
from variants.piu import events as pe
from variants.piu.game import PiuGame, PiuState
from variants.piu.legal import (
    LegalAdmiralAttack,
    LegalDiscardSpiedCard,
    LegalPlayDiplomat,
    LegalPlayGeneral,
    LegalPlayRinforzi,
    LegalRevealHiddenArmies,
    LegalStandingOrders,
)
from variants.piu.options import PiuOptions
from variants.piu.phases import PiuPhase

# --------------------------------------------------------------------------- the setup


def first_free(game: PiuGame) -> str:
    return next(t for t in LANDS if owner_of(game, t) == -1)


def play_setup(game: PiuGame, until: str = "") -> PiuGame:
    """Play the setup's steps with the first allowed choice, until `until` begins."""
    while game.phase is Phase.SETUP and game.setup_step != until:
        seat = game.current
        game.apply(seat, game.legal_actions(seat)[0].ready())
    return game


def test_each_player_draws_an_empire_with_one_army_on_each_of_its_territories() -> None:
    game = new_piu_game(4, seed=b"deal")
    drawn = the(game.initial_events, pe.EmpiresDrawn)
    assert len(set(drawn.empires)) == 4
    empires = {BOARD.regions[r].id for r in RULESET.empires}
    assert set(drawn.empires) <= empires
    held = set()
    for seat, empire in enumerate(drawn.empires):
        for territory in BOARD.region(empire).territories:
            assert (owner_of(game, territory), armies_on(game, territory)) == (seat, 1)
            held.add(territory)
        assert game.setup_remaining[seat] == 30 - len(BOARD.region(empire).territories)
    for territory in set(LANDS) - held:
        assert (owner_of(game, territory), armies_on(game, territory)) == (-1, 0)
    assert drawn.owners == tuple(game.owner)
    assert (game.setup_step, game.current) == ("fortress", game.first_player)


@pytest.mark.parametrize(("players", "armies"), [(3, 35), (4, 30), (5, 25), (6, 20)])
def test_starting_armies_are_castle_risks_or_the_option(players: int, armies: int) -> None:
    assert the(new_piu_game(players).initial_events, pe.EmpiresDrawn).starting_armies == armies
    chosen = new_piu_game(players, starting_armies=40)
    assert the(chosen.initial_events, pe.EmpiresDrawn).starting_armies == 40


def test_the_fortress_goes_on_a_territory_of_the_own_empire() -> None:
    game = new_piu_game(4, seed=b"fortress")
    seat = game.current
    own = BOARD.region(BOARD.regions[game.empire[seat]].id).territories
    other = BOARD.regions[game.empire[(seat + 1) % 4]].territories[0]
    assert_rejected(game, seat, pa.ChooseFortress(other), "NOT_YOUR_TERRITORY")
    assert_rejected(game, seat, pa.ChooseFortress("mar_nero"), "WRONG_KIND_OF_SPACE")
    assert_rejected(game, seat, pa.ClaimTerritory(first_free(game)), "WRONG_PHASE")
    assert_rejected(game, (seat + 1) % 4, pa.ChooseFortress(own[0]), "NOT_YOUR_TURN")
    events = game.apply(seat, pa.ChooseFortress(own[-1]))
    assert the(events, pe.FortressPlaced) == pe.FortressPlaced(seat, own[-1])
    assert game.current == game.turn_order[1]


def test_free_territories_are_claimed_one_army_at_a_time_then_the_rest_five_at_a_time() -> None:
    game = play_setup(new_piu_game(4, seed=b"claim"), until="claim")
    order = game.turn_order
    assert game.current == order[0]
    free = first_free(game)
    game.apply(order[0], pa.ClaimTerritory(free))
    assert (owner_of(game, free), armies_on(game, free)) == (order[0], 1)
    assert game.current == order[1]
    assert_rejected(game, order[1], pa.ClaimTerritory(free), "OWN_TERRITORY")
    assert_rejected(game, order[1], a.PlaceArmies(free, 1), "WRONG_PHASE")
    game = play_setup(game, until="place")
    assert all(owner_of(game, t) >= 0 for t in LANDS)
    seat = game.current
    assert game.setup_quota == min(5, game.setup_remaining[seat])
    own = next(t for t in LANDS if owner_of(game, t) == seat)
    assert_rejected(game, seat, a.PlaceArmies(own, game.setup_quota + 1), "INVALID_ARMY_COUNT")


def test_every_territory_is_taken_even_when_a_player_leaves_during_the_setup() -> None:
    """With 15 armies each, 3 players have one army to spare for the free territories; one
    leaving, the two others claim what is left beyond their own armies."""
    game = new_piu_game(3, seed=b"leave", starting_armies=15)
    game.apply(game.current, a.Resign())
    play_setup(game)
    assert all(owner_of(game, t) >= 0 and armies_on(game, t) >= 1 for t in LANDS)
    assert game.phase is not Phase.SETUP


def test_the_hidden_territory_is_written_secretly_and_never_on_a_fortress() -> None:
    game = play_setup(new_piu_game(3, seed=b"hidden"), until="hidden")
    seat = game.current
    fortress = BOARD.territories[game.fortress[(seat + 1) % 3]].id
    assert_rejected(game, seat, pa.WriteHiddenTerritory(fortress), "INVALID_ACTION")
    fortresses = {BOARD.territories[t].id for t in game.fortress}
    foreign = next(t for t in LANDS if owner_of(game, t) != seat and t not in fortresses)
    events = game.apply(seat, pa.WriteHiddenTerritory(foreign))  # any territory but a fortress
    chosen = the(events, pe.HiddenTerritoryChosen)
    assert chosen.visible_to == seat
    assert [chosen.is_visible_to(viewer) for viewer in (0, 1, 2, None)] == [
        viewer == seat for viewer in (0, 1, 2, None)
    ]
    assert the(events, pe.HiddenTerritoryWritten).visible_to is None
    assert dict(game.private_state(seat))["hidden_territory"] == foreign
    assert dict(game.private_state((seat + 1) % 3))["hidden_territory"] == ""


def test_after_the_setup_each_player_holds_three_cards_and_the_first_player_starts() -> None:
    game = play_setup(new_piu_game(5, seed=b"start"))
    assert [len(hand) for hand in game.hands] == [3] * 5
    assert len(game.deck) == 48 - 15
    assert (game.round, game.current) == (1, game.first_player)
    assert game.phase in (Phase.REINFORCE, PiuPhase.CARDS)


# --------------------------------------------------------------------------- reinforcements


def test_reinforcements_count_enemy_banners_whole_empires_and_blocks() -> None:
    game = position(region_owned_by(0, "britannico", "francese", "spagna"), players=4)
    game.banners[0] = [0, 2]
    total, _, sources = game.reinforcements_for(0)
    assert dict(sources) == {"britannico": 6, "francese": 6, "spagna": 4, "banners": 2}
    assert total == 18


def test_all_three_independent_blocks_give_15_instead_of_their_12() -> None:
    game = position(region_owned_by(0, "scandinavia", "spagna", "italia"))
    assert game.reinforcements_for(0) == (15, 0, (("all_three_blocks", 15),))


def end_turn(game: PiuGame) -> list[e.Event]:
    """The seat in turn places what it must and ends its turn."""
    seat = game.current
    events: list[e.Event] = []
    while game.pending_reinforcements:
        own = next(t for t in LANDS if owner_of(game, t) == seat)
        events += game.apply(seat, a.PlaceArmies(own, game.pending_reinforcements))
    return events + game.apply(seat, a.EndTurn())


def test_without_reinforcements_the_hand_is_drawn_at_once() -> None:
    game = position({"londra": 0, "parigi": 1}, players=3, current=2, hands={0: ["spia_01"]})
    events = end_turn(game)
    started = the(events, e.TurnStarted)
    assert (started.seat, started.reinforcements) == (0, 0)
    assert game.phase is PiuPhase.CARDS
    assert len(game.hands[0]) == 3
    assert len(events_of(events, e.CardDrawn)) == 2


def test_the_hand_is_drawn_up_to_three_once_the_reinforcements_are_placed() -> None:
    owners = region_owned_by(0, "britannico")
    game = position(owners, players=3, current=2, hands={0: ["spia_01"]})
    end_turn(game)
    assert (game.phase, game.pending_reinforcements, len(game.hands[0])) == (Phase.REINFORCE, 6, 1)
    assert_rejected(game, 0, pa.PlaySpy("spia_01", 1), "WRONG_PHASE")
    assert_rejected(game, 0, a.Attack("londra", "parigi", 1), "REINFORCEMENTS_PENDING")
    game.apply(0, a.PlaceArmies("londra", 4))
    assert len(game.hands[0]) == 1
    events = game.apply(0, a.PlaceArmies("galles", 2))
    assert game.phase is PiuPhase.CARDS
    assert len(game.hands[0]) == 3
    received = events_of(events, e.CardsReceived)
    assert all(event.visible_to == 0 for event in received)


# --------------------------------------------------------------------------- cards


def test_the_rinforzi_track_is_shared_from_3_to_14_and_starts_again() -> None:
    game = position({"londra": 0}, hands={0: cards("rinforzi", 3)})
    values = []
    for card in cards("rinforzi", 2):
        values.append(the(game.apply(0, pa.PlayRinforzi(card)), pe.RinforziPlayed).armies)
    assert values == [3, 4]
    assert game.pending_reinforcements == 7
    assert_rejected(game, 0, a.Attack("londra", "parigi", 1), "REINFORCEMENTS_PENDING")
    game.rinforzi_played = 11
    assert families(game, LegalPlayRinforzi)[0].armies == 14
    played = the(game.apply(0, pa.PlayRinforzi("rinforzi_03")), pe.RinforziPlayed)
    assert (played.step, played.armies) == (12, 14)
    assert RULESET.rinforzi_value(game.rinforzi_played) == 3


def test_cards_of_the_cards_step_are_refused_after_an_attack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hand = ["rinforzi_01", "spia_01", "diplomatico_01"]
    game = position({"londra": 0, "parigi": 1}, {"londra": 9, "parigi": 5}, hands={0: hand})
    force_dice(monkeypatch, 1, 6, 6, 6)
    game.apply(0, a.Attack("londra", "parigi", 1))
    assert game.phase is Phase.ATTACK
    for action in (
        pa.PlayRinforzi("rinforzi_01"),
        pa.PlaySpy("spia_01", 1),
        pa.PlayDiplomat("diplomatico_01", 1),
    ):
        assert_rejected(game, 0, action, "WRONG_PHASE")


def test_a_card_must_be_in_the_hand_and_of_its_kind() -> None:
    game = position({"londra": 0}, hands={0: ["spia_01"]})
    assert_rejected(game, 0, pa.PlayRinforzi("rinforzi_01"), "CARD_NOT_IN_HAND")
    assert_rejected(game, 0, pa.PlayRinforzi("spia_01"), "INVALID_ACTION")


def test_a_spy_sees_the_hand_privately_and_discards_one_of_its_cards() -> None:
    game = position(
        {"londra": 0, "parigi": 1},
        {"londra": 5},
        hands={0: ["spia_01"], 1: ["generale_01", "rinforzi_01"]},
    )
    events = game.apply(0, pa.PlaySpy("spia_01", 1))
    report = the(events, pe.SpyReport)
    assert (report.player, report.cards) == (1, ("generale_01", "rinforzi_01"))
    assert [report.is_visible_to(v) for v in (0, 1, 2, 3, None)] == [True] + [False] * 4
    assert [type(f) for f in game.legal_actions(0)] == [LegalDiscardSpiedCard, LegalStandingOrders]
    assert_rejected(game, 0, a.Attack("londra", "parigi", 1), "WRONG_PHASE")
    game.pending_reinforcements = 3
    assert_rejected(game, 0, a.PlaceArmies("londra", 1), "WRONG_PHASE")
    game.hidden[0] = BOARD.index["londra"]
    assert_rejected(game, 0, pa.RevealHiddenArmies(), "WRONG_PHASE")
    game.pending_reinforcements = 0
    assert_rejected(game, 0, pa.DiscardSpiedCard("spia_01"), "CARD_NOT_IN_HAND")
    events = game.apply(0, pa.DiscardSpiedCard("generale_01"))
    lost = the(events, pe.CardLost)
    assert (lost.card, lost.visible_to) == ("generale_01", 1)
    assert the(events, pe.SpiedCardDiscarded).visible_to is None
    assert game.hands[1] == ["rinforzi_01"]
    assert game.discard == ["spia_01", "generale_01"]
    assert game.spied == -1


def test_a_spy_is_blocked_by_a_spy_of_the_spied_player_when_its_orders_say_so() -> None:
    hands = {0: cards("spia", 2), 1: ["spia_05", "generale_01"]}
    game = position({"londra": 0, "parigi": 1}, hands=hands)
    events = game.apply(0, pa.PlaySpy("spia_01", 1))
    assert the(events, pe.SpyBlocked) == pe.SpyBlocked(1, "spia_05", 0)
    assert not events_of(events, pe.SpyReport)
    assert game.hands[1] == ["generale_01"]
    assert game.spied == -1
    # Orders to let a Spia through keep the blocking Spia in the hand.
    game.hands[1] = ["spia_05", "generale_01"]
    game.apply(1, pa.SetStandingOrders("always", "let_through"))  # out of turn
    events = game.apply(0, pa.PlaySpy("spia_02", 1))
    assert the(events, pe.SpyReport).cards == ("spia_05", "generale_01")


def test_a_truce_forbids_attacks_both_ways_until_the_imposers_next_turn() -> None:
    # Seat 2 holds the rest, but not three whole empires besides its own.
    owners = {"londra": 0, "parigi": 1, "yorkshire": 0, "mosca": 1, "turchia": 1, "vienna": 1}
    armies = {"londra": 5, "parigi": 5}
    game = position(owners, armies, players=3, hands={0: ["diplomatico_01"]})
    events = game.apply(0, pa.PlayDiplomat("diplomatico_01", 1))
    assert the(events, pe.TruceImposed) == pe.TruceImposed(0, "diplomatico_01", 1)
    assert_rejected(game, 0, a.Attack("londra", "parigi", 1), "TRUCE")
    assert not [f for f in families(game, LegalAttack) if f.target == "parigi"]
    end_turn(game)
    assert game.current == 1
    assert_rejected(game, 1, a.Attack("parigi", "londra", 1), "TRUCE")
    end_turn(game)
    events = end_turn(game)  # seat 2's turn ends; seat 0's starts
    assert the(events, pe.TrucesEnded) == pe.TrucesEnded(0, (1,))
    assert game.truces == []


def test_one_truce_a_player_and_one_generale_an_attack() -> None:
    hands = {0: ["diplomatico_01", "diplomatico_02", "generale_01", "generale_02"]}
    game = position({"londra": 0, "parigi": 1}, {"londra": 10}, hands=hands)
    game.apply(0, pa.PlayDiplomat("diplomatico_01", 1))
    assert_rejected(game, 0, pa.PlayDiplomat("diplomatico_02", 1), "INVALID_ACTION")
    assert families(game, LegalPlayDiplomat)[0].players == (2, 3)  # not 1 again
    game.truces = []
    game.apply(0, pa.PlayGeneral("generale_01", "londra", "parigi"))
    assert not families(game, LegalPlayGeneral)
    action = pa.PlayGeneral("generale_02", "londra", "parigi")
    assert_rejected(game, 0, action, "ONCE_PER_TURN")


# --------------------------------------------------------------------------- generals, marshals


def test_a_general_adds_one_to_the_attackers_highest_die_for_the_whole_attack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = position(
        {"londra": 0, "parigi": 1}, {"londra": 10, "parigi": 6}, hands={0: ["generale_01"]}
    )
    game.apply(0, pa.PlayGeneral("generale_01", "londra", "parigi"))
    assert "generale_01" in game.discard
    force_dice(monkeypatch, 5, 2, 1, 5, 3, 2, 4, 1, 1, 4, 1, 1)
    rolled = the(game.apply(0, a.Attack("londra", "parigi", 3)), e.DiceRolled)
    assert (rolled.attacker_losses, rolled.defender_losses) == (2, 1)  # 6 beats 5
    rolled = the(game.apply(0, a.Attack("londra", "parigi", 3)), e.DiceRolled)
    assert (rolled.attacker_losses, rolled.defender_losses) == (2, 1)  # still: 5 beats 4
    assert game.state_view().general  # type: ignore[attr-defined]


def test_a_general_comes_before_the_attacks_first_roll(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position(
        {"londra": 0, "parigi": 1}, {"londra": 10, "parigi": 6}, hands={0: ["generale_01"]}
    )
    force_dice(monkeypatch, 1, 6, 6, 6)
    game.apply(0, a.Attack("londra", "parigi", 1))
    assert_rejected(game, 0, pa.PlayGeneral("generale_01", "londra", "parigi"), "WRONG_PHASE")


def test_without_a_general_a_tie_goes_to_the_defender(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position({"londra": 0, "parigi": 1}, {"londra": 10, "parigi": 6})
    force_dice(monkeypatch, 5, 5, 1, 1)
    rolled = the(game.apply(0, a.Attack("londra", "parigi", 1)), e.DiceRolled)
    assert (rolled.attacker_losses, rolled.defender_losses) == (1, 0)


def test_a_marshal_adds_one_to_the_defenders_highest_die_for_the_whole_attack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = position(
        {"londra": 0, "parigi": 1},
        {"londra": 10, "parigi": 6},
        hands={1: cards("maresciallo", 2)},
    )
    force_dice(monkeypatch, 5, 4, 1, 1, 5, 4, 1, 1)
    events = game.apply(0, a.Attack("londra", "parigi", 1))
    assert the(events, pe.MarshalPlayed) == pe.MarshalPlayed(1, "maresciallo_01", "parigi")
    assert the(events, e.DiceRolled).attacker_losses == 1  # 5 against 4 + 1: a tie
    events = game.apply(0, a.Attack("londra", "parigi", 1))
    assert not events_of(events, pe.MarshalPlayed)  # one card for the whole attack
    assert the(events, e.DiceRolled).attacker_losses == 1
    assert game.hands[1] == ["maresciallo_02"]


@pytest.mark.parametrize(
    ("orders", "on_fortress", "on_other"), [("always", 1, 1), ("fortress", 1, 0), ("never", 0, 0)]
)
def test_the_standing_orders_say_when_a_marshal_defends(
    monkeypatch: pytest.MonkeyPatch, orders: str, on_fortress: int, on_other: int
) -> None:
    owners = {"londra": 0, "galles": 0, "parigi": 1, "irlanda": 1}
    armies = {"londra": 10, "galles": 10, "parigi": 6, "irlanda": 6}
    game = position(owners, armies, hands={1: cards("maresciallo", 2)})
    game.apply(1, pa.SetStandingOrders(orders, "block"))
    force_dice(monkeypatch, 1, 6, 6, 6, 1, 6, 6, 6)
    other = game.apply(0, a.Attack("galles", "irlanda", 1))
    fortress = game.apply(0, a.Attack("londra", "parigi", 1))
    assert len(events_of(other, pe.MarshalPlayed)) == on_other
    assert len(events_of(fortress, pe.MarshalPlayed)) == on_fortress


def test_standing_orders_are_set_out_of_turn_and_kept_private() -> None:
    game = position({"londra": 0})
    events = game.apply(2, pa.SetStandingOrders("never", "let_through"))
    orders = the(events, pe.StandingOrdersSet)
    assert [orders.is_visible_to(v) for v in (0, 1, 2, 3, None)] == [
        False,
        False,
        True,
        False,
        False,
    ]
    assert dict(game.private_state(2))["marshal_orders"] == "never"
    assert_rejected(game, 2, pa.SetStandingOrders("sometimes", "block"), "INVALID_ACTION")
    assert_rejected(game, 2, pa.SetStandingOrders("never", "maybe"), "INVALID_ACTION")
    assert game.current == 0  # nothing else changed: still seat 0's turn


# --------------------------------------------------------------------------- the flagship


def test_the_flagship_attacks_a_coastal_territory_on_the_same_water(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    owners = {"irlanda": 0, "madrid": 1}
    game = position(owners, {"irlanda": 6, "madrid": 1}, hands={0: cards("ammiraglio", 2)})
    family = next(f for f in families(game, LegalAdmiralAttack) if f.source == "irlanda")
    assert "madrid" in family.targets
    assert family.max_armies == 5
    force_dice(monkeypatch, 6, 5, 4, 1)
    events = game.apply(0, pa.AdmiralAttack("ammiraglio_01", "irlanda", "madrid", 5, 0))
    assert the(events, pe.FlagshipSailed).armies == 5
    assert the(events, pe.FlagshipUnloaded) == pe.FlagshipUnloaded(0, "madrid", 5)
    assert (owner_of(game, "madrid"), armies_on(game, "madrid"), armies_on(game, "irlanda")) == (
        0,
        5,
        1,
    )
    assert game.phase is Phase.ATTACK  # survivors land: no occupation to choose
    action = pa.AdmiralAttack("ammiraglio_02", "madrid", "irlanda", 1, 0)
    assert_rejected(game, 0, action, "ONCE_PER_TURN")


def test_the_flagship_brings_the_survivors_back_when_the_attack_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    owners = {"irlanda": 0, "madrid": 1}
    game = position(owners, {"irlanda": 6, "madrid": 5}, hands={0: ["ammiraglio_01"]})
    force_dice(monkeypatch, 1, 1, 1, 6, 6, 6)
    events = game.apply(0, pa.AdmiralAttack("ammiraglio_01", "irlanda", "madrid", 4, 1))
    rolls = events_of(events, e.DiceRolled)
    assert [len(r.attacker_dice) for r in rolls] == [3]  # then 1 left: stop_at
    assert the(events, pe.FlagshipUnloaded) == pe.FlagshipUnloaded(0, "irlanda", 1)
    assert (armies_on(game, "irlanda"), owner_of(game, "madrid")) == (3, 1)


def test_the_mar_nero_reaches_only_the_mar_nero() -> None:
    owners = {"romania": 0, "bulgaria": 0, "grecia": 1, "ucraina": 1}
    armies = {"romania": 5, "bulgaria": 5}
    game = position(owners, armies, hands={0: ["ammiraglio_01"]})
    by_source = {f.source: f.targets for f in families(game, LegalAdmiralAttack)}
    assert "ucraina" in by_source["romania"]
    assert "grecia" not in by_source["romania"]
    assert "grecia" in by_source["bulgaria"]  # on the Mar Egeo too
    action = pa.AdmiralAttack("ammiraglio_01", "romania", "grecia", 2, 0)
    assert_rejected(game, 0, action, "NOT_ADJACENT")


def test_landlocked_territories_never_use_the_flagship() -> None:
    owners = {"vienna": 0, "trieste": 0, "serbia": 1, "napoli": 1}
    game = position(owners, {"vienna": 5, "trieste": 5}, hands={0: ["ammiraglio_01"]})
    sources = {f.source for f in families(game, LegalAdmiralAttack)}
    assert "vienna" not in sources
    assert_rejected(
        game, 0, pa.AdmiralAttack("ammiraglio_01", "vienna", "napoli", 2, 0), "NOT_ADJACENT"
    )
    assert_rejected(
        game, 0, pa.AdmiralAttack("ammiraglio_01", "trieste", "serbia", 2, 0), "NOT_ADJACENT"
    )


def test_dotted_lines_are_crossed_without_the_flagship() -> None:
    game = position({"londra": 0, "parigi": 1}, {"londra": 3})
    assert any(f.target == "parigi" for f in families(game, LegalAttack) if f.source == "londra")


# --------------------------------------------------------------------------- fortresses, victory


def test_a_fallen_fortress_puts_its_player_out_and_gives_its_banners_and_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = position(
        {"londra": 0, "parigi": 1, "bretagna": 1},
        {"londra": 10, "parigi": 1, "bretagna": 4},
        hands={1: ["generale_01"]},
    )
    game.banners[1] = [1, 3]
    game.eliminated[3] = True
    force_dice(monkeypatch, 6, 5, 4, 1)
    events = game.apply(0, a.Attack("londra", "parigi", 3))
    assert the(events, pe.FortressFallen) == pe.FortressFallen(1, 0, "parigi", (1, 3))
    assert the(events, e.PlayerEliminated) == e.PlayerEliminated(1, 0, 1)
    assert game.eliminated[1]
    assert game.hands[0] == ["generale_01"]
    assert (game.banners[0], game.banners[1]) == ([0, 1, 3], [])
    assert owner_of(game, "bretagna") == 1  # its armies stay, and defend
    assert dict(game.reinforcements_for(0)[2])["banners"] == 4
    assert not game.is_over  # seat 2 still plays


def test_the_last_player_standing_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position({"londra": 0, "parigi": 1}, {"londra": 10}, players=3)
    game.eliminated[2] = True
    force_dice(monkeypatch, 6, 5, 4, 1)
    events = game.apply(0, a.Attack("londra", "parigi", 3))
    ended = the(events, e.GameEnded)
    assert (ended.winner, ended.reason) == (0, "last_player")


def test_three_whole_empires_besides_the_own_win(monkeypatch: pytest.MonkeyPatch) -> None:
    owners = region_owned_by(0, "russo", "ottomano", "austro_ungarico")
    owners |= {"vienna": 1, "londra": 0, "parigi": 1, "berlino": 2}
    game = position(owners, {"boemia": 8}, players=3)
    assert game.empires_held(0) == 2
    force_dice(monkeypatch, 6, 5, 4, 1)
    events = game.apply(0, a.Attack("boemia", "vienna", 3))
    ended = the(events, e.GameEnded)
    assert (ended.winner, ended.reason) == (0, "empires")


def test_the_own_empire_does_not_count_towards_victory(monkeypatch: pytest.MonkeyPatch) -> None:
    owners = region_owned_by(0, "russo", "austro_ungarico") | {"vienna": 1, "parigi": 1}
    owners |= region_owned_by(0, "britannico")  # the empire seat 0 drew
    game = position(owners, {"boemia": 8}, players=3)
    force_dice(monkeypatch, 6, 5, 4, 1)
    game.apply(0, a.Attack("boemia", "vienna", 3))
    assert game.empires_held(0) == 2
    assert not game.is_over


# --------------------------------------------------------------------------- hidden armies


def test_the_hidden_armies_come_out_once_while_the_territory_is_held() -> None:
    game = position({"yorkshire": 0, "londra": 0})
    game.hidden[0] = BOARD.index["yorkshire"]
    game.rinforzi_played = 4
    assert families(game, LegalRevealHiddenArmies)[0].armies == 7  # the track's next step
    events = game.apply(0, pa.RevealHiddenArmies())
    assert the(events, pe.HiddenArmiesRevealed) == pe.HiddenArmiesRevealed(0, "yorkshire", 7)
    assert armies_on(game, "yorkshire") == 8
    assert_rejected(game, 0, pa.RevealHiddenArmies(), "ONCE_PER_GAME")
    assert not families(game, LegalRevealHiddenArmies)


def test_the_hidden_armies_need_the_territory_held() -> None:
    game = position({"londra": 0, "yorkshire": 1})
    game.hidden = [BOARD.index["yorkshire"], -1, -1, -1]
    assert_rejected(game, 0, pa.RevealHiddenArmies(), "NOT_YOUR_TERRITORY")


def test_the_hidden_armies_come_out_at_any_time_even_out_of_turn() -> None:
    """Seed 003: "in qualsiasi momento della partita": a player not in turn may bring them
    out too (between two actions of the player in turn), and is offered it."""
    game = position({"londra": 0, "yorkshire": 1}, phase=Phase.ATTACK)
    game.hidden = [-1, BOARD.index["yorkshire"], -1, -1]
    assert [type(f) for f in game.legal_actions(1)] == [
        LegalRevealHiddenArmies,
        LegalStandingOrders,
    ]
    events = game.apply(1, pa.RevealHiddenArmies())
    assert the(events, pe.HiddenArmiesRevealed).territory == "yorkshire"
    assert (game.current, game.phase) == (0, Phase.ATTACK)  # seat 0's turn goes on
    assert [type(f) for f in game.legal_actions(1)] == [LegalStandingOrders]


def test_out_of_turn_a_player_is_offered_only_what_it_may_do_then() -> None:
    game = position({"londra": 0, "parigi": 1})
    game.eliminated[2] = True
    assert [type(f) for f in game.legal_actions(1)] == [LegalStandingOrders]
    assert game.legal_actions(2) == []
    assert game.legal_actions(None) == []
    assert_rejected(game, 2, pa.SetStandingOrders("never", "block"), "WRONG_PHASE")
    assert_rejected(game, 2, pa.RevealHiddenArmies(), "NOT_YOUR_TURN")
    setup = new_piu_game(3, seed=b"orders")
    waiting = (setup.current + 1) % 3
    assert setup.legal_actions(waiting) == []
    assert_rejected(setup, waiting, pa.SetStandingOrders("never", "block"), "WRONG_PHASE")


@pytest.mark.parametrize(("size", "code"), [(5, None), (0, "OPTION_DISABLED")])
def test_the_hidden_armies_size_is_an_option(size: int, code: str | None) -> None:
    game = position({"yorkshire": 0}, hidden_armies=size)
    game.hidden[0] = BOARD.index["yorkshire"]
    if code:
        assert not families(game, LegalRevealHiddenArmies)
        assert_rejected(game, 0, pa.RevealHiddenArmies(), code)
    else:
        assert the(game.apply(0, pa.RevealHiddenArmies()), pe.HiddenArmiesRevealed).armies == 5


# --------------------------------------------------------------------------- options


def test_an_attack_on_a_fortress_rolls_at_most_the_options_dice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    owners = {"londra": 0, "parigi": 1, "galles": 0, "irlanda": 1}
    armies = {"londra": 10, "parigi": 5, "galles": 10, "irlanda": 5}
    game = position(owners, armies, fortress_attack_dice=2)
    ranges = {f.target: f.max_dice for f in families(game, LegalAttack)}
    assert (ranges["parigi"], ranges["irlanda"]) == (2, 3)
    assert_rejected(game, 0, a.Attack("londra", "parigi", 3), "INVALID_DICE")
    force_dice(monkeypatch, 1, 1, 6, 6, 6)
    events = game.apply(0, a.AttackUntil("londra", "parigi", 3, 8))
    assert [len(r.attacker_dice) for r in events_of(events, e.DiceRolled)] == [2]


# --------------------------------------------------------------------------- exact odds


class Rolls:
    """A stand-in for DerivedRandom that rolls the given dice."""

    def __init__(self, attacker: list[int], defender: list[int]) -> None:
        self.dice = (attacker, defender)

    def roll(self, attacker: int, defender: int) -> tuple[list[int], list[int]]:
        return sorted(self.dice[0], reverse=True), sorted(self.dice[1], reverse=True)


@pytest.mark.parametrize(("general", "marshal"), list(itertools.product((0, 1), repeat=2)))
@pytest.mark.parametrize(("attackers", "defenders"), [(1, 1), (2, 3), (3, 2), (3, 3)])
def test_the_engines_rolls_with_cards_are_exactly_the_odds_models(
    general: int, marshal: int, attackers: int, defenders: int
) -> None:
    """Every roll of the dice through the engine, with the Generale's and the Maresciallo's
    +1, tallied exactly: the distribution battleOdds is built on (roll_outcomes)."""
    game = position({"londra": 0, "parigi": 1}, {"londra": 10})
    source, target = BOARD.index["londra"], BOARD.index["parigi"]
    tally: Counter[tuple[int, int]] = Counter()
    for faces in itertools.product(range(1, 7), repeat=attackers + defenders):
        game.armies[target] = defenders
        game.attack = [source, target, general, marshal, 1]
        rolls = Rolls(list(faces[:attackers]), list(faces[attackers:]))
        losses = game._battle(rolls, 0, source, target, attackers)  # type: ignore[arg-type]
        tally[losses[0], losses[1]] += 1
    total = 6 ** (attackers + defenders)
    expected = roll_outcomes(attackers, defenders, attacker_bonus=general, defender_bonus=marshal)
    assert {k: Fraction(n, total) for k, n in tally.items()} == {
        (o.attacker_losses, o.defender_losses): o.probability for o in expected
    }


def test_a_flagship_attack_is_what_battle_odds_gives_for_the_armies_loaded() -> None:
    """The flagship's armies all roll (none stays behind): battle_odds(loaded, defenders)."""
    game = position(
        {"irlanda": 0, "madrid": 1}, {"irlanda": 5, "madrid": 3}, hands={0: ["ammiraglio_01"]}
    )
    runs = 3000
    conquests = 0
    for run in range(runs):
        attempt = game.clone()
        assert isinstance(attempt, PiuGame)
        attempt.seq = run  # another roll of the dice
        attempt.apply(0, pa.AdmiralAttack("ammiraglio_01", "irlanda", "madrid", 4, 0))
        conquests += attempt.owner[BOARD.index["madrid"]] == 0
    p = battle_odds(4, 3).conquest_probability
    sigma = (p * (1 - p) / runs) ** 0.5
    assert abs(conquests / runs - p) < 4 * sigma


@pytest.mark.parametrize("attack_dice", [1, 2, 3])  # fortress_attack_dice
@pytest.mark.parametrize(("general", "marshal"), list(itertools.product((0, 1), repeat=2)))
def test_declaring_fewer_dice_never_lowers_the_odds_of_losing_the_territory(
    attack_dice: int, general: int, marshal: int
) -> None:
    """What docs/piu.md says of the option defender_dice: against an attacker who rolls its
    most dice to the end, the best a defender may declare at every roll is the most, so
    MAXIMUM, the default, never costs a defender a territory (up to 20 armies a side)."""

    def rolls(attackers: int, defenders: int, dice: int) -> list[tuple[float, int, int]]:
        outcomes = roll_outcomes(
            min(attack_dice, attackers), dice, attacker_bonus=general, defender_bonus=marshal
        )
        return [(float(o.probability), o.attacker_losses, o.defender_losses) for o in outcomes]

    @functools.cache
    def conquest(attackers: int, defenders: int, best: bool) -> float:
        """P(conquest), the defender declaring its best dice at every roll, or its most."""
        if defenders == 0 or attackers == 0:
            return float(defenders == 0)
        most = min(3, defenders)
        return min(
            sum(
                p * conquest(attackers - lost, defenders - won, best)
                for p, lost, won in rolls(attackers, defenders, dice)
            )
            for dice in (range(1, most + 1) if best else (most,))
        )

    for attackers in range(1, 21):
        for defenders in range(1, 21):
            best = conquest(attackers, defenders, True)
            assert conquest(attackers, defenders, False) == pytest.approx(best, abs=1e-12)


# --------------------------------------------------------------------------- declared defence

DECLARE = DefenderDice.DECLARE


def declaring(owners: dict[str, int], armies: dict[str, int], **kwargs: Any) -> PiuGame:
    """A position of a game whose defenders declare their dice."""
    return position(owners, armies, defender_dice=DECLARE, **kwargs)


def test_the_defender_rolls_the_most_unless_the_game_lets_it_declare(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert PiuOptions().defender_dice is DefenderDice.MAXIMUM
    assert PiuOptions.settable()["defender_dice"] == "maximum"
    game = position({"londra": 0, "parigi": 1}, {"londra": 10, "parigi": 2})
    force_dice(monkeypatch, 1, 6, 6)
    rolled = the(game.apply(0, a.Attack("londra", "parigi", 1)), e.DiceRolled)
    assert len(rolled.defender_dice) == 2
    assert game.prompts() == []
    assert_rejected(game, 1, a.Defend(1), "WRONG_PHASE")


def test_a_declared_attack_waits_for_the_defenders_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    game = declaring({"londra": 0, "parigi": 1}, {"londra": 10, "parigi": 5})
    force_dice(monkeypatch)  # no die may be rolled yet
    events = game.apply(0, a.Attack("londra", "parigi", 2))
    assert events == [e.AttackDeclared(0, "londra", "parigi", 2, 1)]
    assert (game.phase, game.seat_to_act, game.current) == (Phase.DEFEND, 1, 0)
    assert (armies_on(game, "londra"), armies_on(game, "parigi")) == (10, 5)
    assert game.legal_actions(1) == [LegalDefend(1, 3)]
    # Nobody else does anything meanwhile, in turn or out of it.
    assert [game.legal_actions(seat) for seat in (0, 2, 3, None)] == [[], [], [], []]
    assert_rejected(game, 0, a.Attack("londra", "parigi", 1), "WRONG_PHASE")
    assert_rejected(game, 0, a.EndTurn(), "WRONG_PHASE")
    assert_rejected(game, 2, pa.SetStandingOrders("never", "block"), "NOT_YOUR_TURN")
    assert_rejected(game, 1, pa.RevealHiddenArmies(), "NOT_YOUR_TURN")
    for seat in (0, 2, 3, None):
        assert_rejected(game, seat, a.Defend(1), "NOT_YOUR_TURN")


@pytest.mark.parametrize(("defenders", "dice"), [(1, 1), (2, 1), (2, 2), (3, 1), (5, 2), (5, 3)])
def test_the_defender_rolls_exactly_the_dice_it_declares(
    monkeypatch: pytest.MonkeyPatch, defenders: int, dice: int
) -> None:
    game = declaring({"londra": 0, "parigi": 1}, {"londra": 10, "parigi": defenders})
    game.apply(0, a.Attack("londra", "parigi", 3))
    assert game.legal_actions(1) == [LegalDefend(1, min(3, defenders))]
    force_dice(monkeypatch, 1, 1, 1, *[6] * dice)
    rolled = the(game.apply(1, a.Defend(dice)), e.DiceRolled)
    assert (len(rolled.attacker_dice), len(rolled.defender_dice)) == (3, dice)
    assert (rolled.attacker_losses, rolled.defender_losses) == (dice, 0)
    assert (game.phase, game.seat_to_act, game.prompts()) == (Phase.ATTACK, 0, [])


@pytest.mark.parametrize(("defenders", "dice"), [(1, 2), (2, 3), (5, 4), (5, 0), (5, -1)])
def test_a_declaration_out_of_range_is_refused_and_says_the_range(
    defenders: int, dice: int
) -> None:
    game = declaring({"londra": 0, "parigi": 1}, {"londra": 10, "parigi": defenders})
    game.apply(0, a.Attack("londra", "parigi", 1))
    assert_rejected(game, 1, a.Defend(dice), "INVALID_DICE")
    with pytest.raises(RuleViolation) as refused:
        game.apply(1, a.Defend(dice))
    assert refused.value.message == f"defend with 1 to {min(3, defenders)} dice, not {dice}"
    assert game.seat_to_act == 1  # still owed


def test_attack_until_would_take_the_choice_away_from_the_defender() -> None:
    game = declaring({"londra": 0, "parigi": 1}, {"londra": 10, "parigi": 5})
    assert families(game, LegalAttack)
    assert not families(game, LegalAttackUntil)
    assert_rejected(game, 0, a.AttackUntil("londra", "parigi", 3, 1), "OPTION_DISABLED")


def test_the_prompts_default_is_the_most_dice_as_a_clock_would_send_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = declaring({"londra": 0, "parigi": 1}, {"londra": 10, "parigi": 2})
    game.apply(0, a.Attack("londra", "parigi", 3))
    assert game.prompts() == [Prompt(1, LegalDefend(1, 2), a.Defend(2))]
    assert game.least_action(1) == a.Defend(2)
    force_dice(monkeypatch, 1, 1, 1, 6, 6)
    rolled = the(game.apply(1, game.least_action(1)), e.DiceRolled)
    assert len(rolled.defender_dice) == 2


def test_a_marshal_joins_as_the_attack_is_declared_before_the_defenders_dice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The order of declarations: the attack and its dice, the Maresciallo (standing orders),
    then the defender's dice, knowing its +1; one card for the whole attack."""
    game = declaring(
        {"londra": 0, "parigi": 1},
        {"londra": 10, "parigi": 6},
        hands={1: cards("maresciallo", 2)},
    )
    events = game.apply(0, a.Attack("londra", "parigi", 1))
    assert events == [
        pe.MarshalPlayed(1, "maresciallo_01", "parigi"),
        e.AttackDeclared(0, "londra", "parigi", 1, 1),
    ]
    assert game.state_view().marshal  # type: ignore[attr-defined]
    force_dice(monkeypatch, 5, 4, 5, 4)
    events = game.apply(1, a.Defend(1))
    assert not events_of(events, pe.MarshalPlayed)
    assert the(events, e.DiceRolled).attacker_losses == 1  # 5 against 4 + 1: a tie
    assert game.apply(0, a.Attack("londra", "parigi", 1)) == [
        e.AttackDeclared(0, "londra", "parigi", 1, 1)
    ]
    assert the(game.apply(1, a.Defend(1)), e.DiceRolled).attacker_losses == 1
    assert game.hands[1] == ["maresciallo_02"]


def test_a_general_is_played_before_the_attack_is_declared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = declaring(
        {"londra": 0, "parigi": 1}, {"londra": 10, "parigi": 6}, hands={0: cards("generale", 2)}
    )
    game.apply(0, pa.PlayGeneral("generale_01", "londra", "parigi"))
    game.apply(0, a.Attack("londra", "parigi", 3))
    action = pa.PlayGeneral("generale_02", "londra", "parigi")
    assert_rejected(game, 0, action, "WRONG_PHASE")  # the defence waits
    force_dice(monkeypatch, 5, 2, 1, 5, 3)
    rolled = the(game.apply(1, a.Defend(2)), e.DiceRolled)
    assert (rolled.attacker_losses, rolled.defender_losses) == (1, 1)  # 6 beats 5; 2 < 3


@pytest.mark.parametrize("gone", ["resigned", "eliminated"])
def test_the_armies_of_a_player_out_of_the_game_roll_the_most_at_once(
    monkeypatch: pytest.MonkeyPatch, gone: str
) -> None:
    game = declaring({"galles": 0, "irlanda": 1}, {"galles": 10, "irlanda": 4})
    getattr(game, gone)[1] = True
    force_dice(monkeypatch, 1, 1, 1, 6, 6, 6)
    events = game.apply(0, a.Attack("galles", "irlanda", 3))
    assert not events_of(events, e.AttackDeclared)
    assert len(the(events, e.DiceRolled).defender_dice) == 3
    assert game.prompts() == []


def test_a_defender_who_resigns_rolls_the_most_and_the_attack_goes_on() -> None:
    game = declaring({"londra": 0, "parigi": 1}, {"londra": 10, "parigi": 5})
    game.apply(0, a.Attack("londra", "parigi", 3))
    events = game.apply(1, a.Resign())
    assert isinstance(events[0], e.PlayerResigned)
    assert len(the(events, e.DiceRolled).defender_dice) == 3
    assert (game.phase, game.seat_to_act, game.prompts()) == (Phase.ATTACK, 0, [])
    events = game.apply(0, a.Attack("londra", "parigi", 1))  # no more answers owed
    assert not events_of(events, e.AttackDeclared)


def test_the_prompt_tells_nobody_what_the_defender_holds_or_wrote() -> None:
    """Whatever the defender holds (a Maresciallo it keeps by its orders, other cards, none)
    and wherever its hidden armies would come out, the attack declares the same public
    events, and every seat (and a spectator) is offered the same: only the armies count."""
    seen = []
    for hand, orders, hidden in [
        ([], pa.MARSHAL_ALWAYS, "scozia"),
        (["maresciallo_01"], pa.MARSHAL_NEVER, "irlanda"),
        (["maresciallo_01", "spia_01", "generale_01"], pa.MARSHAL_FORTRESS, "irlanda"),
        (["rinforzi_01", "ammiraglio_01"], pa.MARSHAL_ALWAYS, "scozia"),
    ]:
        game = declaring(
            {"galles": 0, "irlanda": 1, "scozia": 1},
            {"galles": 10, "irlanda": 4},
            hands={1: hand},
        )
        game.marshal_orders[1] = orders
        game.hidden[1] = BOARD.index[hidden]
        events = game.apply(0, a.Attack("galles", "irlanda", 3))
        assert all(not event.private for event in events)
        offered = [game.legal_actions(seat) for seat in (0, 1, 2, 3, None)]
        seen.append((events, game.prompts(), offered, game.state_view(), game.space_views()))
    assert all(other == seen[0] for other in seen[1:]), seen


# --------------------------------------------------------------------------- declared: the flagship


def flagship_position(defenders: int, **kwargs: Any) -> PiuGame:
    return declaring(
        {"irlanda": 0, "madrid": 1},
        {"irlanda": 6, "madrid": defenders},
        hands={0: ["ammiraglio_01"]},
        **kwargs,
    )


def aboard(game: PiuGame) -> int:
    """The armies aboard the flagship, as the public state shows them."""
    view = game.state_view()
    assert isinstance(view, PiuState)
    return view.flagship_armies


def test_the_flagship_waits_for_the_defenders_dice_before_each_roll(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = flagship_position(3)
    events = game.apply(0, pa.AdmiralAttack("ammiraglio_01", "irlanda", "madrid", 5, 0))
    assert events == [
        pe.FlagshipSailed(0, "ammiraglio_01", "irlanda", "madrid", 5),
        e.AttackDeclared(0, "irlanda", "madrid", 3, 1),
    ]
    assert (armies_on(game, "irlanda"), aboard(game)) == (1, 5)
    assert game.legal_actions(1) == [LegalDefend(1, 3)]
    assert game.legal_actions(0) == []
    force_dice(monkeypatch, 6, 6, 1, 5, 5)
    events = game.apply(1, a.Defend(2))
    rolled = the(events, e.DiceRolled)
    assert (len(rolled.defender_dice), rolled.attacker_losses, rolled.defender_losses) == (2, 0, 2)
    assert events[-1] == e.AttackDeclared(0, "irlanda", "madrid", 3, 1)  # the next roll
    assert game.legal_actions(1) == [LegalDefend(1, 1)]
    force_dice(monkeypatch, 6, 1, 1, 1)
    events = game.apply(1, a.Defend(1))
    assert the(events, pe.FlagshipUnloaded) == pe.FlagshipUnloaded(0, "madrid", 5)
    assert (owner_of(game, "madrid"), armies_on(game, "madrid")) == (0, 5)
    assert (game.phase, game.prompts(), aboard(game)) == (Phase.ATTACK, [], 0)


def test_the_flagship_brings_its_survivors_back_at_stop_at_between_declarations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = flagship_position(5)
    game.apply(0, pa.AdmiralAttack("ammiraglio_01", "irlanda", "madrid", 4, 1))
    force_dice(monkeypatch, 1, 1, 1, 6, 6, 6)
    events = game.apply(1, a.Defend(3))
    assert not events_of(events, e.AttackDeclared)  # 1 left aboard: it stops
    assert the(events, pe.FlagshipUnloaded) == pe.FlagshipUnloaded(0, "irlanda", 1)
    assert (armies_on(game, "irlanda"), game.prompts()) == (3, [])


def test_against_a_fortress_the_flagship_rolls_the_options_dice_and_the_defender_declares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = declaring(
        {"irlanda": 0, "parigi": 1},
        {"irlanda": 6, "parigi": 4},
        hands={0: ["ammiraglio_01"]},
        fortress_attack_dice=2,
    )
    events = game.apply(0, pa.AdmiralAttack("ammiraglio_01", "irlanda", "parigi", 5, 4))
    assert events[-1] == e.AttackDeclared(0, "irlanda", "parigi", 2, 1)
    assert game.legal_actions(1) == [LegalDefend(1, 3)]
    force_dice(monkeypatch, 1, 1, 6)
    rolled = the(game.apply(1, a.Defend(1)), e.DiceRolled)
    assert (len(rolled.attacker_dice), len(rolled.defender_dice)) == (2, 1)


def test_a_defender_who_resigns_lets_the_flagship_roll_on_without_asking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = flagship_position(3)
    game.apply(0, pa.AdmiralAttack("ammiraglio_01", "irlanda", "madrid", 5, 0))
    force_dice(monkeypatch, 6, 6, 1, 5, 5, 5, 6, 1, 1, 1)
    events = game.apply(1, a.Resign())
    assert [type(event) for event in events] == [
        e.PlayerResigned,
        e.DiceRolled,
        e.DiceRolled,
        e.TerritoryConquered,
        pe.FlagshipUnloaded,
    ]
    first, second = events_of(events, e.DiceRolled)
    assert (len(first.defender_dice), len(second.defender_dice)) == (3, 1)  # the most, each
    assert the(events, pe.FlagshipUnloaded) == pe.FlagshipUnloaded(0, "madrid", 4)


def test_an_attacker_who_resigns_while_the_flagship_waits_brings_its_armies_back() -> None:
    game = flagship_position(3)
    game.apply(0, pa.AdmiralAttack("ammiraglio_01", "irlanda", "madrid", 5, 0))
    events = game.apply(0, a.Resign())
    assert events[:2] == [e.PlayerResigned(0), pe.FlagshipUnloaded(0, "irlanda", 5)]
    assert not events_of(events, e.DiceRolled)
    assert armies_on(game, "irlanda") == 6
    assert (game.current, game.prompts()) == (1, [])


def test_a_game_that_ends_while_the_flagship_waits_brings_its_armies_back() -> None:
    game = flagship_position(3, players=3)
    game.eliminated[2] = True
    game.apply(0, pa.AdmiralAttack("ammiraglio_01", "irlanda", "madrid", 5, 0))
    events = game.apply(0, a.Resign())
    assert [type(event) for event in events] == [
        e.PlayerResigned,
        pe.FlagshipUnloaded,
        e.GameEnded,
    ]
    assert (armies_on(game, "irlanda"), the(events, e.GameEnded).winner) == (6, 1)


def test_a_snapshot_taken_while_the_flagship_waits_continues_the_same_game() -> None:
    game = flagship_position(3)
    game.apply(0, pa.AdmiralAttack("ammiraglio_01", "irlanda", "madrid", 5, 0))
    saved = json.loads(json.dumps(game.snapshot()))
    resumed = flagship_position(3)
    resumed.restore(saved)
    assert resumed.prompts() == game.prompts()
    assert resumed.apply(1, a.Defend(1)) == game.apply(1, a.Defend(1))
    assert resumed.snapshot() == game.snapshot()
