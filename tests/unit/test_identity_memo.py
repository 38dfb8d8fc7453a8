"""api/identity_memo.py: values kept by their object's identity, the least recently used out."""

from __future__ import annotations

from api.identity_memo import IdentityMemo


def test_an_equal_object_is_not_the_same_object() -> None:
    memo: IdentityMemo[list[int], str] = IdentityMemo(4)
    first = [1, 2]
    assert memo.keep(first, "first") == "first"
    assert memo.get(first) == "first"
    assert memo.get([1, 2]) is None  # equal, not the same: its own value


def test_the_least_recently_used_goes_first() -> None:
    memo: IdentityMemo[object, int] = IdentityMemo(2)
    a, b, c = object(), object(), object()
    memo.keep(a, 1)
    memo.keep(b, 2)
    assert memo.get(a) == 1  # a is now the most recent
    memo.keep(c, 3)
    assert memo.get(b) is None
    assert (memo.get(a), memo.get(c), len(memo)) == (1, 3, 2)
