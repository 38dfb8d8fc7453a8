"""Rule tests for the setup of classic RisiKo!: players, starting armies, the deal of the
territories, the first player and the turn order, the initial placement, the deck, the secret
objectives. Each test fails if its rule is broken."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain import actions as a
from domain import events as e
from domain.errors import InvalidOptions
from domain.flow import Phase
from tests.support import CLASSIC, assert_rejected, finish_setup, new_game
from variants.classic.game import ClassicGame

RULESET = CLASSIC.ruleset
STARTING_ARMIES = {3: 35, 4: 30, 5: 25, 6: 20}
SEEDS = [f"setup-{i}".encode() for i in range(8)]

# --------------------------------------------------------------------------- helpers


def events_of(game: ClassicGame, kind: type[e.Event]) -> list[e.Event]:
    return [event for event in game.initial_events if isinstance(event, kind)]


def started(game: ClassicGame) -> e.GameStarted:
    event = game.initial_events[0]
    assert isinstance(event, e.GameStarted)
    return event


def objectives_dealt(game: ClassicGame) -> list[e.ObjectiveAssigned]:
    return [event for event in game.initial_events if isinstance(event, e.ObjectiveAssigned)]


def own_territories(game: ClassicGame, seat: int) -> list[str]:
    return [t.id for t in game.board.territories if game.owner[t.index] == seat]


def enemy_territory(game: ClassicGame, seat: int) -> str:
    return next(t.id for t in game.board.territories if game.owner[t.index] != seat)


def placement_sequence(game: ClassicGame) -> list[tuple[int, int]]:
    """Play the initial placement, quota by quota; (seat, quota) of every go."""
    goes: list[tuple[int, int]] = []
    while game.phase is Phase.SETUP:
        seat, quota = game.current, game.setup_quota
        goes.append((seat, quota))
        game.apply(seat, a.PlaceArmies(own_territories(game, seat)[0], quota))
    return goes


# --------------------------------------------------------------------------- players


@pytest.mark.parametrize("players", [0, 1, 2, 7, 8])
def test_a_game_needs_three_to_six_players(players: int) -> None:
    with pytest.raises(InvalidOptions) as excinfo:
        new_game(players)
    assert excinfo.value.code == "INVALID_OPTIONS"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_to_six_players_may_play(players: int) -> None:
    game = new_game(players)
    assert started(game).players == tuple(f"P{i}" for i in range(players))
    assert game.phase is Phase.SETUP


@pytest.mark.parametrize(
    "colours", [["blu", "blu", "rosso"], ["blu", "rosso"], ["blu", "rosso", "arancione"]]
)
def test_every_player_needs_a_different_known_colour(colours: list[str]) -> None:
    with pytest.raises(InvalidOptions) as excinfo:
        CLASSIC.new_game(["A", "B", "C"], seed=b"colours", colours=colours)
    assert excinfo.value.code == "INVALID_OPTIONS"


def test_three_players_use_blu_rosso_giallo_by_default() -> None:
    assert started(new_game(3)).colours == ("blu", "rosso", "giallo")


# --------------------------------------------------------------------------- starting armies


@pytest.mark.parametrize(("players", "armies"), sorted(STARTING_ARMIES.items()))
def test_starting_armies_depend_on_the_number_of_players(players: int, armies: int) -> None:
    game = new_game(players)
    dealt = events_of(game, e.TerritoriesDealt)
    assert len(dealt) == 1
    assert isinstance(dealt[0], e.TerritoriesDealt)
    assert dealt[0].starting_armies == armies
    finish_setup(game)
    for seat in range(players):
        held = sum(game.armies[t] for t, owner in enumerate(game.owner) if owner == seat)
        assert held == armies
    assert sum(game.armies) == players * armies


# --------------------------------------------------------------------------- the deal


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", SEEDS[:4])
def test_the_deal_gives_every_territory_one_army(players: int, seed: bytes) -> None:
    game = new_game(players, seed=seed)
    assert all(0 <= owner < players for owner in game.owner)
    assert game.armies == [1] * 42
    dealt = events_of(game, e.TerritoriesDealt)[0]
    assert isinstance(dealt, e.TerritoriesDealt)
    assert dealt.owners == tuple(game.owner)
    assert game.territory_count == [game.owner.count(seat) for seat in range(players)]


@pytest.mark.parametrize(
    ("players", "counts_in_turn_order"),
    [
        (3, [14, 14, 14]),
        (4, [10, 10, 11, 11]),
        (5, [8, 8, 8, 9, 9]),
        (6, [7, 7, 7, 7, 7, 7]),
    ],
)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_deal_goes_anticlockwise_from_the_last_player_in_turn_order(
    players: int, counts_in_turn_order: list[int], seed: bytes
) -> None:
    """One card at a time from the dealer's right: the last players in turn order get the
    cards left over."""
    game = new_game(players, seed=seed)
    counts = [game.owner.count(seat) for seat in started(game).turn_order]
    assert counts == counts_in_turn_order


# --------------------------------------------------------------------------- order of play


def test_the_first_player_is_drawn_from_the_seed() -> None:
    firsts = set()
    for i in range(40):
        seed = f"first-{i}".encode()
        game = new_game(4, seed=seed)
        first = started(game).first_player
        assert first == game.first_player == game.current
        assert new_game(4, seed=seed).first_player == first  # the same seed, the same draw
        firsts.add(first)
    assert firsts == {0, 1, 2, 3}  # every seat can be drawn


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", SEEDS[:4])
def test_turn_order_is_clockwise_from_the_first_player(players: int, seed: bytes) -> None:
    game = new_game(players, seed=seed)
    first = started(game).first_player
    expected = tuple((first + i) % players for i in range(players))
    assert started(game).turn_order == expected
    assert game.turn_order == expected


# --------------------------------------------------------------------------- initial placement


def expected_placement(game: ClassicGame) -> list[tuple[int, int]]:
    """An independent model: 3 armies a go in turn order, fewer on the last go, players with
    nothing left skipped."""
    order = started(game).turn_order
    left = {seat: STARTING_ARMIES[len(order)] - game.owner.count(seat) for seat in order}
    goes: list[tuple[int, int]] = []
    while any(left.values()):
        for seat in order:
            if left[seat]:
                quota = min(3, left[seat])
                goes.append((seat, quota))
                left[seat] -= quota
    return goes


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", SEEDS[:3])
def test_initial_placement_is_three_armies_a_go_in_turn_order(players: int, seed: bytes) -> None:
    game = new_game(players, seed=seed)
    expected = expected_placement(game)
    goes = placement_sequence(game)
    assert goes == expected
    # Fewer than 3 only on a player's last go.
    last_go = {seat: index for index, (seat, _) in enumerate(goes)}
    for index, (seat, quota) in enumerate(goes):
        if quota < 3:
            assert last_go[seat] == index


def test_a_player_with_nothing_left_to_place_is_skipped() -> None:
    game = new_game(4, seed=b"skip")
    first, second, third, fourth = game.turn_order
    game.setup_remaining = [0, 0, 0, 0]
    game.setup_remaining[first] = 3
    game.setup_remaining[second] = 0
    game.setup_remaining[third] = 2
    game.setup_remaining[fourth] = 5
    game.current = first
    game.setup_quota = 3

    game.apply(first, a.PlaceArmies(own_territories(game, first)[0], 3))
    assert (game.current, game.setup_quota) == (third, 2)
    game.apply(third, a.PlaceArmies(own_territories(game, third)[0], 2))
    assert (game.current, game.setup_quota) == (fourth, 3)
    game.apply(fourth, a.PlaceArmies(own_territories(game, fourth)[0], 3))
    # first, second and third are done: the fourth goes again with the 2 it has left.
    assert (game.current, game.setup_quota) == (fourth, 2)
    events = game.apply(fourth, a.PlaceArmies(own_territories(game, fourth)[0], 2))
    assert game.phase is Phase.REINFORCE
    assert [type(event) for event in events][:2] == [e.ArmiesPlaced, e.DeckShuffled]


def test_a_setup_quota_may_be_split_over_several_placements() -> None:
    game = new_game(4, seed=b"split")
    seat = game.current
    first, second = own_territories(game, seat)[:2]
    events = game.apply(seat, a.PlaceArmies(first, 1))
    assert events == [e.ArmiesPlaced(seat, first, 1)]
    assert (game.current, game.setup_quota) == (seat, 2)
    assert_rejected(game, seat, a.PlaceArmies(second, 3), "INVALID_ARMY_COUNT")
    game.apply(seat, a.PlaceArmies(second, 2))
    assert game.armies[game.board.index[first]] == 2
    assert game.armies[game.board.index[second]] == 3
    assert game.current == game.turn_order[1]
    assert game.setup_quota == 3


SetupAction = Callable[[ClassicGame], tuple[int | None, a.Action]]


def _enemy(game: ClassicGame) -> tuple[int | None, a.Action]:
    return game.current, a.PlaceArmies(enemy_territory(game, game.current), 1)


def _over_quota(game: ClassicGame) -> tuple[int | None, a.Action]:
    return game.current, a.PlaceArmies(own_territories(game, game.current)[0], 4)


def _zero(game: ClassicGame) -> tuple[int | None, a.Action]:
    return game.current, a.PlaceArmies(own_territories(game, game.current)[0], 0)


def _negative(game: ClassicGame) -> tuple[int | None, a.Action]:
    return game.current, a.PlaceArmies(own_territories(game, game.current)[0], -1)


def _out_of_turn(game: ClassicGame) -> tuple[int | None, a.Action]:
    other = game.turn_order[1]
    return other, a.PlaceArmies(own_territories(game, other)[0], 1)


def _clock(game: ClassicGame) -> tuple[int | None, a.Action]:
    return None, a.PlaceArmies(own_territories(game, game.current)[0], 1)


def _unknown(game: ClassicGame) -> tuple[int | None, a.Action]:
    return game.current, a.PlaceArmies("atlantide", 1)


def _end_turn(game: ClassicGame) -> tuple[int | None, a.Action]:
    return game.current, a.EndTurn()


def _attack(game: ClassicGame) -> tuple[int | None, a.Action]:
    source = own_territories(game, game.current)[0]
    target = next(
        game.territory_id(n)
        for n in game.board.neighbours[game.board.index[source]]
        if game.owner[n] != game.current
    )
    return game.current, a.Attack(source, target, 1)


def _trade(game: ClassicGame) -> tuple[int | None, a.Action]:
    return game.current, a.TradeCards(("alaska", "alberta", "jolly_1"))


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (_enemy, "NOT_YOUR_TERRITORY"),
        (_over_quota, "INVALID_ARMY_COUNT"),
        (_zero, "INVALID_ARMY_COUNT"),
        (_negative, "INVALID_ARMY_COUNT"),
        (_out_of_turn, "NOT_YOUR_TURN"),
        (_clock, "NOT_YOUR_TURN"),
        (_unknown, "UNKNOWN_TERRITORY"),
        (_end_turn, "WRONG_PHASE"),
        (_attack, "WRONG_PHASE"),
        (_trade, "WRONG_PHASE"),
    ],
)
def test_setup_rejections(make: SetupAction, code: str) -> None:
    game = new_game(4, seed=b"reject")
    seat, action = make(game)
    assert_rejected(game, seat, action, code)


def test_the_last_go_may_not_place_more_than_is_left() -> None:
    game = new_game(6, seed=b"last-go")  # 7 territories each: 13 to place, 3+3+3+3+1
    while not (game.phase is Phase.SETUP and game.setup_quota < 3):
        game.apply(game.current, a.PlaceArmies(own_territories(game, game.current)[0], 3))
    assert game.setup_quota == 1
    assert_rejected(
        game,
        game.current,
        a.PlaceArmies(own_territories(game, game.current)[0], 2),
        "INVALID_ARMY_COUNT",
    )


# --------------------------------------------------------------------------- start of play


def test_after_setup_the_full_deck_is_shuffled_and_the_first_player_reinforces() -> None:
    game = new_game(4, seed=b"start")
    first = game.first_player
    events: list[e.Event] = []
    while game.phase is Phase.SETUP:
        seat = game.current
        events = game.apply(seat, a.PlaceArmies(own_territories(game, seat)[0], game.setup_quota))
    shuffled = [event for event in events if isinstance(event, e.DeckShuffled)]
    assert shuffled == [e.DeckShuffled(44, False)]
    all_cards = [*RULESET.board.index, "jolly_1", "jolly_2"]
    assert len(game.deck) == 44
    assert sorted(game.deck) == sorted(all_cards)
    assert game.deck != list(RULESET.cards.cards)  # shuffled, not in data order
    assert game.hands == [[], [], [], []]
    assert game.discard == []
    assert game.round == 1
    assert game.current == first
    assert game.phase is Phase.REINFORCE
    turn = [event for event in events if isinstance(event, e.TurnStarted)]
    assert len(turn) == 1
    assert turn[0].seat == first
    assert turn[0].round == 1
    assert turn[0].reinforcements == game.pending_reinforcements
    assert game.pending_reinforcements == game.territory_count[first] // 3 + sum(
        bonus for _, bonus in turn[0].from_regions
    )


def test_the_deck_order_comes_from_the_seed() -> None:
    decks = [finish_setup(new_game(4, seed=seed)).deck for seed in SEEDS[:3]]
    assert decks[0] != decks[1] != decks[2]
    assert finish_setup(new_game(4, seed=SEEDS[0])).deck == decks[0]


# --------------------------------------------------------------------------- objectives


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", SEEDS[:4])
def test_every_seat_gets_one_secret_objective(players: int, seed: bytes) -> None:
    game = new_game(players, seed=seed)
    dealt = objectives_dealt(game)
    assert sorted(event.seat for event in dealt) == list(range(players))
    assert len({event.card for event in dealt}) == players  # dealt from one deck
    for event in dealt:
        assert event.card in RULESET.objectives
        assert event.visible_to == event.seat
        assert not event.is_visible_to(None)
        assert all(not event.is_visible_to(s) for s in range(players) if s != event.seat)
        assert game.objective_cards[event.seat] == event.card
        assert game.objectives[event.seat] == event.objective


def find_destroy_deal(
    players: int, matches: Callable[[ClassicGame, e.ObjectiveAssigned], bool]
) -> tuple[ClassicGame, e.ObjectiveAssigned]:
    for i in range(2000):
        game = new_game(players, seed=f"destroy-{i}".encode())
        for event in objectives_dealt(game):
            if event.card.startswith("destroy_") and matches(game, event):
                return game, event
    raise AssertionError("no such deal in 2000 seeds")


def _colour(event: e.ObjectiveAssigned) -> str:
    return event.card.removeprefix("destroy_")


@pytest.mark.parametrize("players", [3, 4, 6])
def test_destroying_your_own_colour_counts_as_24_territories(players: int) -> None:
    game, event = find_destroy_deal(players, lambda g, ev: _colour(ev) == g.colours[ev.seat])
    assert event.objective == "territories_24"
    assert game.objectives[event.seat] == "territories_24"
    assert game.objective_cards[event.seat] == event.card  # the card itself is kept


@pytest.mark.parametrize("players", [3, 4, 5])
def test_destroying_a_colour_not_in_play_counts_as_24_territories(players: int) -> None:
    game, event = find_destroy_deal(players, lambda g, ev: _colour(ev) not in g.colours)
    assert event.objective == "territories_24"
    assert game.objectives[event.seat] == "territories_24"


@pytest.mark.parametrize("players", [3, 6])
def test_destroying_another_colour_in_play_stays_as_dealt(players: int) -> None:
    game, event = find_destroy_deal(
        players, lambda g, ev: _colour(ev) in g.colours and _colour(ev) != g.colours[ev.seat]
    )
    assert event.objective == event.card
    assert game.objectives[event.seat] == event.card
