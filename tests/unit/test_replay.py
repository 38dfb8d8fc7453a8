"""Replaying action logs and verifying finished games against the seed commitment."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from bots.policies import POLICIES, aggressive_policy
from bots.simulate import play
from domain import actions as a
from domain import events as e
from domain.errors import RuleViolation
from domain.flow import Phase
from domain.replay import LogEntry, VerificationError, check_seed, replay, verify_game
from domain.risiko.defence import DefenderDice
from domain.rng import commitment, derive_seed
from tests.support import arrange, new_game
from variants.classic.game import ClassicGame
from variants.classic.options import ClassicOptions
from variants.futurisiko import actions as futu
from variants.piu import actions as pa
from variants.skirmish import actions as skirmish
from variants.spqr import actions as sa

EventDicts = list[list[dict[str, Any]]]


@dataclass
class Recording:
    """A game as a server would store it: the log of accepted actions, and the events of the
    creation followed by the events of each action."""

    game: ClassicGame
    seed: bytes
    players: int
    options: ClassicOptions | None
    log: list[LogEntry] = field(default_factory=list)
    events: EventDicts = field(default_factory=list)

    def fresh(self, seed: bytes | None = None) -> ClassicGame:
        return new_game(self.players, self.options, seed=self.seed if seed is None else seed)


def record(
    seed: bytes,
    players: int = 4,
    options: ClassicOptions | None = None,
    *,
    policy: str = "aggressive",
    choices: int = 0,
    max_actions: int | None = None,
) -> Recording:
    """Play like `bots.simulate.play` (a batch of actions per request, dropped at the first
    one the state no longer allows), recording every accepted action and its events."""
    game = new_game(players, options, seed=seed)
    recording = Recording(game, seed, players, options)
    recording.events.append([event.to_dict() for event in game.initial_events])
    rnd = random.Random(choices)
    stale = 0
    while not game.is_over and (max_actions is None or len(recording.log) < max_actions):
        seat = game.seat_to_act
        assert seat is not None
        for action in POLICIES[policy](game, seat, rnd):
            try:
                events = game.apply(seat, action)
            except RuleViolation:
                stale += 1
                assert stale < 1000, f"the {policy} policy keeps proposing {action}"
                break
            stale = 0
            recording.log.append(LogEntry(seat, action))
            recording.events.append([event.to_dict() for event in events])
            if game.is_over or game.seat_to_act != seat or len(recording.log) == max_actions:
                break
    return recording


@pytest.fixture(scope="module")
def finished() -> Recording:
    recording = record(b"replay-test", 4, ClassicOptions(round_limit=100), choices=7)
    assert recording.game.is_over
    return recording


# --------------------------------------------------------------------------- verification


@pytest.mark.parametrize(
    ("players", "options", "policy"),
    [
        (3, None, "aggressive"),
        (4, None, "aggressive"),
        (5, ClassicOptions.tournament(), "aggressive"),
        (6, ClassicOptions(protected_rounds=0), "aggressive"),
        (4, ClassicOptions(defender_dice=DefenderDice.DECLARE, round_limit=6), "random"),
        (3, ClassicOptions.tournament(round_limit=8), "random"),
    ],
)
def test_a_finished_game_verifies(
    players: int, options: ClassicOptions | None, policy: str
) -> None:
    recording = record(b"verify-%d" % players, players, options, policy=policy, choices=players)
    assert recording.game.is_over
    verify_game(recording.fresh(), recording.game.commitment, recording.log, recording.events)


def test_the_recording_loop_plays_the_game_play_plays(finished: Recording) -> None:
    game = finished.fresh()
    applied = play(game, "aggressive", random.Random(7))
    assert applied == len(finished.log)
    assert game.owner == finished.game.owner
    assert game.armies == finished.game.armies
    assert (game.winner, game.end_reason, game.ranking) == (
        finished.game.winner,
        finished.game.end_reason,
        finished.game.ranking,
    )


def test_verification_survives_json_storage(finished: Recording) -> None:
    stored = json.loads(json.dumps(finished.events))
    log = [
        LogEntry(entry["seat"], a.action_from_dict(entry["action"]))
        for entry in json.loads(
            json.dumps([{"seat": x.seat, "action": x.action.to_dict()} for x in finished.log])
        )
    ]
    verify_game(finished.fresh(), finished.game.commitment, log, stored)


def test_a_wrong_seed_fails_the_commitment(finished: Recording) -> None:
    with pytest.raises(VerificationError, match="commitment"):
        verify_game(
            finished.fresh(b"another seed"), finished.game.commitment, finished.log, finished.events
        )


def test_a_wrong_seed_with_its_own_commitment_fails_on_the_events(finished: Recording) -> None:
    other = finished.fresh(b"another seed")
    with pytest.raises(VerificationError) as raised:
        verify_game(other, commitment(b"another seed"), finished.log, finished.events)
    assert raised.value.code == "VERIFICATION_FAILED"


# --------------------------------------------------------------------------- the seed's chain


def test_the_seed_comes_from_the_secret_and_the_contributions() -> None:
    secret = b"s" * 32
    seats = ["anna's", None, "carla's"]
    derived = derive_seed(secret, seats)
    assert check_seed(secret, commitment(secret), seats) == derived
    assert check_seed(secret, commitment(secret), seats, derived) == derived
    # A chosen seed's game, or one played before contributions: the secret itself.
    assert check_seed(secret, commitment(secret), None, secret) == secret


def test_a_secret_that_is_not_the_committed_one_fails() -> None:
    with pytest.raises(VerificationError, match="commitment"):
        check_seed(b"other", commitment(b"secret"), ["a"])


@pytest.mark.parametrize(
    "revealed",
    [derive_seed(b"secret", ["a", "c"]), derive_seed(b"secret", ["b", "a"]), b"secret"],
)
def test_a_revealed_seed_not_derived_from_the_contributions_fails(revealed: bytes) -> None:
    with pytest.raises(VerificationError, match="derived"):
        check_seed(b"secret", commitment(b"secret"), ["a", "b"], revealed)


def test_a_spectator_verifies_the_events_it_may_see(finished: Recording) -> None:
    """What a spectator can fetch of a finished game: the public events only. The replay's
    public events must be those, and a change to one of them fails."""
    public = [[x for x in entry if not _private(x)] for entry in finished.events]
    assert sum(map(len, public)) < sum(map(len, finished.events))  # some were private
    verify_game(finished.fresh(), finished.game.commitment, finished.log, public, viewer=None)
    with pytest.raises(VerificationError):  # the whole record is more than a spectator sees
        verify_game(
            finished.fresh(), finished.game.commitment, finished.log, finished.events, viewer=None
        )
    position, index = _first(public, "DiceRolled")
    changed = copy.deepcopy(public)
    changed[position][index]["defender_dice"][0] = (
        changed[position][index]["defender_dice"][0] % 6 + 1
    )
    with pytest.raises(VerificationError, match=f"entry {position}"):
        verify_game(finished.fresh(), finished.game.commitment, finished.log, changed, viewer=None)


def test_a_seat_verifies_its_own_private_events_too(finished: Recording) -> None:
    every = copy.deepcopy(finished.events)
    seen = [[x for x in entry if not _private(x) or x["seat"] == 1] for entry in every]
    verify_game(finished.fresh(), finished.game.commitment, finished.log, seen, viewer=1)
    position, index = _first(seen, "ObjectiveAssigned")
    assert seen[position][index]["seat"] == 1
    seen[position][index]["objective"] = "territories_24"
    with pytest.raises(VerificationError):
        verify_game(finished.fresh(), finished.game.commitment, finished.log, seen, viewer=1)


# The classic game's events private to one seat (its objective, its cards).
PRIVATE = {
    kind.__name__
    for kind in vars(e).values()
    if isinstance(kind, type) and issubclass(kind, e.Event) and kind.readers.private
}


def _private(event: dict[str, Any]) -> bool:
    return event["type"] in PRIVATE


def _first(events: EventDicts, kind: str) -> tuple[int, int]:
    for position, entry in enumerate(events):
        for index, event in enumerate(entry):
            if event["type"] == kind:
                return position, index
    raise AssertionError(f"no {kind} event")


def test_a_changed_die_fails(finished: Recording) -> None:
    events = copy.deepcopy(finished.events)
    position, index = _first(events, "DiceRolled")
    dice = events[position][index]["attacker_dice"]
    dice[0] = dice[0] % 6 + 1
    with pytest.raises(VerificationError, match=f"entry {position}"):
        verify_game(finished.fresh(), finished.game.commitment, finished.log, events)


@pytest.mark.parametrize("kind", ["ObjectiveAssigned", "TerritoriesDealt", "CardsReceived"])
def test_a_changed_deal_or_card_fails(finished: Recording, kind: str) -> None:
    events = copy.deepcopy(finished.events)
    position, index = _first(events, kind)
    event = events[position][index]
    if kind == "ObjectiveAssigned":
        event["objective"] = "territories_18_2" if event["objective"] != "territories_18_2" else "x"
    elif kind == "TerritoriesDealt":
        event["owners"][0], event["owners"][-1] = event["owners"][-1], event["owners"][0] + 9
    else:
        event["cards"] = ["jolly_1"] if event["cards"] != ["jolly_1"] else ["jolly_2"]
    with pytest.raises(VerificationError):
        verify_game(finished.fresh(), finished.game.commitment, finished.log, events)


def test_an_extra_or_missing_event_fails(finished: Recording) -> None:
    extra = copy.deepcopy(finished.events)
    extra[5].append({"type": "TurnEnded", "seat": 0})
    with pytest.raises(VerificationError, match="entry 5"):
        verify_game(finished.fresh(), finished.game.commitment, finished.log, extra)
    missing = copy.deepcopy(finished.events)
    missing[-1].pop()
    with pytest.raises(VerificationError):
        verify_game(finished.fresh(), finished.game.commitment, finished.log, missing)


def test_a_truncated_log_fails(finished: Recording) -> None:
    with pytest.raises(VerificationError, match="does not reach the end"):
        verify_game(
            finished.fresh(), finished.game.commitment, finished.log[:-1], finished.events[:-1]
        )
    with pytest.raises(VerificationError, match="event lists"):
        verify_game(finished.fresh(), finished.game.commitment, finished.log[:-1], finished.events)


def test_an_unfinished_game_fails() -> None:
    recording = record(b"unfinished", 4, choices=3, max_actions=80)
    assert not recording.game.is_over
    with pytest.raises(VerificationError, match="does not reach the end"):
        verify_game(recording.fresh(), recording.game.commitment, recording.log, recording.events)


def test_a_changed_action_fails(finished: Recording) -> None:
    log = list(finished.log)
    position = next(i for i, x in enumerate(log) if isinstance(x.action, a.PlaceArmies))
    entry = log[position]
    assert isinstance(entry.action, a.PlaceArmies)
    log[position] = LogEntry(entry.seat, a.PlaceArmies(entry.action.territory, 99))
    with pytest.raises(VerificationError, match=f"action {position + 1} is rejected"):
        verify_game(finished.fresh(), finished.game.commitment, log, finished.events)
    log[position] = LogEntry((entry.seat or 0) + 1, entry.action)
    with pytest.raises(VerificationError):
        verify_game(finished.fresh(), finished.game.commitment, log, finished.events)


def test_a_used_game_cannot_be_verified_or_replayed(finished: Recording) -> None:
    with pytest.raises(VerificationError):
        verify_game(finished.game, finished.game.commitment, finished.log, finished.events)
    game = finished.fresh()
    game.apply(finished.log[0].seat, finished.log[0].action)
    with pytest.raises(ValueError, match="fresh"):
        replay(game, finished.log)


# --------------------------------------------------------------------------- determinism


def test_same_seed_and_actions_give_byte_identical_events(finished: Recording) -> None:
    fresh = finished.fresh()
    replayed = [[event.to_dict() for event in fresh.initial_events]]
    replayed += [[event.to_dict() for event in events] for events in replay(fresh, finished.log)]
    assert json.dumps(replayed) == json.dumps(finished.events)
    assert fresh.owner == finished.game.owner
    assert fresh.armies == finished.game.armies
    assert fresh.hands == finished.game.hands
    assert fresh.deck == finished.game.deck
    assert fresh.discard == finished.game.discard
    assert (fresh.phase, fresh.current, fresh.round, fresh.winner) == (
        finished.game.phase,
        finished.game.current,
        finished.game.round,
        finished.game.winner,
    )


def test_two_recordings_with_the_same_seeds_are_identical() -> None:
    first = record(b"twice", 5, choices=11)
    second = record(b"twice", 5, choices=11)
    assert first.log == second.log
    assert json.dumps(first.events) == json.dumps(second.events)


def _deal(game: ClassicGame) -> tuple[Any, ...]:
    dealt = next(ev for ev in game.initial_events if isinstance(ev, e.TerritoriesDealt))
    return (game.first_player, dealt.owners, tuple(game.objective_cards))


def test_different_seeds_give_different_deals() -> None:
    seeds = [b"seed-%d" % i for i in range(8)]
    games = [new_game(4, seed=seed) for seed in seeds]
    owners = {_deal(game)[1] for game in games}
    assert len(owners) == len(seeds)
    assert len({game.commitment for game in games}) == len(seeds)
    assert _deal(new_game(4, seed=b"seed-0")) == _deal(games[0])


def test_the_seed_is_committed_at_creation() -> None:
    game = new_game(4, seed=b"committed")
    started = game.initial_events[0]
    assert isinstance(started, e.GameStarted)
    assert started.commitment == game.commitment == commitment(b"committed")
    assert b"committed".hex() not in json.dumps([ev.to_dict() for ev in game.initial_events])


# --------------------------------------------------------------------------- actions as data


ONE_OF_EACH: list[a.Action] = [
    a.PlaceArmies("alaska", 3),
    a.TradeCards(("alaska", "jolly_1", "cina")),
    a.Attack("alaska", "kamchatka", 3),
    a.AttackUntil("alaska", "kamchatka", 2, 4),
    a.AttackUntil("alaska", "kamchatka"),
    a.Defend(2),
    a.Occupy(5),
    a.StrategicMove("alaska", "alberta", 1),
    a.EndTurn(),
    a.ExpireTime(),
    a.Resign(),
    sa.ClaimProvince("italia"),
    sa.PlaceNeutral("sicilia", "verde"),
    sa.PlacePowerCentre("italia"),
    sa.PlaceTrireme("tyrrenum"),
    sa.BuildTrireme("italia", "ionium", 2),
    sa.DisbandTrireme("ionium", "italia"),
    sa.MoveFleet("ionium", "aegeum", 3),
    sa.NavalBattle("ionium", 1, 2),
    sa.SeaAttack("italia", "sicilia", "tyrrenum", 4),
    pa.ChooseFortress("londra"),
    pa.ClaimTerritory("madrid"),
    pa.WriteHiddenTerritory("roma"),
    pa.RevealHiddenArmies(),
    pa.PlayRinforzi("rinforzi_01"),
    pa.PlaySpy("spia_01", 2),
    pa.DiscardSpiedCard("generale_03"),
    pa.PlayDiplomat("diplomatico_01", 1),
    pa.PlayGeneral("generale_01", "parigi", "londra"),
    pa.AdmiralAttack("ammiraglio_01", "bretagna", "irlanda", 4, 1),
    pa.SetStandingOrders("fortress", "let_through"),
    skirmish.Recruit("north", "artillery", 1),
    skirmish.Assault("north", "centre", 3),
    skirmish.HoldGround(2),
    skirmish.March("north", "west", "army", 2),
    futu.PlaceFlag("california"),
    futu.ReceiveCards("tregua_01"),
    futu.Produce("pacifico_nord", "submarine", 1),
    futu.PlayCard("missili_balistici", "messico", -1),
    futu.MoveUnits("california", "giappone", "aircraft", 2),
    futu.AmphibiousMove("california", "giappone", "pacifico_nord", 3),
    futu.Torpedo("pacifico_nord", "giappone", 2),
    futu.Battle("messico", ("arma_segreta", "tradimento")),
    futu.BattleCards(("arma_segreta",)),
]


@pytest.mark.parametrize("action", ONE_OF_EACH, ids=lambda action: action.kind)
def test_actions_round_trip_through_dicts(action: a.Action) -> None:
    data = action.to_dict()
    assert data["kind"] == action.kind
    assert a.action_from_dict(data) == action
    assert a.action_from_dict(json.loads(json.dumps(data))) == action


def test_every_kind_of_action_is_covered() -> None:
    assert {action.kind for action in ONE_OF_EACH} == set(a.ACTION_TYPES)


def test_logged_actions_round_trip(finished: Recording) -> None:
    kinds = set()
    for entry in finished.log:
        data = json.loads(json.dumps(entry.action.to_dict()))
        assert a.action_from_dict(data) == entry.action
        kinds.add(entry.action.kind)
    assert {"place_armies", "attack_until", "occupy", "end_turn"} <= kinds


# --------------------------------------------------------------------------- the bots


def test_the_aggressive_bot_proposes_a_legal_action_when_defenders_declare() -> None:
    """`bots.simulate.play` retries a rejected batch without counting it: a bot that keeps
    proposing a disabled action makes `play` loop forever."""
    options = ClassicOptions(defender_dice=DefenderDice.DECLARE)
    game = arrange(new_game(4, options), {"alaska": 0}, {"alaska": 5}, phase=Phase.ATTACK)
    action = next(iter(aggressive_policy(game, 0, random.Random(0))))
    assert any(family.allows(action) for family in game.legal_actions(0)), action
