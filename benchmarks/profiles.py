"""Summaries of a pyinstrument session (pip install pyinstrument; not a project dependency):
functions by their own time and by their inclusive time (a recursive function counted once per
sample), which the call tree of `pyinstrument --load` spreads over thousands of asyncio paths.

    .venv/bin/python benchmarks/profiles.py FILE.pyisession [--top 40]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any


def _key(frame: Any) -> str:
    return f"{frame.function}  {frame.file_path_short or frame.file_path or '?'}:{frame.line_no}"


def summarize(session_path: str, top: int = 40) -> str:
    from pyinstrument.session import Session

    root = Session.load(session_path).root_frame()
    if root is None:
        return "empty profile\n"
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    stack: list[tuple[Any, frozenset[str], str | None]] = [(root, frozenset(), None)]
    while stack:
        frame, above, parent = stack.pop()
        synthetic = frame.identifier.startswith("[")  # [self], [await]: time of the parent
        key = parent if synthetic or frame.function is None else _key(frame)
        chain = above if key is None else above | {key}
        self_time = frame.time - sum(child.time for child in frame.children)
        if self_time > 0:
            if key is not None:
                own[key] += self_time
            for name in chain:
                inclusive[name] += self_time
        stack.extend((child, chain, key) for child in frame.children)
    total = root.time or 1.0
    lines = [f"total {root.time:.2f} s of samples\n", "\nown time (the function itself):\n"]
    lines += [f"{t:8.3f} s {t / total:6.1%}  {name}\n" for name, t in own.most_common(top)]
    lines.append("\ninclusive time (the function and what it calls):\n")
    lines += [f"{t:8.3f} s {t / total:6.1%}  {name}\n" for name, t in inclusive.most_common(top)]
    return "".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("session")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    sys.stdout.write(summarize(args.session, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
