#!/usr/bin/env python3
"""Bootstrap and task runner: needs only Python 3.11+, installs everything else into .venv.

    python3 dev.py run     start the GraphQL server on the embedded store (http://127.0.0.1:8000/graphql)
    python3 dev.py test    run the whole test suite
    python3 dev.py lint    ruff and mypy --strict on the packages
    python3 dev.py bench   the benchmarks of benchmarks/

Extra arguments after the task are passed on: to pytest for `test`; to `risiko` for `run`, where
options alone are `risiko serve`'s (`run --port 8010`, `run -- --port 8010`) and a command
runs that command (`run arena --games 4`, `run serve --port 8010`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed"
NODE_TOOLS = ROOT / "tests" / "node"
WEB = ROOT / "web"
CHROMIUM = Path("/usr/bin/chromium")


def _requirements_digest() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


MINIMUM_PYTHON = (3, 11)


def python_problem(version: tuple[int, ...]) -> str | None:
    """Why this Python cannot run the project, if it cannot."""
    if tuple(version[:2]) < MINIMUM_PYTHON:
        wanted = ".".join(map(str, MINIMUM_PYTHON))
        found = ".".join(map(str, version[:3]))
        return f"dev.py: the project needs Python {wanted} or newer, this is {found}"
    return None


def venv_python(config: Path) -> str | None:
    """The major.minor version of the Python a .venv was made with (its pyvenv.cfg)."""
    if not config.exists():
        return None
    for line in config.read_text().splitlines():
        key, _, value = line.partition("=")
        if key.strip() in {"version", "version_info"}:
            return ".".join(value.strip().split(".")[:2])
    return None


def ensure_venv(extras: str) -> None:
    """Create .venv and install the project (with `extras`, such as "dev"), again when
    pyproject changes; a .venv of another Python is made anew, never reused."""
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    made_with = venv_python(VENV / "pyvenv.cfg")
    if made_with is not None and made_with != here:
        print(f"dev.py: .venv was made with Python {made_with}, this is {here}: remaking it")
        shutil.rmtree(VENV)
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = _requirements_digest()
    installed = STAMP.read_text().split() if STAMP.exists() else []
    # "dev" includes what running needs: installed with dev, the project needs nothing more.
    if installed[:1] == [digest] and (extras in installed[1:] or "dev" in installed[1:]):
        return
    target = f".[{extras}]" if extras else "."
    print(f"dev.py: installing {target} into .venv", flush=True)
    pip = [str(BIN / "python"), "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "install", "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "install", "-e", target], check=True, cwd=ROOT)
    STAMP.write_text(f"{digest} {extras or 'run'}")


def ensure_node_tools() -> None:
    """The Node packages of tests/node (graphql-http's audit, playwright-core) and of web/
    (the web client's build, the maps' script), each from its lockfile."""
    if shutil.which("npm") is None:
        print("dev.py: npm not found; the tests that need Node will say so", flush=True)
        return
    for folder in (NODE_TOOLS, WEB):
        npm_ci(folder)


def npm_ci(folder: Path) -> None:
    """`npm ci` in `folder`, again only when its lockfile changes."""
    lock = folder / "package-lock.json"
    stamp = folder / "node_modules" / ".installed"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    print(f"dev.py: installing {folder.relative_to(ROOT)}'s Node packages (npm ci)", flush=True)
    npm = ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"]
    subprocess.run(npm, check=True, cwd=folder)
    stamp.write_text(digest)


WEB_SOURCES = (
    "src",
    "index.html",
    "package-lock.json",
    "vite.config.ts",
    "codegen.ts",
    "scripts/legal-actions.mjs",
    "tsconfig.json",
)
WEB_BUILT = ROOT / "api" / "web_client"


def web_digest() -> str:
    """What the web client is built from: its sources, its lockfile, and the schema."""
    digest = hashlib.sha256((ROOT / "schema.graphql").read_bytes())
    for name in WEB_SOURCES:
        path = WEB / name
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            if "generated" in file.parts:
                continue
            digest.update(str(file.relative_to(WEB)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


def web_client_fresh() -> bool:
    """Whether api/web_client holds the build of web/ as it is now."""
    stamp = WEB_BUILT / ".built"
    listed = (WEB_BUILT / WEB_DOCUMENTS).exists()
    return listed and stamp.exists() and stamp.read_text() == web_digest()


WEB_DOCUMENTS = "documents.json"  # the documents the client sends, listed by its build


def ensure_web_client(strict: bool = True) -> None:
    """Build the web client (web/ -> api/web_client) when it is missing or stale. Not
    `strict` (to run the server), a build that fails is reported and the API runs all the
    same; the tests need the client, so there it is an error. (The package's build, setup.py,
    calls this too.)"""
    if web_client_fresh():
        return
    if shutil.which("npm") is None:
        print("dev.py: npm not found; the web client is not built (the API runs)", flush=True)
        return
    stamp = WEB_BUILT / ".built"
    digest = web_digest()
    try:
        npm_ci(WEB)
        print("dev.py: building the web client (npm run build)", flush=True)
        subprocess.run(["npm", "run", "build", "--silent"], check=True, cwd=WEB)
    except subprocess.CalledProcessError:
        if strict:
            raise
        print("dev.py: the web client could not be built; the API runs without it", flush=True)
        return
    stamp.write_text(digest)


def ensure_debian_packages() -> None:
    """Debian's Chromium for the browser tests (Playwright drives it; it never downloads one),
    and curl and zsh for the README's tour, which the tests run in bash and in zsh (macOS's
    shell)."""
    missing = [
        package
        for package, present in (
            ("chromium", CHROMIUM.exists()),
            ("curl", shutil.which("curl") is not None),
            ("zsh", shutil.which("zsh") is not None),
        )
        if not present
    ]
    if not missing or shutil.which("apt-get") is None:
        return
    if os.geteuid() != 0:
        print(f"dev.py: missing {', '.join(missing)}; install (apt-get install)", flush=True)
        return
    print(f"dev.py: installing {', '.join(missing)} from Debian's packages", flush=True)
    quiet = {"DEBIAN_FRONTEND": "noninteractive", **os.environ}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=quiet)
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing]
    subprocess.run(install, check=True, env=quiet)


def run(*command: str) -> int:
    """Run `command`, passing on the signals that ask it to stop: SIGTERM to dev.py must not
    leave a server holding its port."""
    child = subprocess.Popen(command, cwd=ROOT)

    def forward(signum: int, frame: object) -> None:
        child.send_signal(signum)

    for name in ("SIGTERM", "SIGINT", "SIGHUP"):  # SIGHUP: not on Windows
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), forward)
    code = child.wait()
    return 128 - code if code < 0 else code  # ended by a signal: the shell's convention


def risiko_arguments(rest: list[str]) -> list[str]:
    """What `dev.py run` passes to `risiko`: `serve` when nothing or only options are given
    (`run --port 8010`; a leading `--` is dropped, as in `run -- --port 8010`), else the
    command given (`run arena --games 4`). `--version` is risiko's own."""
    if rest[:1] == ["--"]:
        rest = rest[1:]
    if rest == ["--version"]:
        return rest
    if not rest or rest[0].startswith("-"):
        return ["serve", *rest]
    return rest


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test", "lint", "bench"}:
        print(__doc__)
        return 2
    task, rest = argv[0], argv[1:]
    problem = python_problem(sys.version_info[:3])
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    ensure_venv("" if task == "run" else "dev")
    if task == "run":
        ensure_web_client(strict=False)
        args = risiko_arguments(rest)
        if args[0] == "serve" and run(str(BIN / "risiko"), "graphiql-assets") != 0:
            print("dev.py: GraphiQL's files could not be fetched; the API runs all the same")
        return run(str(BIN / "risiko"), *args)
    if task == "test":
        ensure_node_tools()
        ensure_web_client()
        ensure_debian_packages()
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
