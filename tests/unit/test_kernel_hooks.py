"""The kernel declares what a game defines (`Kernel.HOOKS`), and everything else of it is
final: no game overrides how an action is applied, legal actions are listed, a seat resigns,
a copy or a snapshot is made or a game ends. mypy refuses an override of a `typing.final`
member; this holds the registered games (and the test game) to the same list at run time."""

from __future__ import annotations

import inspect

import pytest

from domain.kernel import Kernel
from variants import VARIANTS
from variants.skirmish import VARIANT as SKIRMISH

GAMES = {name: variant.game_class for name, variant in VARIANTS.items()}
GAMES["skirmish"] = SKIRMISH.game_class


def kernel_members() -> set[str]:
    return {
        name
        for klass in Kernel.__mro__[:-1]
        for name, value in vars(klass).items()
        if not name.startswith("__")
        and (inspect.isfunction(value) or isinstance(value, property | classmethod))
    }


def test_every_hook_is_a_member_of_the_kernel() -> None:
    assert kernel_members() >= Kernel.HOOKS


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_game_overrides_what_is_not_a_hook(name: str) -> None:
    final = kernel_members() - Kernel.HOOKS
    assert {"apply", "legal_actions", "_resign", "clone", "snapshot", "_finish"} <= final
    for cls in GAMES[name].__mro__:
        if cls is Kernel or not issubclass(cls, Kernel):
            continue
        overridden = final & set(vars(cls))
        assert overridden == set(), (cls.__name__, overridden)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_lists_only_its_own_state(name: str) -> None:
    """The kernel keeps its own state's names; a game's classes list theirs, once each."""
    names = GAMES[name]._STATE_NAMES
    assert names[: len(Kernel._KERNEL_STATE)] == Kernel._KERNEL_STATE
    assert len(set(names)) == len(names)
    for cls in GAMES[name].__mro__:
        own = set(vars(cls).get("_STATE", ()))
        assert not own & set(Kernel._KERNEL_STATE), cls.__name__


def test_a_state_declared_twice_is_refused() -> None:
    with pytest.raises(TypeError, match="declared state twice"):

        class Twice(Kernel):
            _STATE = ("seq",)
