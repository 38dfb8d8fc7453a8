"""Pages of a list read from a cursor either way, as the Relay Cursor Connections
Specification defines them (https://relay.dev/graphql/connections.htm): `first`/`after`
forward, `last`/`before` backward, both at once, and the page's `hasPreviousPage` and
`hasNextPage` as its algorithms compute them.

A list is anything that reads on from a position either way (`Listing`): the games of the
lobby, a game's events as a viewer may see them, a finished game's action log. A cursor
stands for a position in its list's order, not for membership: a game that left a filtered
listing (a lobby game that started) still marks where its page ended, so paging on neither
skips nor repeats a game. A cursor whose position no longer exists (none does here: games,
events and log entries are never deleted) is ignored, as the specification says.

What the specification leaves to the server: without `last`, `hasPreviousPage` is true when
anything of the list lies at or before `after`; without `first`, `hasNextPage` is true when
anything lies at or after `before`. Each costs one read of one item, made only then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import takewhile
from typing import Generic, Protocol, TypeVar

DEFAULT_PAGE = 20
MAX_PAGE = 100

T = TypeVar("T")
A = TypeVar("A")


class PageError(ValueError):
    """A count the specification refuses (a negative `first` or `last`)."""


class Listing(Protocol[T, A]):
    """A list in its order, whose items each have a position (an anchor, of type A)."""

    async def following(self, anchor: A | None, limit: int) -> Sequence[T]:
        """At most `limit` items after `anchor` (None: from the start), in order."""
        ...

    async def preceding(self, anchor: A | None, limit: int) -> Sequence[T]:
        """At most `limit` items before `anchor` (None: from the end), nearest first."""
        ...

    def anchor(self, item: T) -> A: ...

    def comes_before(self, first: A, second: A) -> bool:
        """The position `first` comes before `second` in the list's order."""
        ...

    async def any_at_or_before(self, anchor: A) -> bool: ...

    async def any_at_or_after(self, anchor: A) -> bool: ...


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    items: list[T]
    has_previous: bool
    has_next: bool


def counts(first: int | None, last: int | None) -> tuple[int | None, int | None]:
    """`first` and `last` as a page reads them: DEFAULT_PAGE when neither is given, each at
    most MAX_PAGE; PageError for a negative one."""
    for name, value in (("first", first), ("last", last)):
        if value is not None and value < 0:
            raise PageError(f"`{name}` must not be negative, not {value}")
    if first is None and last is None:
        return DEFAULT_PAGE, None
    return (
        None if first is None else min(first, MAX_PAGE),
        None if last is None else min(last, MAX_PAGE),
    )


async def read_page(
    listing: Listing[T, A],
    first: int | None,
    last: int | None,
    after: A | None,
    before: A | None,
) -> Page[T]:
    """The page the specification's algorithm cuts from `listing` (PageError on a negative
    count): the items between the cursors, then the first `first`, then the last `last`."""
    first, last = counts(first, last)
    if first is None:
        assert last is not None
        return await _backward(listing, last, after, before)
    # Enough of the items between the cursors to tell whether more than `first`, and more
    # than `last`, are there.
    seen = list(await listing.following(after, max(first, last or 0) + 1))
    if before is not None:
        bound = before
        seen = list(takewhile(lambda item: listing.comes_before(listing.anchor(item), bound), seen))
    items = seen[:first]
    if last is None:
        earlier = after is not None and await listing.any_at_or_before(after)
        return Page(items, earlier, len(seen) > first)
    if last < len(items):
        items = items[len(items) - last :]
    return Page(items, len(seen) > last, len(seen) > first)


async def _backward(
    listing: Listing[T, A], last: int, after: A | None, before: A | None
) -> Page[T]:
    """`last` without `first`: read from `before` towards the start."""
    seen = list(await listing.preceding(before, last + 1))
    if after is not None:
        bound = after
        seen = list(takewhile(lambda item: listing.comes_before(bound, listing.anchor(item)), seen))
    later = before is not None and await listing.any_at_or_after(before)
    return Page(list(reversed(seen[:last])), len(seen) > last, later)
