"""The Python client installs on its own (`pip install ./client`) into a fresh environment,
without the server: one import name, `risiko_client`, and typed (py.typed), so a user's
`mypy --strict` sees its types."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MYPY = Path(sys.executable).parent / "mypy"

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


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment with the client installed, and nothing of the server."""
    folder = tmp_path_factory.mktemp("client-env")
    venv.EnvBuilder(with_pip=True).create(folder / "venv")
    python = folder / "venv" / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            str(ROOT / "client"),
        ],
        check=True,
        timeout=600,
    )
    return python


def mypy(python: Path, program: str, folder: Path) -> subprocess.CompletedProcess[str]:
    (folder / "program.py").write_text(program)
    return subprocess.run(
        [
            str(MYPY),
            "--strict",
            "--python-executable",
            str(python),
            "--no-incremental",
            "program.py",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_client_installs_alone_under_its_own_name(environment: Path) -> None:
    site = subprocess.run(
        [
            str(environment),
            "-c",
            "import risiko_client, sysconfig; print(sysconfig.get_paths()['purelib'])",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    installed = {path.name for path in Path(site).iterdir()}
    assert "risiko_client" in installed
    assert not installed & {"client", "api", "bots", "domain", "variants", "tests"}
    assert (Path(site) / "risiko_client" / "py.typed").exists()
    server = subprocess.run(  # away from the checkout, whose folders would be importable
        [str(environment), "-c", "import api.cli"], capture_output=True, cwd=environment.parent
    )
    assert server.returncode != 0  # the server is not part of it


def test_a_user_program_type_checks_against_it(environment: Path, tmp_path: Path) -> None:
    good = mypy(environment, USES_IT, tmp_path)
    assert good.returncode == 0, good.stdout
    bad = mypy(environment, MISUSES_IT, tmp_path)
    assert bad.returncode == 1
    assert 'Incompatible return value type (got "str", expected "int")' in bad.stdout
