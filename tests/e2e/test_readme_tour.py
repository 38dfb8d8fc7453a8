"""The README's tour, as a newcomer runs it: every `sh` block of its "A tour of the API"
section, in order, against a real server, from an empty lobby to a finished turn, in bash, in
zsh (macOS's shell: arrays from 1, no word splitting of `$x`) and in sh (Debian's dash)."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.support import Server
from tests.integration.api_support import running_server

README = Path(__file__).resolve().parents[2] / "README.md"

# How each shell stops at the first failure; dash has no pipefail.
SHELLS = {
    "bash": ["bash", "-c"],
    "zsh": ["zsh", "-f", "-c"],  # -f: no startup files, the options a new user has
    "sh": ["sh", "-c"],
}
STRICT = {"bash": "set -eo pipefail", "zsh": "set -eo pipefail", "sh": "set -e"}


def sh_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)


def tour_blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## A tour of the API", 1)[1].split("\n## ", 1)[0]
    return sh_blocks(section)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    yield from running_server(tmp_path / "data")


def test_the_tour_has_its_steps() -> None:
    blocks = tour_blocks()
    assert len(blocks) >= 6
    assert blocks[0].startswith("API=http://127.0.0.1:8000/graphql")


def test_the_readmes_commands_paste_into_an_interactive_zsh() -> None:
    """zsh reads `#` as a comment only in scripts: pasted at its prompt, a comment is a command
    (`zsh: command not found: #`), or arguments (`python3 dev.py run # the server`)."""
    for block in sh_blocks(README.read_text(encoding="utf-8")):
        for line in block.splitlines():
            assert not re.search(r"(^|\s)#", line), line


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_the_readme_tour_plays_a_turn(server: Server, shell: str) -> None:
    for needed in ("curl", shell):
        if shutil.which(needed) is None:
            pytest.fail(f"the tour needs {needed} (dev.py installs it from Debian's packages)")
    script = STRICT[shell] + "\n" + "\n".join(tour_blocks())
    script = script.replace("http://127.0.0.1:8000/graphql", f"{server.url}/graphql", 1)
    done = subprocess.run(
        [*SHELLS[shell], script], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    out = done.stdout
    assert '"phase":"SETUP"' in out  # the start
    assert "REINFORCE" in out  # the setup, to its end
    assert "DiceRolled" in out  # an attack
    assert "TurnEnded" in out
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"turn over: seat [0-2] plays", last), last
