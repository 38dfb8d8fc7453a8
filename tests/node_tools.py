"""The Node tools and the browser the tests drive: where they are, and what a missing one means.

`python3 dev.py test` installs them (npm ci in tests/node; Debian's Chromium when run as root).
Run any other way, a test that needs a missing tool is skipped with the reason, except under CI,
where a missing tool is a failure: CI must never go green by skipping the browser.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

NODE_TOOLS = Path(__file__).resolve().parent / "node"
CHROMIUM = Path(os.environ.get("RISIKO_TEST_CHROMIUM", "/usr/bin/chromium"))
# Chromium as root, headless, on a machine with no network but loopback (see the env notes).
CHROMIUM_ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI installs it: run `python3 dev.py test`)")
    pytest.skip(f"{reason}: run the tests with `python3 dev.py test`")


WEB = NODE_TOOLS.parents[1] / "web"


def node(packages: Path = NODE_TOOLS) -> str:
    """The `node` executable, with the packages of `packages` installed (tests/node's, or
    web/'s: the client's build and the maps' script)."""
    found = shutil.which("node")
    if found is None:
        _missing("node is not installed")
        raise AssertionError  # unreachable: _missing skips or fails
    if not (packages / "node_modules").is_dir():
        _missing(f"{packages.name} has no node_modules")
    return found


def chromium() -> Path:
    """Debian's Chromium, for Playwright's `executablePath`."""
    if not CHROMIUM.exists():
        _missing(f"no Chromium at {CHROMIUM}")
    return CHROMIUM
