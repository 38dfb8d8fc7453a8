"""A round's seating as anyone can check it: its inputs and its result, as canonical JSON.

The tournament publishes, for every round it seats, this description (or its digest) at once;
it reveals the seed when the tournament ends. Then `check(description, seed)` recomputes the
round from the description's own inputs and tells whether the seed is the committed one and
the tables are the ones the algorithm gives: nobody could have chosen the tables, and the
seed cannot have been changed after the commitment.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from competition.draw import commitment
from competition.errors import CompetitionError
from competition.pairing import Entrant, Seating, Tables, seat_round
from competition.tables import TableRule

FORMAT = "risiko/tournament-round/v1"


def describe(
    seed_commitment: str,
    rule: TableRule,
    entrants: Sequence[Entrant],
    history: Sequence[Tables],
    seating: Seating,
) -> dict[str, Any]:
    """The description of a round: plain JSON data, with no secret in it."""
    return {
        "format": FORMAT,
        "commitment": seed_commitment,
        "round": seating.round,
        "rule": {"minimum": rule.minimum, "preferred": rule.preferred, "maximum": rule.maximum},
        "entrants": [[entrant.player, entrant.points] for entrant in entrants],
        "history": [[list(table) for table in tables] for tables in history],
        "tables": [list(table) for table in seating.tables],
        "repeats": seating.repeats,
        "spread": seating.spread,
    }


def canonical(description: dict[str, Any]) -> str:
    """The one text of a description: sorted keys, no spaces, UTF-8 as it is."""
    return json.dumps(description, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(description: dict[str, Any]) -> str:
    """The SHA-256 of the canonical text, to publish when the round is seated."""
    return hashlib.sha256(canonical(description).encode("utf-8")).hexdigest()


def check(description: dict[str, Any], seed: bytes) -> str | None:
    """Why the description does not verify with the revealed `seed`, or None if it does."""
    if description.get("format") != FORMAT:
        return f"not a description of format {FORMAT}"
    if commitment(seed) != description.get("commitment"):
        return "the seed is not the one committed to"
    try:
        recomputed = seat_round(
            seed,
            int(description["round"]),
            [Entrant(str(player), int(points)) for player, points in description["entrants"]],
            [
                [[str(player) for player in table] for table in tables]
                for tables in description["history"]
            ],
            TableRule(**{key: int(value) for key, value in description["rule"].items()}),
        )
    except (KeyError, TypeError, ValueError) as error:
        return f"malformed description: {error!r}"
    except CompetitionError as error:
        return f"the inputs are refused: {error.message}"
    tables = [list(table) for table in recomputed.tables]
    if tables != description.get("tables"):
        return "the tables are not the ones the seed and the inputs give"
    if [recomputed.repeats, recomputed.spread] != [
        description.get("repeats"),
        description.get("spread"),
    ]:
        return "the costs are not the ones the tables have"
    return None
