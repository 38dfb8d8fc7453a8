"""Legal actions against `apply`: in many positions, an action is accepted exactly when one of
the offered families allows it, every family's extreme members apply, and every rejection
raises a RuleViolation with a stable code and changes nothing."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bots.policies import aggressive_policy, random_policy
from domain import actions as a
from domain import errors
from domain import events as e
from domain.errors import RuleViolation
from domain.flow import Phase
from domain.legal import (
    LegalAction,
    LegalAttack,
    LegalAttackUntil,
    LegalDefend,
    LegalEndTurn,
    LegalOccupy,
    LegalPlace,
    LegalStrategicMove,
    LegalTrade,
)
from domain.risiko.defence import DefenderDice
from tests.support import BOARD, arrange, clone, new_game, state
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions

TERRITORIES: tuple[str, ...] = tuple(t.id for t in BOARD.territories)
CODES = frozenset(
    {
        "GAME_OVER",
        "NOT_YOUR_TURN",
        "WRONG_PHASE",
        "UNKNOWN_TERRITORY",
        "NOT_YOUR_TERRITORY",
        "OWN_TERRITORY",
        "NOT_ADJACENT",
        "NOT_ENOUGH_ARMIES",
        "INVALID_ARMY_COUNT",
        "INVALID_DICE",
        "INVALID_CARD_SET",
        "CARD_NOT_IN_HAND",
        "REINFORCEMENTS_PENDING",
        "ELIMINATION_TOO_EARLY",
        "MINIMUM_GARRISON",
        "OPTION_DISABLED",
        "TIME_ALREADY_EXPIRED",
        "INVALID_ACTION",
        # S.P.Q.RisiKo!
        "ONCE_PER_TURN",
        "NO_NAVAL_SUPERIORITY",
        "POWER_CENTRE_NOT_ALLOWED",
        "WRONG_KIND_OF_SPACE",
        # RisiKo! Più (TRUCE: FutuRisiKo!'s Tregua too)
        "TRUCE",
        "ONCE_PER_GAME",
        # FutuRisiKo!
        "BATTLES_PENDING",
    }
)
DECLARE = ClassicOptions(defender_dice=DefenderDice.DECLARE)
TOURNAMENT = ClassicOptions.tournament()

# A hand-made position, seat 0 to play (4 players):
#   seat 0: alaska 5, territori_del_nord_ovest 3, alberta 1, groenlandia 2, argentina 4,
#           peru 1, brasile 1 (argentina borders no enemy)
#   seat 1: kamchatka 2, ontario 4, islanda 1
#   seat 2: quebec 3 (its only territory)
#   seat 3: every other territory, 1 army each
OWNERS = {
    "alaska": 0,
    "territori_del_nord_ovest": 0,
    "alberta": 0,
    "groenlandia": 0,
    "argentina": 0,
    "peru": 0,
    "brasile": 0,
    "kamchatka": 1,
    "ontario": 1,
    "islanda": 1,
    "quebec": 2,
}
ARMIES = {
    "alaska": 5,
    "territori_del_nord_ovest": 3,
    "groenlandia": 2,
    "argentina": 4,
    "kamchatka": 2,
    "ontario": 4,
    "quebec": 3,
}
# alaska, alberta, argentina: fante; ontario, groenlandia: cavallo; cina: cavallo (not owned).
HAND = ["alaska", "alberta", "argentina", "jolly_1", "ontario", "groenlandia"]


# --------------------------------------------------------------------------- helpers


def fingerprint(game: ClassicGame) -> tuple[Any, ...]:
    """A cheap summary of the state, compared after each rejected action of a sweep."""
    return (
        tuple(game.owner),
        tuple(game.armies),
        tuple(tuple(hand) for hand in game.hands),
        tuple(game.deck),
        tuple(game.discard),
        game.phase,
        game.current,
        game.round,
        game.seq,
        game.pending_reinforcements,
        tuple(map(tuple, game.prompt_stack)),
        game.pending_conquest,
        game.setup_quota,
        game.conquered_this_turn,
    )


def code_of(game: ClassicGame, seat: int | None, action: a.Action) -> str:
    """The code `apply` rejects `action` with; the state must be unchanged."""
    before = state(game)
    with pytest.raises(RuleViolation) as raised:
        game.apply(seat, action)
    assert state(game) == before, f"the rejected {action} changed the game"
    return raised.value.code


def position(
    options: ClassicOptions | None = None,
    *,
    phase: Phase = Phase.ATTACK,
    round: int = 5,
    pending: int = 0,
    hand: list[str] | None = None,
    armies: dict[str, int] | None = None,
) -> ClassicGame:
    game = new_game(4, options, seed=b"legal-actions")
    return arrange(
        game,
        OWNERS,
        {**ARMIES, **(armies or {})},
        others=3,
        phase=phase,
        round=round,
        pending=pending,
        hands={0: hand or []},
    )


def conquest(
    options: ClassicOptions | None = None,
    source: str = "alaska",
    target: str = "kamchatka",
    dice: int = 1,
) -> ClassicGame:
    """Seat 0 has just taken `target` (1 army) from `source` (6 armies) with `dice` dice:
    it must occupy it."""
    for attempt in range(200):
        game = new_game(4, options, seed=b"conquest-%d" % attempt)
        arrange(game, OWNERS, {**ARMIES, source: 6, target: 1}, others=3)
        game.apply(0, a.Attack(source, target, dice))
        if game.phase is Phase.OCCUPY:
            return game
    raise AssertionError("no conquest in 200 seeds")


def declared(defenders: int) -> ClassicGame:
    """Defenders declare their dice: seat 0 attacks ontario (seat 1) from the north-west."""
    game = position(DECLARE, armies={"territori_del_nord_ovest": 6, "ontario": defenders})
    events = game.apply(0, a.Attack("territori_del_nord_ovest", "ontario", 3))
    assert events == [e.AttackDeclared(0, "territori_del_nord_ovest", "ontario", 3, 1)]
    return game


def played(
    steps: int,
    options: ClassicOptions | None,
    policy: str,
    seed: bytes,
    players: int = 4,
    until: Callable[[ClassicGame], bool] = lambda game: True,
) -> ClassicGame:
    """A position reached by bots: at least `steps` actions, then on until `until` holds."""
    game = new_game(players, options, seed=seed)
    rnd = random.Random(seed)
    played = 0
    while not game.is_over and (played < steps or not until(game)):
        assert played < steps + 2000, "the position never came"
        seat = game.seat_to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        action = random_policy(game, seat, rnd)[0]
        if policy == "aggressive":
            bot = next(iter(aggressive_policy(game, seat, rnd)))
            action = bot if any(f.allows(bot) for f in legal) else action
        game.apply(seat, action)
        played += 1
    return game


def _attacking(game: ClassicGame) -> bool:
    return game.phase is Phase.ATTACK


def _occupying(game: ClassicGame) -> bool:
    return game.phase is Phase.OCCUPY


def _can_trade(game: ClassicGame) -> bool:
    return any(isinstance(f, LegalTrade) for f in game.legal_actions(game.seat_to_act))


def setup_in_progress() -> ClassicGame:
    game = new_game(5, seed=b"setup")
    for _ in range(7):
        family = game.legal_actions(game.current)[0]
        assert isinstance(family, LegalPlace)
        game.apply(game.current, a.PlaceArmies(family.territories[-1], 1))
    return game


POSITIONS: dict[str, Callable[[], ClassicGame]] = {
    "setup": lambda: new_game(4, seed=b"setup"),
    "setup-6-players": lambda: new_game(6, TOURNAMENT, seed=b"setup"),
    "setup-in-progress": setup_in_progress,
    "reinforce": lambda: position(phase=Phase.REINFORCE, pending=4),
    "reinforce-with-cards": lambda: position(phase=Phase.REINFORCE, pending=4, hand=HAND),
    "reinforced-with-cards": lambda: position(phase=Phase.REINFORCE, hand=HAND),
    "attack": position,
    "attack-protected": lambda: position(round=2),
    "occupy": conquest,
    "occupy-3-dice": lambda: conquest(dice=3),
    "occupy-tournament": lambda: conquest(TOURNAMENT, "groenlandia", "islanda"),
    "defend-2": lambda: declared(2),
    "defend-3": lambda: declared(5),
    "declare-attack": lambda: position(DECLARE),
    "tournament-attack": lambda: position(TOURNAMENT),
    "tournament-reinforce": lambda: position(TOURNAMENT, phase=Phase.REINFORCE, pending=2),
    "midgame-attack": lambda: played(150, None, "aggressive", b"mid-1", until=_attacking),
    "midgame-trade": lambda: played(100, None, "aggressive", b"mid-2", 5, until=_can_trade),
    "midgame-occupy": lambda: played(120, None, "random", b"mid-3", 3, until=_occupying),
    "midgame-tournament": lambda: played(
        180, TOURNAMENT, "aggressive", b"mid-4", 3, until=_attacking
    ),
    "midgame-tournament-trade": lambda: played(
        60, TOURNAMENT, "aggressive", b"mid-5", 4, until=_can_trade
    ),
    "midgame-declare": lambda: played(250, DECLARE, "aggressive", b"mid-6", 6, until=_attacking),
    "midgame-defend": lambda: played(
        150, DECLARE, "random", b"mid-7", until=lambda game: game.phase is Phase.DEFEND
    ),
    "midgame-random": lambda: played(300, None, "random", b"mid-8"),
}


def _near(action: a.Action) -> Iterator[a.Action]:
    """`action` with each whole-number field moved one step and to a few odd values."""
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if isinstance(value, int) and not isinstance(value, bool):
            for new in {value - 1, value + 1, 0, -1, 4}:
                yield dataclasses.replace(action, **{field.name: new})


def candidates(game: ClassicGame, legal: list[LegalAction]) -> Iterator[a.Action]:
    seat = game.seat_to_act
    for family in legal:
        for bound in family.bounds():
            yield bound
            yield from _near(bound)
    for source, target in itertools.product(TERRITORIES, repeat=2):
        yield a.Attack(source, target, 1)
        yield a.Attack(source, target, 3)
        yield a.AttackUntil(source, target, 3, 1)
        yield a.StrategicMove(source, target, 1)
    quota = max(game.setup_quota, game.pending_reinforcements)
    for territory in (*TERRITORIES, "atlantide"):
        for armies in (0, 1, quota, quota + 1):
            yield a.PlaceArmies(territory, armies)
    for count in range(-1, 9):
        yield a.Occupy(count)
        yield a.Defend(count)
    hand = game.hands[seat] if seat is not None else []
    for cards in itertools.permutations([*hand, "jolly_2", "cina"], 3):
        yield a.TradeCards((cards[0], cards[1], cards[2]))
    yield a.EndTurn()
    yield a.ExpireTime()


# --------------------------------------------------------------------------- the sweep


@pytest.mark.parametrize("name", list(POSITIONS))
def test_bounds_apply_and_the_sweep_agrees_with_the_families(name: str) -> None:
    game = POSITIONS[name]()
    seat = game.seat_to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    assert legal
    for family in legal:
        for bound in family.bounds():
            assert family.allows(bound)
            clone(game).apply(seat, bound)
    before = state(game)
    summary = fingerprint(game)
    accepted = rejected = 0
    for action in candidates(game, legal):
        if any(family.allows(action) for family in legal):
            clone(game).apply(seat, action)
            accepted += 1
            continue
        with pytest.raises(RuleViolation) as raised:
            game.apply(seat, action)
        assert raised.value.code in CODES, (action, raised.value)
        assert fingerprint(game) == summary, action
        rejected += 1
    assert state(game) == before
    assert accepted >= len(legal)
    assert rejected > 1000


@pytest.mark.parametrize("name", list(POSITIONS))
def test_other_seats_have_nothing_to_do(name: str) -> None:
    game = POSITIONS[name]()
    to_act = game.seat_to_act
    legal = game.legal_actions(to_act)
    others: list[int | None] = [seat for seat in range(len(game.players)) if seat != to_act]
    for seat in [*others, None]:
        assert game.legal_actions(seat) == []
        for family in legal:
            for bound in family.bounds():
                assert code_of(game, seat, bound) == "NOT_YOUR_TURN", (seat, bound)


def test_a_finished_game_offers_nothing() -> None:
    game = played(2000, None, "aggressive", b"to-the-end")
    assert game.is_over
    assert game.seat_to_act is None
    for seat in [*range(4), None]:
        assert game.legal_actions(seat) == []
        for action in (a.EndTurn(), a.PlaceArmies("alaska", 1), a.Defend(1), a.ExpireTime()):
            assert code_of(game, seat, action) == "GAME_OVER"


def test_the_codes_are_the_error_classes_codes() -> None:
    """The domain's rule violations and every served game's own (declared in its folder)."""
    from variants import served  # importing it imports every game's module: their codes

    defined = {
        code for code, cls in errors.RULE_CODES.items() if cls is not RuleViolation and served(cls)
    }
    assert defined == CODES


# --------------------------------------------------------------------------- the families


def test_setup_offers_the_quota_on_own_territories() -> None:
    game = new_game(4, seed=b"setup")
    seat = game.current
    [family] = game.legal_actions(seat)
    assert isinstance(family, LegalPlace)
    own = {t.id for t in BOARD.territories if game.owner[t.index] == seat}
    assert set(family.territories) == own
    assert (family.min_armies, family.max_armies) == (1, 3)


def test_reinforcement_offers_trades_and_placement_only() -> None:
    game = position(phase=Phase.REINFORCE, pending=4, hand=HAND)
    legal = game.legal_actions(0)
    trades = {frozenset(f.cards): f.armies for f in legal if isinstance(f, LegalTrade)}
    assert trades == {
        frozenset({"alaska", "alberta", "argentina"}): 6 + 3 * 2,
        frozenset({"alaska", "alberta", "jolly_1"}): 12 + 2 * 2,
        frozenset({"alaska", "argentina", "jolly_1"}): 12 + 2 * 2,
        frozenset({"alberta", "argentina", "jolly_1"}): 12 + 2 * 2,
        frozenset({"ontario", "groenlandia", "jolly_1"}): 12 + 2,
    }
    places = [f for f in legal if isinstance(f, LegalPlace)]
    assert [(f.min_armies, f.max_armies) for f in places] == [(1, 4)]
    assert len(legal) == len(trades) + 1


def test_a_trade_is_worth_what_its_family_says() -> None:
    game = position(phase=Phase.REINFORCE, pending=4, hand=HAND)
    for family in game.legal_actions(0):
        if isinstance(family, LegalTrade):
            copied = clone(game)
            [event] = copied.apply(0, family.pick(random.Random(0)))
            assert isinstance(event, e.CardsTraded)
            assert event.armies + event.territory_bonus == family.armies
            assert copied.pending_reinforcements == 4 + family.armies
            assert set(family.cards) <= set(copied.discard)


def test_attack_families_follow_the_armies() -> None:
    legal = position().legal_actions(0)
    attacks = {
        (f.source, f.target): (f.min_dice, f.max_dice) for f in legal if isinstance(f, LegalAttack)
    }
    assert attacks == {
        ("alaska", "kamchatka"): (1, 3),
        ("territori_del_nord_ovest", "ontario"): (1, 2),
        ("groenlandia", "ontario"): (1, 1),
        ("groenlandia", "quebec"): (1, 1),
        ("groenlandia", "islanda"): (1, 1),
    }
    until = {
        (f.source, f.target): (f.min_dice, f.min_stop_at, f.max_stop_at)
        for f in legal
        if isinstance(f, LegalAttackUntil)
    }
    assert until == {
        ("alaska", "kamchatka"): (1, 1, 4),
        ("territori_del_nord_ovest", "ontario"): (1, 1, 2),
        ("groenlandia", "ontario"): (1, 1, 1),
        ("groenlandia", "quebec"): (1, 1, 1),
        ("groenlandia", "islanda"): (1, 1, 1),
    }
    moves = {
        (f.source, f.target): (f.min_armies, f.max_armies)
        for f in legal
        if isinstance(f, LegalStrategicMove)
    }
    assert moves == {
        ("alaska", "territori_del_nord_ovest"): (1, 4),
        ("alaska", "alberta"): (1, 4),
        ("territori_del_nord_ovest", "alaska"): (1, 2),
        ("territori_del_nord_ovest", "groenlandia"): (1, 2),
        ("territori_del_nord_ovest", "alberta"): (1, 2),
        ("groenlandia", "territori_del_nord_ovest"): (1, 1),
        ("argentina", "peru"): (1, 3),
        ("argentina", "brasile"): (1, 3),
    }
    assert legal[-1] == LegalEndTurn()
    assert len(legal) == len(attacks) + len(until) + len(moves) + 1


def test_the_last_territory_is_protected_until_round_four() -> None:
    early = {
        (f.source, f.target)
        for f in position(round=4).legal_actions(0)
        if isinstance(f, LegalAttack)
    }
    late = {
        (f.source, f.target)
        for f in position(round=5).legal_actions(0)
        if isinstance(f, LegalAttack)
    }
    assert ("groenlandia", "quebec") not in early
    assert ("groenlandia", "quebec") in late
    game = position(round=4)
    assert code_of(game, 0, a.Attack("groenlandia", "quebec", 1)) == "ELIMINATION_TOO_EARLY"
    assert code_of(game, 0, a.AttackUntil("groenlandia", "quebec", 1, 1)) == "ELIMINATION_TOO_EARLY"
    unprotected = position(ClassicOptions(protected_rounds=0), round=1)
    assert any(f.allows(a.Attack("groenlandia", "quebec", 1)) for f in unprotected.legal_actions(0))


def test_occupation_ranges_from_the_dice_to_all_but_one() -> None:
    game = conquest()
    [family] = game.legal_actions(0)
    assert family == LegalOccupy("alaska", "kamchatka", 1, 5)
    [family] = conquest(dice=3).legal_actions(0)
    assert family == LegalOccupy("alaska", "kamchatka", 3, 5)
    assert code_of(game, 0, a.Occupy(0)) == "INVALID_ARMY_COUNT"
    assert code_of(game, 0, a.Occupy(6)) == "INVALID_ARMY_COUNT"
    for action in (a.EndTurn(), a.Attack("alaska", "kamchatka", 1), a.PlaceArmies("alaska", 1)):
        assert code_of(game, 0, action) == "WRONG_PHASE"


def test_a_conquest_with_nothing_to_choose_occupies_at_once() -> None:
    for attempt in range(200):
        game = new_game(4, seed=b"forced-%d" % attempt)
        arrange(game, OWNERS, {**ARMIES, "alaska": 2, "kamchatka": 1}, others=3)
        events = game.apply(0, a.Attack("alaska", "kamchatka", 1))
        if any(isinstance(event, e.TerritoryConquered) for event in events):
            break
    assert game.phase is Phase.ATTACK
    assert events[-1] == e.ArmiesMoved(0, "alaska", "kamchatka", 1, False)
    kamchatka = BOARD.index["kamchatka"]
    assert (game.owner[kamchatka], game.armies[kamchatka]) == (0, 1)


def test_tournament_occupation_keeps_two_on_a_border() -> None:
    game = conquest(TOURNAMENT, "groenlandia", "islanda")
    [family] = game.legal_actions(0)
    # groenlandia still borders ontario and quebec: it keeps two.
    assert family == LegalOccupy("groenlandia", "islanda", 1, 4)
    assert code_of(game, 0, a.Occupy(5)) == "MINIMUM_GARRISON"
    assert code_of(game, 0, a.Occupy(6)) == "INVALID_ARMY_COUNT"
    # Without an enemy left around the source, everything but one army may move.
    [family] = conquest(TOURNAMENT).legal_actions(0)
    assert family == LegalOccupy("alaska", "kamchatka", 1, 5)


def test_defenders_declare_up_to_three_dice() -> None:
    for defenders, high in ((1, 1), (2, 2), (3, 3), (7, 3)):
        game = declared(defenders)
        assert game.phase is Phase.DEFEND
        assert game.seat_to_act == 1
        assert game.legal_actions(1) == [LegalDefend(1, high)]
        assert game.legal_actions(0) == []
        assert code_of(game, 1, a.Defend(high + 1)) == "INVALID_DICE"
        assert code_of(game, 1, a.Defend(0)) == "INVALID_DICE"
        assert code_of(game, 0, a.Defend(1)) == "NOT_YOUR_TURN"
        assert code_of(game, 0, a.EndTurn()) == "WRONG_PHASE"
        assert code_of(game, 1, a.EndTurn()) == "NOT_YOUR_TURN"
        [rolled, *_] = game.apply(1, a.Defend(high))
        assert isinstance(rolled, e.DiceRolled)
        assert (len(rolled.attacker_dice), len(rolled.defender_dice)) == (3, high)


def test_declaring_defenders_turn_off_attack_until() -> None:
    game = position(DECLARE)
    legal = game.legal_actions(0)
    assert not [f for f in legal if isinstance(f, LegalAttackUntil)]
    assert code_of(game, 0, a.AttackUntil("alaska", "kamchatka", 3, 1)) == "OPTION_DISABLED"


def test_tournament_attacks_need_as_many_dice_as_the_defender() -> None:
    game = position(TOURNAMENT)
    legal = game.legal_actions(0)
    attacks = {
        (f.source, f.target): (f.min_dice, f.max_dice) for f in legal if isinstance(f, LegalAttack)
    }
    assert attacks["alaska", "kamchatka"] == (2, 3)
    assert ("territori_del_nord_ovest", "ontario") not in attacks  # 2 dice against 3
    assert code_of(game, 0, a.Attack("alaska", "kamchatka", 1)) == "INVALID_DICE"
    assert code_of(game, 0, a.Attack("territori_del_nord_ovest", "ontario", 2)) == "INVALID_DICE"
    until = [f for f in legal if isinstance(f, LegalAttackUntil) and f.target == "kamchatka"]
    assert [(f.min_dice, f.min_stop_at, f.max_stop_at) for f in until] == [(2, 1, 4)]


def test_tournament_moves_keep_two_on_a_border() -> None:
    game = position(TOURNAMENT)
    moves = {
        (f.source, f.target): f.max_armies
        for f in game.legal_actions(0)
        if isinstance(f, LegalStrategicMove)
    }
    assert moves["alaska", "territori_del_nord_ovest"] == 3  # alaska borders kamchatka
    assert moves["argentina", "peru"] == 3  # argentina borders no enemy: all but one
    assert ("territori_del_nord_ovest", "alaska") in moves
    assert ("groenlandia", "territori_del_nord_ovest") not in moves  # would leave one
    assert code_of(game, 0, a.StrategicMove("alaska", "alberta", 4)) == "MINIMUM_GARRISON"
    assert code_of(game, 0, a.StrategicMove("groenlandia", "territori_del_nord_ovest", 1)) == (
        "MINIMUM_GARRISON"
    )


# --------------------------------------------------------------------------- rejection codes


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (0, a.Attack("alberta", "stati_uniti_occidentali", 1), "NOT_ENOUGH_ARMIES"),
        (0, a.Attack("alaska", "ontario", 1), "NOT_ADJACENT"),
        (0, a.Attack("alaska", "alberta", 1), "OWN_TERRITORY"),
        (0, a.Attack("kamchatka", "alaska", 1), "NOT_YOUR_TERRITORY"),
        (0, a.Attack("alaska", "atlantide", 1), "UNKNOWN_TERRITORY"),
        (0, a.Attack("atlantide", "alaska", 1), "UNKNOWN_TERRITORY"),
        (0, a.Attack("Alaska", "kamchatka", 1), "UNKNOWN_TERRITORY"),
        (0, a.Attack("alaska", "kamchatka", 4), "INVALID_DICE"),
        (0, a.Attack("alaska", "kamchatka", 0), "INVALID_DICE"),
        (0, a.Attack("alaska", "kamchatka", -1), "INVALID_DICE"),
        (0, a.Attack("territori_del_nord_ovest", "ontario", 3), "INVALID_DICE"),
        (0, a.AttackUntil("alaska", "kamchatka", 3, 0), "INVALID_ARMY_COUNT"),
        (0, a.AttackUntil("alaska", "kamchatka", 3, 5), "INVALID_ARMY_COUNT"),
        (0, a.AttackUntil("alaska", "kamchatka", 4, 1), "INVALID_DICE"),
        (0, a.AttackUntil("alaska", "kamchatka", 0, 1), "INVALID_DICE"),
        (0, a.PlaceArmies("alaska", 1), "WRONG_PHASE"),
        (0, a.TradeCards(("alaska", "alberta", "argentina")), "WRONG_PHASE"),
        (0, a.Occupy(1), "WRONG_PHASE"),
        (0, a.Defend(1), "WRONG_PHASE"),
        (0, a.StrategicMove("alaska", "groenlandia", 1), "NOT_ADJACENT"),
        (0, a.StrategicMove("alaska", "territori_del_nord_ovest", 5), "INVALID_ARMY_COUNT"),
        (0, a.StrategicMove("alaska", "territori_del_nord_ovest", 0), "INVALID_ARMY_COUNT"),
        (0, a.StrategicMove("alberta", "alaska", 1), "NOT_ENOUGH_ARMIES"),
        (0, a.StrategicMove("alaska", "kamchatka", 1), "NOT_YOUR_TERRITORY"),
        (0, a.ExpireTime(), "NOT_YOUR_TURN"),
        (None, a.ExpireTime(), "OPTION_DISABLED"),
        (1, a.EndTurn(), "NOT_YOUR_TURN"),
        (None, a.EndTurn(), "NOT_YOUR_TURN"),
        (7, a.EndTurn(), "NOT_YOUR_TURN"),
    ],
)
def test_attack_phase_rejections(seat: int | None, action: a.Action, code: str) -> None:
    assert code_of(position(), seat, action) == code


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (a.Attack("alaska", "kamchatka", 1), "REINFORCEMENTS_PENDING"),
        (a.AttackUntil("alaska", "kamchatka", 3, 1), "REINFORCEMENTS_PENDING"),
        (a.EndTurn(), "REINFORCEMENTS_PENDING"),
        (a.StrategicMove("alaska", "territori_del_nord_ovest", 1), "REINFORCEMENTS_PENDING"),
        (a.PlaceArmies("alaska", 5), "INVALID_ARMY_COUNT"),
        (a.PlaceArmies("alaska", 0), "INVALID_ARMY_COUNT"),
        (a.PlaceArmies("kamchatka", 1), "NOT_YOUR_TERRITORY"),
        (a.PlaceArmies("atlantide", 1), "UNKNOWN_TERRITORY"),
        (a.TradeCards(("cina", "siam", "india")), "CARD_NOT_IN_HAND"),
        (a.TradeCards(("alaska", "alberta", "ontario")), "INVALID_CARD_SET"),
        (a.TradeCards(("alaska", "alaska", "alberta")), "INVALID_CARD_SET"),
        (a.TradeCards(("jolly_1", "alaska", "ontario")), "INVALID_CARD_SET"),
        (a.Occupy(1), "WRONG_PHASE"),
        (a.Defend(1), "WRONG_PHASE"),
    ],
)
def test_reinforcement_phase_rejections(action: a.Action, code: str) -> None:
    game = position(phase=Phase.REINFORCE, pending=4, hand=HAND)
    assert code_of(game, 0, action) == code


def test_a_trade_of_two_cards_is_rejected() -> None:
    game = position(phase=Phase.REINFORCE, pending=4, hand=HAND)
    two = a.TradeCards(("alaska", "alberta"))
    assert code_of(game, 0, two) == "INVALID_CARD_SET"


def test_an_unknown_kind_of_action_is_rejected() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Surrender(a.Action):
        kind = "surrender"

    assert code_of(position(), 0, Surrender()) == "INVALID_ACTION"


# --------------------------------------------------------------------------- winning


def _win_by_conquest(
    objective: str, owners: dict[str, int], source: str, target: str
) -> ClassicGame:
    """Seat 0 needs only `target` for `objective`, and takes it with one die from a territory
    of 6 armies: it may move 1 to 5 armies in."""
    for attempt in range(200):
        game = new_game(4, seed=b"win-%d" % attempt)
        arrange(game, owners, {source: 6}, others=1)
        game.objectives[0] = objective
        game.apply(0, a.Attack(source, target, 1))
        if game.owner[BOARD.index[target]] == 0:
            return game
    raise AssertionError("no conquest in 200 seeds")


def _regions(*regions: str) -> list[str]:
    return [t.id for t in BOARD.territories if t.region in regions]


def test_a_player_wins_by_conquering_the_last_territory_of_the_objective() -> None:
    owners = {t: 0 for t in _regions("america_del_nord", "oceania") if t != "america_centrale"}
    owners["venezuela"] = 0
    game = _win_by_conquest("north_america_oceania", owners, "venezuela", "america_centrale")
    assert game.is_over
    assert (game.winner, game.end_reason) == (0, "objective")


def test_a_player_wins_by_conquering_the_24th_territory() -> None:
    owners = dict.fromkeys([t for t in TERRITORIES if t != "venezuela"][:23], 0)
    assert "america_centrale" in owners
    game = _win_by_conquest("territories_24", owners, "america_centrale", "venezuela")
    assert (game.winner, game.end_reason) == (0, "objective")


def test_a_player_wins_by_occupying_the_18th_territory_with_two_armies() -> None:
    owners = dict.fromkeys([t for t in TERRITORIES if t != "venezuela"][:17], 0)
    assert "america_centrale" in owners
    for attempt in range(200):
        game = new_game(4, seed=b"win-18-%d" % attempt)
        arrange(game, owners, {**dict.fromkeys(owners, 2), "america_centrale": 6}, others=1)
        game.objectives[0] = "territories_18_2"
        game.apply(0, a.Attack("america_centrale", "venezuela", 1))
        if game.phase is Phase.OCCUPY:
            break
    assert not game.is_over
    events = game.apply(0, a.Occupy(2))
    assert isinstance(events[-1], e.GameEnded)
    assert (game.winner, game.end_reason) == (0, "objective")


def test_a_player_wins_by_placing_the_armies_the_objective_needs() -> None:
    owners = dict.fromkeys(TERRITORIES[:18], 0)
    armies = dict.fromkeys(TERRITORIES[:17], 2)
    game = arrange(
        new_game(4, seed=b"place"), owners, armies, others=1, phase=Phase.REINFORCE, pending=3
    )
    game.objectives[0] = "territories_18_2"
    events = game.apply(0, a.PlaceArmies(TERRITORIES[17], 1))
    assert (game.winner, game.end_reason) == (0, "objective")
    assert isinstance(events[-1], e.GameEnded)


def test_game_won_by_a_conquest_leaves_no_empty_territory() -> None:
    """The rules: the attacker MUST occupy a conquered territory with (at least) the armies of
    the last roll. The game may end at the conquest, but not with an empty territory."""
    owners = {t: 0 for t in _regions("america_del_nord", "oceania") if t != "america_centrale"}
    owners["venezuela"] = 0
    game = _win_by_conquest("north_america_oceania", owners, "venezuela", "america_centrale")
    assert game.is_over
    assert game.armies[BOARD.index["america_centrale"]] >= 1
    assert all(armies >= 1 for armies in game.armies)


# --------------------------------------------------------------------------- whole numbers


@pytest.mark.parametrize(
    ("name", "seat", "data"),
    [
        ("reinforce", 0, {"kind": "place_armies", "territory": "alaska", "armies": 1.5}),
        ("reinforce", 0, {"kind": "place_armies", "territory": "alaska", "armies": "3"}),
        ("attack", 0, {"kind": "attack", "source": "alaska", "target": "kamchatka", "dice": 2.0}),
        (
            "attack",
            0,
            {"kind": "attack_until", "source": "alaska", "target": "kamchatka", "dice": 2.5},
        ),
        (
            "attack",
            0,
            {"kind": "strategic_move", "source": "alaska", "target": "alberta", "armies": 1.5},
        ),
        ("occupy", 0, {"kind": "occupy", "armies": 1.5}),
        ("defend-2", 1, {"kind": "defend", "dice": 1.0}),
    ],
)
def test_counts_must_be_whole_numbers(name: str, seat: int, data: dict[str, Any]) -> None:
    """Actions arrive as JSON: a count that is not a whole number is an invalid count."""
    game = POSITIONS[name]()
    before = state(game)
    code = "accepted"
    try:
        game.apply(seat, a.action_from_dict(data))
    except RuleViolation as error:
        code = error.code
    assert state(game) == before, data
    assert code == "INVALID_ACTION", data
