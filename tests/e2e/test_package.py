"""The package as a user gets it: the sdist and the wheel built from this checkout (the wheel
from the sdist, as `python -m build` does), the wheel installed into a new virtual environment
that holds nothing of the checkout, and `risiko serve` run from there with an empty cache: the
web client, GraphiQL and its files, the API, and a game played through the installed client.

Slow: a build and an installation of every dependency (from pip's cache once downloaded). The
project's own files need no network: the web client is built already (dev.py), and GraphiQL's
files come from the user's cache (the `graphiql_assets` fixture fills it).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from api.graphiql import ASSETS_PATH, CDN, listed_assets, page_assets
from tests.e2e.support import Server

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
MYPY = Path(sys.executable).parent / "mypy"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
GAMES = ("classic", "spqr", "piu", "futurisiko")
SERVER_PACKAGES = {"api", "bots", "competition", "domain", "variants", "risiko_client"}

PLAYS_A_GAME = """
import asyncio, sys
from risiko_client import RisikoClient

async def main() -> None:
    async with RisikoClient(sys.argv[1]) as lobby:
        game_id = await lobby.create_game("classic", seed="installed")
        seats = [await lobby.join_game(game_id, name) for name in ("Anna", "Bruno", "Carla")]
        async with lobby.with_token(seats[0].token) as anna:
            await anna.start_game(game_id)
            state = await anna.game(game_id)
            print(state.status, state.phase, len(state.players), state.viewer_seat)

asyncio.run(main())
"""
USES_IT = """
from risiko_client import GameState, RisikoClient, Seat


async def first_look(url: str) -> GameState:
    async with RisikoClient(url) as client:
        game_id: str = await client.create_game("classic")
        seat: Seat = await client.join_game(game_id, "Anna")
        return await client.with_token(seat.token).game(game_id)
"""
MISUSES_IT = """
from risiko_client import RisikoClient


async def wrong(url: str) -> int:
    async with RisikoClient(url) as client:
        return await client.create_game("classic")  # a str, not an int
"""


@dataclass(frozen=True)
class Built:
    sdist: Path
    wheel: Path


@dataclass(frozen=True)
class Installed:
    folder: Path  # where the user is: not the checkout, whose folders would be importable
    python: Path
    wheel: Path

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.python), *argv],
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    def pip(self, *argv: str) -> None:
        done = self.run("-m", "pip", "--disable-pip-version-check", "--quiet", *argv)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    def site_packages(self) -> Path:
        done = self.run("-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
        return Path(done.stdout.strip())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, graphiql_assets: Path) -> Built:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return Built(sdist, wheel)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, built: Built) -> Installed:
    folder = tmp_path_factory.mktemp("user")
    venv.EnvBuilder(with_pip=True).create(folder / "venv")
    environment = Installed(folder, folder / "venv" / "bin" / "python", built.wheel)
    environment.pip("install", str(built.wheel))
    return environment


@pytest.fixture
def server(installed: Installed, tmp_path: Path) -> Iterator[Server]:
    """The installed `risiko serve`, with an empty cache: GraphiQL's files can only be the
    package's own."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    running = Server(
        tmp_path / "data", env=env, root=installed.folder, python=str(installed.python)
    ).start()
    try:
        yield running
    finally:
        running.stop()


def test_the_sdist_and_the_wheel_carry_what_the_server_serves(built: Built) -> None:
    with tarfile.open(built.sdist) as sdist:
        in_sdist = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    with zipfile.ZipFile(built.wheel) as wheel:
        in_wheel = set(wheel.namelist())
        schema = wheel.read("api/schema.graphql").decode()
    graphiql = {f"api/graphiql_files/{asset.relative}" for asset in listed_assets()}
    maps = {f"variants/{game}/{name}.json" for game in GAMES for name in ("board", "map")}
    for files, schema_path in ((in_sdist, "schema.graphql"), (in_wheel, "api/schema.graphql")):
        assert "api/web_client/index.html" in files
        assert "api/web_client/documents.json" in files  # its trusted documents
        assert any(re.fullmatch(r"api/web_client/assets/index-.+\.js", f) for f in files)
        assert graphiql <= files
        assert maps <= files
        assert schema_path in files
        assert "risiko_client/py.typed" in files or "client/risiko_client/py.typed" in files
        assert not any(f.startswith(("tests/", "web/", "benchmarks/")) for f in files)
    assert schema == (ROOT / "schema.graphql").read_text()
    assert {name.split("/", 1)[0] for name in in_wheel if "/" in name} == SERVER_PACKAGES | {
        f"risiko-{VERSION}.dist-info"
    }


def test_the_installed_command_tells_its_version(installed: Installed) -> None:
    done = installed.run("-m", "api.cli", "--version")
    assert done.stdout.strip() == f"risiko {VERSION}"
    script = installed.python.parent / "risiko"
    assert subprocess.run(
        [str(script), "--version"], capture_output=True, text=True, check=True
    ).stdout.strip() == (f"risiko {VERSION}")


def test_the_installed_server_serves_the_web_client_graphiql_and_a_game(
    installed: Installed, server: Server
) -> None:
    page = httpx.get(f"{server.url}/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    script = re.search(r'src="\./(assets/[^"]+\.js)"', page.text)  # relative: any path prefix
    assert script, page.text
    asset = httpx.get(f"{server.url}/{script.group(1)}")
    assert asset.status_code == 200
    assert "javascript" in asset.headers["content-type"]

    graphiql = httpx.get(f"{server.url}/graphql", headers={"Accept": "text/html"})
    assert graphiql.status_code == 200
    assert CDN not in graphiql.text
    files = page_assets(graphiql.text.replace(ASSETS_PATH, CDN))
    assert files == listed_assets()
    for file in files:
        answer = httpx.get(f"{server.url}{ASSETS_PATH}{file.relative}")
        assert answer.status_code == 200, file.relative
        assert file.matches(answer.content), file.relative

    answer = httpx.post(f"{server.url}/graphql", json={"query": "{ variants { name } }"})
    assert answer.status_code == 200
    assert {variant["name"] for variant in answer.json()["data"]["variants"]} >= set(GAMES)

    played = installed.run("-c", PLAYS_A_GAME, f"{server.url}/graphql")
    assert played.returncode == 0, played.stderr[-3000:]
    assert played.stdout.split() == ["ACTIVE", "SETUP", "3", "0"]


def test_a_users_program_type_checks_against_the_installed_client(
    installed: Installed, tmp_path: Path
) -> None:
    """py.typed: a program's `mypy --strict` sees the client's types."""

    def mypy(program: str) -> subprocess.CompletedProcess[str]:
        (tmp_path / "program.py").write_text(program)
        return subprocess.run(
            [
                str(MYPY),
                "--strict",
                "--python-executable",
                str(installed.python),
                "--no-incremental",
                "program.py",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    good = mypy(USES_IT)
    assert good.returncode == 0, good.stdout
    bad = mypy(MISUSES_IT)
    assert bad.returncode == 1
    assert 'Incompatible return value type (got "str", expected "int")' in bad.stdout


def test_uninstalling_removes_the_client_with_the_server(installed: Installed) -> None:
    """One distribution owns risiko_client (client/README.md says why): uninstalling it
    leaves nothing of it behind, and nothing half-installed."""
    site = installed.site_packages()
    assert {path.name for path in site.iterdir()} >= SERVER_PACKAGES
    installed.pip("uninstall", "--yes", "risiko")
    try:
        assert not SERVER_PACKAGES & {path.name for path in site.iterdir()}
        assert installed.run("-c", "import risiko_client").returncode != 0
        assert not (installed.python.parent / "risiko").exists()
    finally:
        installed.pip("install", "--no-deps", str(installed.wheel))  # for the other tests
