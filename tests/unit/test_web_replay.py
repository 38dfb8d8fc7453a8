"""The web client rebuilds any point of a game from its public events (src/replay/fold.ts):
held here to the engines themselves, move by move, in whole games of every served game played
by bots, so that a replay shows the board each move left, as the server showed it then.

The events reach the fold as the client reads them: its own selection of the GameEvent union
(src/events/fields.ts), executed over the API's own GameEvent type and its union of details
(the same types and resolvers the server's schema serves, under a root that hands them the
games' events), so that the fold is held to the very shape the page receives."""

from __future__ import annotations

import functools
import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import strawberry

from api.graphql.events import GameEvent, event_type
from api.stores.base import RecordedEvent
from bots.policies import POLICIES
from domain.errors import RuleViolation
from domain.events import Event
from domain.kernel import Kernel
from tests.node_tools import WEB, node
from variants import VARIANTS

ROUND_LIMIT = 10


def _spaces(game: Kernel) -> list[dict[str, Any]]:
    """The board as the API's TerritoryState shows it."""
    return [
        {
            "id": view.id,
            "owner": view.owner,
            "units": [
                {"kind": u.kind, "count": u.count, "seat": u.seat, "neutral": u.neutral}
                for u in view.units
            ],
            "markers": list(view.markers),
        }
        for view in game.space_views()
    ]


@strawberry.type
class _History:
    """A root serving a game's events as the API's GameEvent type."""

    events: list[GameEvent]


_SCHEMA = strawberry.Schema(query=_History)
_FIELDS = re.search(
    r"/\* GraphQL \*/ `(.*?)`", (WEB / "src" / "events" / "fields.ts").read_text(), re.S
)


def _as_the_client_reads(steps: list[list[Event]]) -> list[list[dict[str, Any]]]:
    """Each step's public events, as the page's document selects them (the version: the
    step)."""
    assert _FIELDS is not None
    public = [
        (version, event)
        for version, events in enumerate(steps)
        for event in events
        if event.is_visible_to(None)
    ]
    served = [
        event_type(RecordedEvent(seq=seq, log_seq=version, visible_to=None, event=event))
        for seq, (version, event) in enumerate(public, start=1)
    ]
    answer = _SCHEMA.execute_sync(
        "{ events { ...EventFields } }" + _FIELDS.group(1), root_value=_History(events=served)
    )
    assert answer.errors is None, answer.errors
    assert answer.data is not None
    read: list[list[dict[str, Any]]] = [[] for _ in steps]
    for event in answer.data["events"]:
        read[event["version"]].append(event)
    return read


def _trace(variant_name: str, policy: str, players: int, seed: int) -> dict[str, Any]:
    """A game played to its end by one policy, with the board after every action."""
    variant = VARIANTS[variant_name]
    options = variant.options({"round_limit": ROUND_LIMIT})
    names = [f"P{n}" for n in range(players)]
    game = variant.new_game(names, options, seed=f"replay-{variant_name}-{seed}".encode())
    told: list[list[Event]] = [list(game.initial_events)]
    boards = [_spaces(game)]
    rnd = random.Random(seed)
    while not game.is_over:
        seat = game.seat_to_act
        assert seat is not None
        for action in POLICIES[policy](game, seat, rnd):
            try:
                events = game.apply(seat, action)
            except RuleViolation:
                break  # the policy's batch went stale: ask it again
            told.append(list(events))
            boards.append(_spaces(game))
            if game.is_over or game.seat_to_act != seat:
                break
    steps = [
        {"events": events, "spaces": spaces}
        for events, spaces in zip(_as_the_client_reads(told), boards, strict=True)
    ]
    return {
        "variant": variant_name,
        "game": f"{policy}-{players}-{seed}",
        "order": [t.id for t in game.board.territories],
        "unitKinds": list(game.UNIT_KINDS),
        "steps": steps,
    }


# Seeds chosen for what their games hold: S.P.Q.RisiKo!'s fleets fighting, moving, sunk with
# their player and disbanded, sea attacks and power centres; RisiKo! Più's flagship, hidden
# armies and fallen fortresses; FutuRisiKo!'s battles, missiles and an elimination.
GAMES = [
    ("classic", "aggressive", 3, 1),
    ("classic", "random", 4, 2),
    ("spqr", "aggressive", 5, 12),
    ("spqr", "random", 4, 13),
    ("piu", "aggressive", 3, 5),
    ("piu", "random", 4, 6),
    ("futurisiko", "aggressive", 5, 11),
    ("futurisiko", "random", 4, 8),
]


@functools.cache
def _traces() -> list[dict[str, Any]]:
    return [_trace(*game) for game in GAMES]


def test_every_move_of_every_game_is_rebuilt_from_the_public_events(tmp_path: Path) -> None:
    traces = _traces()
    assert {t["variant"] for t in traces} == {"classic", "spqr", "piu", "futurisiko"}
    path = tmp_path / "traces.json"
    path.write_text(json.dumps(traces))
    done = subprocess.run(
        [node(WEB), "scripts/check-replay.mjs", str(path)],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["mismatches"] == []
    assert seen["checked"] == sum(len(t["steps"]) for t in traces)


def test_the_games_hold_every_kind_of_change_the_board_sees() -> None:
    """The games above are not trivial: between them they hold every event the replay rebuilds
    the board from (fold.ts's effects), but two no bot plays: a Siluro Killer's sunk
    submarine, and units left on the board at an elimination."""
    fold = (WEB / "src" / "replay" / "fold.ts").read_text()
    handled = set(re.findall(r"^    (\w+): \(d\) =>", fold, re.M))
    assert len(handled) > 25
    kinds = {
        e["detail"]["__typename"]
        for trace in _traces()
        for step in trace["steps"]
        for e in step["events"]
    }
    assert handled - kinds == {"FuturisikoSubmarineSunk", "FuturisikoUnitsRemoved"}
