"""The garbage collector of a serving process, tuned for a heap that is mostly long-lived.

A server holds many objects for a long time (the schema, the boards, cached games, a context
and a stream for every open subscription) and makes many short-lived ones for each request and
each event. CPython collects the youngest generation every 700 container allocations, and every
so often all of them: each full collection walks the whole long-lived heap, a pause that falls
on whichever request or delivery is under way. With 1,000 subscribers of a game, those pauses
were most of the GraphQL route's p99 (`benchmarks/suite.py --only subscriptions`,
docs/performance.md).

So the objects alive once the application is built are moved out of the collector's reach
(`gc.freeze()`: never freed, never walked), and the young generation is collected less often.
Reference counting still frees everything that is not in a cycle at once; cycles wait a little
longer. Only for a serving process: a test process that builds many applications would keep
every frozen one.
"""

from __future__ import annotations

import gc

# Young collections every 20,000 container allocations instead of 700 (a request allocates a
# few thousand); the older generations at 50 and 100 of those instead of 10 and 10.
THRESHOLDS = (20_000, 50, 100)


def tune_for_serving() -> None:
    """Freeze what is alive now and raise the thresholds; call once the app is built."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
