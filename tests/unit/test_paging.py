"""Pages of a list (api/paging.py) against the Relay Cursor Connections Specification's own
algorithm, run over the whole list: every combination of first, last, after and before."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.paging import DEFAULT_PAGE, MAX_PAGE, Page, PageError, read_page

pytestmark = pytest.mark.anyio


@dataclass
class Numbers:
    """A list of distinct numbers in ascending order; a position is the number itself.
    Counts each read, to hold the paging to a bounded number of them."""

    items: list[int]
    reads: int = 0

    async def following(self, anchor: int | None, limit: int) -> Sequence[int]:
        self.reads += 1
        return [n for n in self.items if anchor is None or n > anchor][:limit]

    async def preceding(self, anchor: int | None, limit: int) -> Sequence[int]:
        self.reads += 1
        return [n for n in reversed(self.items) if anchor is None or n < anchor][:limit]

    def anchor(self, item: int) -> int:
        return item

    def comes_before(self, first: int, second: int) -> bool:
        return first < second

    async def any_at_or_before(self, anchor: int) -> bool:
        return any(n <= anchor for n in self.items)

    async def any_at_or_after(self, anchor: int) -> bool:
        return any(n >= anchor for n in self.items)


def specification(
    all_edges: list[int], first: int | None, last: int | None, after: int | None, before: int | None
) -> Page[int]:
    """The specification's algorithm (section 4.4, 'Pagination algorithm', and 'PageInfo'),
    with the server's choices of api/paging.py where it leaves one: a cursor stands for its
    position, and without `last` (`first`) the other side says whether anything lies at or
    beyond the cursor given."""
    if first is None and last is None:
        first = DEFAULT_PAGE
    first = None if first is None else min(first, MAX_PAGE)
    last = None if last is None else min(last, MAX_PAGE)
    edges = [n for n in all_edges if after is None or n > after]
    edges = [n for n in edges if before is None or n < before]
    page = edges
    if first is not None:
        page = page[:first]
    if last is not None:
        page = page[len(page) - last :] if last < len(page) else page
    if last is not None:
        has_previous = len(edges) > last
    else:
        has_previous = after is not None and any(n <= after for n in all_edges)
    if first is not None:
        has_next = len(edges) > first
    else:
        has_next = before is not None and any(n >= before for n in all_edges)
    return Page(page, has_previous, has_next)


counts = st.none() | st.integers(min_value=0, max_value=12)


@given(
    items=st.sets(st.integers(min_value=0, max_value=40), max_size=25),
    first=counts,
    last=counts,
    after=st.none() | st.integers(min_value=-1, max_value=41),
    before=st.none() | st.integers(min_value=-1, max_value=41),
)
async def test_every_page_is_the_specifications(
    items: set[int], first: int | None, last: int | None, after: int | None, before: int | None
) -> None:
    listing = Numbers(sorted(items))
    assert await read_page(listing, first, last, after, before) == specification(
        listing.items, first, last, after, before
    )
    assert listing.reads <= 2  # a page's read, and at most one more for the other side


async def test_pages_of_a_long_list_forward_and_backward_cover_it_once() -> None:
    listing = Numbers(list(range(0, 1000, 3)))
    forward: list[int] = []
    after = None
    while True:
        page = await read_page(listing, 7, None, after, None)
        forward += page.items
        if not page.has_next:
            break
        assert page.items
        after = page.items[-1]
    backward: list[int] = []
    before = None
    while True:
        page = await read_page(listing, None, 7, None, before)
        backward = page.items + backward
        if not page.has_previous:
            break
        before = page.items[0]
    assert forward == backward == listing.items


async def test_a_page_holds_at_most_max_page_items_and_negative_counts_are_refused() -> None:
    listing = Numbers(list(range(500)))
    assert len((await read_page(listing, 1000, None, None, None)).items) == MAX_PAGE
    assert len((await read_page(listing, None, 1000, None, None)).items) == MAX_PAGE
    assert len((await read_page(listing, None, None, None, None)).items) == DEFAULT_PAGE
    empty = await read_page(listing, 0, None, None, None)
    assert empty == Page([], False, True)
    for first, last in ((-1, None), (None, -1), (5, -2)):
        with pytest.raises(PageError, match="must not be negative"):
            await read_page(listing, first, last, None, None)
