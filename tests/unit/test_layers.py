"""The layers' imports: the domain is pure (no variant, no API, no bot, no I/O framework);
the API and the bots reach the games through the registry (`variants`), never by a variant's
name, so a new game plugs in with nothing added outside its folder but its registration."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imports(folder: Path) -> Iterator[tuple[str, str]]:
    """(module file, imported module) for every import in the modules under `folder`."""
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield path.name, alias.name
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                yield path.name, node.module
                for alias in node.names:  # `from variants import spqr`
                    yield path.name, f"{node.module}.{alias.name}"


def variants_named(folder: Path) -> set[tuple[str, str]]:
    from variants import VARIANTS

    return {
        (module, imported)
        for module, imported in imports(folder)
        for name in VARIANTS
        if imported == f"variants.{name}" or imported.startswith(f"variants.{name}.")
    }


@pytest.mark.parametrize("package", ["api", "bots"])
def test_the_api_and_the_bots_name_no_variant(package: str) -> None:
    assert variants_named(ROOT / package) == set()


def test_the_domain_imports_no_outer_layer() -> None:
    outer = ("variants", "api", "bots", "risiko_client", "strawberry", "starlette", "pymongo")
    found = {
        (module, imported)
        for module, imported in imports(ROOT / "domain")
        if imported.split(".")[0] in outer
    }
    assert found == set()


def test_competition_is_pure_like_the_domain() -> None:
    """competition/ (tournaments, ratings, matchmaking) is called by the services with plain
    data: it imports the domain and the rating library, and of the standard library only what
    computes (no clock, no I/O, no unseeded chance), never an outer layer."""
    allowed = {
        "__future__",
        "bisect",
        "collections",
        "competition",
        "dataclasses",
        "domain",
        "enum",
        "hashlib",
        "hmac",
        "itertools",
        "json",
        "math",
        "openskill",
        "typing",
    }
    found = {
        (module, imported)
        for module, imported in imports(ROOT / "competition")
        if imported.split(".")[0] not in allowed
    }
    assert found == set()
    assert {imported.split(".")[0] for _, imported in imports(ROOT / "competition")} >= {
        "domain",
        "openskill",
    }


def test_the_check_sees_every_spelling_of_an_import_by_name(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from variants.spqr.game import SpqrGame\n")
    (tmp_path / "b.py").write_text("from variants import spqr, get_variant\n")
    (tmp_path / "c.py").write_text("import variants.classic\n")
    (tmp_path / "d.py").write_text("from variants import VARIANTS\nfrom . import spqr\n")
    assert variants_named(tmp_path) == {
        ("a.py", "variants.spqr.game"),
        ("a.py", "variants.spqr.game.SpqrGame"),
        ("b.py", "variants.spqr"),
        ("c.py", "variants.classic"),
    }


def test_the_domain_holds_only_the_actions_and_families_its_own_mechanics_play() -> None:
    """A variant's own actions, legal families and events live in its folder: what the domain
    declares, the kernel and the RisiKo! mechanics of domain/risiko handle (classic RisiKo!
    composes them all; S.P.Q.RisiKo!'s triremes are in variants/spqr/)."""
    from domain import actions as a
    from domain import legal as lg
    from variants import VARIANTS

    game = VARIANTS["classic"].new_game(["A", "B", "C"], seed=b"layers")
    handled = set(game.action_types)
    assert all(
        function.__module__.startswith("domain.") for function in type(game)._HANDLERS.values()
    )
    declared = {cls for cls in a.ACTION_TYPES.values() if cls.__module__ == "domain.actions"}
    assert declared == handled
    kinds = {cls.kind for cls in handled}
    families = [cls for cls in lg.LEGAL_FAMILIES if cls.__module__ == "domain.legal"]
    assert families
    assert all(cls.kind in kinds for cls in families)
    others = {cls.__module__ for cls in a.ACTION_TYPES.values()} - {"domain.actions"}
    assert others
    assert all(module.startswith("variants.") for module in others)


def test_no_game_lives_in_the_domain() -> None:
    """The domain holds the kernel and the shared mechanics; every game is a variant's folder
    (classic RisiKo! too: variants/classic/game.py)."""
    from domain.kernel import Kernel
    from variants import VARIANTS

    for variant in VARIANTS.values():
        assert variant.game_class.__module__.startswith(f"{variant.package}."), variant.name
    for path in (ROOT / "domain").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                names = {t.id for t in node.targets if isinstance(t, ast.Name)}
                assert not names & {"RULESET_CLASS", "OPTIONS_CLASS", "STATE_VIEW"} or (
                    path.name == "kernel.py"
                ), path
    assert Kernel.RULESET_CLASS.__module__ == "domain.ruleset"


def declared_phases(folder: Path) -> set[str]:
    """The phases `Phase.declare("...")` names in the modules under `folder`."""
    found = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "declare"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "Phase"
            ):
                argument = node.args[0]
                assert isinstance(argument, ast.Constant)
                found.add(str(argument.value))
    return found


def test_the_domain_declares_only_the_phases_every_game_shares() -> None:
    from domain.flow import Phase

    shared = {"setup", "reinforce", "attack", "defend", "occupy", "over"}
    assert declared_phases(ROOT / "domain") == shared
    spqr = declared_phases(ROOT / "variants" / "spqr")
    assert spqr == {"naval_reinforce", "naval_move", "naval_combat", "sea_attack"}
    assert {phase.value for phase in Phase.declared()} >= shared | spqr


def test_the_test_game_is_its_folder_and_nothing_else() -> None:
    """variants/skirmish plays through the engine, the API and the bots (tests/unit/
    test_skirmish.py, tests/e2e/test_skirmish_game.py) with no line of it anywhere else: it is
    loaded by module name (RISIKO_EXTRA_VARIANTS), and no code outside its folder imports it."""
    outside = [ROOT / name for name in ("api", "bots", "domain", "client", "benchmarks")]
    outside += [path for path in (ROOT / "variants").iterdir() if path.name != "skirmish"]
    found = set()
    for folder in outside:
        if folder.is_dir():
            found |= {
                (module, imported) for module, imported in imports(folder) if "skirmish" in imported
            }
    assert found == set()
