#!/usr/bin/env python3
"""Bootstrap and task runner: needs only Python 3.11+, installs everything else into .venv.

    python3 dev.py run     start the GraphQL server on the embedded store (http://127.0.0.1:8000/graphql)
    python3 dev.py test    run the whole test suite
    python3 dev.py lint    ruff and mypy --strict on the packages
    python3 dev.py bench   the benchmarks of benchmarks/

Extra arguments after the task are passed on (to pytest for `test`, to `risiko` for `run`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed"
NODE_TOOLS = ROOT / "tests" / "node"
CHROMIUM = Path("/usr/bin/chromium")


def _requirements_digest() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_venv() -> None:
    """Create .venv and install the project with its dev extras, again when pyproject changes."""
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = _requirements_digest()
    if STAMP.exists() and STAMP.read_text() == digest:
        return
    print("dev.py: installing the project and its dev dependencies into .venv", flush=True)
    pip = [str(BIN / "python"), "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "install", "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "install", "-e", ".[dev]"], check=True, cwd=ROOT)
    STAMP.write_text(digest)


def ensure_node_tools() -> None:
    """The Node tools the tests drive (graphql-http's audit, playwright-core), from the lockfile."""
    if shutil.which("npm") is None:
        print("dev.py: npm not found; the tests that need Node will say so", flush=True)
        return
    lock = NODE_TOOLS / "package-lock.json"
    stamp = NODE_TOOLS / "node_modules" / ".installed"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    print("dev.py: installing the tests' Node tools (npm ci)", flush=True)
    npm = ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"]
    subprocess.run(npm, check=True, cwd=NODE_TOOLS)
    stamp.write_text(digest)


def ensure_chromium() -> None:
    """Debian's Chromium for the browser tests (Playwright drives it; it never downloads one)."""
    if CHROMIUM.exists() or shutil.which("apt-get") is None:
        return
    if os.geteuid() != 0:
        print("dev.py: no /usr/bin/chromium; install it (apt-get install chromium)", flush=True)
        return
    print("dev.py: installing Chromium from Debian's packages for the browser tests", flush=True)
    quiet = {"DEBIAN_FRONTEND": "noninteractive", **os.environ}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=quiet)
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"]
    subprocess.run(install, check=True, env=quiet)


def run(*command: str) -> int:
    return subprocess.run(command, cwd=ROOT).returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test", "lint", "bench"}:
        print(__doc__)
        return 2
    task, rest = argv[0], argv[1:]
    ensure_venv()
    if task == "run":
        args = rest or ["serve"]
        return run(str(BIN / "risiko"), *args)
    if task == "test":
        ensure_node_tools()
        ensure_chromium()
        return run(str(BIN / "python"), "-m", "pytest", *rest)
    if task == "lint":
        ruff = run(str(BIN / "ruff"), "check", ".")
        fmt = run(str(BIN / "ruff"), "format", "--check", ".")
        mypy = run(str(BIN / "mypy"), "--strict")
        return ruff or fmt or mypy
    engine = run(str(BIN / "python"), "benchmarks/run.py", *rest)
    return engine or run(str(BIN / "python"), "benchmarks/api.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
