"""`risiko verify`: a finished game, checked by anyone from what its server publishes.

The chain, link by link: the secret revealed at the end against the commitment published at
creation; the seed of the dice, derived from the secret and the seats' contributions that
the start fixed; and every event the viewer may see (a spectator: the public ones; a seat's
token adds its own) against a replay of the action log on this engine, built through the
registry from the create entry's variant and options and the start entry's seats.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from api.clock import ClockChanged, PlayedByProxy
from api.service import PLAYED, BotJoined, GameAbandoned, PlayerJoined, PlayerLeft
from domain.actions import action_from_dict
from domain.errors import RisikoError
from domain.replay import LogEntry, VerificationError, check_seed, verify_game
from variants import VARIANTS

if TYPE_CHECKING:
    from risiko_client.api import PublicRecord

# The events the service adds to the engine's (the lobby's, the clock's): not replayed.
SERVICE_EVENTS = frozenset(
    {
        "GameCreated",
        PlayerJoined.__name__,
        BotJoined.__name__,
        PlayerLeft.__name__,
        GameAbandoned.__name__,
        ClockChanged.__name__,
        PlayedByProxy.__name__,
    }
)
# The log entries that replay as an action of the game (see api/service._replay_entry).
REPLAYED = PLAYED | {"resign", "expire"}


async def fetch(url: str, game_id: str, token: str | None = None) -> PublicRecord:
    """What the server at `url` publishes of the game, as a spectator or as `token`'s seat."""
    from risiko_client.api import RisikoClient

    async with RisikoClient(url, token) as client:
        return await client.public_record(game_id)


def check(record: PublicRecord) -> list[str]:
    """Every link of the chain of a finished game; what was checked, in words, or
    VerificationError for the first link that does not hold."""
    if not record.finished:
        raise VerificationError("the game is not over: its secret is revealed at the end")
    created = _entry(record, "create")
    start = _entry(record, "start")
    randomness = record.randomness
    problems = record.chain_problems()
    if problems:
        raise VerificationError("; ".join(problems))
    contributions = record.contributions()
    seed = check_seed(
        bytes.fromhex(randomness["secret"]),
        created["payload"]["commitment"],
        contributions,
        bytes.fromhex(randomness["derivedSeed"]),
    )
    said = [f"✓ the secret matches the commitment published at creation ({_short(created)})"]
    said += _seed_findings(randomness, contributions)
    said.append(_replay(record, created, start, seed))
    return said


def _seed_findings(
    randomness: Mapping[str, Any], contributions: Sequence[str | None] | None
) -> list[str]:
    """What the checked seed says of the game's fairness: who chose it or gave to it."""
    said = []
    if randomness["seedChosen"]:
        said.append(
            "⚠ its creator chose the seed, and so knew every roll and card to come: the game "
            "is reproducible, not fair"
        )
    if contributions is None:
        said.append("✓ the dice came from the secret itself (the game takes no contributions)")
        return said
    given = sum(value is not None for value in contributions)
    by_server = sum(c["byServer"] for c in randomness["contributions"])
    said.append(
        f"✓ the dice's seed is HMAC-SHA256 of the secret and the {len(contributions)} "
        f"seats' contributions ({given} given, {by_server} of them by the server for its "
        "bots)"
    )
    for contribution in randomness["contributions"]:
        if contribution["atStart"]:
            said.append(
                f"  seat {contribution['seat']} started the game and gave the last "
                "contribution then, when every other was fixed"
            )
    return said


def _replay(
    record: PublicRecord, created: Mapping[str, Any], start: Mapping[str, Any], seed: bytes
) -> str:
    """The action log replayed on this engine from the checked seed, every event the viewer
    saw compared with the replay's; what was checked, in words."""
    variant = VARIANTS.get(created["payload"]["variant"])
    if variant is None:
        raise VerificationError(f"this engine has no variant {created['payload']['variant']!r}")
    seats = start["payload"]["seats"]
    try:
        fresh = variant.new_game(
            [seat["name"] for seat in seats],
            variant.options_class.from_dict(created["payload"]["options"]),
            seed=seed,
            colours=[seat["colour"] for seat in seats],
        )
        replayed = [entry for entry in record.log if entry["kind"] in REPLAYED]
        log = [LogEntry(entry["seat"], action_from_dict(entry["payload"])) for entry in replayed]
    except (RisikoError, KeyError, TypeError, ValueError) as error:
        raise VerificationError(f"the log cannot be read by this engine: {error}") from None
    recorded = _engine_events(record, [start, *replayed])
    viewer = record.viewer_seat
    verify_game(fresh, record.randomness["startCommitment"], log, recorded, viewer=viewer)
    who = "a spectator" if viewer is None else f"seat {viewer}"
    shown = sum(len(events) for events in recorded)
    return (
        f"✓ {len(log)} actions replayed on this engine: the {shown} events {who} sees, every "
        "die and card among them, are the same"
    )


def _entry(record: PublicRecord, kind: str) -> Mapping[str, Any]:
    found = next((entry for entry in record.log if entry["kind"] == kind), None)
    if found is None:
        raise VerificationError(f"the action log has no {kind} entry (the game never started)")
    return found


def _short(created: Mapping[str, Any]) -> str:
    published: str = created["payload"]["commitment"]
    return f"sha256 {published[:16]}…"


def _engine_events(
    record: PublicRecord, entries: Sequence[Mapping[str, Any]]
) -> list[list[dict[str, Any]]]:
    """The engine's events the viewer saw, one list per entry (the start's first), as
    verify_game compares them; an engine event of no such entry fails."""
    by_version: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    for event in record.events:
        if event.type not in SERVICE_EVENTS:
            by_version[event.version].append(event.data)
    lists = [by_version.pop(entry["seq"], []) for entry in entries]
    if by_version:
        version = min(by_version)
        raise VerificationError(f"version {version} shows game events that no action made")
    return lists
