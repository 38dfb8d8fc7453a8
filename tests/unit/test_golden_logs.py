"""Saved games are a contract: each golden log (tests/golden/, recorded once by
`python -m tests.golden.record` and never edited) replays from its actions to the same events,
every one of them, and verifies against its seed commitment as a finished game, by the
revision of the rules its header records (none: revision 1, the logs recorded before
revisions existed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain import actions as a
from domain import events as e
from domain.errors import RuleViolation
from domain.kernel import Kernel
from domain.legal import LegalDefend
from domain.replay import LogEntry, verify_game
from domain.rng import commitment
from variants import get_variant

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
FILES = sorted(GOLDEN.glob("*.jsonl"))


def load(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header, *entries = (json.loads(line) for line in path.read_text("utf-8").splitlines())
    return header, entries


def fresh(header: dict[str, Any]) -> Kernel:
    variant = get_variant(header["variant"])
    options = variant.options(header["options"])
    game = variant.new_game(
        header["players"],
        options,
        seed=header["seed"].encode(),
        rules_revision=header.get("rules_revision", 1),
    )
    assert isinstance(game, Kernel)
    return game


def as_json(events: list[Any]) -> list[Any]:
    """Events as a store keeps them: through JSON."""
    stored: list[Any] = json.loads(json.dumps([e.to_dict() for e in events], ensure_ascii=False))
    return stored


def test_the_golden_logs_cover_every_game_and_every_classic_option() -> None:
    names = {path.stem for path in FILES}
    assert {
        "classic-default",
        "classic-declare",
        "classic-tournament",
        "classic-round-limit",
        "classic-time-limit",
        "spqr-3",
        "spqr-4",
        "spqr-5",
        "piu-3",
        "piu-4",
        "piu-5",
        "piu-6",
        "piu-options",
        "piu-declare",
        "futurisiko-3",
        "futurisiko-4",
        "futurisiko-r2-3",
        "futurisiko-r2-6",
    } <= names


def test_every_revision_of_every_game_s_rules_has_a_golden_log() -> None:
    """A rule fixed in a new revision keeps its old games replaying (the logs without a
    revision are revision 1) and gets logs of its own at the new one."""
    played = {
        (header["variant"], header.get("rules_revision", 1))
        for header, _ in (load(path) for path in FILES)
    }
    for name in ("classic", "spqr", "piu", "futurisiko"):
        revisions = get_variant(name).rules_revisions
        assert {(name, revision) for revision in revisions} <= played


def test_the_piu_golden_logs_play_every_card_and_standing_orders_out_of_turn() -> None:
    """RisiKo! Più's logs, together: every kind of card, the flagship, hidden armies, a fallen
    fortress, both ends of the game, and standing orders set by a seat not in turn."""
    kinds: set[str] = set()
    events: set[str] = set()
    reasons: set[str] = set()
    out_of_turn = 0
    for path in (p for p in FILES if p.stem.startswith("piu-")):
        header, entries = load(path)
        assert header["variant"] == "piu"
        in_turn = None
        for entry in entries:
            kinds.add(entry["action"]["kind"])
            if entry["action"]["kind"] == "set_standing_orders" and entry["seat"] != in_turn:
                out_of_turn += 1
            for event in entry["events"]:
                events.add(event["type"])
                if event["type"] == "TurnStarted":
                    in_turn = event["seat"]
                if event["type"] == "GameEnded":
                    reasons.add(event["reason"])
        assert path.stat().st_size < 1_000_000
    assert {
        "choose_fortress",
        "claim_territory",
        "write_hidden_territory",
        "reveal_hidden_armies",
        "play_rinforzi",
        "play_spy",
        "discard_spied_card",
        "play_diplomat",
        "play_general",
        "admiral_attack",
        "set_standing_orders",
    } <= kinds
    assert {
        "MarshalPlayed",
        "SpyBlocked",
        "SpyReport",
        "CardLost",
        "FlagshipSailed",
        "FlagshipUnloaded",
        "HiddenArmiesRevealed",
        "FortressFallen",
        "TruceImposed",
        "StandingOrdersSet",
    } <= events
    assert reasons == {"empires", "last_player"}
    assert out_of_turn >= 3


def replays(header: dict[str, Any], entries: list[dict[str, Any]]) -> bool:
    """Whether the log's actions give its events, by the revision its header records."""
    game = fresh(header)
    if as_json(list(game.initial_events)) != header["events"]:
        return False
    for entry in entries:
        try:
            events = game.apply(entry["seat"], a.action_from_dict(entry["action"]))
        except RuleViolation:
            return False
        if as_json(events) != entry["events"]:
            return False
    return game.is_over


@pytest.mark.parametrize(
    "path", [GOLDEN / "futurisiko-r2-3.jsonl", GOLDEN / "futurisiko-r2-6.jsonl"]
)
def test_the_futurisiko_revision_2_logs_do_not_replay_by_revision_1(path: Path) -> None:
    """They guard the fair draw: by the first corner, some round's order differs."""
    header, entries = load(path)
    assert header["rules_revision"] == 2
    assert replays(header, entries)
    assert not replays({**header, "rules_revision": 1}, entries)


def test_the_piu_declare_log_has_defenders_declare_by_land_and_against_the_flagship() -> None:
    """RisiKo! Più with defender_dice: declare, replayed: every attack on a player still
    playing waits for its defender's dice, answered by the defender and rolled as declared;
    defenders declare fewer than the most and the most; a Maresciallo is played as an attack
    is declared; and the flagship waits for a declaration before one roll after another."""
    header, entries = load(GOLDEN / "piu-declare.jsonl")
    assert header["options"] == {"defender_dice": "declare"}
    game = fresh(header)
    fewer = most = marshals = flagship_rolls = 0
    for entry in entries:
        action = a.action_from_dict(entry["action"])
        assert not isinstance(action, a.AttackUntil)
        prompts = game.prompts()
        assert isinstance(action, a.Defend) == bool(prompts)  # an answer comes first
        if isinstance(action, a.Defend):
            (prompt,) = prompts
            answers = prompt.answers
            assert isinstance(answers, LegalDefend)
            assert entry["seat"] == prompt.seat != game.current
            fewer += action.dice < answers.max_dice
            most += action.dice == answers.max_dice
        events = game.apply(entry["seat"], action)
        types = [type(event).__name__ for event in events]
        if isinstance(action, a.Defend):
            rolled = next(event for event in events if isinstance(event, e.DiceRolled))
            assert len(rolled.defender_dice) == action.dice
            flagship_rolls += types[-1] == "AttackDeclared"  # the flagship asks again
        marshals += types[-2:] == ["MarshalPlayed", "AttackDeclared"]
    assert game.is_over
    assert fewer > 0
    assert most > 0
    assert marshals > 0
    assert flagship_rolls > 0


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_golden_log_replays_to_the_same_events(path: Path) -> None:
    header, entries = load(path)
    game = fresh(header)
    assert commitment(game.seed) == header["commitment"]
    assert as_json(list(game.initial_events)) == header["events"]
    for position, entry in enumerate(entries, start=1):
        events = game.apply(entry["seat"], a.action_from_dict(entry["action"]))
        assert as_json(events) == entry["events"], f"{path.name}: entry {position} differs"
    assert game.is_over, f"{path.name} no longer reaches its end"


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_golden_log_verifies_as_a_finished_game(path: Path) -> None:
    header, entries = load(path)
    log = [LogEntry(entry["seat"], a.action_from_dict(entry["action"])) for entry in entries]
    recorded = [header["events"], *(entry["events"] for entry in entries)]
    verify_game(fresh(header), header["commitment"], log, recorded)
