"""GraphiQL served whole by this server: its scripts and styles come from here, never a CDN.

Strawberry's GraphiQL page names its seven files on unpkg.com, each with the hash a browser
checks (subresource integrity). `fetch_assets` takes each file from its npm package's tarball
in the npm registry (a package registry, which a machine without the open internet still
reaches), checks it against that same hash and keeps it in a folder; the server then serves
the page with the addresses rewritten to that folder. Following Strawberry's page means that a
Strawberry upgrade brings its GraphiQL with it: the versions are written nowhere else.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope
from strawberry.http.ides import get_graphql_ide_html

CDN = "https://unpkg.com/"
ASSETS_PATH = "/graphiql/assets/"
REGISTRY = "https://registry.npmjs.org/"

# src="https://unpkg.com/react@18.2.0/umd/react.production.min.js" integrity="sha384-…"
_REFERENCE = re.compile(
    r'(?:src|href)="' + re.escape(CDN) + r'(?P<package>(?:@[^/@"]+/)?[^/@"]+)@(?P<version>[^/"]+)'
    r'/(?P<path>[^"]+)"\s+integrity="(?P<integrity>sha(?:256|384|512)-[^"]+)"'
)


class AssetError(Exception):
    """A GraphiQL file could not be fetched, or was not the file the page expects."""


@dataclass(frozen=True, slots=True)
class Asset:
    """One file of one npm package, as the page names it and the hash it must have."""

    package: str
    version: str
    path: str
    integrity: str

    @property
    def relative(self) -> str:
        """Where it lives under the assets folder, and under ASSETS_PATH: as on the CDN."""
        return f"{self.package}@{self.version}/{self.path}"

    @property
    def tarball(self) -> str:
        name = self.package.rsplit("/", 1)[-1]
        return f"{REGISTRY}{self.package}/-/{name}-{self.version}.tgz"

    def matches(self, content: bytes) -> bool:
        algorithm, _, expected = self.integrity.partition("-")
        digest = hashlib.new(algorithm, content).digest()
        return base64.b64encode(digest).decode() == expected


def cdn_page() -> str:
    return get_graphql_ide_html(graphql_ide="graphiql")


def page_assets(page: str) -> tuple[Asset, ...]:
    assets = tuple(Asset(**match.groupdict()) for match in _REFERENCE.finditer(page))
    if page.count(CDN) != len(assets):
        raise AssetError("Strawberry's GraphiQL page names a CDN file without its hash")
    return assets


def default_folder() -> Path:
    """The user's cache (XDG_CACHE_HOME), shared by every checkout and run of the server."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "risiko" / "graphiql"


def missing_assets(folder: Path, page: str | None = None) -> list[Asset]:
    assets = page_assets(page if page is not None else cdn_page())
    return [
        asset
        for asset in assets
        if not (folder / asset.relative).is_file()
        or not asset.matches((folder / asset.relative).read_bytes())
    ]


def fetch_assets(folder: Path, registry: str = REGISTRY, page: str | None = None) -> list[Asset]:
    """Fetch what `folder` lacks for `page` (Strawberry's GraphiQL page by default); return
    what was fetched. Idempotent, and a file is kept only once its hash is the page's."""
    fetched = []
    tarballs: dict[str, bytes] = {}
    for asset in missing_assets(folder, page):
        url = asset.tarball.replace(REGISTRY, registry, 1)
        if url not in tarballs:
            try:
                with urllib.request.urlopen(url, timeout=60) as answer:
                    tarballs[url] = answer.read()
            except OSError as error:
                raise AssetError(f"cannot fetch {url}: {error}") from error
        content = _member(tarballs[url], f"package/{asset.path}", url)
        if not asset.matches(content):
            raise AssetError(f"{asset.relative} in {url} is not the file GraphiQL's page expects")
        target = folder / asset.relative
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(content)
        partial.replace(target)  # a reader never sees half a file
        fetched.append(asset)
    return fetched


def _member(tarball: bytes, name: str, url: str) -> bytes:
    try:
        with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
            member = archive.extractfile(name)
            if member is None:
                raise KeyError(name)
            return member.read()
    except (KeyError, tarfile.TarError) as error:
        raise AssetError(f"{url} holds no {name}") from error


def local_page(folder: Path) -> str | None:
    """The GraphiQL page with every file served from ASSETS_PATH; None while files are missing."""
    page = cdn_page()
    if missing_assets(folder, page):
        return None
    return page.replace(CDN, ASSETS_PATH)


class ImmutableFiles(StaticFiles):
    """The assets folder: a file's address names its package's version, so it never changes
    and a browser may keep it for a year."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, check_dir=False)

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return response


MISSING_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GraphiQL is not installed</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>GraphiQL's files are not installed on this server</h1>
<p>This server serves GraphiQL's scripts itself, from a folder it fills from the npm registry.
Fill it, then reload this page:</p>
<pre>risiko graphiql-assets</pre>
<p>(<code>python3 dev.py run</code> does it.) The API itself works: POST GraphQL requests to
this address.</p>
</body></html>
"""
