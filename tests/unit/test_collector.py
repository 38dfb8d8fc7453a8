"""api/collector.py: a serving process keeps its start-up heap out of the collector's walks and
collects the young generation less often (in a child process: freezing is for good)."""

from __future__ import annotations

import json
import subprocess
import sys

PROGRAM = """
import gc, json
from api.collector import THRESHOLDS, tune_for_serving
kept = [[i] for i in range(1000)]  # alive when the app is built
before = gc.get_freeze_count()
tune_for_serving()
print(json.dumps([before, gc.get_freeze_count(), gc.get_threshold(), THRESHOLDS]))
"""


def test_serving_freezes_what_is_alive_and_raises_the_thresholds() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True
    ).stdout
    before, frozen, thresholds, wanted = json.loads(out)
    assert before == 0
    assert frozen >= 1000
    assert thresholds == wanted
    assert wanted[0] > 700  # CPython's default, which the subscribers' p99 paid for
