"""Global ids (Relay's opaque ids), pages, and the Node interface."""

from __future__ import annotations

import base64
import binascii

import strawberry
from graphql import GraphQLError

from api.text_inputs import GLOBAL_ID, TextRefused

MAX_PAGE = 100


def to_global_id(type_name: str, raw: str) -> strawberry.ID:
    return strawberry.ID(base64.urlsafe_b64encode(f"{type_name}:{raw}".encode()).decode())


def from_global_id(global_id: str, expected: str | None = None) -> tuple[str, str] | None:
    """(type name, raw id), or None if `global_id` is not one of ours (one too long to be
    ours is not decoded)."""
    try:
        GLOBAL_ID.check(global_id)
    except TextRefused:
        return None
    try:
        decoded = base64.urlsafe_b64decode(global_id.encode()).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    type_name, _, raw = decoded.partition(":")
    if not raw or (expected is not None and type_name != expected):
        return None
    return type_name, raw


def page_size(first: int | None) -> int:
    """`first` items (20 when unset), at most MAX_PAGE; a page of less than one is refused."""
    if first is None:
        return 20
    if first < 1:
        raise GraphQLError(
            f"`first` must be at least 1, not {first}", extensions={"code": "BAD_USER_INPUT"}
        )
    return min(first, MAX_PAGE)


@strawberry.interface(description="An object with a global, opaque id.")
class Node:
    id: strawberry.ID = strawberry.field(description="Opaque global id; do not decode it.")
