"""The matchmaking pool: tables formed from compatible seeks, one pass at a time.

A seek asks for a game: a variant, a number of players, a speed (time control), rated or
not; it carries its account's rating in that game and speed, when it was made, whether a
person or a bot made it and whom it accepts. A pass (`match`) forms tables of exactly the
number of players asked, of seeks that:

- ask for the same game (variant, players, speed, rated: a seek's `pool`);
- come from different accounts, each account at one table at most in a pass (its other
  seeks wait for the next pass, or expire);
- accept each other (people, bots or anyone);
- are within each other's rating window: every seek's window, which widens with the time
  it has waited (`Window`), holds the ratings of the whole table.

The oldest seek is served first: in the order of creation, each seek still free takes the
free seeks of its pool nearest to its rating, nearest first, each kept if the table stays
compatible; a seek that cannot complete a table waits for the next pass, with a wider window.
The result depends only on the pool and the time (the order of the list does not matter).
Expiry is the service's; `expired` tells which seeks have outlived a lifetime.
"""

from __future__ import annotations

import bisect
import enum
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from competition.errors import CompetitionCode, CompetitionError


class Kind(enum.StrEnum):
    PERSON = "person"
    BOT = "bot"


class Opponents(enum.StrEnum):
    PEOPLE = "people"
    BOTS = "bots"
    ANY = "any"

    def accept(self, kind: Kind) -> bool:
        return self is Opponents.ANY or (self is Opponents.BOTS) == (kind is Kind.BOT)


@dataclass(frozen=True, slots=True)
class Seek:
    """One account's wish for one game."""

    id: str
    account: str
    rating: float  # the account's displayed rating in this game and speed
    variant: str
    players: int  # the table's size
    speed: str  # the time control, as the service names it ("1d", "10+5")
    rated: bool
    created: float  # seconds, on the service's clock
    kind: Kind = Kind.PERSON
    opponents: Opponents = Opponents.ANY

    @property
    def pool(self) -> tuple[str, int, str, bool]:
        return self.variant, self.players, self.speed, self.rated

    def accepts(self, other: Seek) -> bool:
        return self.opponents.accept(other.kind) and other.opponents.accept(self.kind)


@dataclass(frozen=True, slots=True)
class Window:
    """How far from its rating a seek accepts others: `base` at once, `per_minute` more for
    every minute it has waited, never more than `maximum` (display points)."""

    base: float = 100.0
    per_minute: float = 50.0
    maximum: float = 600.0

    def at(self, waited: float) -> float:
        return min(self.maximum, self.base + self.per_minute * max(0.0, waited) / 60.0)


@dataclass(frozen=True, slots=True)
class Table:
    """A table formed: its seeks, the oldest first."""

    seeks: tuple[Seek, ...]


def expired(seeks: Iterable[Seek], now: float, lifetime: float) -> list[Seek]:
    """The seeks made `lifetime` seconds or longer before `now`."""
    return [seek for seek in seeks if now - seek.created >= lifetime]


def seek_problem(seek: Seek) -> str | None:
    """Why a seek cannot be in the pool whatever the game (the service checks the game's own
    limits: its variants, sizes and speeds), or None."""
    if seek.players < 2:
        return f"a table has at least 2 players, not {seek.players}"
    if not math.isfinite(seek.rating) or not math.isfinite(seek.created):
        return "a seek's rating and time are finite numbers"
    if not seek.id or not seek.account:
        return "a seek has an id and an account"
    return None


def match(seeks: Sequence[Seek], now: float, window: Window | None = None) -> list[Table]:
    """One pass over the pool at time `now`: the tables it forms, in the order formed."""
    window = window or Window()
    ordered = sorted(seeks, key=lambda seek: (seek.created, seek.id))
    _check(ordered)
    eligible: dict[tuple[tuple[str, int, str, bool], str], Seek] = {}
    by_account: dict[str, list[Seek]] = defaultdict(list)
    for seek in ordered:
        eligible.setdefault((seek.pool, seek.account), seek)  # its oldest in each pool
        by_account[seek.account].append(seek)
    members: dict[tuple[str, int, str, bool], list[Seek]] = defaultdict(list)
    for seek in eligible.values():
        members[seek.pool].append(seek)
    pools = {key: _Pool(group, now, window) for key, group in members.items()}
    tables: list[Table] = []
    for seek in eligible.values():
        pool = pools[seek.pool]
        if pool.taken(seek):
            continue
        found = pool.complete(seek)
        if found is None:
            continue
        for member in found:  # the whole account is seated: its other seeks wait
            for other in by_account[member.account]:
                if eligible.get((other.pool, other.account)) is other:
                    pools[other.pool].take(other)
        tables.append(Table(tuple(sorted(found, key=lambda s: (s.created, s.id)))))
    return tables


def _check(seeks: Sequence[Seek]) -> None:
    seen: set[str] = set()
    for seek in seeks:
        problem = seek_problem(seek)
        if problem is not None:
            raise CompetitionError(CompetitionCode.INVALID_SEEK, f"seek {seek.id!r}: {problem}")
        if seek.id in seen:
            raise CompetitionError(CompetitionCode.DUPLICATE_SEEK, f"seek {seek.id!r} twice")
        seen.add(seek.id)


class _Row:
    """The seeks of one pool from one kind of seeker, by rating, the taken ones skipped."""

    def __init__(self, seeks: Sequence[Seek]) -> None:
        self.seeks = sorted(seeks, key=lambda seek: (seek.rating, seek.created, seek.id))
        self.ratings = [seek.rating for seek in self.seeks]
        size = len(self.seeks)
        # The nearest free index at or beyond each index, each way (-1 and size: none).
        self._right = list(range(size + 1))
        self._left = list(range(-1, size))  # shifted by one: _left[i + 1] is for index i

    def take(self, index: int) -> None:
        self._right[index] = index + 1
        self._left[index + 1] = index - 1

    def free_right(self, index: int) -> int:
        right = self._right
        root = index
        while right[root] != root:
            root = right[root]
        while right[index] != root:  # path compression
            right[index], index = root, right[index]
        return root

    def free_left(self, index: int) -> int:
        left = self._left
        root = index
        while left[root + 1] != root:
            root = left[root + 1]
        while left[index + 1] != root:
            left[index + 1], index = root, left[index + 1]
        return root


# Seeks a seek looks at, at most, to complete its table in one pass: bounds a pass over a
# pool where nothing fits (tens of thousands of looks, not hundreds of millions); the seeks
# of a kind it does not accept are never looked at.
MOST_LOOKS = 100

_Class = tuple[Kind, Opponents]


class _Cursor:
    """The next free seeks of a row below and above a rating."""

    __slots__ = ("high", "low", "row")

    def __init__(self, row: _Row, low: int, high: int) -> None:
        self.row = row
        self.low = row.free_left(low)
        self.high = row.free_right(high)

    def distances(self, rating: float) -> tuple[float, float]:
        row = self.row
        low = rating - row.ratings[self.low] if self.low >= 0 else math.inf
        high = row.ratings[self.high] - rating if self.high < len(row.ratings) else math.inf
        return low, high

    def advance(self, below: bool) -> Seek:
        """The seek below (or above), the cursor moved past it."""
        if below:
            found, self.low = self.row.seeks[self.low], self.row.free_left(self.low - 1)
        else:
            found, self.high = self.row.seeks[self.high], self.row.free_right(self.high + 1)
        return found


class _Pool:
    """The seeks of one pool, a row for each kind of seeker (person or bot, and whom it
    accepts), so that a seek only ever looks at seekers it and they accept."""

    def __init__(self, seeks: Sequence[Seek], now: float, window: Window) -> None:
        groups: dict[_Class, list[Seek]] = defaultdict(list)
        for seek in seeks:
            groups[seek.kind, seek.opponents].append(seek)
        self.rows = {key: _Row(groups[key]) for key in sorted(groups)}
        self.where = {
            seek.id: (key, index)
            for key, row in self.rows.items()
            for index, seek in enumerate(row.seeks)
        }
        self.reach = {seek.id: window.at(now - seek.created) for seek in seeks}

    def taken(self, seek: Seek) -> bool:
        key, index = self.where[seek.id]
        return self.rows[key].free_right(index) != index

    def take(self, seek: Seek) -> None:
        key, index = self.where[seek.id]
        self.rows[key].take(index)

    def complete(self, seek: Seek) -> list[Seek] | None:
        """The table `seek` heads: the free seeks nearest its rating that fit, or None."""
        cursors = self._cursors(seek)
        chosen = [seek]
        for _ in range(MOST_LOOKS):
            if len(chosen) == seek.players:
                return chosen
            candidate = self._nearest(seek, cursors)
            if candidate is None:
                return None
            if self._fits(candidate, chosen):
                chosen.append(candidate)
        return chosen if len(chosen) == seek.players else None

    def _cursors(self, seek: Seek) -> list[_Cursor]:
        """A cursor on each row of seekers that `seek` accepts and that accept it."""
        home_key, home = self.where[seek.id]
        cursors = []
        for key, row in self.rows.items():
            if not (seek.opponents.accept(key[0]) and key[1].accept(seek.kind)):
                continue
            if key == home_key:
                cursors.append(_Cursor(row, home - 1, home + 1))
            else:
                split = bisect.bisect_left(row.ratings, seek.rating)
                cursors.append(_Cursor(row, split - 1, split))
        return cursors

    def _nearest(self, seek: Seek, cursors: Sequence[_Cursor]) -> Seek | None:
        """The free seek nearest in rating within `seek`'s reach, its cursor moved past it;
        between equals, the earlier row, and below before above."""
        nearest: _Cursor | None = None
        distance, below = self.reach[seek.id], True
        for cursor in cursors:
            low, high = cursor.distances(seek.rating)
            if low <= distance and (nearest is None or low < distance):
                nearest, distance, below = cursor, low, True
            if high <= distance and (nearest is None or high < distance):
                nearest, distance, below = cursor, high, False
        return None if nearest is None else nearest.advance(below)

    def _fits(self, candidate: Seek, chosen: Sequence[Seek]) -> bool:
        if any(member.account == candidate.account for member in chosen):
            return False
        if not all(candidate.accepts(member) for member in chosen):
            return False
        members = [*chosen, candidate]
        low = min(member.rating for member in members)
        high = max(member.rating for member in members)
        return all(
            max(high - member.rating, member.rating - low) <= self.reach[member.id]
            for member in members
        )
