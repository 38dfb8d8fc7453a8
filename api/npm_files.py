"""Files of npm packages, taken from their tarballs in the npm registry and kept only when their
hash is the one expected (subresource integrity): GraphiQL's scripts and styles.

The standard library only: the build (setup.py) loads this file to bundle GraphiQL's files into
the wheel, in an environment that has none of the project's dependencies.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import tarfile
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

REGISTRY = "https://registry.npmjs.org/"


class AssetError(Exception):
    """A file could not be fetched, or was not the file expected."""


@dataclass(frozen=True, slots=True)
class Asset:
    """One file of one npm package, and the hash it must have."""

    package: str
    version: str
    path: str
    integrity: str

    @property
    def relative(self) -> str:
        """Where it lives in a folder of assets, as on a CDN: package@version/path."""
        return f"{self.package}@{self.version}/{self.path}"

    @property
    def tarball(self) -> str:
        name = self.package.rsplit("/", 1)[-1]
        return f"{REGISTRY}{self.package}/-/{name}-{self.version}.tgz"

    def matches(self, content: bytes) -> bool:
        algorithm, _, expected = self.integrity.partition("-")
        digest = hashlib.new(algorithm, content).digest()
        return base64.b64encode(digest).decode() == expected


def cache_folder(name: str) -> Path:
    """A folder of the user's cache (XDG_CACHE_HOME), shared by every checkout, build and run."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "risiko" / name


def read_list(path: Path) -> tuple[Asset, ...]:
    """The assets a JSON list names (what `list_text` writes)."""
    return tuple(Asset(**entry) for entry in json.loads(path.read_text(encoding="utf-8")))


def list_text(assets: Iterable[Asset]) -> str:
    return json.dumps([asdict(asset) for asset in assets], indent=2) + "\n"


def missing(folder: Path, assets: Iterable[Asset]) -> list[Asset]:
    """The assets `folder` lacks, or holds with another hash."""
    return [
        asset
        for asset in assets
        if not (folder / asset.relative).is_file()
        or not asset.matches((folder / asset.relative).read_bytes())
    ]


def fetch(folder: Path, assets: Sequence[Asset], registry: str = REGISTRY) -> list[Asset]:
    """Fetch what `folder` lacks of `assets`; return what was fetched. Idempotent, and a file
    is kept only once its hash is the one expected."""
    fetched = []
    tarballs: dict[str, bytes] = {}
    for asset in missing(folder, assets):
        url = asset.tarball.replace(REGISTRY, registry, 1)
        if url not in tarballs:
            try:
                with urllib.request.urlopen(url, timeout=60) as answer:
                    tarballs[url] = answer.read()
            except OSError as error:
                raise AssetError(f"cannot fetch {url}: {error}") from error
        content = _member(tarballs[url], f"package/{asset.path}", url)
        if not asset.matches(content):
            raise AssetError(f"{asset.relative} in {url} is not the file expected")
        _write(folder / asset.relative, content)
        fetched.append(asset)
    return fetched


def bundle(target: Path, assets: Sequence[Asset], cache: Path, registry: str = REGISTRY) -> None:
    """Put every asset into `target`: kept if already there with its hash, else copied from
    `cache`, which is filled from the registry first where it lacks one (so a second build
    needs no network)."""
    wanted = missing(target, assets)
    if not wanted:
        return
    fetch(cache, wanted, registry)
    for asset in wanted:
        _write(target / asset.relative, (cache / asset.relative).read_bytes())
    still = missing(target, assets)
    if still:  # the cache changed under us: never ship a file with another hash
        raise AssetError(f"{still[0].relative} is not the file expected")


def _write(target: Path, content: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_bytes(content)
    partial.replace(target)  # a reader never sees half a file


def _member(tarball: bytes, name: str, url: str) -> bytes:
    try:
        with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
            member = archive.extractfile(name)
            if member is None:
                raise KeyError(name)
            return member.read()
    except (KeyError, tarfile.TarError) as error:
        raise AssetError(f"{url} holds no {name}") from error
