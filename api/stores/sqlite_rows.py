"""A game's row in the embedded store: its indexed columns, and the rest as JSON."""

from __future__ import annotations

import json
import sqlite3

from api.stores.base import Admission, GameRecord, SeatRecord, StoredEvent
from domain.events import readable_by


def record_to_row(record: GameRecord) -> str:
    return json.dumps(
        {
            "options": record.options,
            "seed": record.seed.hex(),
            "commitment": record.commitment,
            "updated_at": record.updated_at,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "colour": s.colour,
                    "token_hash": s.token_hash,
                    "bot": s.bot,
                    "client_seed": s.client_seed,
                    "client_seed_source": s.client_seed_source,
                    "account_id": s.account_id,
                    "account_bot": s.account_bot,
                    "anonymous": s.anonymous,
                }
                for s in record.seats
            ],
            "winner": record.winner,
            "outcome": record.outcome,
            "snapshot": record.snapshot,
            "snapshot_version": record.snapshot_version,
            "creator": record.creator,
            "time_control": record.time_control,
            "clock": record.clock,
            "rules_revision": record.rules_revision,
            "seed_chosen": record.seed_chosen,
            "contributions": _plain_contributions(record.contributions),
            "admission": record.admission.to_plain(),
        }
    )


def _plain_contributions(values: tuple[str | None, ...] | None) -> list[str | None] | None:
    return None if values is None else list(values)


def _contributions(values: list[str | None] | None) -> tuple[str | None, ...] | None:
    return None if values is None else tuple(values)


def row_to_record(row: sqlite3.Row) -> GameRecord:
    data = json.loads(row["row"])
    return GameRecord(
        id=row["id"],
        variant=row["variant"],
        options=data["options"],
        seed=bytes.fromhex(data["seed"]),
        commitment=data["commitment"],
        status=row["status"],
        version=row["version"],
        created_at=row["created_at"],
        updated_at=data["updated_at"],
        seats=tuple(SeatRecord(**seat) for seat in data["seats"]),
        winner=data["winner"],
        outcome=data["outcome"],
        snapshot=data.get("snapshot"),
        snapshot_version=data.get("snapshot_version", 0),
        creator=data.get("creator", ""),
        time_control=data.get("time_control"),
        clock=data.get("clock"),
        deadline=row["deadline"],
        rules_revision=data.get("rules_revision", 1),
        seed_chosen=data.get("seed_chosen", False),
        contributions=_contributions(data.get("contributions")),
        admission=Admission.from_plain(data.get("admission")),
    )


def readable_clause(viewer: int | None) -> tuple[str, tuple[int, ...]]:
    """The condition on `visible_to` that keeps the events `viewer` may see, and its
    parameters, built from `domain.events.readable_by` (SQL's NULL is never IN a list)."""
    marks = readable_by(viewer)
    seats = tuple(mark for mark in marks if mark is not None)
    public = ["visible_to IS NULL"] if None in marks else []
    listed = [f"visible_to IN ({', '.join('?' * len(seats))})"] if seats else []
    return f"({' OR '.join(public + listed) or 'FALSE'})", seats


def read_events(
    c: sqlite3.Connection, game_id: str, viewer: int | None, seq: tuple[str, int], limit: int
) -> list[StoredEvent]:
    """A game's events that `viewer` may see (None: the public ones), `seq` a condition on
    their number and the order to read them in, with its value: ("seq > ? ORDER BY seq", 5)."""
    condition, value = seq
    readable, seats = readable_clause(viewer)
    rows = c.execute(
        "SELECT seq, log_seq, visible_to, data FROM events WHERE game_id = ? "
        f"AND {readable} AND {condition} LIMIT ?",
        (game_id, *seats, value, limit),
    ).fetchall()
    return [
        StoredEvent(r["seq"], r["log_seq"], r["visible_to"], json.loads(r["data"])) for r in rows
    ]
