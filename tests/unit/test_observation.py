"""What a seat (or a spectator) may see is one answer, `Kernel.observe` (domain/observation.py):
over random games of every registered game, it shows each seat its own hand, objective,
secrets and legal actions and nothing of another's, a spectator none of them, and every
viewer the same public board; and no view of a game (the API, the seated bots) asks the game
for a seat's secrets itself."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import RuleViolation
from domain.events import may_see, readable_by
from domain.flow import Phase
from domain.kernel import Kernel
from variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def random_game(variant: str, seed: int, steps: int) -> Kernel:
    """A game of `variant` played `steps` legal actions at random (seat by seat, prompts
    answered)."""
    game = VARIANTS[variant].new_game(NAMES[:3], seed=f"observe-{seed}".encode())
    rnd = random.Random(seed)
    for _ in range(steps):
        if game.phase is Phase.OVER:
            break
        movers = [seat for seat in range(3) if game.legal_actions(seat)]
        if not movers:
            break
        seat = rnd.choice(movers)
        try:
            game.apply(seat, rnd.choice(game.legal_actions(seat)).pick(rnd))
        except RuleViolation:
            continue  # a member a family offers may still be refused; another draw then
    return game


@settings(max_examples=12, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 120),
)
def test_each_viewer_sees_its_own_secrets_and_nobody_elses(
    variant: str, seed: int, steps: int
) -> None:
    game = random_game(variant, seed, steps)
    public = game.space_views()
    spectator = game.observe(None)
    assert spectator.is_spectator
    assert (spectator.hand, spectator.objective, spectator.secrets) == (None, None, None)
    assert list(spectator.legal) == []
    assert list(spectator.spaces) == public
    for seat in range(len(game.players)):
        seen = game.observe(seat)
        assert list(seen.spaces) == public  # the board is the same for everyone
        assert seen.hand_sizes == spectator.hand_sizes
        assert seen.hand_sizes[seat] == len(game.hand(seat))
        assert seen.hand is not None
        assert [card.id for card in seen.hand] == list(game.hand(seat))
        assert seen.objective == game.secret_objective(seat)
        assert seen.secrets == game.private_state(seat)
        assert list(seen.legal) == game.legal_actions(seat)


@pytest.mark.parametrize("viewer", [None, 0, 1, 2, 5])
def test_a_viewer_reads_the_public_events_and_its_own_seats_only(viewer: int | None) -> None:
    # The rule itself, stated apart from its code (may_see asks readable_by, so comparing the
    # two could not fail); the stores' queries are held to may_see by the store contract.
    marks = [None, 0, 1, 2, 3, 5]
    own = [None] if viewer is None else [None, viewer]
    assert [m for m in marks if may_see(m, viewer)] == own
    assert sorted(readable_by(viewer), key=lambda m: -1 if m is None else m) == own


# What only a seat may know: the game's answers a view must take from an Observation.
SECRET_READS = {"hand", "secret_objective", "private_state", "legal_actions", "hands"}


def observed(node: ast.expr) -> bool:
    """Whether `node` names an Observation (`seen`, `self.seen`, `….observe(…)`)."""
    if isinstance(node, ast.Name):
        return node.id == "seen"
    if isinstance(node, ast.Attribute):
        return node.attr == "seen"
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "observe"
    )


def asks_for_secrets(text: str, name: str) -> list[str]:
    """The lines of a module that read a seat's secrets other than from an Observation."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in SECRET_READS
            and not observed(node.value)
        ):
            found.append(f"{name}:{node.lineno} {node.attr}")
    return found


def test_the_api_and_the_seated_bots_render_observations_only() -> None:
    files = [*sorted((ROOT / "api").rglob("*.py")), ROOT / "bots" / "seated.py"]
    found = [
        line
        for path in files
        for line in asks_for_secrets(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_check_sees_a_direct_read() -> None:
    text = (
        "def f(game, session):\n"
        "    return game.hand(0), session.game.legal_actions(1), game.observe(0).hand\n"
    )
    assert asks_for_secrets(text, "m.py") == ["m.py:2 hand", "m.py:2 legal_actions"]
