"""A game's document, and an event's, in the MongoDB store."""

from __future__ import annotations

from typing import Any

from api.stores.base import Admission, GameRecord, SeatRecord, StoredEvent

Document = dict[str, Any]


def record_document(record: GameRecord) -> Document:
    return {
        "_id": record.id,
        "variant": record.variant,
        "options": record.options,
        "seed": record.seed,
        "commitment": record.commitment,
        "status": record.status,
        "version": record.version,
        "created_at": record.created_at,
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
        "deadline": record.deadline,
        "rules_revision": record.rules_revision,
        "seed_chosen": record.seed_chosen,
        "contributions": None if record.contributions is None else list(record.contributions),
        "admission": record.admission.to_plain(),
    }


def record_of(document: Document) -> GameRecord:
    return GameRecord(
        id=document["_id"],
        variant=document["variant"],
        options=document["options"],
        seed=bytes(document["seed"]),
        commitment=document["commitment"],
        status=document["status"],
        version=document["version"],
        created_at=document["created_at"],
        updated_at=document["updated_at"],
        seats=tuple(SeatRecord(**seat) for seat in document["seats"]),
        winner=document["winner"],
        outcome=document["outcome"],
        snapshot=document.get("snapshot"),
        snapshot_version=document.get("snapshot_version", 0),
        creator=document.get("creator", ""),
        time_control=document.get("time_control"),
        clock=document.get("clock"),
        deadline=document.get("deadline"),
        rules_revision=document.get("rules_revision", 1),
        seed_chosen=document.get("seed_chosen", False),
        contributions=_contributions(document.get("contributions")),
        admission=Admission.from_plain(document.get("admission")),
    )


def _contributions(values: list[str | None] | None) -> tuple[str | None, ...] | None:
    return None if values is None else tuple(values)


def event_of(document: Document) -> StoredEvent:
    return StoredEvent(
        document["seq"], document["log_seq"], document["visible_to"], document["data"]
    )
