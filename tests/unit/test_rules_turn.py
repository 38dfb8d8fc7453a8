"""Rule tests for a turn of classic RisiKo!: reinforcements, trading cards, the strategic move,
the end of the turn and the card drawn after a conquest, the order of turns and rounds.
Every position is built by hand; every test fails if its rule is broken."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from domain import actions as a
from domain import events as e
from domain.flow import Phase
from domain.legal import LegalAttack, LegalEndTurn, LegalPlace, LegalStrategicMove, LegalTrade
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

# --------------------------------------------------------------------------- helpers


def position(
    owners: Mapping[str, int],
    armies: Mapping[str, int] | None = None,
    *,
    players: int = 4,
    first_player: int = 0,
    objective: str = "territories_18_2",
    current: int = 0,
    phase: Phase = Phase.ATTACK,
    round: int = 5,
    pending: int = 0,
    hands: Mapping[int, list[str]] | None = None,
    others: int | None = None,
) -> ClassicGame:
    """A hand-made position (see `arrange`) with a known turn order and every seat on the
    same objective (by default one that plain positions with one army a territory cannot meet)."""
    game = new_game(players, seed=b"turn-rules")
    game.first_player = first_player
    arrange(
        game,
        owners,
        armies,
        others=others,
        current=current,
        phase=phase,
        round=round,
        pending=pending,
        hands=hands,
    )
    game.objectives = [objective] * players
    game.objective_cards = list(game.objectives)
    return game


def turn_started(events: Sequence[e.Event]) -> e.TurnStarted:
    started = [event for event in events if isinstance(event, e.TurnStarted)]
    assert len(started) == 1
    return started[0]


def scattered(count: int) -> list[str]:
    """`count` territories (up to 36) that complete no continent: never every territory of one."""
    pools = [list(region.territories[:-1]) for region in BOARD.regions]
    chosen: list[str] = []
    while len(chosen) < count:
        for pool in pools:
            if pool and len(chosen) < count:
                chosen.append(pool.pop(0))
    return chosen


# A position for a turn with a conquest: seat 0 attacks Kamchatka (seat 1) from Alaska.
ATTACKER = {"alaska": 0, "alberta": 0, "kamchatka": 1, "giappone": 1, "jacuzia": 1, "cina": 2}
ATTACKER_ARMIES = {"alaska": 3, "alberta": 3, "kamchatka": 1, "giappone": 1}


def conquer_kamchatka(game: ClassicGame, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0 takes Kamchatka with two dice (6 5 against 1): the two armies move in at once."""
    force_dice(monkeypatch, 6, 5, 1)
    events = game.apply(0, a.Attack("alaska", "kamchatka", 2))
    assert of_type(events, e.TerritoryConquered)
    assert game.phase is Phase.ATTACK


# --------------------------------------------------------------------------- reinforcements


def start_turn_of_seat_0(owners: Mapping[str, int]) -> tuple[ClassicGame, list[e.Event]]:
    """Seat 3 (last in turn order) ends its turn; seat 0's turn starts."""
    game = position(owners, current=3)
    events = game.apply(3, a.EndTurn())
    return game, events


@pytest.mark.parametrize(
    ("territories", "reinforcements"),
    [(1, 0), (2, 0), (3, 1), (5, 1), (6, 2), (11, 3), (12, 4), (14, 4), (20, 6), (36, 12)],
)
def test_reinforcements_are_territories_divided_by_three_without_a_minimum(
    territories: int, reinforcements: int
) -> None:
    game, events = start_turn_of_seat_0(dict.fromkeys(scattered(territories), 0))
    assert turn_started(events) == e.TurnStarted(0, 6, reinforcements, reinforcements, ())
    assert game.pending_reinforcements == reinforcements
    assert game.phase is Phase.REINFORCE


CONTINENT_BONUS = [
    ("america_del_nord", 5),
    ("america_del_sud", 2),
    ("europa", 5),
    ("africa", 3),
    ("asia", 7),
    ("oceania", 2),
]


@pytest.mark.parametrize(("region_id", "bonus"), CONTINENT_BONUS)
def test_a_whole_continent_gives_its_bonus(region_id: str, bonus: int) -> None:
    members = BOARD.region(region_id).territories
    game, events = start_turn_of_seat_0(dict.fromkeys(members, 0))
    from_territories = len(members) // 3
    assert turn_started(events) == e.TurnStarted(
        0, 6, from_territories + bonus, from_territories, ((region_id, bonus),)
    )
    assert game.pending_reinforcements == from_territories + bonus


@pytest.mark.parametrize(("region_id", "bonus"), CONTINENT_BONUS)
def test_a_continent_missing_one_territory_gives_no_bonus(region_id: str, bonus: int) -> None:
    members = BOARD.region(region_id).territories
    _, events = start_turn_of_seat_0(dict.fromkeys(members[1:], 0))
    started = turn_started(events)
    assert started.from_regions == ()
    assert started.reinforcements == (len(members) - 1) // 3


def test_several_continents_add_their_bonuses() -> None:
    regions = ["america_del_sud", "africa", "oceania"]
    owners = {t: 0 for r in regions for t in BOARD.region(r).territories}
    owners["islanda"] = 0  # 15 territories: 5
    game, events = start_turn_of_seat_0(owners)
    assert turn_started(events) == e.TurnStarted(
        0, 6, 5 + 2 + 3 + 2, 5, (("america_del_sud", 2), ("africa", 3), ("oceania", 2))
    )
    assert game.pending_reinforcements == 12


PENDING_OWNERS = {"alaska": 0, "alberta": 0, "kamchatka": 1, "giappone": 1, "cina": 2}
PENDING_ARMIES = {"alaska": 3, "alberta": 3}


@pytest.mark.parametrize(
    "action",
    [
        a.Attack("alaska", "kamchatka", 1),
        a.AttackUntil("alaska", "kamchatka", 2, 1),
        a.StrategicMove("alaska", "alberta", 1),
        a.EndTurn(),
    ],
    ids=["attack", "attack_until", "strategic_move", "end_turn"],
)
def test_every_reinforcement_must_be_placed_first(action: a.Action) -> None:
    game = position(PENDING_OWNERS, PENDING_ARMIES, phase=Phase.REINFORCE, pending=3)
    assert_rejected(game, 0, action, "REINFORCEMENTS_PENDING")
    game.apply(0, a.PlaceArmies("alaska", 2))
    assert_rejected(game, 0, action, "REINFORCEMENTS_PENDING")
    game.apply(0, a.PlaceArmies("alberta", 1))
    assert game.pending_reinforcements == 0
    game.apply(0, action)  # now allowed


def test_while_reinforcements_are_pending_only_placing_and_trading_are_legal() -> None:
    game = position(
        PENDING_OWNERS,
        PENDING_ARMIES,
        phase=Phase.REINFORCE,
        pending=3,
        hands={0: ["quebec", "venezuela", "brasile"]},
    )
    legal = game.legal_actions(0)
    assert {type(family) for family in legal} == {LegalPlace, LegalTrade}
    place = next(family for family in legal if isinstance(family, LegalPlace))
    assert sorted(place.territories) == ["alaska", "alberta"]
    assert (place.min_armies, place.max_armies) == (1, 3)
    game.apply(0, a.PlaceArmies("alaska", 3))
    kinds = {type(family) for family in game.legal_actions(0)}
    assert {LegalAttack, LegalStrategicMove, LegalEndTurn} <= kinds


def test_reinforcements_may_be_split_over_several_placements() -> None:
    game = position(PENDING_OWNERS, PENDING_ARMIES, phase=Phase.REINFORCE, pending=5)
    assert game.apply(0, a.PlaceArmies("alaska", 2)) == [e.ArmiesPlaced(0, "alaska", 2)]
    assert game.apply(0, a.PlaceArmies("alberta", 3)) == [e.ArmiesPlaced(0, "alberta", 3)]
    assert (armies_on(game, "alaska"), armies_on(game, "alberta")) == (5, 6)
    assert game.pending_reinforcements == 0
    assert game.phase is Phase.REINFORCE


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (0, a.PlaceArmies("alaska", 4), "INVALID_ARMY_COUNT"),
        (0, a.PlaceArmies("alaska", 0), "INVALID_ARMY_COUNT"),
        (0, a.PlaceArmies("kamchatka", 1), "NOT_YOUR_TERRITORY"),
        (0, a.PlaceArmies("atlantide", 1), "UNKNOWN_TERRITORY"),
        (1, a.PlaceArmies("kamchatka", 1), "NOT_YOUR_TURN"),
        (None, a.PlaceArmies("alaska", 1), "NOT_YOUR_TURN"),
    ],
)
def test_placing_reinforcements_rejections(seat: int | None, action: a.Action, code: str) -> None:
    game = position(PENDING_OWNERS, PENDING_ARMIES, phase=Phase.REINFORCE, pending=3)
    assert_rejected(game, seat, action, code)


def test_no_armies_can_be_placed_when_none_are_left() -> None:
    game = position(PENDING_OWNERS, PENDING_ARMIES, phase=Phase.REINFORCE, pending=0)
    assert_rejected(game, 0, a.PlaceArmies("alaska", 1), "INVALID_ARMY_COUNT")


def test_no_armies_can_be_placed_in_the_attack_phase() -> None:
    game = position(PENDING_OWNERS, PENDING_ARMIES, phase=Phase.ATTACK)
    assert_rejected(game, 0, a.PlaceArmies("alaska", 1), "WRONG_PHASE")


# --------------------------------------------------------------------------- cards

# Symbols (rules.json): cannoni quebec, venezuela, brasile; fanti alaska, alberta, argentina;
# cavalli groenlandia, ontario, peru. Seat 0 owns none of them unless a test says so.
CANNONI = ("quebec", "venezuela", "brasile")
FANTI = ("alaska", "alberta", "argentina")
CAVALLI = ("groenlandia", "ontario", "peru")
HAND = [*CANNONI, *FANTI, *CAVALLI, "jolly_1", "jolly_2"]
CARD_OWNERS = {"giappone": 0, "kamchatka": 0, "cina": 1, "india": 1, "siam": 2}


def card_position(
    hand: list[str] | None = None, owners: Mapping[str, int] | None = None, **kwargs: object
) -> ClassicGame:
    game = position(
        owners or CARD_OWNERS,
        {"giappone": 3, "kamchatka": 3},
        phase=Phase.REINFORCE,
        hands={0: list(HAND if hand is None else hand), 1: ["siberia", "urali", "cita"]},
    )
    for name, value in kwargs.items():
        setattr(game, name, value)
    return game


@pytest.mark.parametrize(
    ("cards", "armies"),
    [
        (CANNONI, 4),
        (FANTI, 6),
        (CAVALLI, 8),
        (("quebec", "alaska", "groenlandia"), 10),
        (("jolly_1", "quebec", "venezuela"), 12),
        (("alaska", "jolly_2", "alberta"), 12),
        (("groenlandia", "ontario", "jolly_1"), 12),
    ],
    ids=[
        "3 cannoni",
        "3 fanti",
        "3 cavalli",
        "one of each",
        "jolly+cannoni",
        "jolly+fanti",
        "jolly+cavalli",
    ],
)
def test_card_sets_are_worth_their_armies(cards: tuple[str, str, str], armies: int) -> None:
    game = card_position()
    events = game.apply(0, a.TradeCards(cards))
    assert events == [e.CardsTraded(0, cards, armies, 0)]
    assert game.pending_reinforcements == armies
    assert all(card not in game.hands[0] for card in cards)
    assert len(game.hands[0]) == len(HAND) - 3
    assert game.phase is Phase.REINFORCE


@pytest.mark.parametrize(
    "cards",
    [
        ("jolly_1", "alaska", "quebec"),  # jolly + two different
        ("jolly_1", "jolly_2", "alaska"),  # two jolly + one
        ("jolly_1", "jolly_2", "quebec"),
        ("alaska", "alberta", "quebec"),  # two fanti + a cannone
        ("groenlandia", "ontario", "alaska"),  # two cavalli + a fante
        ("quebec", "venezuela", "peru"),  # two cannoni + a cavallo
        ("alaska", "alaska", "alberta"),  # one card twice
    ],
)
def test_other_triples_are_not_a_set(cards: tuple[str, str, str]) -> None:
    game = card_position()
    assert_rejected(game, 0, a.TradeCards(cards), "INVALID_CARD_SET")


@pytest.mark.parametrize(
    ("owned", "bonus"),
    [((), 0), (("alaska",), 2), (("alaska", "argentina"), 4), (FANTI, 6)],
)
def test_each_card_of_an_occupied_territory_adds_two_armies(
    owned: tuple[str, ...], bonus: int
) -> None:
    game = card_position(owners={**CARD_OWNERS, **dict.fromkeys(owned, 0)})
    events = game.apply(0, a.TradeCards(FANTI))
    assert events == [e.CardsTraded(0, FANTI, 6, bonus)]
    assert game.pending_reinforcements == 6 + bonus


def test_a_jolly_shows_no_territory_and_adds_nothing() -> None:
    game = card_position(owners={**CARD_OWNERS, "quebec": 0, "venezuela": 0})
    events = game.apply(0, a.TradeCards(("jolly_1", "quebec", "venezuela")))
    assert events == [e.CardsTraded(0, ("jolly_1", "quebec", "venezuela"), 12, 4)]
    assert game.pending_reinforcements == 16


def test_the_legal_trades_state_their_value_with_the_bonus() -> None:
    game = card_position(hand=list(FANTI), owners={**CARD_OWNERS, "alaska": 0})
    trades = [family for family in game.legal_actions(0) if isinstance(family, LegalTrade)]
    assert trades == [LegalTrade(FANTI, 8)]


def test_traded_cards_go_to_the_discard_pile() -> None:
    game = card_position()
    deck = list(game.deck)
    game.apply(0, a.TradeCards(CAVALLI))
    assert game.discard == list(CAVALLI)
    game.apply(0, a.TradeCards(CANNONI))
    assert game.discard == [*CAVALLI, *CANNONI]
    assert game.deck == deck


def test_several_sets_may_be_traded_in_one_turn() -> None:
    game = card_position()
    game.apply(0, a.TradeCards(CANNONI))
    game.apply(0, a.TradeCards(FANTI))
    game.apply(0, a.TradeCards(("groenlandia", "ontario", "jolly_1")))
    assert game.pending_reinforcements == 4 + 6 + 12
    assert game.hands[0] == ["peru", "jolly_2"]


def test_a_set_may_be_traded_after_every_reinforcement_was_placed() -> None:
    game = card_position(pending_reinforcements=2)
    game.apply(0, a.PlaceArmies("giappone", 2))
    assert game.phase is Phase.REINFORCE
    game.apply(0, a.TradeCards(CAVALLI))
    assert game.pending_reinforcements == 8
    assert_rejected(game, 0, a.EndTurn(), "REINFORCEMENTS_PENDING")


def test_no_trade_after_the_first_attack(monkeypatch: pytest.MonkeyPatch) -> None:
    game = card_position()
    force_dice(monkeypatch, 1, 6)  # the attack fails: nothing conquered
    game.apply(0, a.Attack("kamchatka", "jacuzia", 1))
    assert game.phase is Phase.ATTACK
    assert_rejected(game, 0, a.TradeCards(CANNONI), "WRONG_PHASE")


@pytest.mark.parametrize("phase", [Phase.ATTACK, Phase.OCCUPY])
def test_no_trade_outside_the_reinforcement_phase(phase: Phase) -> None:
    game = card_position(phase=phase)
    if phase is Phase.OCCUPY:
        jacuzia = BOARD.index["jacuzia"]
        game.owner[jacuzia] = 0
        game.armies[jacuzia] = 0
        game.pending_conquest = (BOARD.index["kamchatka"], jacuzia, 1, 2)
    assert_rejected(game, 0, a.TradeCards(CANNONI), "WRONG_PHASE")


@pytest.mark.parametrize(
    ("seat", "cards", "code"),
    [
        (0, ("siberia", "urali", "cita"), "CARD_NOT_IN_HAND"),  # seat 1's cards
        (0, ("quebec", "venezuela", "scandinavia"), "CARD_NOT_IN_HAND"),  # in the deck
        (0, ("quebec", "venezuela", "jolly_3"), "CARD_NOT_IN_HAND"),  # no such card
        (1, ("siberia", "urali", "cita"), "NOT_YOUR_TURN"),
    ],
)
def test_trading_rejections(seat: int, cards: tuple[str, str, str], code: str) -> None:
    game = card_position()
    assert_rejected(game, seat, a.TradeCards(cards), code)


# --------------------------------------------------------------------------- card draw


def test_one_card_is_drawn_at_the_end_of_a_turn_with_a_conquest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = position(ATTACKER, ATTACKER_ARMIES)
    top = game.deck[-1]
    size = len(game.deck)
    conquer_kamchatka(game, monkeypatch)
    events = game.apply(0, a.EndTurn())
    drawn = of_type(events, e.CardDrawn)
    received = of_type(events, e.CardsReceived)
    assert drawn == [e.CardDrawn(0, 1)]
    assert received == [e.CardsReceived(0, (top,))]
    assert drawn[0].visible_to is None  # public: someone drew
    assert received[0].visible_to == 0  # private: which card
    assert not received[0].is_visible_to(1)
    assert not received[0].is_visible_to(None)
    assert game.hands[0] == [top]
    assert len(game.deck) == size - 1
    assert events.index(received[0]) < events.index(e.TurnEnded(0))


def test_only_one_card_however_many_conquests(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position(ATTACKER, {**ATTACKER_ARMIES, "alberta": 1, "alaska": 6})
    force_dice(monkeypatch, 6, 5, 1, 6, 5)
    game.apply(0, a.Attack("alaska", "kamchatka", 2))
    game.apply(0, a.Occupy(2))
    game.apply(0, a.Attack("kamchatka", "giappone", 1))
    assert [owner_of(game, t) for t in ("kamchatka", "giappone")] == [0, 0]
    events = game.apply(0, a.EndTurn())
    assert len(of_type(events, e.CardDrawn)) == 1
    assert len(game.hands[0]) == 1


def test_no_card_without_a_conquest(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position(ATTACKER, ATTACKER_ARMIES)
    deck = list(game.deck)
    force_dice(monkeypatch, 1, 6)
    game.apply(0, a.Attack("alaska", "kamchatka", 1))  # lost
    events = game.apply(0, a.EndTurn())
    assert not of_type(events, e.CardDrawn)
    assert not of_type(events, e.CardsReceived)
    assert game.hands[0] == []
    assert game.deck == deck


def test_the_strategic_move_after_a_conquest_also_draws_a_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = position(ATTACKER, ATTACKER_ARMIES)
    top = game.deck[-1]
    conquer_kamchatka(game, monkeypatch)
    events = game.apply(0, a.StrategicMove("alberta", "alaska", 2))
    assert of_type(events, e.CardsReceived) == [e.CardsReceived(0, (top,))]


def test_a_conquest_earns_a_card_only_in_its_own_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position(ATTACKER, ATTACKER_ARMIES)
    conquer_kamchatka(game, monkeypatch)
    game.apply(0, a.EndTurn())
    assert game.pending_reinforcements == 0  # Giappone and Jacuzia: nothing to place
    events = game.apply(1, a.EndTurn())
    assert not of_type(events, e.CardDrawn)
    assert game.hands[1] == []


def test_an_empty_deck_is_made_again_from_the_discard_pile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = position(ATTACKER, ATTACKER_ARMIES)
    discard = ["quebec", "venezuela", "brasile", "jolly_1"]
    game.deck = []
    game.discard = list(discard)
    conquer_kamchatka(game, monkeypatch)
    events = game.apply(0, a.EndTurn())
    assert of_type(events, e.DeckShuffled) == [e.DeckShuffled(4, True)]
    assert events.index(of_type(events, e.DeckShuffled)[0]) < events.index(
        of_type(events, e.CardDrawn)[0]
    )
    (card,) = game.hands[0]
    assert card in discard
    assert sorted([*game.deck, card]) == sorted(discard)
    assert game.discard == []


def test_no_card_when_deck_and_discard_pile_are_both_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = position(ATTACKER, ATTACKER_ARMIES)
    game.deck = []
    conquer_kamchatka(game, monkeypatch)
    events = game.apply(0, a.EndTurn())
    assert not of_type(events, e.DeckShuffled)
    assert not of_type(events, e.CardDrawn)
    assert not of_type(events, e.CardsReceived)
    assert events[0] == e.TurnEnded(0)
    assert game.hands[0] == []
    assert game.current == 1


# --------------------------------------------------------------------------- strategic move

MOVE_OWNERS = {
    "alaska": 0,
    "alberta": 0,
    "ontario": 0,
    "quebec": 0,
    "kamchatka": 1,
    "giappone": 1,
    "cina": 2,
}
MOVE_ARMIES = {"alaska": 5, "alberta": 1, "ontario": 1, "quebec": 3, "kamchatka": 2}


def test_the_strategic_move_moves_armies_and_ends_the_turn() -> None:
    game = position(MOVE_OWNERS, MOVE_ARMIES)
    events = game.apply(0, a.StrategicMove("alaska", "alberta", 4))
    assert events[:2] == [e.ArmiesMoved(0, "alaska", "alberta", 4, True), e.TurnEnded(0)]
    assert turn_started(events).seat == 1
    assert (armies_on(game, "alaska"), armies_on(game, "alberta")) == (1, 5)
    assert game.current == 1
    assert game.phase is Phase.REINFORCE


def test_only_one_strategic_move_a_turn() -> None:
    game = position(MOVE_OWNERS, MOVE_ARMIES)
    game.apply(0, a.StrategicMove("alaska", "alberta", 1))
    assert_rejected(game, 0, a.StrategicMove("alaska", "alberta", 1), "NOT_YOUR_TURN")


@pytest.mark.parametrize("phase", [Phase.REINFORCE, Phase.ATTACK])
def test_the_strategic_move_is_allowed_with_or_without_attacks(phase: Phase) -> None:
    game = position(MOVE_OWNERS, MOVE_ARMIES, phase=phase)
    game.apply(0, a.StrategicMove("quebec", "ontario", 2))
    assert (armies_on(game, "quebec"), armies_on(game, "ontario")) == (1, 3)


def test_the_strategic_move_may_leave_one_army_on_a_border_outside_tournaments() -> None:
    game = position(MOVE_OWNERS, MOVE_ARMIES)  # Alaska borders Kamchatka (seat 1)
    game.apply(0, a.StrategicMove("alaska", "alberta", 4))
    assert armies_on(game, "alaska") == 1


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (0, a.StrategicMove("alaska", "quebec", 1), "NOT_ADJACENT"),
        (0, a.StrategicMove("alaska", "kamchatka", 1), "NOT_YOUR_TERRITORY"),
        (0, a.StrategicMove("kamchatka", "alaska", 1), "NOT_YOUR_TERRITORY"),
        (0, a.StrategicMove("alaska", "alberta", 5), "INVALID_ARMY_COUNT"),
        (0, a.StrategicMove("alaska", "alberta", 0), "INVALID_ARMY_COUNT"),
        (0, a.StrategicMove("alaska", "alberta", -1), "INVALID_ARMY_COUNT"),
        (0, a.StrategicMove("alberta", "alaska", 1), "NOT_ENOUGH_ARMIES"),
        (0, a.StrategicMove("alaska", "atlantide", 1), "UNKNOWN_TERRITORY"),
        (1, a.StrategicMove("kamchatka", "giappone", 1), "NOT_YOUR_TURN"),
    ],
)
def test_strategic_move_rejections(seat: int, action: a.Action, code: str) -> None:
    game = position(MOVE_OWNERS, MOVE_ARMIES)
    assert_rejected(game, seat, action, code)


def test_no_strategic_move_or_end_of_turn_before_occupying(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = position(MOVE_OWNERS, {**MOVE_ARMIES, "kamchatka": 1})
    force_dice(monkeypatch, 6, 1)
    game.apply(0, a.Attack("alaska", "kamchatka", 1))
    assert game.phase is Phase.OCCUPY
    assert_rejected(game, 0, a.StrategicMove("quebec", "ontario", 1), "WRONG_PHASE")
    assert_rejected(game, 0, a.EndTurn(), "WRONG_PHASE")


# --------------------------------------------------------------------------- turn order

ALL_ALIVE = {"alaska": 0, "kamchatka": 1, "giappone": 2}  # the rest is seat 3's


def test_end_turn_passes_to_the_next_player() -> None:
    game = position(ALL_ALIVE)
    events = game.apply(0, a.EndTurn())
    assert events[0] == e.TurnEnded(0)
    assert turn_started(events) == e.TurnStarted(1, 5, 0, 0, ())
    assert game.current == 1
    assert game.round == 5
    assert game.phase is Phase.REINFORCE


def test_end_turn_rejected_out_of_turn() -> None:
    game = position(ALL_ALIVE)
    assert_rejected(game, 1, a.EndTurn(), "NOT_YOUR_TURN")
    assert_rejected(game, None, a.EndTurn(), "NOT_YOUR_TURN")


def test_turns_skip_eliminated_players() -> None:
    game = position({"alaska": 0, "giappone": 2})  # seat 1 holds nothing: eliminated
    assert game.eliminated == [False, True, False, False]
    events = game.apply(0, a.EndTurn())
    assert turn_started(events).seat == 2


@pytest.mark.parametrize(
    ("first_player", "ending", "next_seat", "next_round"),
    [
        (0, 0, 1, 5),
        (0, 3, 0, 6),
        (2, 1, 2, 6),  # order 2 3 0 1: seat 1 closes the round
        (2, 3, 0, 5),
        (2, 0, 1, 5),
    ],
)
def test_a_round_ends_when_play_returns_to_the_first_player(
    first_player: int, ending: int, next_seat: int, next_round: int
) -> None:
    game = position(ALL_ALIVE, first_player=first_player, current=ending)
    events = game.apply(ending, a.EndTurn())
    started = turn_started(events)
    assert (started.seat, started.round) == (next_seat, next_round)
    assert game.round == next_round


def test_a_round_ends_even_when_the_first_player_was_eliminated() -> None:
    # Order 2 3 0 1; seat 2 holds nothing.
    game = position({"alaska": 0, "kamchatka": 1}, first_player=2, current=1)
    events = game.apply(1, a.EndTurn())
    assert (turn_started(events).seat, game.round) == (3, 6)
