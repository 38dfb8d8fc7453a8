"""Values worked out once for an object and kept while it is: by the object's identity.

The objects here (a parsed document, an event handed to every subscriber, a result's data)
are passed around as the very same object, and hashing them by value would walk them whole
on every look-up. A kept value holds its object, so that no other object takes its id.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityMemo(Generic[K, V]):
    """The values of the last `size` objects used, the least recently used forgotten first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[int, tuple[K, V]] = OrderedDict()

    def get(self, key: K) -> V | None:
        kept = self._kept.get(id(key))
        if kept is None or kept[0] is not key:
            return None
        self._kept.move_to_end(id(key))
        return kept[1]

    def keep(self, key: K, value: V) -> V:
        self._kept[id(key)] = (key, value)
        self._kept.move_to_end(id(key))
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._kept)
