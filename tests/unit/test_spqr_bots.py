"""The in-process bots (bots/policies.py) and the simulator playing S.P.Q.RisiKo!: whole games
to a winner by victory points, every proposal legal at its moment, the same games for a seed."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

import pytest

from bots.policies import POLICIES, aggressive_policy
from bots.simulate import game_seed, play, simulate
from domain import actions as a
from domain import events as e
from domain.flow import Phase
from domain.legal import is_legal
from variants import get_variant
from variants.spqr import actions as sa
from variants.spqr.game import SpqrGame

SPQR = get_variant("spqr")
GAMES = 3  # per policy and player count


def new_game(players: int, index: int = 0, seed: int = 0) -> SpqrGame:
    game = SPQR.new_game(
        [f"P{i}" for i in range(players)], SPQR.options(), seed=game_seed(seed, index)
    )
    assert isinstance(game, SpqrGame)
    return game


def play_checked(
    game: SpqrGame, policy: str, rnd: random.Random, fresh: bool = False
) -> list[tuple[int, a.Action, list[e.Event]]]:
    """Play like `bots.simulate.play`, asserting that every action the policy proposes is in
    the legal families of that moment (so no batch ever goes stale). With `fresh`, the policy
    is asked anew for every action (as a bot behind the API is). Returns the log."""
    log: list[tuple[int, a.Action, list[e.Event]]] = []
    while not game.is_over:
        assert len(log) < 5000, "the game never ends"
        seat = game.seat_to_act
        assert seat is not None
        for action in POLICIES[policy](game, seat, rnd):
            assert is_legal(game.legal_actions(seat), action), (action, game.phase)
            log.append((seat, action, game.apply(seat, action)))
            if fresh or game.is_over or game.seat_to_act != seat:
                break
    return log


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_games_end_with_a_winner_by_victory_points(policy: str, players: int) -> None:
    target = SPQR.options().to_dict()["victory_points"]
    for index in range(GAMES):
        game = new_game(players, index)
        log = play_checked(game, policy, random.Random(index))
        assert game.end_reason == "victory_points"
        assert game.winner is not None
        assert game.victory_points[game.winner] >= target
        assert all(
            points < target for s, points in enumerate(game.victory_points) if s != game.winner
        )
        assert game.ranking[0][1] == game.winner
        assert isinstance(log[-1][2][-1], e.GameEnded)


def test_a_fresh_call_resumes_the_turn_anywhere() -> None:
    """The aggressive bot asked again after every action (as through the API) still proposes
    only legal actions and plays to the end."""
    for players in (3, 4, 5):
        game = new_game(players, seed=11)
        play_checked(game, "aggressive", random.Random(players), fresh=True)
        assert game.end_reason == "victory_points"


def test_the_aggressive_bot_uses_the_spqr_rules() -> None:
    """Over a few games it trades sets, places what they give, builds triremes and attacks
    from the sea: the S.P.Q.RisiKo! branch, not only the classic land attacks."""
    kinds: Counter[str] = Counter()
    for index in range(4):
        log = play_checked(new_game(4, index, seed=5), "aggressive", random.Random(index))
        kinds.update(type(action).__name__ for _, action, _ in log)
    for kind in (
        "ClaimProvince",
        "PlaceNeutral",
        "TradeCards",
        "PlacePowerCentre",
        "PlaceTrireme",
        "BuildTrireme",
        "SeaAttack",
        "AttackUntil",
        "Occupy",
        "EndTurn",
    ):
        assert kinds[kind] > 0, kind
    assert not kinds["StrategicMove"]  # like pyrisk's StupidAI, it never makes one


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_the_same_seed_plays_the_same_game(policy: str) -> None:
    first, second, other = (
        play_checked(new_game(4, 0, seed), policy, random.Random(seed)) for seed in (3, 3, 4)
    )
    assert first == second
    assert first != other


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_simulate_reports_every_game_won(policy: str) -> None:
    report = simulate("spqr", players=4, games=4, seed=2, policy=policy)
    assert (report.variant, report.games, report.winners) == ("spqr", 4, 4)
    again = simulate("spqr", players=4, games=4, seed=2, policy=policy)
    assert (again.actions, again.rounds) == (report.actions, report.rounds)
    # The plain play loop applies what the checked one does.
    game, checked = new_game(4, 0, seed=2), new_game(4, 0, seed=2)
    assert play(game, policy, random.Random(0)) == len(
        play_checked(checked, policy, random.Random(0))
    )
    assert game.snapshot() == checked.snapshot()


def test_simulate_takes_a_victory_point_target() -> None:
    short = simulate("spqr", players=3, games=3, seed=1, options={"victory_points": 5})
    full = simulate("spqr", players=3, games=3, seed=1)
    assert short.winners == 3
    assert short.rounds < full.rounds


# --------------------------------------------------------------------------- positions


def position(
    owners: Mapping[str, int],
    armies: Mapping[str, int],
    triremes: Mapping[str, Mapping[int, int]] | None = None,
) -> SpqrGame:
    """Seat 0 to play its reinforcement step of round 5, nothing pending and no cards: the
    provinces in `owners` as given (Britannia seat 2's unless given), every other one seat
    1's; armies 9 unless given."""
    owners = {"britannia": 2, **owners}
    game = new_game(3)
    rnd = random.Random(0)
    while game.phase is Phase.SETUP:
        seat = game.current
        game.apply(seat, next(iter(aggressive_policy(game, seat, rnd))))
    for space in game.board.territories:
        if space.is_sea:
            game.triremes[space.index] = [0, 0, 0]
        else:
            game.owner[space.index] = owners.get(space.id, 1)
            game.armies[space.index] = armies.get(space.id, 9)
    for sea, fleet in (triremes or {}).items():
        for seat, count in fleet.items():
            game.triremes[game.board.index[sea]][seat] = count
    game.territory_count = [game.owner.count(seat) for seat in range(3)]
    game.power_centre = [0] * len(game.power_centre)
    game.hands = [[], [], []]
    game.current, game.phase, game.round = 0, Phase.REINFORCE, 5
    game.pending_reinforcements = game.pending_triremes = game.pending_power_centres = 0
    return game


def first_actions(game: SpqrGame, count: int) -> list[a.Action]:
    """The policy's first `count` actions, each applied before the next is asked for."""
    proposed = []
    for action in aggressive_policy(game, 0, random.Random(0)):
        assert is_legal(game.legal_actions(0), action)
        game.apply(0, action)
        proposed.append(action)
        if len(proposed) == count:
            break
    return proposed


def test_it_builds_a_trireme_for_a_sea_attack_it_outnumbers() -> None:
    """Sicilia (8) has no fleet; one trireme on the Tyrrhenian Sea gives superiority over
    Africa (2, no trireme), and 4 legionaries can still leave Sicilia after paying 3."""
    game = position({"sicilia": 0}, {"sicilia": 8, "africa": 2})
    assert first_actions(game, 2) == [
        sa.BuildTrireme("sicilia", "tyrrenum"),
        sa.SeaAttack("sicilia", "africa", "tyrrenum", 4),
    ]


def test_it_sea_attacks_only_where_it_outnumbers() -> None:
    game = position({"sicilia": 0}, {"sicilia": 6, "africa": 5}, {"tyrrenum": {0: 1}})
    assert first_actions(game, 1) == [a.EndTurn()]  # 5 against 5: no attack
    game = position({"sicilia": 0}, {"sicilia": 7, "africa": 5}, {"tyrrenum": {0: 1}})
    assert first_actions(game, 1) == [sa.SeaAttack("sicilia", "africa", "tyrrenum", 6)]


@pytest.mark.parametrize(("mine", "fights"), [(3, False), (4, True)])
def test_it_fights_at_sea_only_when_clearly_superior(mine: int, fights: bool) -> None:
    game = position({"sicilia": 0}, {}, {"tyrrenum": {0: mine, 1: 2}})
    first = first_actions(game, 1)[0]
    assert (first == sa.NavalBattle("tyrrenum", 1, 3)) is fights
