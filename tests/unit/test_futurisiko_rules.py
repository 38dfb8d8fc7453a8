"""Every rule of FutuRisiKo! (seed 004) on hand-made positions, and each placeholder behind its
option (docs/futurisiko.md). Each test fails if its rule is broken; dice are scripted where
they decide what the test checks."""

from __future__ import annotations

import pytest

from domain import actions as a
from domain import events as e
from domain.flow import Phase
from tests.unit.futurisiko_positions import (
    HIT,
    MISS,
    assert_rejected,
    at,
    blank,
    count,
    flag,
    give,
    new,
    of_type,
    put,
    script_dice,
)
from variants.futurisiko import actions as fa
from variants.futurisiko import events as fe
from variants.futurisiko.legal import (
    LegalAmphibiousMove,
    LegalBattle,
    LegalBattleCards,
    LegalMoveUnits,
    LegalPlaceFlag,
    LegalProduce,
    LegalTorpedo,
)
from variants.futurisiko.phases import CARDS, COMBAT, MOVEMENT, PRODUCTION
from variants.futurisiko.ruleset import (
    AIRCRAFT,
    ARMA_SEGRETA,
    MISSILI_BALISTICI,
    SCUDO_SPAZIALE,
    SILURO_KILLER,
    SUBMARINE,
    SUPER_PRODUZIONE,
    TANK,
    TRADIMENTO,
    TREGUA,
)

# ---------------------------------------------------------------------- the box and the deck


def test_the_box_holds_what_the_rules_list() -> None:
    game = new()
    rules = game.ruleset
    assert [c.id for c in rules.colours] == ["rosso", "verde", "giallo", "blu", "viola", "nero"]
    assert (rules.min_players, rules.max_players) == (3, 6)
    assert dict(rules.supply) == {"tank": 50, "aircraft": 20, "submarine": 10, "flag": 20}
    assert dict(rules.costs) == {"tank": 1, "aircraft": 2, "submarine": 5}
    assert len(rules.explosion_faces) == 2
    counts: dict[str, int] = {}
    for card in rules.deck:
        counts[card.type] = counts.get(card.type, 0) + 1
    assert counts == {
        ARMA_SEGRETA: 12,
        MISSILI_BALISTICI: 6,
        SILURO_KILLER: 12,
        SCUDO_SPAZIALE: 6,
        SUPER_PRODUZIONE: 12,
        TREGUA: 6,
        TRADIMENTO: 6,
    }


def test_every_card_shows_two_colours_and_each_colour_is_on_twenty_cards() -> None:
    deck = new().ruleset.deck
    assert len(deck) == 60
    assert all(len(set(card.colours)) == 2 for card in deck)
    for colour in ("rosso", "verde", "giallo", "blu", "viola", "nero"):
        assert sum(colour in card.colours for card in deck) == 20


# ---------------------------------------------------------------------- setup


def test_a_drawn_card_decides_who_places_the_first_flag() -> None:
    """Cards are turned until one shows a playing colour; a colour on it plays first (by lot
    when both do: tests/unit/test_futurisiko_order.py), the others clockwise."""
    for seed in (b"a", b"b", b"c", b"d"):
        game = new(3, seed)
        drawn = of_type(game.initial_events, fe.OrderDrawn)[0]
        playing = {game.colours[seat]: seat for seat in range(3)}
        pairs = [drawn.colours[n : n + 2] for n in range(0, len(drawn.colours), 2)]
        *missed, decisive = pairs
        assert all(not set(colours) & set(playing) for colours in missed)
        first = drawn.order[0]
        assert game.colours[first] in decisive
        assert drawn.order == tuple((first + step) % 3 for step in range(3))
        assert (game.phase, game.current) == (Phase.SETUP, first)


def test_each_player_places_one_flag_then_the_first_round_skips_the_cards() -> None:
    game = new(3)
    placed = []
    while game.phase is Phase.SETUP:
        family = game.legal_actions(game.current)[0]
        assert isinstance(family, LegalPlaceFlag)
        placed.append(game.current)
        game.apply(game.current, family.ready())
    assert sorted(placed) == [0, 1, 2]
    assert [game.territories_held(seat) for seat in range(3)] == [1, 1, 1]
    assert (game.round, game.phase) == (1, PRODUCTION)
    assert game.points_left == 1


def test_a_flag_goes_on_a_free_territory_only() -> None:
    game = new(3)
    first = game.current
    game.apply(first, fa.PlaceFlag("california"))
    assert_rejected(game, game.current, fa.PlaceFlag("california"), "NOT_YOUR_TERRITORY")
    assert_rejected(game, game.current, fa.PlaceFlag("pacifico_nord"), "WRONG_KIND_OF_SPACE")


def test_the_fill_board_option_places_flags_until_every_territory_has_one() -> None:
    game = new(3, fill_board=True)
    while game.phase is Phase.SETUP:
        game.apply(game.current, game.legal_actions(game.current)[0].ready())
    assert sorted(game.territories_held(seat) for seat in range(3)) == [12, 12, 12]
    assert game.phase is PRODUCTION


# ---------------------------------------------------------------------- the round


def test_each_round_draws_its_order_and_every_phase_goes_round_the_table() -> None:
    game = new(3)
    while game.phase is Phase.SETUP:
        game.apply(game.current, game.legal_actions(game.current)[0].ready())
    seen: list[tuple[int, str, int]] = []
    events: list[e.Event] = []
    while game.round < 3:
        seen.append((game.round, game.phase.value, game.current))
        events += game.apply(game.current, a.EndTurn())
    orders = [event.order for event in of_type(events, fe.OrderDrawn)]
    first, second = game.order, orders[0]
    assert len(orders) == 2
    assert orders[-1] == tuple(first)
    round_one = [(r, p, s) for r, p, s in seen if r == 1]
    assert [p for _, p, _ in round_one] == ["production"] * 3 + ["movement"] * 3
    round_two = [(p, s) for r, p, s in seen if r == 2]
    assert [s for _, s in round_two] == list(second) * 2  # no cards yet: hands are empty


def test_the_cards_phase_deals_one_card_per_three_flags_after_an_optional_discard() -> None:
    game = blank(CARDS, seat=0)
    for territory in ("california", "messico", "stati_uniti", "peru", "brasile", "venezuela"):
        flag(game, territory, 0)
    [kept, dropped] = give(game, 0, TREGUA, ARMA_SEGRETA)
    assert_rejected(game, 0, fa.ReceiveCards("siluro_killer_01"), "CARD_NOT_IN_HAND")
    events = game.apply(0, fa.ReceiveCards(dropped))
    assert of_type(events, fe.CardDiscarded)[0].card == dropped
    dealt = of_type(events, fe.CardsDealt)[0]
    assert (dealt.discarded, dealt.received, dealt.hand_size) == (1, 1, 2)  # 6 flags: 2 cards
    assert kept in game.hands[0]
    assert dropped in game.discard_pile


def test_a_seat_with_no_card_is_dealt_at_once_without_being_asked() -> None:
    game = blank(CARDS, seat=0)
    for territory in ("california", "messico", "stati_uniti"):
        flag(game, territory, 1)
    flag(game, "peru", 0)
    give(game, 0, TREGUA)
    events = game.apply(0, fa.ReceiveCards(""))
    assert game.current == 2 or game.phase is PRODUCTION  # seat 1 was dealt and passed
    assert len(game.hands[1]) == 1
    assert of_type(events, fe.CardsDealt)[1].seat == 1


# ---------------------------------------------------------------------- production


def test_production_points_are_one_per_flag_and_units_cost_one_two_and_five() -> None:
    game = blank(PRODUCTION, seat=0)
    for territory in ("california", "messico", "stati_uniti", "peru", "brasile", "venezuela"):
        flag(game, territory, 0)
    game.points_left = game.production_points(0)
    assert game.points_left == 6
    # The costs are public, in the order of the unit kinds (a client's production screen).
    view = game.state_view()
    assert dict(zip(game.UNIT_KINDS, view.unit_costs, strict=True)) == {  # type: ignore[attr-defined]
        TANK: 1,
        AIRCRAFT: 2,
        SUBMARINE: 5,
    }
    game.apply(0, fa.Produce("pacifico_nord", SUBMARINE, 1))
    assert game.points_left == 1
    assert_rejected(game, 0, fa.Produce("messico", AIRCRAFT, 1), "INVALID_ARMY_COUNT")
    game.apply(0, fa.Produce("messico", TANK, 1))
    assert game.points_left == 0
    assert count(game, "pacifico_nord", 0, SUBMARINE) == 1
    assert count(game, "messico", 0, TANK) == 1


def test_tanks_and_aircraft_go_on_own_territories_submarines_on_a_sea_next_to_one() -> None:
    game = blank(PRODUCTION, seat=0)
    flag(game, "california", 0)
    flag(game, "giappone", 1)
    game.points_left = 10
    assert_rejected(game, 0, fa.Produce("giappone", TANK, 1), "NOT_YOUR_TERRITORY")
    assert_rejected(game, 0, fa.Produce("messico", AIRCRAFT, 1), "NOT_YOUR_TERRITORY")
    assert_rejected(game, 0, fa.Produce("atlantico_nord", SUBMARINE, 1), "NOT_YOUR_TERRITORY")
    assert_rejected(game, 0, fa.Produce("pacifico_nord", TANK, 1), "NOT_YOUR_TERRITORY")
    assert_rejected(game, 0, fa.Produce("california", SUBMARINE, 1), "NOT_YOUR_TERRITORY")
    game.apply(0, fa.Produce("pacifico_nord", SUBMARINE, 1))
    game.apply(0, fa.Produce("california", AIRCRAFT, 2))
    assert game.points_left == 1


def test_production_respects_the_box() -> None:
    game = blank(PRODUCTION, seat=0)
    flag(game, "california", 0)
    put(game, "california", 0, AIRCRAFT, 19)
    game.points_left = 10
    families = {f.unit: f for f in game.legal_actions(0) if isinstance(f, LegalProduce)}
    assert families[AIRCRAFT].max_count == 1
    assert_rejected(game, 0, fa.Produce("california", AIRCRAFT, 2), "INVALID_ARMY_COUNT")


def test_super_produzione_doubles_the_points_of_the_round() -> None:
    game = blank(PRODUCTION, seat=0)
    flag(game, "california", 0)
    flag(game, "messico", 0)
    game.points_left = 2
    [card] = give(game, 0, SUPER_PRODUZIONE)
    game.apply(0, fa.PlayCard(SUPER_PRODUZIONE))
    assert game.points_left == 4
    assert card in game.discard_pile


def test_each_card_is_played_in_the_phase_the_rules_name() -> None:
    game = blank(MOVEMENT, seat=0)
    flag(game, "california", 0)
    give(game, 0, SUPER_PRODUZIONE, ARMA_SEGRETA)
    assert_rejected(game, 0, fa.PlayCard(SUPER_PRODUZIONE), "WRONG_PHASE")
    assert_rejected(game, 0, fa.PlayCard(ARMA_SEGRETA), "WRONG_PHASE")
    assert_rejected(game, 0, fa.PlayCard(SCUDO_SPAZIALE), "CARD_NOT_IN_HAND")


def test_a_card_whose_option_is_off_has_no_effect() -> None:
    game = blank(PRODUCTION, seat=0, super_produzione=False)
    flag(game, "california", 0)
    give(game, 0, SUPER_PRODUZIONE)
    assert_rejected(game, 0, fa.PlayCard(SUPER_PRODUZIONE), "OPTION_DISABLED")


# ---------------------------------------------------------------------- movement


def targets(game: object, source: str, unit: str) -> set[str]:
    from variants.futurisiko.game import FutuGame

    assert isinstance(game, FutuGame)
    for family in game.legal_actions(game.current):
        if isinstance(family, LegalMoveUnits) and (family.source, family.unit) == (source, unit):
            return set(family.targets)
    return set()


def test_a_tank_moves_one_step_over_land_or_a_black_line() -> None:
    game = blank()
    flag(game, "alaska", 0)
    put(game, "alaska", 0, TANK, 2)
    assert targets(game, "alaska", TANK) == {"canada_occidentale", "siberia_orientale"}
    assert_rejected(game, 0, fa.MoveUnits("alaska", "california", TANK, 1), "NOT_ADJACENT")
    assert_rejected(
        game, 0, fa.MoveUnits("alaska", "pacifico_nord", TANK, 1), "WRONG_KIND_OF_SPACE"
    )
    game.apply(0, fa.MoveUnits("alaska", "siberia_orientale", TANK, 1))  # Bering's black line
    assert count(game, "siberia_orientale", 0, TANK) == 1


def test_no_land_unit_reaches_the_two_true_islands() -> None:
    game = blank()
    put(game, "canada_orientale", 0, TANK)
    assert "groenlandia" not in targets(game, "canada_orientale", TANK)


def test_an_aircraft_flies_two_steps_across_the_pacific_but_never_ends_at_sea() -> None:
    game = blank()
    put(game, "california", 0, AIRCRAFT, 2)
    reach = targets(game, "california", AIRCRAFT)
    assert "giappone" in reach  # California - Pacifico Nord - Giappone: the board wraps
    assert not any(game.board.territory(t).is_sea for t in reach)
    assert_rejected(
        game, 0, fa.MoveUnits("california", "pacifico_nord", AIRCRAFT, 1), "WRONG_KIND_OF_SPACE"
    )
    assert_rejected(game, 0, fa.MoveUnits("california", "brasile", AIRCRAFT, 1), "NOT_ADJACENT")
    game.apply(0, fa.MoveUnits("california", "giappone", AIRCRAFT, 2))
    assert count(game, "giappone", 0, AIRCRAFT) == 2


def test_a_submarine_moves_one_step_between_seas() -> None:
    game = blank()
    put(game, "pacifico_nord", 0, SUBMARINE)
    assert targets(game, "pacifico_nord", SUBMARINE) == {
        "pacifico_sud",
        "mar_glaciale_artico",
        "mar_cinese",
    }
    assert_rejected(
        game, 0, fa.MoveUnits("pacifico_nord", "california", SUBMARINE, 1), "WRONG_KIND_OF_SPACE"
    )
    game.apply(0, fa.MoveUnits("pacifico_nord", "mar_cinese", SUBMARINE, 1))
    assert count(game, "mar_cinese", 0, SUBMARINE) == 1


def test_every_unit_moves_once_a_turn() -> None:
    game = blank()
    put(game, "california", 0, TANK, 3)
    game.apply(0, fa.MoveUnits("california", "messico", TANK, 2))
    assert_rejected(game, 0, fa.MoveUnits("messico", "venezuela", TANK, 1), "NOT_ENOUGH_ARMIES")
    assert_rejected(game, 0, fa.MoveUnits("california", "messico", TANK, 2), "INVALID_ARMY_COUNT")
    game.apply(0, fa.MoveUnits("california", "messico", TANK, 1))
    assert targets(game, "messico", TANK) == set()
    assert game.state_view().moved_spaces == ("messico",)  # type: ignore[attr-defined]


def test_an_amphibious_move_needs_an_own_submarine_on_that_sea_which_then_moves_no_more() -> None:
    game = blank()
    put(game, "california", 0, TANK, 2)
    put(game, "pacifico_nord", 1, SUBMARINE)  # an enemy's submarine carries nobody
    move = fa.AmphibiousMove("california", "giappone", "pacifico_nord", 2)
    assert_rejected(game, 0, move, "NOT_ENOUGH_ARMIES")
    put(game, "pacifico_nord", 0, SUBMARINE)
    assert_rejected(
        game, 0, fa.AmphibiousMove("california", "india", "pacifico_nord", 2), "NOT_ADJACENT"
    )
    assert any(isinstance(f, LegalAmphibiousMove) for f in game.legal_actions(0))
    events = game.apply(0, move)
    assert of_type(events, fe.UnitsMoved)[0].sea == "pacifico_nord"
    assert count(game, "giappone", 0, TANK) == 2
    assert_rejected(
        game, 0, fa.MoveUnits("pacifico_nord", "mar_cinese", SUBMARINE, 1), "NOT_ENOUGH_ARMIES"
    )
    assert_rejected(game, 0, fa.MoveUnits("giappone", "cina", TANK, 1), "NOT_ENOUGH_ARMIES")


def test_a_submarine_that_has_moved_carries_nobody() -> None:
    game = blank()
    put(game, "california", 0, TANK)
    put(game, "mar_cinese", 0, SUBMARINE)
    game.apply(0, fa.MoveUnits("mar_cinese", "pacifico_nord", SUBMARINE, 1))
    move = fa.AmphibiousMove("california", "giappone", "pacifico_nord", 1)
    assert_rejected(game, 0, move, "NOT_ENOUGH_ARMIES")


def test_no_unit_moves_once_the_combat_has_begun(monkeypatch: pytest.MonkeyPatch) -> None:
    script_dice(monkeypatch)
    game = blank()
    put(game, "california", 0, TANK, 2)
    put(game, "pacifico_nord", 0, SUBMARINE)
    put(game, "giappone", 1, TANK)
    game.apply(0, fa.Torpedo("pacifico_nord", "giappone", 1))
    assert game.phase is COMBAT
    assert_rejected(game, 0, fa.MoveUnits("california", "messico", TANK, 1), "WRONG_PHASE")


# ---------------------------------------------------------------------- naval combat


def test_each_submarine_fires_two_dice_once_a_turn_at_a_coast(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script_dice(monkeypatch, HIT, MISS, HIT, HIT)
    game = blank(COMBAT)
    put(game, "pacifico_nord", 0, SUBMARINE, 2)
    flag(game, "giappone", 1)
    put(game, "giappone", 1, TANK, 2)
    put(game, "giappone", 1, AIRCRAFT, 5)
    events = game.apply(0, fa.Torpedo("pacifico_nord", "giappone", 2))
    hit = of_type(events, fe.UnitsHit)[0]
    assert (len(hit.dice), hit.tanks_lost, hit.aircraft_lost) == (4, 2, 1)
    assert_rejected(game, 0, fa.Torpedo("pacifico_nord", "giappone", 1), "ONCE_PER_TURN")


def test_submarines_never_hit_a_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    script_dice(monkeypatch, HIT, HIT)
    game = blank(COMBAT)
    put(game, "pacifico_nord", 0, SUBMARINE)
    flag(game, "giappone", 1)
    put(game, "giappone", 1, TANK)
    flag(game, "california", 1)  # a flag alone is no target at all
    assert {f.targets for f in game.legal_actions(0) if isinstance(f, LegalTorpedo)} == {
        ("giappone",)
    }
    assert_rejected(game, 0, fa.Torpedo("pacifico_nord", "california", 1), "OWN_TERRITORY")
    game.apply(0, fa.Torpedo("pacifico_nord", "giappone", 1))
    assert count(game, "giappone", 1, TANK) == 0
    assert game.forces.owner[at(game, "giappone")] == 1


def test_submarines_sink_submarines_only_with_a_siluro_killer() -> None:
    game = blank(COMBAT)
    put(game, "pacifico_nord", 0, SUBMARINE)
    put(game, "pacifico_nord", 1, SUBMARINE, 2)
    assert not any(isinstance(f, LegalTorpedo) for f in game.legal_actions(0))
    give(game, 0, SILURO_KILLER)
    events = game.apply(0, fa.PlayCard(SILURO_KILLER, "pacifico_nord", 1))
    assert of_type(events, fe.SubmarineSunk)[0].owner == 1
    assert count(game, "pacifico_nord", 1, SUBMARINE) == 1


# ---------------------------------------------------------------------- land and air combat


def test_the_side_with_more_aircraft_fires_first_the_defender_on_a_tie(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for attacking, defending, attacker_first in ((2, 1, True), (1, 1, False), (0, 0, False)):
        script_dice(monkeypatch, *[HIT] * 40)
        game = blank(COMBAT, arma_segreta=False)
        flag(game, "messico", 1)
        put(game, "messico", 1, TANK)
        put(game, "messico", 1, AIRCRAFT, defending)
        put(game, "messico", 0, TANK, 2)
        put(game, "messico", 0, AIRCRAFT, attacking)  # every die hits: who fires first wins
        fought = of_type(game.apply(0, fa.Battle("messico")), fe.BattleFought)[0]
        assert fought.attacker_first is attacker_first
        assert fought.attacker_won is attacker_first


def test_the_defender_rolls_a_die_per_unit_and_two_for_its_flag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script_dice(monkeypatch, MISS, MISS, MISS, MISS, HIT, HIT, HIT)
    game = blank(COMBAT, arma_segreta=False)
    flag(game, "messico", 1)
    put(game, "messico", 1, TANK, 2)
    put(game, "messico", 0, TANK, 3)
    fought = of_type(game.apply(0, fa.Battle("messico")), fe.BattleFought)[0]
    # The defender fires first (no aircraft): 2 units + 2 for the flag; then the attacker's 3.
    assert [len(volley) for volley in fought.volleys[:2]] == [4, 3]
    assert (fought.defender_tanks_lost, fought.flag_taken, fought.attacker_won) == (2, True, True)


def test_the_flag_falls_only_once_every_defending_unit_is_destroyed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The attacker (more aircraft) fires first: 2 hits on 2 units leave the flag standing;
    # the defender's flag dice miss; the attacker's next hit takes the flag.
    script_dice(monkeypatch, HIT, HIT, MISS, MISS, MISS, HIT, MISS, MISS)
    game = blank(COMBAT, arma_segreta=False)
    flag(game, "messico", 1)
    put(game, "messico", 1, TANK, 2)
    put(game, "messico", 0, AIRCRAFT, 3)
    events = game.apply(0, fa.Battle("messico"))
    fought = of_type(events, fe.BattleFought)[0]
    assert len(fought.volleys) == 3
    assert (fought.flag_taken, fought.attacker_won) == (True, True)
    assert of_type(events, fe.FlagPlaced)[0] == fe.FlagPlaced(0, "messico", "conquest")
    assert game.forces.owner[at(game, "messico")] == 0


def test_extra_hits_beyond_the_units_take_the_flag_in_the_same_volley(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script_dice(monkeypatch, HIT, HIT, HIT)
    game = blank(COMBAT, arma_segreta=False)
    flag(game, "messico", 1)
    put(game, "messico", 1, TANK, 2)
    put(game, "messico", 0, AIRCRAFT, 3)
    fought = of_type(game.apply(0, fa.Battle("messico")), fe.BattleFought)[0]
    assert (len(fought.volleys), fought.flag_taken) == (1, True)


def test_the_defender_wins_by_destroying_every_attacker(monkeypatch: pytest.MonkeyPatch) -> None:
    script_dice(monkeypatch, HIT, HIT, HIT)
    game = blank(COMBAT, arma_segreta=False)
    flag(game, "messico", 1)
    put(game, "messico", 1, TANK)
    put(game, "messico", 0, TANK, 2)
    fought = of_type(game.apply(0, fa.Battle("messico")), fe.BattleFought)[0]
    assert (fought.attacker_won, fought.attacker_tanks_lost) == (False, 2)
    assert game.forces.owner[at(game, "messico")] == 1
    assert game.battles_left() == []


def test_losses_take_tanks_first_or_aircraft_first_by_option(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for losses, lost in (("tanks_first", (1, 0)), ("aircraft_first", (0, 1))):
        script_dice(monkeypatch, HIT, HIT)
        game = blank(COMBAT, losses=losses)
        put(game, "pacifico_nord", 0, SUBMARINE)
        put(game, "giappone", 1, TANK)
        put(game, "giappone", 1, AIRCRAFT)
        game.apply(0, fa.Torpedo("pacifico_nord", "giappone", 1))
        hit = (count(game, "giappone", 1, TANK), count(game, "giappone", 1, AIRCRAFT))
        assert (1 - hit[0], 1 - hit[1]) == (1, 1)  # two hits: both gone
        script_dice(monkeypatch, HIT, MISS)
        game = blank(COMBAT, losses=losses)
        put(game, "pacifico_nord", 0, SUBMARINE)
        put(game, "giappone", 1, TANK)
        put(game, "giappone", 1, AIRCRAFT)
        hit_event = of_type(game.apply(0, fa.Torpedo("pacifico_nord", "giappone", 1)), fe.UnitsHit)[
            0
        ]
        assert (hit_event.tanks_lost, hit_event.aircraft_lost) == lost


def test_every_battle_is_fought_before_the_turn_ends() -> None:
    game = blank()
    flag(game, "messico", 1)
    put(game, "california", 0, TANK)
    game.apply(0, fa.MoveUnits("california", "messico", TANK, 1))
    assert game.battles_left() == [at(game, "messico")]
    assert_rejected(game, 0, a.EndTurn(), "BATTLES_PENDING")
    assert [f for f in game.legal_actions(0) if isinstance(f, LegalBattle)]


def test_a_free_territory_where_only_your_units_stand_takes_your_flag_at_the_end() -> None:
    game = blank()
    flag(game, "california", 0)
    put(game, "california", 0, TANK, 2)
    game.apply(0, fa.MoveUnits("california", "messico", TANK, 1))
    events = game.apply(0, a.EndTurn())
    assert of_type(events, fe.FlagPlaced)[0] == fe.FlagPlaced(0, "messico", "occupation")


# ---------------------------------------------------------------------- the defender's cards


def test_every_defender_is_asked_before_the_dice_holding_cards_or_not() -> None:
    game = blank(COMBAT)
    flag(game, "messico", 1)
    put(game, "messico", 0, TANK, 3)
    game.apply(0, fa.Battle("messico"))
    [prompt] = game.prompts()
    assert prompt.seat == 1
    assert prompt.answers == LegalBattleCards("messico", ())
    assert prompt.default == fa.BattleCards(())


def test_arma_segreta_adds_two_dice_to_every_volley_of_its_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script_dice(monkeypatch, *[MISS] * 9, *[HIT] * 12)
    game = blank(COMBAT)
    flag(game, "messico", 1)
    put(game, "messico", 1, TANK)
    put(game, "messico", 0, TANK, 3)
    [attacker_card] = give(game, 0, ARMA_SEGRETA)
    [defender_card] = give(game, 1, ARMA_SEGRETA)
    game.apply(0, fa.Battle("messico", (ARMA_SEGRETA,)))
    assert game.legal_actions(1) == [LegalBattleCards("messico", (ARMA_SEGRETA,))]
    events = game.apply(1, fa.BattleCards((ARMA_SEGRETA,)))
    fought = of_type(events, fe.BattleFought)[0]
    assert [len(v) for v in fought.volleys[:2]] == [1 + 2 + 2, 3 + 2]
    assert fought.defender_cards == (defender_card,)
    assert {attacker_card, defender_card} <= set(game.discard_pile)


def test_missili_balistici_hit_units_never_the_flag_and_the_scudo_stops_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script_dice(monkeypatch, HIT, HIT, HIT)
    game = blank(PRODUCTION)
    flag(game, "california", 0)
    flag(game, "messico", 1)
    put(game, "messico", 1, TANK, 2)
    give(game, 0, MISSILI_BALISTICI, MISSILI_BALISTICI)
    assert_rejected(game, 0, fa.PlayCard(MISSILI_BALISTICI, "india"), "NOT_ADJACENT")
    events = game.apply(0, fa.PlayCard(MISSILI_BALISTICI, "messico"))
    assert of_type(events, fe.UnitsHit)[0].tanks_lost == 2
    assert game.forces.owner[at(game, "messico")] == 1
    put(game, "messico", 1, TANK, 2)
    game.shields[1] = 1  # a Scudo Spaziale played in seat 1's production
    game.played = []
    hit = of_type(game.apply(0, fa.PlayCard(MISSILI_BALISTICI, "messico")), fe.UnitsHit)[0]
    assert (hit.dice, hit.tanks_lost, game.shields[1]) == ((), 0, 0)


def test_scudo_spaziale_is_raised_in_production_once_a_round() -> None:
    game = blank(PRODUCTION)
    flag(game, "california", 0)
    give(game, 0, SCUDO_SPAZIALE, SCUDO_SPAZIALE)
    game.apply(0, fa.PlayCard(SCUDO_SPAZIALE))
    assert game.shields[0] == 1
    game.played = []
    assert_rejected(game, 0, fa.PlayCard(SCUDO_SPAZIALE), "ONCE_PER_TURN")


def test_a_truce_keeps_out_unless_a_tradimento_breaks_it_in_battle() -> None:
    game = blank(CARDS)
    flag(game, "california", 0)
    flag(game, "messico", 1)
    put(game, "california", 0, TANK, 3)
    give(game, 0, TREGUA)
    game.apply(0, fa.PlayCard(TREGUA, "", 1))
    assert game.truces == [[0, 1]]
    game.phase, game.phase_position, game.current = MOVEMENT, 2, 0
    game.forces.new_turn()
    assert "messico" not in targets(game, "california", TANK)
    assert_rejected(game, 0, fa.MoveUnits("california", "messico", TANK, 3), "TRUCE")
    [betrayal] = give(game, 0, TRADIMENTO)
    assert betrayal.startswith(TRADIMENTO)
    game.apply(0, fa.MoveUnits("california", "messico", TANK, 3))
    assert [f for f in game.legal_actions(0) if isinstance(f, LegalBattle)] == [
        LegalBattle("messico", (TRADIMENTO,), TRADIMENTO)
    ]
    assert_rejected(game, 0, fa.Battle("messico"), "TRUCE")
    declared = of_type(game.apply(0, fa.Battle("messico", (TRADIMENTO,))), fe.BattleDeclared)
    assert declared[0].cards == (betrayal,)
    assert game.truces == []


# ---------------------------------------------------------------------- the end


def test_the_first_to_hold_twenty_territories_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    script_dice(monkeypatch, HIT)
    game = blank(COMBAT)
    lands = [land.id for land in game.board.lands]
    for territory in lands[:19]:
        flag(game, territory, 0)
    flag(game, lands[-1], 1)
    flag(game, lands[-2], 2)
    put(game, lands[-1], 0, AIRCRAFT)
    game.apply(0, fa.Battle(lands[-1]))
    events = game.apply(1, fa.BattleCards(()))
    assert (game.is_over, game.winner, game.end_reason) == (True, 0, "territories")
    assert isinstance(events[-1], e.GameEnded)


def test_a_player_without_flags_is_out_and_the_last_one_standing_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script_dice(monkeypatch, HIT)
    game = blank(COMBAT, arma_segreta=False)
    flag(game, "california", 0)
    flag(game, "messico", 1)
    put(game, "pacifico_nord", 1, SUBMARINE)  # its units leave the board with it
    game.eliminated[2] = True
    put(game, "messico", 0, AIRCRAFT)
    events = game.apply(0, fa.Battle("messico"))
    assert of_type(events, fe.UnitsRemoved)[0].submarines == 1
    assert of_type(events, e.PlayerEliminated)[0].seat == 1
    assert (game.winner, game.end_reason) == (0, "last_player")


def test_one_tradimento_breaks_one_truce_so_it_lets_in_against_one_player() -> None:
    game = blank()
    flag(game, "messico", 1)
    flag(game, "canada_occidentale", 2)
    put(game, "california", 0, TANK, 2)
    game.truces = [[0, 1], [0, 2]]
    give(game, 0, TRADIMENTO)
    game.apply(0, fa.MoveUnits("california", "messico", TANK, 1))
    assert "canada_occidentale" not in targets(game, "california", TANK)
    move = fa.MoveUnits("california", "canada_occidentale", TANK, 1)
    assert_rejected(game, 0, move, "TRUCE")
    give(game, 0, TRADIMENTO)
    game.apply(0, move)
    assert len([f for f in game.legal_actions(0) if isinstance(f, LegalBattle)]) == 2
