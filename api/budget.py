"""A budget of cost points per client, refilled over time: what stops a client that repeats.

Each client (its seat token, else its address) has a bucket of `capacity` points that refills
at `refill_per_second`. A document is charged its cost before it runs (api/graphql/limits.py);
when the bucket holds less than that, the document is refused with HTTP 429 and the seconds
until it would fit. The buckets live in this process: behind several API instances a client
has one budget per instance it reaches.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Charge:
    """The outcome of asking for `cost` points: granted or not, and what is left."""

    granted: bool
    cost: int
    remaining: int
    capacity: int
    refill_per_second: float
    retry_after: int  # whole seconds until the cost would fit; 0 when granted

    @property
    def seconds_to_full(self) -> int:
        return math.ceil((self.capacity - self.remaining) / self.refill_per_second)

    def headers(self) -> dict[str, str]:
        """The IETF draft's RateLimit headers (as GitHub and Shopify send them), plus
        Retry-After when refused."""
        window = round(self.capacity / self.refill_per_second)
        headers = {
            "RateLimit-Policy": f'"cost";q={self.capacity};w={window}',
            "RateLimit": f'"cost";r={self.remaining};t={self.seconds_to_full}',
        }
        if not self.granted:
            headers["Retry-After"] = str(self.retry_after)
        return headers


class Budgets:
    """One bucket per client, the least recently seen forgotten beyond `max_clients` (a
    forgotten client comes back with a full bucket, so memory stays bounded)."""

    def __init__(
        self,
        capacity: int,
        refill_per_second: float,
        max_clients: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if capacity < 1 or refill_per_second <= 0:
            raise ValueError("a budget needs a capacity of at least 1 and a positive refill")
        self.capacity = capacity
        self.refill_per_second = refill_per_second
        self.max_clients = max_clients
        self.clock = clock
        # client -> (points, when they were counted, until when it is refused unread)
        self._buckets: OrderedDict[str, tuple[float, float, float]] = OrderedDict()

    def _level(self, client: str, now: float) -> float:
        points, seen, _ = self._buckets.get(client, (float(self.capacity), now, 0.0))
        return min(float(self.capacity), points + (now - seen) * self.refill_per_second)

    def refusal(self, client: str) -> Charge | None:
        """A refusal if `client` asks again before the retry-after it was given, else None.
        Such a request is refused without being read: refusing by parsing and measuring
        each document would let a client keep the server busy with documents that never
        run."""
        found = self._buckets.get(client)
        now = self.clock()
        if found is None or found[2] <= now:
            return None
        return Charge(
            granted=False,
            cost=0,
            remaining=int(self._level(client, now)),
            capacity=self.capacity,
            refill_per_second=self.refill_per_second,
            retry_after=math.ceil(found[2] - now),
        )

    def charge(self, client: str, cost: int) -> Charge:
        """Take `cost` points from `client`'s bucket if it holds them. A cost above the whole
        capacity can never fit: it empties the bucket, so that asking for it costs."""
        now = self.clock()
        level = self._level(client, now)
        granted = cost <= level
        level = level - cost if granted else (0.0 if cost > self.capacity else level)
        missing = 0.0 if granted else min(cost, self.capacity) - level
        retry_after = 0 if granted else max(1, math.ceil(missing / self.refill_per_second))
        self._buckets[client] = (level, now, now + retry_after)
        self._buckets.move_to_end(client)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)
        return Charge(
            granted=granted,
            cost=cost,
            remaining=int(level),
            capacity=self.capacity,
            refill_per_second=self.refill_per_second,
            retry_after=retry_after,
        )
