"""The package's build steps beyond pyproject.toml: a wheel and an sdist carry what the server
serves, so that installing one needs nothing but Python and serving needs no network.

- the web client, built from web/ with Node into api/web_client (as `python3 dev.py run` does:
  again only when its sources changed); an sdist carries it built, and has no web/;
- GraphiQL's files, as api/graphiql_files.json lists them, from the npm registry with each
  file's hash checked (kept in the user's cache, so a second build fetches nothing), into
  api/graphiql_files/;
- schema.graphql, as api/schema.graphql.

An editable install (`pip install -e .`, what dev.py does) skips all of it: a checkout's server
serves web/'s build and the cache's GraphiQL directly.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.errors import SetupError

ROOT = Path(__file__).resolve().parent
WEB_CLIENT = Path("api") / "web_client"
GRAPHIQL = Path("api") / "graphiql_files"


def _load(name: str, path: Path) -> ModuleType:
    """A module of this tree by its path: the build environment has only setuptools."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def web_client() -> None:
    """api/web_client, built and up to date: from web/ in a checkout, as it came in an sdist."""
    if (ROOT / "web").is_dir():
        dev = _load("risiko_dev", ROOT / "dev.py")
        dev.ensure_web_client(strict=True)
        if not dev.web_client_fresh():
            raise SetupError(
                "the web client (web/) is not built and cannot be: building the package from "
                "a checkout needs Node (npm), https://nodejs.org"
            )
    elif not (ROOT / WEB_CLIENT / "index.html").is_file():
        raise SetupError("this source tree has neither web/ nor a built web client")


def graphiql_files(target: Path) -> None:
    """GraphiQL's files in `target`, each with the hash its page names."""
    npm_files = _load("risiko_npm_files", ROOT / "api" / "npm_files.py")
    registry = os.environ.get("NPM_CONFIG_REGISTRY") or npm_files.REGISTRY  # npm's own setting
    assets = npm_files.read_list(ROOT / "api" / "graphiql_files.json")
    try:
        npm_files.bundle(target, assets, npm_files.cache_folder("graphiql"), registry)
    except npm_files.AssetError as error:
        raise SetupError(f"GraphiQL's files: {error}") from error


class BuildPy(build_py):
    """build_py, with the web client built first and GraphiQL's files and the schema added."""

    def run(self) -> None:
        if self.editable_mode:
            super().run()
            return
        web_client()  # before the package data is listed, which takes it from the tree
        super().run()
        build = Path(self.build_lib)
        graphiql_files(build / GRAPHIQL)
        shutil.copyfile(ROOT / "schema.graphql", build / "api" / "schema.graphql")


class Sdist(sdist):
    """sdist, with the built web client and GraphiQL's files, so that a wheel built from it
    needs neither Node nor the network."""

    def run(self) -> None:
        web_client()
        super().run()

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        graphiql_files(Path(base_dir) / GRAPHIQL)


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
