"""GraphiQL served whole by this server: its scripts and styles come from here, never a CDN.

Strawberry's GraphiQL page names its seven files on unpkg.com, each with the hash a browser
checks (subresource integrity). Each file is taken from its npm package's tarball in the npm
registry (a package registry, which a machine without the open internet still reaches),
checked against that same hash and kept in a folder (api/npm_files.py); the server then serves
the page with the addresses rewritten to that folder.

The build bundles them: `api/graphiql_files.json` lists the page's files (the build cannot ask
Strawberry, which it does not install), setup.py puts them into the wheel and the sdist as
`api/graphiql_files/`, and an installed server serves those. A checkout's server (an editable
install) keeps them in the user's cache instead, filled by `risiko graphiql-assets`. Following
Strawberry's page means that a Strawberry upgrade brings its GraphiQL with it: a test holds the
list to the page, and `risiko graphiql-assets --list` writes it anew.
"""

from __future__ import annotations

import re
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope
from strawberry.http.ides import get_graphql_ide_html

from api.npm_files import REGISTRY, Asset, AssetError, cache_folder, fetch, missing, read_list

__all__ = [
    "ASSETS_PATH",
    "BUNDLED",
    "CDN",
    "LISTED",
    "MISSING_PAGE",
    "REGISTRY",
    "Asset",
    "AssetError",
    "ImmutableFiles",
    "cdn_page",
    "default_folder",
    "fetch_assets",
    "listed_assets",
    "local_page",
    "missing_assets",
    "page_assets",
]

CDN = "https://unpkg.com/"
ASSETS_PATH = "/graphiql/assets/"
PACKAGE = Path(__file__).resolve().parent
LISTED = PACKAGE / "graphiql_files.json"  # the page's files, for the build
BUNDLED = PACKAGE / "graphiql_files"  # the files themselves, in a built package

# src="https://unpkg.com/react@18.2.0/umd/react.production.min.js" integrity="sha384-…"
_REFERENCE = re.compile(
    r'(?:src|href)="' + re.escape(CDN) + r'(?P<package>(?:@[^/@"]+/)?[^/@"]+)@(?P<version>[^/"]+)'
    r'/(?P<path>[^"]+)"\s+integrity="(?P<integrity>sha(?:256|384|512)-[^"]+)"'
)


def cdn_page() -> str:
    return get_graphql_ide_html(graphql_ide="graphiql")


def page_assets(page: str) -> tuple[Asset, ...]:
    assets = tuple(Asset(**match.groupdict()) for match in _REFERENCE.finditer(page))
    if page.count(CDN) != len(assets):
        raise AssetError("Strawberry's GraphiQL page names a CDN file without its hash")
    return assets


def listed_assets() -> tuple[Asset, ...]:
    """The files `api/graphiql_files.json` lists: those the build bundles."""
    return read_list(LISTED)


def default_folder() -> Path:
    """The files the installed package carries, else the user's cache (XDG_CACHE_HOME),
    shared by every checkout and run of the server."""
    return BUNDLED if BUNDLED.is_dir() else cache_folder("graphiql")


def missing_assets(folder: Path, page: str | None = None) -> list[Asset]:
    return missing(folder, page_assets(page if page is not None else cdn_page()))


def fetch_assets(folder: Path, registry: str = REGISTRY, page: str | None = None) -> list[Asset]:
    """Fetch what `folder` lacks for `page` (Strawberry's GraphiQL page by default); return
    what was fetched. Idempotent, and a file is kept only once its hash is the page's."""
    return fetch(folder, page_assets(page if page is not None else cdn_page()), registry)


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
<p>This server serves GraphiQL's scripts itself: an installed package carries them, a
checkout's server keeps them in a folder it fills from the npm registry. Fill it, then reload
this page:</p>
<pre>risiko graphiql-assets</pre>
<p>(<code>python3 dev.py run</code> does it.) The API itself works: POST GraphQL requests to
this address.</p>
</body></html>
"""
