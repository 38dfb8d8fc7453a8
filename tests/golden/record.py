"""Record the golden logs: seeded games played to their end by the in-process policies, each
a file of its setup, then one line per accepted action with the events it produced.

    python -m tests.golden.record        writes the games of GAMES whose file is missing

A golden log never changes once committed (tests/unit/test_golden_logs.py replays each and
compares every event): a saved game of today must replay the same after any change. New
cases get new names; this script does not overwrite a file.

Each case names the revision of its game's rules it plays by, and its header records it; the
logs recorded before revisions existed have none in their header and replay as revision 1.
A rule fixed in a new revision gets new cases at that revision (`<variant>-r2-<players>`), so
both the old rule and the new one stay guarded.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bots.policies import POLICIES
from domain import actions as a
from domain.errors import RuleViolation
from domain.kernel import Kernel
from domain.legal import LegalDefend
from domain.rng import commitment
from variants import get_variant
from variants.classic.options import ClassicOptions

HERE = Path(__file__).resolve().parent
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]


@dataclass(frozen=True)
class Case:
    name: str
    variant: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    policy: str = "aggressive"
    rules_revision: int = 1  # of the variant's rules (docs/architecture.md, "Rules revisions")
    expire_after: int | None = None  # the clock's ExpireTime after this many actions
    # RisiKo! Più: (after this many actions, seat, marshal, spy): a seat, in turn or not, sets
    # its standing orders (the policies never do).
    standing_orders: tuple[tuple[int, int, str, str], ...] = ()
    # Defenders who declare their dice (defender_dice: declare) declare 1, 2, 3, ... dice in
    # turn, within what each may roll (the policies always declare the most).
    dice_in_turn: bool = False


GAMES = [
    Case("classic-default", "classic", 4),
    Case("classic-declare", "classic", 3, {"defender_dice": "declare"}),
    Case("classic-tournament", "classic", 4, ClassicOptions.tournament().to_dict()),
    Case("classic-round-limit", "classic", 5, {"round_limit": 8}),
    Case("classic-time-limit", "classic", 4, {"time_limit_minutes": 90}, expire_after=300),
    Case("spqr-3", "spqr", 3),
    Case("spqr-4", "spqr", 4),
    Case("spqr-5", "spqr", 5),
    Case("piu-3", "piu", 3, standing_orders=((50, 0, "fortress", "let_through"),)),
    Case("piu-4", "piu", 4, standing_orders=((49, 1, "never", "block"),)),
    Case("piu-5", "piu", 5),
    Case("piu-6", "piu", 6, standing_orders=((44, 3, "fortress", "let_through"),)),
    Case(
        "piu-options",
        "piu",
        4,
        {"hidden_armies": 5, "fortress_attack_dice": 2},
        standing_orders=((50, 0, "never", "let_through"),),
    ),
    Case("piu-declare", "piu", 5, {"defender_dice": "declare"}, dice_in_turn=True),
    Case("futurisiko-3", "futurisiko", 3),
    Case("futurisiko-4", "futurisiko", 4, {"fill_board": True, "losses": "aircraft_first"}),
    # Revision 2: a drawn card showing two playing colours gives one of them by lot.
    Case("futurisiko-r2-3", "futurisiko", 3, rules_revision=2),
    Case("futurisiko-r2-6", "futurisiko", 6, {"round_limit": 12}, rules_revision=2),
]


def new_game(case: Case) -> Kernel:
    variant = get_variant(case.variant)
    seed = f"golden-{case.name}".encode()
    game = variant.new_game(
        NAMES[: case.players],
        variant.options(case.options),
        seed=seed,
        rules_revision=case.rules_revision,
    )
    assert isinstance(game, Kernel)
    return game


def header(case: Case, game: Kernel) -> dict[str, Any]:
    return {
        "name": case.name,
        "variant": case.variant,
        "players": NAMES[: case.players],
        "options": case.options,
        "rules_revision": game.rules_revision,
        "seed": game.seed.decode(),
        "commitment": commitment(game.seed),
        "events": [event.to_dict() for event in game.initial_events],
    }


def play(case: Case) -> list[dict[str, Any]]:
    """The game's lines: its header, then each accepted action and its events."""
    game = new_game(case)
    lines = [header(case, game)]
    policy = POLICIES[case.policy]
    rnd = random.Random(case.name)

    def apply(seat: int | None, action: a.Action) -> None:
        events = game.apply(seat, action)
        lines.append(
            {"seat": seat, "action": action.to_dict(), "events": [e.to_dict() for e in events]}
        )
        if case.expire_after is not None and len(lines) - 1 == case.expire_after:
            apply(None, a.ExpireTime())
        for after, orders_seat, marshal, spy in case.standing_orders:
            if len(lines) - 1 == after and not game.is_over:
                orders = {"kind": "set_standing_orders", "marshal": marshal, "spy": spy}
                apply(orders_seat, a.action_from_dict(orders))

    defences = 0

    def proposals(seat: int) -> Iterable[a.Action]:
        nonlocal defences
        prompts = game.prompts()
        if case.dice_in_turn and prompts:
            answers = prompts[0].answers
            assert isinstance(answers, LegalDefend)
            defences += 1
            return [a.Defend(1 + defences % answers.max_dice)]
        return policy(game, seat, rnd)

    while not game.is_over:
        seat = game.seat_to_act
        assert seat is not None
        progressed = False
        for action in proposals(seat):
            try:
                game.clone().apply(seat, action)  # a batch may go stale: keep what holds
            except RuleViolation:
                if not progressed:
                    raise RuntimeError(f"{case.policy} proposed {action} first") from None
                break
            progressed = True
            apply(seat, action)
            if game.is_over or game.seat_to_act != seat:
                break
    return lines


def write(case: Case) -> Path:
    path = HERE / f"{case.name}.jsonl"
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in play(case))
    path.write_text(text, encoding="utf-8")
    return path


def main() -> int:
    for case in GAMES:
        path = HERE / f"{case.name}.jsonl"
        if path.exists():
            print(f"{path.name}: kept (a golden log never changes)")
            continue
        written = write(case)
        print(f"{written.name}: {len(written.read_text().splitlines()) - 1} actions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
